"""The GM's edits of a runner (`pbem edit GAME SEAT KEY=VALUE`): square, carrots, lettuces, flags."""

from __future__ import annotations

from typing import Any

from pbem.errors import PbemError
from pbem.games.hare_tortoise.board import HOME
from pbem.games.hare_tortoise.state import Must, State

KEYS = ("square", "carrots", "lettuces", "must", "skip", "place")


def _number(key: str, value: str, low: int, high: int) -> int:
    word = value.strip().lower()
    if key == "square" and word in ("start", "home"):
        return 0 if word == "start" else HOME
    if not word.lstrip("-").isdigit() or not low <= int(word) <= high:
        raise PbemError(f"{key}={value!r}: give a whole number from {low} to {high}")
    return int(word)


def edit(state: State, seat: int, key: str, value: str) -> State:
    """The state with one value of the seat's runner set; PbemError says which keys exist."""
    name = key.strip().lower()
    changes: dict[str, Any]
    if name == "square":
        square = _number(name, value, 0, HOME)
        if square not in (0, HOME) and any(j != seat and r.square == square for j, r in enumerate(state.runners)):
            raise PbemError(f"square {square} is occupied by another runner; move that one first")
        changes = {"square": square}
    elif name == "carrots":
        changes = {"carrots": _number(name, value, 0, 10_000)}
    elif name == "lettuces":
        changes = {"lettuces": _number(name, value, 0, 10)}
    elif name == "place":
        changes = {"place": None if value.strip().lower() in ("", "none") else _number(name, value, 1, len(state.runners))}
    elif name == "must":
        try:
            changes = {"must": Must(value.strip().lower())}
        except ValueError:
            raise PbemError(f"must={value!r}: give none, eat or leave") from None
    elif name == "skip":
        word = value.strip().lower()
        if word not in ("true", "false", "yes", "no", "1", "0"):
            raise PbemError(f"skip={value!r}: give true or false")
        changes = {"skip": word in ("true", "yes", "1")}
    else:
        raise PbemError(f"a runner has no value {key!r}; the values are {', '.join(KEYS)}")
    return state.with_runner(seat, **changes)
