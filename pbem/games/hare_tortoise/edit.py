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


#: two-player: a runner's keys carry its number (square1, must2); the supply's keys apply to both
RUNNER_KEYS = ("square", "must", "place")


def edit(state: State, seat: int, key: str, value: str) -> State:
    """The state with one value of the seat's runner set; PbemError says which keys exist."""
    if state.per_seat > 1:
        return _edit_two(state, seat, key, value)
    return _edit(state, seat, seat, key, value)


def _edit_two(state: State, seat: int, key: str, value: str) -> State:
    """Two-player: square1, must2 … for one runner; carrots, lettuces and skip for the supply."""
    name = key.strip().lower()
    if name[:-1] in RUNNER_KEYS and name[-1:] in ("1", "2"):
        return _edit(state, seat, state.seat_runners(seat)[int(name[-1]) - 1], name[:-1], value)
    if name in ("carrots", "lettuces", "skip"):
        for j in state.seat_runners(seat):
            state = _edit(state, seat, j, name, value)
        return state
    keys = [f"{k}{n}" for k in RUNNER_KEYS for n in (1, 2)] + ["carrots", "lettuces", "skip"]
    raise PbemError(f"in a two-player game the values are {', '.join(keys)} (a runner's keys end in its number)")


def _edit(state: State, seat: int, runner: int, key: str, value: str) -> State:
    name = key.strip().lower()
    changes: dict[str, Any]
    if name == "square":
        square = _number(name, value, 0, HOME)
        if square not in (0, HOME) and any(j != runner and r.square == square for j, r in enumerate(state.runners)):
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
    return state.with_runner(runner, **changes)
