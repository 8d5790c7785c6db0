"""Rule cases: read `.case` files and run each one through the engine (`pbem check-cases`)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from pbem.errors import CaseFormatError, PbemError
from pbem.games.chance import ScriptedChance
from pbem.games.hare_tortoise import engine
from pbem.games.hare_tortoise.board import HOME, START
from pbem.games.hare_tortoise.narrate import position_lines, slot_lines
from pbem.games.hare_tortoise.orders.parser import parse_sheet
from pbem.games.hare_tortoise.resolution import Slot
from pbem.games.hare_tortoise.rules import find_ruleset
from pbem.games.hare_tortoise.state import Must, Runner, State

_ID = re.compile(r"[a-z0-9-]+")
_NAME = re.compile(r"[A-Za-z][A-Za-z0-9]*")
_RUNNER_KEYS = {"square", "carrots", "lettuces", "place", "must", "skip"}


@dataclass
class Case:
    """One rule case as written in its file."""

    path: str
    line: int
    id: str
    title: str = ""
    rules: str = "variable-pig"
    turn: int = 1
    first: str | None = None
    seats: list[str] = field(default_factory=list)
    runners: dict[str, dict[str, str]] = field(default_factory=dict)
    runner_lines: dict[str, int] = field(default_factory=dict)
    dice: list[int] = field(default_factory=list)
    orders: dict[str, list[str]] = field(default_factory=dict)
    slots: int | None = None
    expect: list[tuple[int, str, dict[str, str]]] = field(default_factory=list)
    expect_over: bool | None = None

    @property
    def where(self) -> str:
        return f"{self.path}:{self.line}"


@dataclass
class CaseResult:
    case_id: str
    where: str
    passed: bool
    report: str  # empty when passed


def _int(value: str, what: str, path: str, line: int) -> int:
    try:
        n = int(value)
    except ValueError:
        raise CaseFormatError(path, line, f"{what} must be a whole number, not {value!r}") from None
    if n < 0:
        raise CaseFormatError(path, line, f"{what} must not be negative")
    return n


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


def read_cases(path: Path) -> Iterator[Case | CaseFormatError]:
    """Every case of a file; a malformed case comes out as its error, and reading goes on."""
    text = path.read_text(encoding="utf-8-sig")
    name = str(path)
    case: Case | None = None
    broken = False
    seen: set[str] = set()
    orders_for: str | None = None
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.rstrip("\r\n")
        if case is not None and orders_for is not None and line[:1] in (" ", "\t"):
            if not broken:  # two spaces by the format; a tab or a deeper indent is read the same
                case.orders[orders_for].append(line[2:] if line.startswith("  ") else line.lstrip())
            continue
        if not line.strip() or line.startswith("#"):
            continue
        if line[0].isspace():
            if case is not None and not broken:
                broken = True
                yield CaseFormatError(name, number, "an indented line belongs under an ORDERS line")
            elif case is None:
                yield CaseFormatError(name, number, "an indented line outside any case")
            continue
        orders_for = None
        keyword, _, rest = line.partition(" ")
        words = rest.split()
        if keyword == "CASE":
            if case is not None and not broken:
                yield CaseFormatError(name, case.line, f"case {case.id!r} has no END")
            case_id = rest.strip()
            case, broken = Case(name, number, case_id), False
            if not _ID.fullmatch(case_id):
                broken = True
                yield CaseFormatError(name, number, f"case id {case_id!r} must be made of a-z, 0-9 and '-'")
            elif case_id in seen:
                broken = True
                yield CaseFormatError(name, number, f"case id {case_id!r} is used twice in this file")
            seen.add(case_id)
            continue
        if case is None:
            yield CaseFormatError(name, number, f"{keyword!r} outside a case (a case starts with CASE <id>)")
            continue
        if keyword == "END":
            if not broken:
                try:
                    _check_case(case)
                    yield case
                except CaseFormatError as err:
                    yield err
            case = None
            continue
        if broken:
            continue
        try:
            _read_line(case, keyword, rest, words, name, number)
            if keyword == "ORDERS":
                orders_for = words[0]
        except CaseFormatError as err:
            broken = True
            yield err
    if case is not None and not broken:
        yield CaseFormatError(name, case.line, f"case {case.id!r} has no END")


def _read_line(case: Case, keyword: str, rest: str, words: list[str], path: str, line: int) -> None:
    if keyword == "TITLE":
        case.title = rest.strip()
    elif keyword == "RULES":
        if len(words) != 1:
            raise CaseFormatError(path, line, "RULES takes one ruleset name")
        try:
            find_ruleset(words[0])
        except PbemError as err:
            raise CaseFormatError(path, line, str(err)) from None
        case.rules = words[0]
    elif keyword == "TURN":
        if len(words) != 1:
            raise CaseFormatError(path, line, "TURN takes one number")
        case.turn = _int(words[0], "TURN", path, line)
        if case.turn < 1:
            raise CaseFormatError(path, line, "TURN starts at 1")
    elif keyword == "FIRST":
        if len(words) != 1:
            raise CaseFormatError(path, line, "FIRST takes one name")
        case.first = words[0]
    elif keyword == "SEATS":
        if not 2 <= len(words) <= 6:
            raise CaseFormatError(path, line, f"SEATS needs 2 to 6 names, not {len(words)}")
        for w in words:
            if not _NAME.fullmatch(w):
                raise CaseFormatError(path, line, f"seat name {w!r} must be letters and digits, starting with a letter")
        if len({w.lower() for w in words}) != len(words):
            raise CaseFormatError(path, line, "SEATS names a player twice")
        case.seats = words
    elif keyword == "RUNNER":
        if not words:
            raise CaseFormatError(path, line, "RUNNER needs a name")
        if words[0] not in case.seats:
            raise CaseFormatError(path, line, f"RUNNER {words[0]!r} is not in SEATS (SEATS must come first)")
        if words[0] in case.runners:
            raise CaseFormatError(path, line, f"RUNNER {words[0]!r} given twice")
        case.runners[words[0]] = _pairs(words[1:], path, line)
        case.runner_lines[words[0]] = line
    elif keyword == "DICE":
        case.dice = [_int(w, "a die", path, line) for w in words]
        if any(not 1 <= d <= 6 for d in case.dice):
            raise CaseFormatError(path, line, "dice run from 1 to 6")
    elif keyword == "ORDERS":
        if len(words) != 1 or words[0] not in case.seats:
            raise CaseFormatError(path, line, f"ORDERS needs one name from SEATS, not {rest.strip()!r}")
        if words[0] in case.orders:
            raise CaseFormatError(path, line, f"ORDERS {words[0]} given twice")
        case.orders[words[0]] = []
    elif keyword == "SLOTS":
        if len(words) != 1:
            raise CaseFormatError(path, line, "SLOTS takes one number")
        case.slots = _int(words[0], "SLOTS", path, line)
    elif keyword == "EXPECT":
        if not words or words[0] not in case.seats:
            raise CaseFormatError(path, line, "EXPECT needs a name from SEATS")
        case.expect.append((line, words[0], _pairs(words[1:], path, line)))
    elif keyword == "EXPECT-OVER":
        if words not in (["yes"], ["no"]):
            raise CaseFormatError(path, line, "EXPECT-OVER takes yes or no")
        case.expect_over = words[0] == "yes"
    else:
        raise CaseFormatError(path, line, f"unknown keyword {keyword!r}")


def _square(value: str, path: str, line: int) -> int:
    if value == "start":
        return START
    if value == "home":
        return HOME
    n = _int(value, "square", path, line)  # 0 and 64 are START and HOME, as in the rules
    if not START <= n <= HOME:
        raise CaseFormatError(path, line, f"square must be 1 to 63, start or home, not {value!r}")
    return n


def _runner(name: str, kv: dict[str, str], case: Case) -> Runner:
    rules = find_ruleset(case.rules)
    path, line = case.path, case.runner_lines.get(name, case.line)
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


def _check_case(case: Case) -> None:
    if not case.seats:
        raise CaseFormatError(case.path, case.line, f"case {case.id!r} has no SEATS")
    missing = [s for s in case.seats if s not in case.runners]
    if missing:
        raise CaseFormatError(case.path, case.line, f"case {case.id!r} has no RUNNER for {', '.join(missing)}")
    state = initial_state(case)
    if case.first is None and any(r.home for r in state.runners):
        raise CaseFormatError(case.path, case.line, f"case {case.id!r}: a runner is HOME, so FIRST is required")
    for line, _, kv in case.expect:
        if "square" in kv:
            v = kv["square"]
            if v not in ("start", "home") and not (v.isdigit() and 0 <= int(v) <= HOME):
                raise CaseFormatError(case.path, line, f"square must be 1 to 63, start or home, not {v!r}")
        for key in ("carrots", "lettuces", "place"):
            if key in kv:
                _int(kv[key], key, case.path, line)


def initial_state(case: Case) -> State:
    runners = tuple(_runner(name, case.runners[name], case) for name in case.seats)
    rules = find_ruleset(case.rules)
    if case.first is not None:
        if case.first not in case.seats:
            raise CaseFormatError(case.path, case.line, f"FIRST {case.first!r} is not in SEATS")
        first = case.seats.index(case.first)
        if runners[first].home:
            raise CaseFormatError(case.path, case.line, f"FIRST {case.first} names a runner that is HOME")
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


def run_case(case: Case) -> CaseResult:
    """Resolve the case's turn and compare with its EXPECT lines."""
    rules = find_ruleset(case.rules)
    before = initial_state(case)
    sheets = [parse_sheet("\n".join(case.orders[s]), case.seats) if s in case.orders else None for s in case.seats]
    chance = ScriptedChance(case.dice)
    problems: list[str] = []
    after: State | None = None
    slots: tuple[Slot, ...] = ()
    try:
        result = engine.resolve_turn(rules, before, sheets, chance, max_slots=case.slots)
        after, slots = result.state, result.slots
    except PbemError as err:
        problems.append(str(err))
        slots = getattr(err, "slots", ())
    if after is not None:
        if chance.left:
            problems.append(f"{chance.left} of the {len(case.dice)} dice were left unused")
        for line, name, kv in case.expect:
            runner = after.runner(name)
            for key, want in kv.items():
                got = _actual(runner, key)
                if key == "square" and want.isdigit():
                    got = str(runner.square)
                    want = str(int(want))
                if got != want:
                    problems.append(f"line {line}: {name} {key}={got}, expected {key}={want}")
        if case.expect_over is not None and after.over != case.expect_over:
            problems.append(f"game over is {'yes' if after.over else 'no'}, "
                            f"expected {'yes' if case.expect_over else 'no'}")
    if not problems:
        return CaseResult(case.id, case.where, True, "")
    out = [f"FAIL {case.id} ({case.where})" + (f": {case.title}" if case.title else "")]
    out += [f"  ! {p}" for p in problems]
    out.append(f"  before (turn {before.turn}, first mover {before.runners[before.first].name}):")
    out += [f"    {line}" for line in position_lines(before)]
    for seat in case.seats:
        if seat in case.orders:
            out.append(f"  orders {seat}:")
            out += [f"    {line}" for line in case.orders[seat]]
    if case.dice:
        out.append(f"  dice: {' '.join(map(str, case.dice))}")
    if after is not None:
        out.append("  after:")
        out += [f"    {line}" for line in position_lines(after)]
    out.append("  resolutions:")
    for slot in slots:
        out += [f"    {line}" for line in slot_lines(slot)]
    return CaseResult(case.id, case.where, False, "\n".join(out))


def case_files(paths: Iterable[Path]) -> list[Path]:
    """The `.case` files named, or found under the folders named, in a stable order."""
    files: list[Path] = []
    for p in paths:
        if p.is_dir():
            files.extend(sorted(p.rglob("*.case")))
        elif p.exists():
            files.append(p)
        else:
            raise PbemError(f"no such file or folder: {p}")
    return files


def check_cases(paths: Iterable[Path]) -> Iterator[CaseResult]:
    """Run every case under `paths`; malformed cases come out as failures with their line."""
    for path in case_files(paths):
        try:
            items = list(read_cases(path))
        except (OSError, UnicodeDecodeError) as err:
            yield CaseResult(path.name, str(path), False, f"MALFORMED {path}: cannot read: {err}")
            continue
        for item in items:
            if isinstance(item, CaseFormatError):
                yield CaseResult("(malformed)", f"{item.path}:{item.line}", False, f"MALFORMED {item}")
            else:
                yield run_case(item)
