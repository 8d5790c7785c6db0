"""If Badger was a Bunny rule cases: the keys of the contract's addendum, checked and run."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from pbem.errors import CaseFormatError
from pbem.games.badger_bunny import engine
from pbem.games.badger_bunny.cards import Card, CardError, Deck, Rank, parse_card, parse_rank
from pbem.games.badger_bunny.events import Event
from pbem.games.badger_bunny.orders import SetType, parse_text
from pbem.games.badger_bunny.present import event_details
from pbem.games.badger_bunny.state import Last, Race, Series, State
from pbem.games.codec import CaseCodec, CaseRun, CaseText

_PLAYER_KEYS = ("hand", "deck", "course", "total")
_EXPECT_KEYS = ("hand", "deck", "course", "top", "score", "total")
_SINGLE = ("EXCUSE", "MODE", "RACE", "HARE", "DEAL", "ACT", "SERIES", "LAST", "TURNS", "EXPECT-ACT", "EXPECT-SERIES",
           "EXPECT-LAST", "EXPECT-WINNER", "EXPECT-CHAMPION", "EXPECT-ASIDE")


@dataclass
class BadgerCase:
    state: State
    turns: int | None = None
    expect: list[tuple[int, str, dict[str, str]]] = field(default_factory=list)
    expect_act: tuple[int, str, str | None] | None = None
    expect_series: tuple[int, Series | None] | None = None
    expect_last: tuple[int, Last] | None = None
    expect_winner: tuple[int, str] | None = None
    expect_champion: tuple[int, str] | None = None
    expect_aside: tuple[int, tuple[Card, ...]] | None = None


def _cards(text: str, deck: Deck, path: str, line: int) -> tuple[Card, ...]:
    if text == "-":
        return ()
    out = []
    for word in text.split(","):
        try:
            out.append(parse_card(word, deck))
        except CardError as err:
            raise CaseFormatError(path, line, err.reason) from None
    return tuple(out)


def _rank(text: str, deck: Deck, path: str, line: int) -> Rank:
    try:
        return parse_rank(text, deck)
    except CardError as err:
        raise CaseFormatError(path, line, err.reason) from None


def _int(text: str, what: str, path: str, line: int) -> int:
    if not text.isdigit():
        raise CaseFormatError(path, line, f"{what} must be a whole number, not {text!r}")
    return int(text)


def _pairs(words: list[str], keys: tuple[str, ...], path: str, line: int) -> dict[str, str]:
    out: dict[str, str] = {}
    for w in words:
        k, eq, v = w.partition("=")
        if not eq or k not in keys:
            raise CaseFormatError(path, line, f"expected one of {', '.join(k + '=' for k in keys)} not {w!r}")
        if k in out:
            raise CaseFormatError(path, line, f"{k}= given twice")
        out[k] = v
    return out


def _series(words: list[str], deck: Deck, path: str, line: int) -> Series | None:
    if words == ["none"]:
        return None
    if len(words) != 2 or words[0] not in ("single", "multiple", "straight"):
        raise CaseFormatError(path, line, "expected none or single|multiple|straight <rank>")
    return Series(SetType(words[0]), _rank(words[1], deck, path, line))


class BadgerCases(CaseCodec):
    keys = frozenset({"EXCUSE", "MODE", "RACE", "HARE", "DEAL", "PLAYER", "ACT", "SERIES", "LAST", "TURNS", "EXPECT",
                      "EXPECT-ACT", "EXPECT-SERIES", "EXPECT-LAST", "EXPECT-WINNER", "EXPECT-CHAMPION",
                      "EXPECT-ASIDE"})

    def prepare(self, case: CaseText) -> BadgerCase:
        path = case.path
        if len(case.seats) != 2 or case.seats[0].lower() == case.seats[1].lower():
            raise CaseFormatError(path, case.seats_line or case.line, "SEATS needs exactly two different names")
        given: dict[str, tuple[int, list[str]]] = {}
        players: dict[str, tuple[int, dict[str, str]]] = {}
        expects: list[tuple[int, str, dict[str, str]]] = []
        for line, key, rest in case.keys:
            words = rest.split()
            if key in _SINGLE:
                if key in given:
                    raise CaseFormatError(path, line, f"{key} given twice")
                given[key] = (line, words)
            elif key == "PLAYER":
                if not words or words[0] not in case.seats:
                    raise CaseFormatError(path, line, "PLAYER needs a name from SEATS")
                if words[0] in players:
                    raise CaseFormatError(path, line, f"PLAYER {words[0]} given twice")
                players[words[0]] = (line, _pairs(words[1:], _PLAYER_KEYS, path, line))
            elif key == "EXPECT":
                if not words or words[0] not in case.seats:
                    raise CaseFormatError(path, line, "EXPECT needs a name from SEATS")
                expects.append((line, words[0], _pairs(words[1:], _EXPECT_KEYS, path, line)))

        def one(key: str, choices: tuple[str, ...]) -> str | None:
            if key not in given:
                return None
            line, words = given[key]
            if len(words) != 1 or words[0] not in choices:
                raise CaseFormatError(path, line, f"{key} takes {' or '.join(choices)}")
            return words[0]

        excuse = one("EXCUSE", ("yes", "no")) == "yes"
        deck = Deck(extended=case.rules == "extended", excuse=excuse)
        tournament = one("MODE", ("single", "tournament")) == "tournament"
        number = 1
        if "RACE" in given:
            line, words = given["RACE"]
            number = _int(words[0] if len(words) == 1 else "", "RACE", path, line)
            if number < 1:
                raise CaseFormatError(path, line, "RACE starts at 1")
        hare = engine.hare_of(number)
        if "HARE" in given:
            line, words = given["HARE"]
            if len(words) != 1 or words[0] not in case.seats:
                raise CaseFormatError(path, line, "HARE needs a name from SEATS")
            hare = case.seats.index(words[0])
        if "DEAL" not in given:  # with DEAL a PLAYER line gives only total=, and may be left out
            for name in case.seats:
                if name not in players:
                    raise CaseFormatError(path, case.line, f"no PLAYER line for {name}")
        totals = [0, 0]
        for i, name in enumerate(case.seats):
            line, kv = players.get(name, (case.line, {}))
            totals[i] = _int(kv.get("total", "0"), "total", path, line)
        if "DEAL" in given:
            line, words = given["DEAL"]
            order = _cards(words[0] if len(words) == 1 else "", deck, path, line)
            if Counter(order) != Counter(deck.cards) or len(order) != len(deck.cards):
                raise CaseFormatError(path, line, f"DEAL must list every one of the {len(deck.cards)} cards of the "
                                                  f"deck in use exactly once")
            for key in ("ACT", "SERIES", "LAST"):
                if key in given:
                    raise CaseFormatError(path, given[key][0], f"{key} is not given with DEAL")
            for pl, kv in players.values():
                if set(kv) - {"total"}:
                    raise CaseFormatError(path, pl, "with DEAL, PLAYER gives only total=")
            race = engine.deal(order, deck, number, hare)
        else:
            race = self._position(case, given, players, deck, number, hare)
        state = State((case.seats[0], case.seats[1]), deck, tournament, case.turn, race, (totals[0], totals[1]))
        out = BadgerCase(state, expect=expects)
        if "TURNS" in given:
            line, words = given["TURNS"]
            out.turns = _int(words[0] if len(words) == 1 else "", "TURNS", path, line)
        self._expectations(case, given, out, deck)
        return out

    def _position(self, case: CaseText, given: dict[str, tuple[int, list[str]]],
                  players: dict[str, tuple[int, dict[str, str]]], deck: Deck, number: int, hare: int) -> Race:
        path = case.path
        hands, decks, courses = [], [], []
        seen: Counter[Card] = Counter()
        for name in case.seats:
            line, kv = players[name]
            for key in ("hand", "deck", "course"):
                if key not in kv:
                    raise CaseFormatError(path, line, f"PLAYER {name} needs {key}= (without DEAL)")
            h, d, c = (_cards(kv[k], deck, path, line) for k in ("hand", "deck", "course"))
            if not c:
                raise CaseFormatError(path, line, "a course holds at least its start card")
            seen.update(h + d + c)
            hands.append(h)
            decks.append(d)
            courses.append(c)
        twice = [c.token for c, n in seen.items() if n > 1]
        if twice:
            raise CaseFormatError(path, case.line, f"the case names {', '.join(twice)} twice")
        act = hare
        drawn = False
        if "ACT" in given:
            line, words = given["ACT"]
            if not words or words[0] not in case.seats or len(words) > 2 or \
                    (len(words) == 2 and words[1] not in ("drawn=yes", "drawn=no")):
                raise CaseFormatError(path, line, "ACT <name> [drawn=yes|no]")
            act = case.seats.index(words[0])
            drawn = len(words) == 2 and words[1] == "drawn=yes"
        series = _series(given["SERIES"][1], deck, path, given["SERIES"][0]) if "SERIES" in given else None
        last = Last.PLAY if series is not None else Last.NONE
        if "LAST" in given:
            line, words = given["LAST"]
            values = [v.value for v in Last]
            if len(words) != 1 or words[0] not in values:
                raise CaseFormatError(path, line, f"LAST takes {', '.join(values)}")
            last = Last(words[0])
            if (last is Last.PLAY) != (series is not None):
                raise CaseFormatError(path, line, "a series is open exactly when LAST is play")
        return Race(number, hare, (hands[0], hands[1]), (decks[0], decks[1]), (courses[0], courses[1]), (), act,
                    drawn, series, last)

    def _expectations(self, case: CaseText, given: dict[str, tuple[int, list[str]]], out: BadgerCase,
                      deck: Deck) -> None:
        path = case.path
        for line, _, kv in out.expect:
            for k in ("hand", "deck", "course"):
                if k in kv:
                    _cards(kv[k], deck, path, line)
            if "top" in kv:
                _cards(kv["top"], deck, path, line)
            for k in ("score", "total"):
                if k in kv:
                    _int(kv[k], k, path, line)
        if "EXPECT-ACT" in given:
            line, words = given["EXPECT-ACT"]
            if not words or words[0] not in case.seats or len(words) > 2 or \
                    (len(words) == 2 and words[1] not in ("drawn=yes", "drawn=no")):
                raise CaseFormatError(path, line, "EXPECT-ACT <name> [drawn=yes|no]")
            out.expect_act = (line, words[0], words[1][6:] if len(words) == 2 else None)
        if "EXPECT-SERIES" in given:
            line, words = given["EXPECT-SERIES"]
            out.expect_series = (line, _series(words, deck, path, line))
        if "EXPECT-LAST" in given:
            line, words = given["EXPECT-LAST"]
            if len(words) != 1 or words[0] not in [v.value for v in Last]:
                raise CaseFormatError(path, line, "EXPECT-LAST takes none, play, pass or dead-pass")
            out.expect_last = (line, Last(words[0]))
        for key, attr in (("EXPECT-WINNER", "expect_winner"), ("EXPECT-CHAMPION", "expect_champion")):
            if key in given:
                line, words = given[key]
                if key == "EXPECT-CHAMPION" and not out.state.tournament:
                    raise CaseFormatError(path, line, "EXPECT-CHAMPION is for MODE tournament only")
                allowed = (*case.seats, "none") + (("draw",) if key == "EXPECT-WINNER" else ())
                if len(words) != 1 or words[0] not in allowed:
                    raise CaseFormatError(path, line, f"{key} takes {', '.join(allowed)}")
                setattr(out, attr, (line, words[0]))
        if "EXPECT-ASIDE" in given:
            line, words = given["EXPECT-ASIDE"]
            if "DEAL" not in given:
                raise CaseFormatError(path, line, "EXPECT-ASIDE needs DEAL")
            out.expect_aside = (line, _cards(words[0] if len(words) == 1 else "", deck, path, line))

    def run(self, case: CaseText, prepared: object) -> CaseRun:
        assert isinstance(prepared, BadgerCase)
        before = prepared.state
        deck = before.deck
        sheets = [parse_text("\n".join(case.orders[s]), deck) if s in case.orders else None for s in case.seats]
        after, events = engine.run(before, sheets, max_turns=prepared.turns)
        race = after.race
        problems: list[str] = []
        names = list(case.seats)
        for line, name, kv in prepared.expect:
            s = names.index(name)
            for key, want in kv.items():
                got, ok = self._actual(after, s, key, want, case.path, line)
                if not ok:
                    problems.append(f"line {line}: {name} {key}={got}, expected {key}={want}")
        if prepared.expect_act is not None:
            line, name, drawn = prepared.expect_act
            if race.over:
                problems.append(f"line {line}: the race is over, no one is to act")
            else:
                got = names[race.act]
                if got != name:
                    problems.append(f"line {line}: {got} is to act, expected {name}")
                if drawn is not None and (race.drawn != (drawn == "yes")):
                    problems.append(f"line {line}: drawn={'yes' if race.drawn else 'no'}, expected drawn={drawn}")
        if prepared.expect_series is not None:
            line, want_series = prepared.expect_series
            if race.series != want_series:
                problems.append(f"line {line}: series {_series_text(race.series)}, expected {_series_text(want_series)}")
        if prepared.expect_last is not None:
            line, want_last = prepared.expect_last
            if race.last is not want_last:
                problems.append(f"line {line}: last {race.last.value}, expected {want_last.value}")
        if prepared.expect_winner is not None:
            line, want = prepared.expect_winner
            got = "none" if not race.over else "draw" if race.winner is None else names[race.winner]
            if got != want:
                problems.append(f"line {line}: winner {got}, expected {want}")
        if prepared.expect_champion is not None:
            line, want = prepared.expect_champion
            got = names[after.champion] if after.champion is not None else "none"
            if got != want:
                problems.append(f"line {line}: champion {got}, expected {want}")
        if prepared.expect_aside is not None:
            line, want_aside = prepared.expect_aside
            if Counter(race.aside) != Counter(want_aside):
                problems.append(f"line {line}: aside {_list(race.aside)}, expected {_list(want_aside)}")
        return CaseRun(
            tuple(problems), before=tuple(_position(before)), after=tuple(_position(after)),
            resolutions=tuple(_event_lines(events)), heading=f"race {before.race.number}", over=race.over,
        )

    def _actual(self, state: State, seat: int, key: str, want: str, path: str, line: int) -> tuple[str, bool]:
        race = state.race
        deck = state.deck
        if key == "hand":
            got = race.hands[seat]
            return _list(got), Counter(got) == Counter(_cards(want, deck, path, line))
        if key in ("deck", "course"):
            got = race.decks[seat] if key == "deck" else race.courses[seat]
            return _list(got), got == _cards(want, deck, path, line)
        if key == "top":
            got_top = race.courses[seat][-1]
            return got_top.token, (got_top,) == _cards(want, deck, path, line)
        value = race.scores[seat] if key == "score" else state.totals[seat]
        return str(value), value == int(want)


def _list(cards: tuple[Card, ...]) -> str:
    return ",".join(c.token for c in cards) or "-"


def _series_text(series: Series | None) -> str:
    return "none" if series is None else f"{series.kind.value} {series.rank.value}"


def _position(state: State) -> list[str]:
    race = state.race
    out = []
    for s in (0, 1):
        out.append(f"{state.seats[s]} ({race.role(s)}) hand={_list(race.hands[s])} deck={_list(race.decks[s])} "
                   f"course={_list(race.courses[s])} total={state.totals[s]}")
    out.append(f"act {state.seats[race.act]}{' drawn' if race.drawn else ''}, series {_series_text(race.series)}, "
               f"last {race.last.value}" + (f", over, winner {race.winner}" if race.over else ""))
    return out


def _event_lines(events: list[Event]) -> list[str]:
    out = []
    for e in events:
        out.append(e.text or f"{e.name}'s sheet")
        out += [f"  {d}" for d in event_details(e)]
    return out


__all__ = ["BadgerCases"]
