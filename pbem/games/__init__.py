"""The registry of games: every package under `pbem/games/` that exports `GAME` is one.

A game registers itself by being there (or, for a game shipped in another distribution, by an
entry point in the group `pbem.games`); nothing outside a game's package names it.
"""

from __future__ import annotations

import importlib
import pkgutil
from functools import lru_cache
from importlib.metadata import entry_points
from typing import Any

from pbem.errors import UnknownGameError
from pbem.games.base import Game

AnyGame = Game[Any, Any, Any, Any]


@lru_cache(maxsize=1)
def games() -> tuple[AnyGame, ...]:
    """Every registered game, in name order."""
    found: dict[str, AnyGame] = {}
    for module in pkgutil.iter_modules(__path__, prefix=f"{__name__}."):
        if not module.ispkg:
            continue
        game = getattr(importlib.import_module(module.name), "GAME", None)
        if isinstance(game, Game):
            found[game.info.name] = game
    for ep in entry_points(group="pbem.games"):
        game = ep.load()
        if isinstance(game, Game) and game.info.name not in found:
            found[game.info.name] = game
    return tuple(found[name] for name in sorted(found))


def find_game(name: str) -> AnyGame:
    """The game called `name` or one of its aliases, in any case."""
    key = name.strip().lower()
    for game in games():
        if key == game.info.name or key in game.info.aliases:
            return game
    known = ", ".join(g.info.name for g in games())
    raise UnknownGameError(f"no game called {name!r}; known games: {known}")


def default_game() -> AnyGame:
    """The game played when none is named: the only registered game, or the one whose info says
    it is the default."""
    every = games()
    chosen = every if len(every) == 1 else tuple(g for g in every if g.info.default)
    if len(chosen) != 1:
        known = ", ".join(g.info.name for g in every)
        raise UnknownGameError(f"name the game to play; known games: {known}")
    return chosen[0]


__all__ = ["AnyGame", "Game", "default_game", "find_game", "games"]
