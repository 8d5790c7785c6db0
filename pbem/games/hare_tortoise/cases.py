"""Hare & Tortoise rule cases: the RUNNER, DICE, SLOTS and EXPECT keys, checked and run, and the
keys of the further rulesets and options (TEAM, DECK, RESHUFFLE, EXPECT-DECK, EXPECT-DECK-TOP,
EXPECT-WINNER and the key inert; RULESETS.md, "Addendum: rule-case format extensions")."""

from __future__ import annotations

import re
from dataclasses import dataclass

from pbem.errors import CaseFormatError, PbemError
from pbem.games.chance import ScriptedChance
from pbem.games.codec import CaseCodec, CaseRun, CaseText, case_int
from pbem.games.hare_tortoise import GAME, check_option_seats, check_teams, dialect, engine, runner_names, two_player
from pbem.games.hare_tortoise.board import HOME, START
from pbem.games.hare_tortoise.narrate import position_lines, slot_lines
from pbem.games.hare_tortoise.orders.parser import parse_sheet
from pbem.games.hare_tortoise.resolution import Slot
from pbem.games.hare_tortoise.rules import Card, Ruleset, find_ruleset
from pbem.games.hare_tortoise.state import Must, Runner, State

_NAME = re.compile(r"[A-Za-z][A-Za-z0-9]*")
_RUNNER_KEYS = {"square", "carrots", "lettuces", "place", "must", "skip", "inert"}
#: two-player: the keys of a runner (RUNNER, EXPECT) and of a supply (SUPPLY, EXPECT on a seat)
_TWO_RUNNER_KEYS = {"square", "place", "must", "inert"}
_SUPPLY_KEYS = {"carrots", "lettuces", "skip"}
_CODES = {c.value for c in Card}

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
    #: the cards of the draw pile before the turn that the case lists (from the top)
    listed: int = 0
    reshuffles: tuple[tuple[str, ...], ...] = ()
    expect_deck: tuple[str, ...] | None = None
    expect_deck_top: tuple[str, ...] | None = None
    expect_winner: str | None = None


@dataclass
class _Lines:
    """The game's key lines of a case, as read in line order."""

    runners: dict[str, dict[str, str]]
    runner_lines: dict[str, int]
    dice: list[int]
    slots: int | None
    expect: list[Expect]
    teams: list[tuple[int, str, list[str]]]
    #: two-player: each seat's SUPPLY keys
    supplies: dict[str, dict[str, str]] | None = None
    deck: list[str] | None = None
    reshuffles: list[list[str]] | None = None
    expect_deck: list[str] | None = None
    expect_deck_top: list[str] | None = None
    expect_winner: str | None = None
    expect_winner_line: int = 0


class HareCases(CaseCodec):
    """The cases of `cases/README.md`: a position of runners, the dice, and the position after."""

    keys = frozenset({"RUNNER", "DICE", "SLOTS", "EXPECT", "TEAM", "SUPPLY", "DECK", "RESHUFFLE", "EXPECT-DECK",
                      "EXPECT-DECK-TOP", "EXPECT-WINNER"})

    def prepare(self, case: CaseText) -> HareCase:
        options = tuple(o.lower() for o in case.options)
        rules = find_ruleset(case.rules, options)
        lines = self._read(case, rules)
        _check_teams(case, lines, options)
        if "face-to-face" in options and case.first is not None:
            raise CaseFormatError(case.path, case.first_line, "FIRST: with face-to-face the first mover is always "
                                  "the first seat whose runner is not HOME")
        if not case.seats:
            raise CaseFormatError(case.path, case.line, f"case {case.id!r} has no SEATS")
        two = rules.runners_per_seat > 1
        names = runner_names(case.seats) if two else case.seats
        missing = [s for s in names if s not in lines.runners]
        if missing:
            raise CaseFormatError(case.path, case.line, f"case {case.id!r} has no RUNNER for {', '.join(missing)}")
        state = _initial_state(case, rules, lines)
        seat_done = any(state.seat_done(k) for k in range(len(state.seats)))
        if case.first is None and seat_done and rules.postal_rotation:
            raise CaseFormatError(case.path, case.line, f"case {case.id!r}: a runner is HOME, so FIRST is required")
        for line, _, kv in lines.expect:
            if "square" in kv:
                v = kv["square"]
                if v not in ("start", "home") and not (v.isdigit() and 0 <= int(v) <= HOME):
                    raise CaseFormatError(case.path, line, f"square must be 1 to 63, start or home, not {v!r}")
            for key in ("carrots", "lettuces", "place"):
                if key in kv and not (key == "place" and kv[key] == "none"):
                    _int(kv[key], key, case.path, line)
            for key, allowed in (("inert", ("yes", "no")), ("skip", ("yes", "no")), ("must", ("eat", "leave", "none"))):
                if key in kv and kv[key] not in allowed:
                    raise CaseFormatError(case.path, line, f"{key}= takes {' or '.join(allowed)}, not {kv[key]!r}")
        winner = lines.expect_winner
        if winner is not None and winner.lower() not in {n.lower() for n in (*case.seats, *(t for _, t, _ in lines.teams))}:
            raise CaseFormatError(case.path, lines.expect_winner_line, f"EXPECT-WINNER {winner!r} is neither a seat "
                                  "nor a team")
        listed = len(lines.deck or ())
        return HareCase(rules, state, tuple(lines.dice), lines.slots, tuple(lines.expect), listed,
                        tuple(tuple(r) for r in lines.reshuffles or ()),
                        None if lines.expect_deck is None else tuple(lines.expect_deck),
                        None if lines.expect_deck_top is None else tuple(lines.expect_deck_top),
                        lines.expect_winner)

    def _read(self, case: CaseText, rules: Ruleset) -> _Lines:
        """Every key line checked in line order: the game's own keys, SEATS and OPTIONS."""
        path = case.path
        lines = _Lines({}, {}, [], None, [], [])
        two = rules.runners_per_seat > 1
        runners = runner_names(case.seats) if two else []
        common = [(case.seats_line, "SEATS", ""), (case.options_line, "OPTIONS", "")]
        for line, keyword, rest in sorted([c for c in common if c[0]] + case.keys):
            words = rest.split()
            # a name from SEATS (before or after the SEATS line: the format fixes no order of lines)
            seated = bool(words) and words[0] in case.seats
            # two-player: a runner's name (a seat name followed by 1 or 2)
            running = bool(words) and words[0] in runners
            if two and keyword in ("RUNNER", "EXPECT", "SUPPLY"):
                self._read_two(case, lines, keyword, words, seated, running, rules, line)
                continue
            if keyword == "SEATS":
                _check_seats(case, rules)
            elif keyword == "OPTIONS":
                _check_options(case)
            elif keyword == "RUNNER":
                if not words:
                    raise CaseFormatError(path, line, "RUNNER needs a name")
                if not seated:
                    raise CaseFormatError(path, line, f"RUNNER {words[0]!r} is not in SEATS")
                if words[0] in lines.runners:
                    raise CaseFormatError(path, line, f"RUNNER {words[0]!r} given twice")
                lines.runners[words[0]] = _pairs(words[1:], path, line)
                if "inert" in lines.runners[words[0]] and not rules.free_backward:
                    raise CaseFormatError(path, line, f"inert= is a key of hase-igel-sam only, not of {rules.name}")
                lines.runner_lines[words[0]] = line
            elif keyword == "TEAM":
                if not words or not _NAME.fullmatch(words[0]):
                    raise CaseFormatError(path, line, "TEAM needs an id ([A-Za-z][A-Za-z0-9]*) and its seats")
                lines.teams.append((line, words[0], words[1:]))
            elif keyword == "SUPPLY":
                raise CaseFormatError(path, line, "SUPPLY is for the two-player game only")
            elif keyword in ("DECK", "RESHUFFLE", "EXPECT-DECK", "EXPECT-DECK-TOP"):
                _read_deck_line(lines, keyword, words, rules, path, line)
            elif keyword == "EXPECT-WINNER":
                if len(words) != 1:
                    raise CaseFormatError(path, line, "EXPECT-WINNER takes one name")
                lines.expect_winner, lines.expect_winner_line = words[0], line
            elif keyword == "DICE":
                if rules.deck is not None:
                    raise CaseFormatError(path, line, f"DICE: {rules.name} uses hare cards, not dice (use DECK)")
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
                if "inert" in lines.expect[-1][2] and not rules.free_backward:
                    raise CaseFormatError(path, line, f"inert= is a key of hase-igel-sam only, not of {rules.name}")
        return lines

    @staticmethod
    def _read_two(case: CaseText, lines: _Lines, keyword: str, words: list[str], seated: bool, running: bool,
                  rules: Ruleset, line: int) -> None:
        """Two-player's RUNNER (runner names; square, place, must, inert), SUPPLY (a seat's carrots,
        lettuces and skip) and EXPECT (a runner's keys on a runner name, the supply's on a seat name)."""
        path = case.path
        if keyword == "RUNNER":
            if not words:
                raise CaseFormatError(path, line, "RUNNER needs a name")
            if not running:
                raise CaseFormatError(path, line, f"RUNNER {words[0]!r}: two-player runners are named by a seat "
                                      "name followed by 1 or 2")
            if words[0] in lines.runners:
                raise CaseFormatError(path, line, f"RUNNER {words[0]!r} given twice")
            kv = _pairs(words[1:], path, line)
            _only_keys(kv, _TWO_RUNNER_KEYS, "RUNNER", "two-player: carrots, lettuces and skip go on SUPPLY", path, line)
            if "inert" in kv and not rules.free_backward:
                raise CaseFormatError(path, line, f"inert= is a key of hase-igel-sam only, not of {rules.name}")
            lines.runners[words[0]] = kv
            lines.runner_lines[words[0]] = line
        elif keyword == "SUPPLY":
            if not seated:
                raise CaseFormatError(path, line, "SUPPLY needs a seat name from SEATS")
            supplies = lines.supplies = lines.supplies or {}
            if words[0] in supplies:
                raise CaseFormatError(path, line, f"SUPPLY {words[0]} given twice")
            kv = _pairs(words[1:], path, line)
            _only_keys(kv, _SUPPLY_KEYS, "SUPPLY", "a runner's keys go on RUNNER", path, line)
            for key in ("carrots", "lettuces"):
                if key in kv:
                    _int(kv[key], key, path, line)
            if kv.get("skip", "no") not in ("yes", "no"):
                raise CaseFormatError(path, line, f"skip= takes yes or no, not {kv['skip']!r}")
            supplies[words[0]] = kv
        else:
            if not (seated or running):
                raise CaseFormatError(path, line, "EXPECT needs a seat name from SEATS or a runner's name")
            kv = _pairs(words[1:], path, line)
            if running:
                _only_keys(kv, _TWO_RUNNER_KEYS, "EXPECT on a runner", "carrots, lettuces and skip are the "
                           "supply's: EXPECT them on the seat name", path, line)
            else:
                _only_keys(kv, _SUPPLY_KEYS, "EXPECT on a seat", "square, place, must and inert are a runner's: "
                           "EXPECT them on the runner's name", path, line)
            if "inert" in kv and not rules.free_backward:
                raise CaseFormatError(path, line, f"inert= is a key of hase-igel-sam only, not of {rules.name}")
            if "skip" in kv and kv["skip"] not in ("yes", "no"):
                raise CaseFormatError(path, line, f"skip= takes yes or no, not {kv['skip']!r}")
            if "must" in kv and kv["must"] not in ("eat", "leave", "none"):
                raise CaseFormatError(path, line, f"must= takes eat, leave or none, not {kv['must']!r}")
            lines.expect.append((line, words[0], kv))

    def run(self, case: CaseText, prepared: object) -> CaseRun:
        assert isinstance(prepared, HareCase)
        before = prepared.state
        language = dialect(prepared.rules)
        sheets = [parse_sheet("\n".join(case.orders[s]), case.seats, language, two_player(before, k))
                  if s in case.orders else None for k, s in enumerate(case.seats)]
        chance = ScriptedChance(prepared.dice, decks=prepared.reshuffles, turn=case.turn)
        problems: list[str] = []
        after: State | None = None
        slots: tuple[Slot, ...] = ()
        try:
            result = engine.resolve_turn(prepared.rules, before, sheets, chance, max_slots=prepared.slots)
            after, slots = result.state, result.slots
        except PbemError as err:
            problems.append(str(err))
            slots = getattr(err, "slots", ())
        problems += _unlisted_draws(prepared, slots)
        if after is not None:
            if chance.left:
                problems.append(f"{chance.left} of the {len(prepared.dice)} dice were left unused")
            if chance.shuffles < len(prepared.reshuffles):
                problems.append(f"{len(prepared.reshuffles) - chance.shuffles} of the {len(prepared.reshuffles)} "
                                "RESHUFFLE lines were left unused")
            if prepared.expect_deck is not None and after.deck != prepared.expect_deck:
                problems.append(f"draw pile {' '.join(after.deck) or '(empty)'}, expected "
                                f"{' '.join(prepared.expect_deck) or '(empty)'}")
            top = prepared.expect_deck_top
            if top is not None and after.deck[:len(top)] != top:
                problems.append(f"draw pile starts {' '.join(after.deck[:len(top)]) or '(empty)'}, expected "
                                f"{' '.join(top)}")
            if prepared.expect_winner is not None:
                winners = GAME.result(after).winners
                if not after.over:
                    problems.append(f"expected the winner {prepared.expect_winner}, but the game is not over")
                elif [w.lower() for w in winners] != [prepared.expect_winner.lower()]:
                    problems.append(f"winner {', '.join(winners) or 'none'}, expected {prepared.expect_winner}")
            for line, name, kv in prepared.expect:
                if after.per_seat > 1 and name in after.seats:
                    runner = after.runners[after.seat_runners(after.seats.index(name))[0]]  # the supply
                else:
                    runner = after.runner(name)
                for key, want in kv.items():
                    got = _actual(runner, key)
                    if key == "inert":
                        got = "yes" if [r.name for r in after.runners].index(runner.name) in after.inert else "no"
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
            chance="\n".join(
                ([f"dice: {' '.join(map(str, prepared.dice))}"] if prepared.dice else [])
                + ([f"deck: {' '.join(before.deck)}"] if before.deck else [])
                + [f"reshuffle: {' '.join(r)}" for r in prepared.reshuffles]),
            heading=f"turn {before.turn}, first mover {before.seats[before.first]}",
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
    if rules.runners_per_seat > 1:
        names = [*words, *runner_names(words)]
        if len({w.lower() for w in names}) != len(names):
            raise CaseFormatError(path, line, "two-player: a seat name and a runner name (the seat name followed by "
                                  "1 or 2) are equal ignoring case")


def _check_options(case: CaseText) -> None:
    """The options against the ruleset's, each other and the number of seats."""
    info = GAME.info.ruleset(case.rules)
    takes = ", ".join(info.options) or "none"
    for option in case.options:
        if option.lower() not in info.options:
            raise CaseFormatError(case.path, case.options_line,
                                  f"the ruleset {info.name} has no option {option!r}; options it takes: {takes}")
    try:
        _, chosen = GAME.info.check_setup(info.name, case.options, len(case.seats))
        check_option_seats(chosen, len(case.seats))
    except PbemError as err:
        raise CaseFormatError(case.path, case.options_line, str(err)) from None


_int = case_int


def _check_teams(case: CaseText, lines: _Lines, options: tuple[str, ...]) -> None:
    """TEAM lines: with partnership and only then, every seat once, alternate seating."""
    partnership = "partnership" in options
    if lines.teams and not partnership:
        raise CaseFormatError(case.path, lines.teams[0][0], "TEAM lines need OPTIONS partnership")
    if partnership and not lines.teams:
        raise CaseFormatError(case.path, case.options_line, "partnership needs a TEAM line for each team")
    if not lines.teams:
        return
    for line, _, seats in lines.teams:
        stray = next((s for s in seats if s not in case.seats), None)
        if stray is not None:
            raise CaseFormatError(case.path, line, f"TEAM names {stray!r}, who is not in SEATS")
    try:
        check_teams(case.seats, [(t, seats) for _, t, seats in lines.teams])
    except PbemError as err:
        raise CaseFormatError(case.path, lines.teams[0][0], str(err)) from None


def _read_deck_line(lines: _Lines, keyword: str, words: list[str], rules: Ruleset, path: str, line: int) -> None:
    deck = rules.deck
    if deck is None:
        raise CaseFormatError(path, line, f"{keyword}: the ruleset {rules.name} has no hare deck")
    unknown = next((w for w in words if w not in _CODES or w not in deck.codes), None)
    if unknown is not None:
        raise CaseFormatError(path, line, f"{keyword}: {unknown!r} is not a card of the {rules.name} deck "
                              f"(cards: {' '.join(sorted(set(deck.codes)))})")
    for code in set(words):
        if words.count(code) > deck.codes.count(code):
            raise CaseFormatError(path, line, f"{keyword}: {code} is listed {words.count(code)} times; the deck "
                                  f"has {deck.codes.count(code)}")
    if keyword == "DECK":
        if lines.deck is not None:
            raise CaseFormatError(path, line, "DECK given twice")
        lines.deck = words
    elif keyword == "RESHUFFLE":
        if sorted(words) != sorted(deck.codes):
            raise CaseFormatError(path, line, f"RESHUFFLE lists the whole deck, every card as often as the deck has "
                                  f"it ({len(deck.codes)} cards)")
        lines.reshuffles = [*(lines.reshuffles or []), words]
    elif keyword == "EXPECT-DECK":
        lines.expect_deck = words
    else:
        lines.expect_deck_top = words


def _unlisted_draws(prepared: HareCase, slots: tuple[Slot, ...]) -> list[str]:
    """A draw from the pile before the turn of a card the case does not list fails the case."""
    deck = prepared.rules.deck
    if deck is None:
        return []
    size = len(prepared.state.deck)
    k = 0
    for slot in slots:
        card = slot.hare.card if slot.hare is not None else None
        if card is None:
            continue
        if not deck.recycle and k >= size:
            break  # the pile ran out: later draws come from a reshuffle, all listed
        if prepared.listed <= k < size:
            return [f"slot {slot.number} draws card {k + 1} of the pile, which the case does not list (DECK)"]
        if deck.reshuffler is not None and card == deck.reshuffler.value:
            break
        k += 1
    return []


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


def _runner(name: str, kv: dict[str, str], rules: Ruleset, path: str, line: int, seats: int) -> Runner:
    if "square" not in kv:
        raise CaseFormatError(path, line, f"RUNNER {name} needs square=")
    square = _square(kv["square"], path, line)
    place = _int(kv["place"], "place", path, line) if "place" in kv else None
    if square == HOME and place is None:
        raise CaseFormatError(path, line, f"RUNNER {name} is HOME and needs place=")
    must = kv.get("must", "none")
    if must not in ("eat", "leave", "none"):
        raise CaseFormatError(path, line, f"must= takes eat, leave or none, not {must!r}")
    if "inert" in kv and kv["inert"] not in ("yes", "no"):
        raise CaseFormatError(path, line, f"inert= takes yes or no, not {kv['inert']!r}")
    skip = kv.get("skip", "no")
    if skip not in ("yes", "no"):
        raise CaseFormatError(path, line, f"skip= takes yes or no, not {skip!r}")
    return Runner(
        name,
        square,
        _int(kv["carrots"], "carrots", path, line) if "carrots" in kv else rules.starting_carrots(seats),
        _int(kv["lettuces"], "lettuces", path, line) if "lettuces" in kv else rules.starting_lettuces(),
        place,
        Must(must),
        skip == "yes",
    )


def _two_runners(case: CaseText, rules: Ruleset, lines: _Lines) -> tuple[Runner, ...]:
    """Two-player: each seat's two runners, carrying the seat's supply (SUPPLY or the defaults)."""
    out = []
    supplies = lines.supplies or {}
    for seat in case.seats:
        supply = supplies.get(seat, {})
        for name in (f"{seat}1", f"{seat}2"):
            kv = {**lines.runners[name], **supply}
            out.append(_runner(name, kv, rules, case.path, lines.runner_lines[name], len(case.seats)))
    return tuple(out)


def _only_keys(kv: dict[str, str], allowed: set[str], where: str, hint: str, path: str, line: int) -> None:
    wrong = next((k for k in kv if k not in allowed), None)
    if wrong is not None:
        raise CaseFormatError(path, line, f"{where}: key {wrong!r} is not allowed here ({hint})")


def _initial_state(case: CaseText, rules: Ruleset, lines: _Lines) -> State:
    two = rules.runners_per_seat > 1
    runners = _two_runners(case, rules, lines) if two else tuple(
        _runner(name, lines.runners[name], rules, case.path, lines.runner_lines[name], len(case.seats))
        for name in case.seats)
    per = rules.runners_per_seat

    def done(seat: int) -> bool:
        return all(r.home for r in runners[seat * per:seat * per + per])

    if not rules.postal_rotation:
        first = next((k for k in range(len(case.seats)) if not done(k)), 0)
    elif case.first is not None:
        if case.first not in case.seats:
            raise CaseFormatError(case.path, case.first_line, f"FIRST {case.first!r} is not in SEATS")
        first = case.seats.index(case.first)
        if done(first):
            raise CaseFormatError(case.path, case.first_line, f"FIRST {case.first} names a seat whose runners are "
                                  "all HOME" if two else f"FIRST {case.first} names a runner that is HOME")
    else:
        first = (case.turn - 1) % len(case.seats)
    options = tuple(o.lower() for o in case.options)
    teams = tuple((t, tuple(case.seats.index(s) for s in seats)) for _, t, seats in lines.teams)
    deck: tuple[str, ...] = ()
    used: tuple[str, ...] = ()
    if rules.deck is not None:
        listed = list(lines.deck or [])
        rest = list(rules.deck.codes)
        for code in listed:
            rest.remove(code)
        if rules.deck.recycle or lines.deck is None:
            deck = (*listed, *rest)
        else:
            deck, used = tuple(listed), tuple(rest)
    inert = tuple(j for j, r in enumerate(runners) if lines.runners[r.name].get("inert") == "yes")
    return State(rules.name, runners, case.turn, first, False, options, teams, deck, used, inert)


def _actual(runner: Runner, key: str) -> str:
    if key == "square":
        return runner.square_label
    if key == "must":
        return runner.must.value
    if key == "skip":
        return "yes" if runner.skip else "no"
    if key == "inert":
        return "no"  # read from the state by the caller
    value = getattr(runner, key)
    return "none" if value is None else str(value)
