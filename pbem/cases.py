"""Rule cases: read `.case` files of any game and run each one through it (`pbem check-cases`).

This driver knows the case format's blocks and common keys, and no game: every other key line
goes to the codec of the case's game, which builds the position, resolves the turn with
scripted chance and compares the expectations. Each game keeps its cases in the `cases/` folder
of its own package, found through the registry.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from importlib.resources.abc import Traversable
from pathlib import Path

from pbem.errors import CaseFormatError, PbemError
from pbem.games import default_game, find_game, games
from pbem.games.codec import CaseCodec, CaseRun, CaseText, case_int
from pbem.resources import game_folder

COMMON_KEYS = frozenset(
    {"CASE", "TITLE", "GAME", "RULES", "OPTIONS", "SEATS", "TURN", "FIRST", "ORDERS", "EXPECT-OVER", "END"}
)

_ID = re.compile(r"[a-z0-9-]+")


@dataclass(frozen=True)
class Case:
    """A well-formed case, read and checked by its game's codec, ready to run."""

    text: CaseText
    codec: CaseCodec
    prepared: object

    @property
    def id(self) -> str:
        return self.text.id

    @property
    def path(self) -> str:
        return self.text.path

    @property
    def where(self) -> str:
        return self.text.where


@dataclass
class CaseResult:
    case_id: str
    where: str
    passed: bool
    report: str  # empty when passed


class _Reading:
    """A case being read: its text so far and its game's codec (None until the first key)."""

    def __init__(self, text: CaseText) -> None:
        self.text = text
        self.codec: CaseCodec | None = None
        self.keys_read = 0  # key lines after CASE
        self.given: set[str] = set()


def read_cases(path: Path | Traversable) -> Iterator[Case | CaseFormatError]:
    """Every case of a file; a malformed case comes out as its error, and reading goes on."""
    text = path.read_text(encoding="utf-8-sig")
    name = str(path)
    case: _Reading | None = None
    broken = False
    seen: set[str] = set()
    orders_for: str | None = None
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.rstrip("\r\n")
        if case is not None and orders_for is not None and line[:1] in (" ", "\t"):
            if not broken:  # two spaces by the format; a tab or a deeper indent is read the same
                case.text.orders[orders_for].append(line[2:] if line.startswith("  ") else line.lstrip())
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
        if keyword == "CASE":
            if case is not None and not broken:
                yield CaseFormatError(name, case.text.line, f"case {case.text.id!r} has no END")
            case_id = rest.strip()
            case, broken = _Reading(CaseText(name, number, case_id)), False
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
                yield _finish(case)
            case = None
            continue
        if broken:
            continue
        try:
            _read_line(case, keyword, rest, number)
            if keyword == "ORDERS":
                orders_for = rest.split()[0]
        except CaseFormatError as err:
            broken = True
            yield err
    if case is not None and not broken:
        yield CaseFormatError(name, case.text.line, f"case {case.text.id!r} has no END")


def _codec(case: _Reading, game_name: str, line: int) -> CaseCodec:
    try:
        game = find_game(game_name)
    except PbemError as err:
        raise CaseFormatError(case.text.path, line, str(err)) from None
    case.text.game = game.info.name
    return game.cases


def _read_line(case: _Reading, keyword: str, rest: str, line: int) -> None:
    text, path = case.text, case.text.path
    words = rest.split()
    case.keys_read += 1
    if keyword == "GAME":
        if case.keys_read > 1:
            raise CaseFormatError(path, line, "GAME must be the first line of a case, right after CASE")
        if len(words) != 1:
            raise CaseFormatError(path, line, "GAME takes one game name")
        case.codec = _codec(case, words[0], line)
        text.game_line = line
        return
    if case.codec is None:
        case.codec = _codec(case, default_game().info.name, text.line)
    if keyword in COMMON_KEYS:
        if keyword != "ORDERS":
            if keyword in case.given:
                raise CaseFormatError(path, line, f"{keyword} given twice")
            case.given.add(keyword)
        _read_common(text, keyword, rest, words, line)
    elif keyword in case.codec.keys:
        text.keys.append((line, keyword, rest))
    else:
        raise CaseFormatError(path, line, f"unknown keyword {keyword!r}")


def _read_common(text: CaseText, keyword: str, rest: str, words: list[str], line: int) -> None:
    path = text.path
    if keyword == "TITLE":
        text.title = rest.strip()
    elif keyword == "RULES":
        if len(words) != 1:
            raise CaseFormatError(path, line, "RULES takes one ruleset name")
        try:
            text.rules = find_game(text.game).info.ruleset(words[0]).name
        except PbemError as err:
            raise CaseFormatError(path, line, str(err)) from None
        text.rules_line = line
    elif keyword == "OPTIONS":
        if not words:
            raise CaseFormatError(path, line, "OPTIONS names one option or more")
        twice = next((w for i, w in enumerate(words) if w.lower() in (v.lower() for v in words[:i])), None)
        if twice is not None:
            raise CaseFormatError(path, line, f"option {twice} is given twice")
        text.options, text.options_line = words, line
    elif keyword == "SEATS":
        text.seats, text.seats_line = words, line
    elif keyword == "TURN":
        if len(words) != 1:
            raise CaseFormatError(path, line, "TURN takes one number")
        text.turn = _int(words[0], "TURN", path, line)
        if text.turn < 1:
            raise CaseFormatError(path, line, "TURN starts at 1")
        text.turn_given = True
    elif keyword == "FIRST":
        if len(words) != 1:
            raise CaseFormatError(path, line, "FIRST takes one name")
        text.first, text.first_line = words[0], line
    elif keyword == "ORDERS":
        if len(words) != 1:  # the name is checked against SEATS at END: SEATS may come later
            raise CaseFormatError(path, line, f"ORDERS needs one name from SEATS, not {rest.strip()!r}")
        if words[0] in text.orders:
            raise CaseFormatError(path, line, f"ORDERS {words[0]} given twice")
        text.orders[words[0]] = []
        text.orders_lines[words[0]] = line
    elif keyword == "EXPECT-OVER":
        if words not in (["yes"], ["no"]):
            raise CaseFormatError(path, line, "EXPECT-OVER takes yes or no")
        text.expect_over, text.expect_over_line = words[0] == "yes", line


_int = case_int


def _finish(case: _Reading) -> Case | CaseFormatError:
    """The case checked by its game's codec at END; a malformed case comes out as its error."""
    text = case.text
    stranger = next((name for name in text.orders if name not in text.seats), None)
    if stranger is not None:
        return CaseFormatError(text.path, text.orders_lines[stranger],
                               f"ORDERS needs one name from SEATS, not {stranger!r}")
    try:
        codec = case.codec if case.codec is not None else _codec(case, default_game().info.name, text.line)
        prepared = codec.prepare(text)
    except CaseFormatError as err:
        return err
    except PbemError as err:  # a codec's own error without a line: the case's
        return CaseFormatError(text.path, text.line, str(err))
    return Case(text, codec, prepared)


def run_case(case: Case) -> CaseResult:
    """Resolve the case's turn through its game's codec and compare every expectation."""
    text = case.text
    run = case.codec.run(text, case.prepared)
    problems = list(run.problems)
    if text.expect_over is not None:
        if run.over is None and not run.problems:
            problems.append(f"line {text.expect_over_line}: the game's cases do not say whether the game is over")
        elif run.over is not None and run.over != text.expect_over:
            problems.append(f"game over is {_yes(run.over)}, expected {_yes(text.expect_over)}")
    if not problems:
        return CaseResult(text.id, text.where, True, "")
    return CaseResult(text.id, text.where, False, "\n".join(_report(text, run, problems)))


def _yes(flag: bool) -> str:
    return "yes" if flag else "no"


def _report(text: CaseText, run: CaseRun, problems: list[str]) -> list[str]:
    """A failing case in full: the problems, the position before, the orders, the chance, the
    position after and every resolution."""
    out = [f"FAIL {text.id} ({text.where})" + (f": {text.title}" if text.title else "")]
    out += [f"  ! {p}" for p in problems]
    out.append(f"  before ({run.heading}):" if run.heading else "  before:")
    out += [f"    {line}" for line in run.before]
    for seat in text.seats:
        if seat in text.orders:
            out.append(f"  orders {seat}:")
            out += [f"    {line}" for line in text.orders[seat]]
    out += [f"  {line}" for line in run.chance.splitlines()]
    if run.after:
        out.append("  after:")
        out += [f"    {line}" for line in run.after]
    out.append("  resolutions:")
    out += [f"    {line}" for line in run.resolutions]
    return out


def case_files(paths: Iterable[Path]) -> list[Path]:
    """The `.case` files named, or found under the folders named, in a stable order. A linked
    folder is followed (`tests/cases/<game>` links to each game's own cases)."""
    files: list[Path] = []
    for p in paths:
        if p.is_dir():
            files.extend(sorted(Path(root) / name for root, _, names in os.walk(p, followlinks=True)
                                for name in names if name.endswith(".case")))
        elif p.exists():
            files.append(p)
        else:
            raise PbemError(f"no such file or folder: {p}")
    return files


def game_case_files() -> list[Traversable]:
    """The `.case` files in the `cases/` folder of every registered game's package, game by game."""
    out: list[Traversable] = []

    def walk(folder: Traversable) -> None:
        for item in sorted(folder.iterdir(), key=lambda i: i.name):
            if item.is_dir():
                walk(item)
            elif item.name.endswith(".case"):
                out.append(item)

    for game in games():
        folder = game_folder(game.package, "cases")
        if folder is not None:
            walk(folder)
    return out


def check_cases(paths: Iterable[Path]) -> Iterator[CaseResult]:
    """Run every case under `paths` (none: every registered game's own cases); malformed cases
    come out as failures with their line."""
    named = list(paths)
    for path in case_files(named) if named else game_case_files():
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
