"""The registry of game engines: `find_game(name)` answers with one, or says which exist."""

from __future__ import annotations

from typing import Any

from pbem.errors import UnknownGameError
from pbem.games.base import Game, Standing, TurnOutcome
from pbem.games.hare_tortoise import HareTortoise

GAMES: tuple[type[Game[Any, Any, Any]], ...] = (HareTortoise,)


def find_game(name: str) -> Game[Any, Any, Any]:
    """The game called `name` or one of its aliases, in any case."""
    key = name.strip().lower()
    for cls in GAMES:
        if key == cls.name or key in cls.aliases:
            return cls()
    known = ", ".join(cls.name for cls in GAMES)
    raise UnknownGameError(f"no game called {name!r}; known games: {known}")


__all__ = ["GAMES", "Game", "Standing", "TurnOutcome", "find_game"]
