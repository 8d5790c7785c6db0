"""The card race's rule-case keys (RULES-CARD-RACE.md, "Addendum"): read, checked and run."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from pbem.errors import CaseFormatError, ChanceExhaustedError
from pbem.games.card_race.cards import (
    ANIMALS,
    APPRENTICE,
    CARD_LETTERS,
    CHAMPIONSHIP,
    LETTERS,
    SINGLE,
    STANDARD,
    TURBO_TILES,
    sort_cards,
    spell,
)
from pbem.games.card_race.engine import resolve_cycle
from pbem.games.card_race.orders import Orders
from pbem.games.card_race.parse import parse_lines
from pbem.games.card_race.state import State
from pbem.games.chance import ScriptedChance
from pbem.games.codec import CaseCodec, CaseRun, CaseText
from pbem.games.sheet import read_sheet

KEYS = frozenset({
    "MODE", "ROUND", "TRACK", "PAWNS", "PODIUM", "PLAYER", "BETTING", "DECK", "DISCARD", "RESHUFFLE", "PLAYS",
    "EXPECT", "EXPECT-PAWNS", "EXPECT-PODIUM", "EXPECT-TABLE", "EXPECT-DECK", "EXPECT-DISCARD", "EXPECT-FIRST",
    "EXPECT-WINNER", "EXPECT-REPLAY",
})
ONCE = KEYS - {"PLAYER", "RESHUFFLE", "EXPECT"}


@dataclass(frozen=True)
class Prepared:
    state: State
    orders: dict[int, Orders]
    reshuffles: tuple[tuple[str, ...], ...]
    plays: int | None
    expect: tuple[tuple[int, str, str], ...]  # (line, key, rest)


class _Bad(Exception):
    pass


def _cards(value: str, path: str, line: int) -> tuple[str, ...]:
    if value == "-":
        return ()
    bad = next((c for c in value if c not in CARD_LETTERS), None)
    if bad is not None:
        raise CaseFormatError(path, line, f"{bad!r} is not a card letter (H T W X F L, or - for none)")
    return tuple(value)


def _animal(word: str, path: str, line: int) -> int:
    if word not in ANIMALS:
        raise CaseFormatError(path, line, f"{word!r} is not an animal ({', '.join(ANIMALS)})")
    return ANIMALS.index(word)


def _pairs(rest: str, path: str, line: int) -> list[tuple[str, str]]:
    out = []
    for word in rest.split():
        key, eq, value = word.partition("=")
        if not eq or not key or not value:
            raise CaseFormatError(path, line, f"expected key=value, not {word!r}")
        out.append((key, value))
    return out


def _int(value: str, what: str, path: str, line: int) -> int:
    if not value.isdigit():
        raise CaseFormatError(path, line, f"{what} must be a whole number, not {value!r}")
    return int(value)


class CardRaceCases(CaseCodec):
    keys = KEYS

    def prepare(self, case: CaseText) -> Prepared:  # noqa: C901 - one key after another
        path = case.path
        seats = case.seats
        if not 2 <= len(seats) <= 5 or len(set(seats)) != len(seats):
            raise CaseFormatError(path, case.seats_line or case.line, "SEATS names 2 to 5 different players")
        ruleset = case.rules or STANDARD
        mode, round_ = SINGLE, 1
        streams: tuple[int, ...] = ()
        turbo: tuple[int, ...] = ()
        pawns: dict[int, int] = {}
        podium: list[int] = []
        players: dict[str, dict[str, str]] = {}
        betting = False
        deck: tuple[str, ...] = ()
        discard: tuple[str, ...] = ()
        reshuffles: list[tuple[str, ...]] = []
        plays: int | None = None
        expect: list[tuple[int, str, str]] = []
        given: set[str] = set()
        track_given = pawns_given = False
        for line, key, rest in case.keys:
            if key in ONCE:
                if key in given:
                    raise CaseFormatError(path, line, f"{key} given twice")
                given.add(key)
            words = rest.split()
            if key == "MODE":
                if words not in ([SINGLE], [CHAMPIONSHIP]):
                    raise CaseFormatError(path, line, "MODE takes single or championship")
                mode = words[0]
            elif key == "ROUND":
                round_ = _int(rest.strip(), "ROUND", path, line)
                if not 1 <= round_ <= 3:
                    raise CaseFormatError(path, line, "ROUND is 1, 2 or 3")
            elif key == "TRACK":
                track_given = True
                for k, v in _pairs(rest, path, line):
                    if k == "streams":
                        parts = v.split(",")
                        if len(parts) != 2 or not all(p.isdigit() and 1 <= int(p) <= 11 for p in parts) or \
                                parts[0] == parts[1]:
                            raise CaseFormatError(path, line, "streams= takes two different tiles 1-11, e.g. 3,8")
                        streams = tuple(sorted(int(p) for p in parts))
                    elif k == "turbo":
                        found: dict[int, int] = {}
                        for item in v.split(","):
                            tile, _, letter = item.partition(":")
                            if not tile.isdigit() or int(tile) not in TURBO_TILES or letter not in LETTERS:
                                raise CaseFormatError(path, line, f"turbo= takes tile:letter on tiles 2, 4, 6, 8, 10, "
                                                                  f"not {item!r}")
                            found[int(tile)] = LETTERS.index(letter)
                        if sorted(found) != list(TURBO_TILES) or len(set(found.values())) != 5:
                            raise CaseFormatError(path, line, "turbo= puts each animal's token on one of tiles 2, 4, "
                                                              "6, 8 and 10")
                        turbo = tuple(found[t] for t in TURBO_TILES)
                    else:
                        raise CaseFormatError(path, line, f"TRACK takes streams= and turbo=, not {k}=")
                if not streams:
                    raise CaseFormatError(path, line, "TRACK needs streams=")
            elif key == "PAWNS":
                pawns_given = True
                for k, v in _pairs(rest, path, line):
                    a = _animal(k, path, line)
                    pos = _int(v, "a position", path, line)
                    if pos > 11 or a in pawns:
                        raise CaseFormatError(path, line, f"{k}={v}: a position is 0-11, once per animal")
                    pawns[a] = pos
            elif key == "PODIUM":
                if rest.strip() != "-":
                    podium = [_animal(w, path, line) for w in words]
                if len(podium) > 2 or len(set(podium)) != len(podium):
                    raise CaseFormatError(path, line, "PODIUM names at most 2 different animals (3 end the race)")
            elif key == "PLAYER":
                if not words or words[0] not in seats or words[0] in players:
                    raise CaseFormatError(path, line, "PLAYER names a seat of SEATS, once")
                players[words[0]] = dict(_pairs(" ".join(words[1:]), path, line))
            elif key == "BETTING":
                if words not in (["yes"], ["no"]):
                    raise CaseFormatError(path, line, "BETTING takes yes or no")
                betting = words[0] == "yes"
            elif key == "DECK":
                deck = _cards(rest.strip(), path, line)
            elif key == "DISCARD":
                discard = _cards(rest.strip(), path, line)
            elif key == "RESHUFFLE":
                reshuffles.append(_cards(rest.strip(), path, line))
            elif key == "PLAYS":
                plays = _int(rest.strip(), "PLAYS", path, line)
            else:
                expect.append((line, key, rest))
        if not track_given:
            raise CaseFormatError(path, case.line, "a card-race case needs TRACK streams=<a>,<b>")
        if pawns_given or podium:
            named = set(pawns) | set(podium)
            if len(named) != 5 or set(pawns) & set(podium):
                raise CaseFormatError(path, case.line, "PAWNS and PODIUM together name all five animals once")
        n = len(seats)
        hands: list[tuple[str, ...]] = []
        starts: list[tuple[str, ...]] = []
        bets: list[str] = []
        totals: list[int] = []
        for name in seats:
            p = players.get(name)
            if p is None or "hand" not in p:
                raise CaseFormatError(path, case.line, f"PLAYER {name} hand=... is required")
            unknown = set(p) - {"hand", "start", "bet", "total"}
            if unknown:
                raise CaseFormatError(path, case.line, f"PLAYER {name}: unknown key {sorted(unknown)[0]}=")
            hands.append(sort_cards(_cards(p["hand"], path, case.line)))
            start = "" if p.get("start", "-") == "-" else p.get("start", "")
            if any(c not in LETTERS for c in start):
                raise CaseFormatError(path, case.line, f"PLAYER {name}: start= takes animal letters H T W F L")
            starts.append(tuple(start))
            bet = p.get("bet", "")
            if bet and (len(bet) != 1 or bet not in CARD_LETTERS):
                raise CaseFormatError(path, case.line, f"PLAYER {name}: bet= takes one card letter")
            bets.append(bet)
            totals.append(_int(p.get("total", "0"), "total", path, case.line))
        if ruleset == APPRENTICE:
            everything = "".join(["".join(h) for h in hands] + ["".join(deck), "".join(discard)]
                                 + ["".join(r) for r in reshuffles])
            if "X" in everything or podium or betting or any(bets):
                raise CaseFormatError(path, case.line, "an apprentice case names no howl card (X), PODIUM, "
                                                       "BETTING yes or bet=")
        if case.first is not None:
            if case.first not in seats:
                raise CaseFormatError(path, case.first_line, f"FIRST {case.first} is not in SEATS")
            first = seats.index(case.first)
        else:
            first = (case.turn - 1) % n
        positions = tuple(pawns.get(a, 12 if a in podium else 0) for a in range(5))
        state = State(
            ruleset, mode, tuple(seats), tuple(range(n)), round_ if mode == CHAMPIONSHIP else 1, case.turn, first,
            streams, turbo, positions, tuple((a, i + 1) for i, a in enumerate(podium)), tuple(hands),
            tuple(sort_cards(s) for s in starts), tuple(bets), deck, sort_cards(discard), (), betting, (),
            tuple(totals),
        )
        orders: dict[int, Orders] = {}
        for name, lines in case.orders.items():
            sheet = read_sheet("\n".join(lines))
            orders[seats.index(name)], _ = parse_lines(sheet.lines, ruleset=ruleset, betting=betting)
        return Prepared(state, orders, tuple(reshuffles), plays, tuple(expect))

    def run(self, case: CaseText, prepared: object) -> CaseRun:
        assert isinstance(prepared, Prepared)
        state = prepared.state
        chance = ScriptedChance(decks=prepared.reshuffles, turn=state.turn)
        before = tuple(position_lines(state))
        heading = f"mail turn {state.turn}, {state.seats[state.first]} holds the token"
        script = "\n".join(f"reshuffle: {spell(r)}" for r in prepared.reshuffles)
        try:
            after, events = resolve_cycle(state, prepared.orders, chance, plays=prepared.plays)
        except ChanceExhaustedError as err:
            why = str(err)
            if "more than" in why:
                why = "a reshuffle is needed and no RESHUFFLE line is left"
            elif "does not hold exactly" in why:
                why = f"a RESHUFFLE line does not hold exactly the discard pile ({err})"
            return CaseRun((why,), before, (), (), script, heading, None)
        except (ValueError, IndexError) as err:  # a position the rules cannot resolve: the case fails
            return CaseRun((f"the resolution stopped: {err}",), before, (), (), script, heading, None)
        from pbem.games.card_race.present import event_lines  # the console words of the events

        told = tuple(line for e in events for line in event_lines(e, private=True))
        problems = []
        if chance.decks_left:
            problems.append(f"{chance.decks_left} RESHUFFLE line(s) left unused")
        for line, key, rest in prepared.expect:
            problems += [f"line {line}: {p}" for p in _check(after, key, rest)]
        return CaseRun(tuple(problems), before, tuple(position_lines(after)), told, script, heading,
                       after.race_over)


def _multiset(cards: tuple[str, ...]) -> Counter[str]:
    return Counter(cards)


def _check(state: State, key: str, rest: str) -> list[str]:
    words = rest.split()
    seats = state.seats
    if key == "EXPECT":
        if not words or words[0] not in seats:
            return [f"EXPECT names a seat, not {rest!r}"]
        seat = seats.index(words[0])
        out = []
        for k, v in (w.partition("=")[::2] for w in words[1:]):
            if k == "hand":
                got = state.hands[seat]
                if _multiset(got) != _multiset(tuple(v) if v != "-" else ()):
                    out.append(f"{words[0]}'s hand is {spell(got)}, expected {v}")
            elif k == "bet":
                got_bet = state.bets[seat] or "-"
                if got_bet != v:
                    out.append(f"{words[0]}'s second bet is {got_bet}, expected {v}")
            elif k == "score":
                got_n = state.last_scores[seat] if state.race_over else 0
                if str(got_n) != v:
                    out.append(f"{words[0]} scores {got_n}, expected {v}")
            elif k == "total":
                if str(state.totals[seat]) != v:
                    out.append(f"{words[0]}'s total is {state.totals[seat]}, expected {v}")
            else:
                out.append(f"EXPECT has no key {k}=")
        return out
    if key == "EXPECT-PAWNS":
        out = []
        for k, v in (w.partition("=")[::2] for w in words):
            if k not in ANIMALS:
                out.append(f"{k!r} is not an animal")
                continue
            pos = state.pawns[ANIMALS.index(k)]
            if state.on_podium(ANIMALS.index(k)) or pos > 11:
                out.append(f"the {k} is not on the track (it crossed), expected {v}")
            elif str(pos) != v:
                out.append(f"the {k} is on {pos}, expected {v}")
        return out
    if key == "EXPECT-PODIUM":
        shown = podium_text(state)
        want = " ".join("+".join(sorted(g.split("+"), key=_animal_key)) for g in words)
        return [] if shown == want else [f"the podium is {shown}, expected {want}"]
    if key in ("EXPECT-TABLE", "EXPECT-DISCARD"):
        got = state.table if key == "EXPECT-TABLE" else state.discard
        want_cards = () if rest.strip() == "-" else tuple(rest.strip())
        what = "table" if key == "EXPECT-TABLE" else "discard pile"
        return [] if _multiset(got) == _multiset(want_cards) else [f"the {what} is {spell(got)}, expected {rest.strip()}"]
    if key == "EXPECT-DECK":
        got_s = spell(state.deck)
        return [] if got_s == rest.strip() else [f"the deck is {got_s}, expected {rest.strip()}"]
    if key == "EXPECT-FIRST":
        got_s = seats[state.first]
        return [] if got_s == rest.strip() else [f"the token holder is {got_s}, expected {rest.strip()}"]
    if key == "EXPECT-WINNER":
        got_s = seats[state.winners[0]] if state.over and len(state.winners) == 1 else "none"
        return [] if got_s == rest.strip() else [f"the winner is {got_s}, expected {rest.strip()}"]
    if key == "EXPECT-REPLAY":
        got_s = " ".join(seats[s] for s in state.winners) if len(state.winners) > 1 else "none"
        want_s = " ".join(sorted(words, key=lambda n: seats.index(n) if n in seats else 99))
        return [] if got_s == want_s else [f"the tie-break race is for {got_s}, expected {rest.strip()}"]
    return [f"unknown expectation {key}"]


def _animal_key(name: str) -> int:
    return ANIMALS.index(name) if name in ANIMALS else 99


def podium_text(state: State) -> str:
    if not state.podium:
        return "-"
    groups: dict[int, list[int]] = {}
    for a, place in state.podium:
        groups.setdefault(place, []).append(a)
    return " ".join("+".join(ANIMALS[a] for a in sorted(groups[p])) for p in sorted(groups))


def position_lines(state: State) -> list[str]:
    """A position in console lines, all of it (cases and the GM)."""
    pawns = " ".join(f"{ANIMALS[a]}={state.pawns[a]}" for a in range(5) if not state.on_podium(a)
                     and state.pawns[a] <= 11)
    out = [f"track: streams {','.join(map(str, state.streams))}" + (
        "; turbo " + ",".join(f"{t}:{LETTERS[a]}" for t, a in zip(TURBO_TILES, state.turbo, strict=True))
        if state.turbo else ""), f"pawns: {pawns or '-'}", f"podium: {podium_text(state)}"]
    for s in state.racers:
        out.append(f"{state.seats[s]}: hand {spell(state.hands[s])}, start {spell(state.starts[s])}, "
                   f"bet {state.bets[s] or '-'}, total {state.totals[s]}")
    out += [f"table {spell(state.table)}", f"deck {spell(state.deck)}", f"discard {spell(state.discard)}",
            f"token: {state.seats[state.first]}"]
    return out
