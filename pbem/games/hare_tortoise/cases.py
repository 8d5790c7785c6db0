"""Hare & Tortoise rule cases: the RUNNER, DICE, SLOTS and EXPECT keys, checked and run."""

from __future__ import annotations

import re
from dataclasses import dataclass

from pbem.errors import CaseFormatError, PbemError
from pbem.games.chance import ScriptedChance
from pbem.games.codec import CaseCodec, CaseRun, CaseText, case_int
from pbem.games.hare_tortoise import GAME, engine
from pbem.games.hare_tortoise.board import HOME, START
from pbem.games.hare_tortoise.narrate import position_lines, slot_lines
from pbem.games.hare_tortoise.orders.parser import parse_sheet
from pbem.games.hare_tortoise.resolution import Slot
from pbem.games.hare_tortoise.rules import Ruleset, find_ruleset
from pbem.games.hare_tortoise.state import Must, Runner, State

_NAME = re.compile(r"[A-Za-z][A-Za-z0-9]*")
_RUNNER_KEYS = {"square", "carrots", "lettuces", "place", "must", "skip"}

#: an EXPECT line: its line number, the runner's name and the keys to check
Expect = tuple[int, str, dict[str, str]]


@dataclass(frozen=True)
class HareCase:
    """A case checked and ready to run: the position before, the dice and the expectations."""

    rules: Ruleset
    state: State
    dice: tuple[int, ...] = ()
    slots: int | None = None
    expect: tuple[Expect, ...] = ()


@dataclass
class _Lines:
    """The game's key lines of a case, as read in line order."""

    runners: dict[str, dict[str, str]]
    runner_lines: dict[str, int]
    dice: list[int]
    slots: int | None
    expect: list[Expect]


class HareCases(CaseCodec):
    """The cases of `cases/README.md`: a position of runners, the dice, and the position after."""

    keys = frozenset({"RUNNER", "DICE", "SLOTS", "EXPECT"})

    def prepare(self, case: CaseText) -> HareCase:
        rules = find_ruleset(case.rules)
        lines = self._read(case, rules)
        if not case.seats:
            raise CaseFormatError(case.path, case.line, f"case {case.id!r} has no SEATS")
        missing = [s for s in case.seats if s not in lines.runners]
        if missing:
            raise CaseFormatError(case.path, case.line, f"case {case.id!r} has no RUNNER for {', '.join(missing)}")
        state = _initial_state(case, rules, lines)
        if case.first is None and any(r.home for r in state.runners):
            raise CaseFormatError(case.path, case.line, f"case {case.id!r}: a runner is HOME, so FIRST is required")
        for line, _, kv in lines.expect:
            if "square" in kv:
                v = kv["square"]
                if v not in ("start", "home") and not (v.isdigit() and 0 <= int(v) <= HOME):
                    raise CaseFormatError(case.path, line, f"square must be 1 to 63, start or home, not {v!r}")
            for key in ("carrots", "lettuces", "place"):
                if key in kv:
                    _int(kv[key], key, case.path, line)
        return HareCase(rules, state, tuple(lines.dice), lines.slots, tuple(lines.expect))

    def _read(self, case: CaseText, rules: Ruleset) -> _Lines:
        """Every key line checked in line order: the game's own keys, SEATS and OPTIONS."""
        path = case.path
        lines = _Lines({}, {}, [], None, [])
        common = [(case.seats_line, "SEATS", ""), (case.options_line, "OPTIONS", "")]
        for line, keyword, rest in sorted([c for c in common if c[0]] + case.keys):
            words = rest.split()
            # a name from SEATS, given on a line after SEATS
            seated = bool(words) and words[0] in case.seats and line > case.seats_line
            if keyword == "SEATS":
                _check_seats(case, rules)
            elif keyword == "OPTIONS":
                _check_options(case)
            elif keyword == "RUNNER":
                if not words:
                    raise CaseFormatError(path, line, "RUNNER needs a name")
                if not seated:
                    raise CaseFormatError(path, line, f"RUNNER {words[0]!r} is not in SEATS (SEATS must come first)")
                if words[0] in lines.runners:
                    raise CaseFormatError(path, line, f"RUNNER {words[0]!r} given twice")
                lines.runners[words[0]] = _pairs(words[1:], path, line)
                lines.runner_lines[words[0]] = line
            elif keyword == "DICE":
                lines.dice = [_int(w, "a die", path, line) for w in words]
                if any(not 1 <= d <= 6 for d in lines.dice):
                    raise CaseFormatError(path, line, "dice run from 1 to 6")
            elif keyword == "SLOTS":
                if len(words) != 1:
                    raise CaseFormatError(path, line, "SLOTS takes one number")
                lines.slots = _int(words[0], "SLOTS", path, line)
            elif keyword == "EXPECT":
                if not seated:
                    raise CaseFormatError(path, line, "EXPECT needs a name from SEATS")
                lines.expect.append((line, words[0], _pairs(words[1:], path, line)))
        return lines

    def run(self, case: CaseText, prepared: object) -> CaseRun:
        assert isinstance(prepared, HareCase)
        before = prepared.state
        sheets = [parse_sheet("\n".join(case.orders[s]), case.seats) if s in case.orders else None
                  for s in case.seats]
        chance = ScriptedChance(prepared.dice, turn=case.turn)
        problems: list[str] = []
        after: State | None = None
        slots: tuple[Slot, ...] = ()
        try:
            result = engine.resolve_turn(prepared.rules, before, sheets, chance, max_slots=prepared.slots)
            after, slots = result.state, result.slots
        except PbemError as err:
            problems.append(str(err))
            slots = getattr(err, "slots", ())
        if after is not None:
            if chance.left:
                problems.append(f"{chance.left} of the {len(prepared.dice)} dice were left unused")
            for line, name, kv in prepared.expect:
                runner = after.runner(name)
                for key, want in kv.items():
                    got = _actual(runner, key)
                    if key == "square" and want.isdigit():
                        got = str(runner.square)
                        want = str(int(want))
                    if got != want:
                        problems.append(f"line {line}: {name} {key}={got}, expected {key}={want}")
        return CaseRun(
            tuple(problems),
            before=tuple(position_lines(before)),
            after=tuple(position_lines(after)) if after is not None else (),
            resolutions=tuple(line for slot in slots for line in slot_lines(slot)),
            chance=f"dice: {' '.join(map(str, prepared.dice))}" if prepared.dice else "",
            heading=f"turn {before.turn}, first mover {before.runners[before.first].name}",
            over=after.over if after is not None else None,
        )


def _check_seats(case: CaseText, rules: Ruleset) -> None:
    path, line, words = case.path, case.seats_line, case.seats
    if not rules.min_players <= len(words) <= rules.max_players:
        raise CaseFormatError(path, line, f"SEATS needs {rules.min_players} to {rules.max_players} names, "
                                          f"not {len(words)}")
    for w in words:
        if not _NAME.fullmatch(w):
            raise CaseFormatError(path, line, f"seat name {w!r} must be letters and digits, starting with a letter")
    if len({w.lower() for w in words}) != len(words):
        raise CaseFormatError(path, line, "SEATS names a player twice")


def _check_options(case: CaseText) -> None:
    """The options against the ruleset's (Hare & Tortoise has none yet, so any is malformed)."""
    info = GAME.info.ruleset(case.rules)
    takes = ", ".join(info.options) or "none"
    for option in case.options:
        if option.lower() not in info.options:
            raise CaseFormatError(case.path, case.options_line,
                                  f"the ruleset {info.name} has no option {option!r}; options it takes: {takes}")
    try:
        GAME.info.check_setup(info.name, case.options, len(case.seats))
    except PbemError as err:
        raise CaseFormatError(case.path, case.options_line, str(err)) from None


_int = case_int


def _pairs(words: list[str], path: str, line: int) -> dict[str, str]:
    out: dict[str, str] = {}
    for w in words:
        if "=" not in w:
            raise CaseFormatError(path, line, f"expected key=value, not {w!r}")
        k, v = w.split("=", 1)
        if k not in _RUNNER_KEYS:
            raise CaseFormatError(path, line, f"unknown key {k!r} (keys: {', '.join(sorted(_RUNNER_KEYS))})")
        if k in out:
            raise CaseFormatError(path, line, f"key {k!r} given twice")
        out[k] = v
    return out


def _square(value: str, path: str, line: int) -> int:
    if value == "start":
        return START
    if value == "home":
        return HOME
    n = _int(value, "square", path, line)  # 0 and 64 are START and HOME, as in the rules
    if not START <= n <= HOME:
        raise CaseFormatError(path, line, f"square must be 1 to 63, start or home, not {value!r}")
    return n


def _runner(name: str, kv: dict[str, str], rules: Ruleset, path: str, line: int) -> Runner:
    if "square" not in kv:
        raise CaseFormatError(path, line, f"RUNNER {name} needs square=")
    square = _square(kv["square"], path, line)
    place = _int(kv["place"], "place", path, line) if "place" in kv else None
    if square == HOME and place is None:
        raise CaseFormatError(path, line, f"RUNNER {name} is HOME and needs place=")
    must = kv.get("must", "none")
    if must not in ("eat", "leave", "none"):
        raise CaseFormatError(path, line, f"must= takes eat, leave or none, not {must!r}")
    skip = kv.get("skip", "no")
    if skip not in ("yes", "no"):
        raise CaseFormatError(path, line, f"skip= takes yes or no, not {skip!r}")
    return Runner(
        name,
        square,
        _int(kv["carrots"], "carrots", path, line) if "carrots" in kv else rules.start_carrots,
        _int(kv["lettuces"], "lettuces", path, line) if "lettuces" in kv else rules.start_lettuces,
        place,
        Must(must),
        skip == "yes",
    )


def _initial_state(case: CaseText, rules: Ruleset, lines: _Lines) -> State:
    runners = tuple(_runner(name, lines.runners[name], rules, case.path, lines.runner_lines[name])
                    for name in case.seats)
    if case.first is not None:
        if case.first not in case.seats:
            raise CaseFormatError(case.path, case.first_line, f"FIRST {case.first!r} is not in SEATS")
        first = case.seats.index(case.first)
        if runners[first].home:
            raise CaseFormatError(case.path, case.first_line, f"FIRST {case.first} names a runner that is HOME")
    else:
        first = (case.turn - 1) % len(case.seats)
    return State(rules.name, runners, case.turn, first, False)


def _actual(runner: Runner, key: str) -> str:
    if key == "square":
        return runner.square_label
    if key == "must":
        return runner.must.value
    if key == "skip":
        return "yes" if runner.skip else "no"
    value = getattr(runner, key)
    return "none" if value is None else str(value)
