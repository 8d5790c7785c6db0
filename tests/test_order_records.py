"""A turn's choices are kept as records (what was tried and why), told in words by the presenter;
turns stored when they were kept as words still decode and read the same."""

from __future__ import annotations

from typing import Any

from pbem.games import find_game
from pbem.games.badger_bunny.events import Event as BadgerEvent
from pbem.games.badger_bunny.events import Kind as BadgerKind
from pbem.games.badger_bunny.events import LineKind, Refusal, Tried, Used, Why
from pbem.games.card_race.resolution import Event, Kind, LineUsed, NotAllowed, Source
from pbem.games.card_race.resolution import Refusal as CardRefusal
from pbem.games.card_race.resolution import Tried as CardTried
from pbem.orders import Outcome

CARD_LINES = [
    "3. Ann plays 2 fox cards and draws 2",
    "   (private) play line 1 (line 4)",
    "   (private) IF HAND FOX >= 3 THEN PLAY 3 FOX: skipped, HAND FOX >= 3 is false",
    "   (private) PLAY 3 LAMB: skipped, only 1 lamb card in hand, 3 needed",
    "   (private) PLAY 2 FOX: played",
    "   (private) you draw 2 cards; your hand: 5 cards",
]


def test_a_card_turn_keeps_what_it_tried_as_records_told_in_words() -> None:
    game = find_game("card-race")
    event = Event(Kind.CARD_TURN, 0, "Ann plays 2 fox cards and draws 2", private=(
        "you draw 2 cards; your hand: 5 cards",), played=("F", "F"), number=3,
        source=Source(LineUsed.PLAY_LINE, line=4, index=1),
        tried=(CardTried("IF HAND FOX >= 3 THEN PLAY 3 FOX", Outcome.CONDITION_FALSE, "HAND FOX >= 3"),
               CardTried("PLAY 3 LAMB", Outcome.NOT_ALLOWED, why=NotAllowed(CardRefusal.SHORT, 1, 3, "lamb")),
               CardTried("PLAY 2 FOX", Outcome.TAKEN)))
    stored = game.resolution_to_json(event)
    assert stored["source"] == {"used": "play line", "line": 4, "index": 1, "fell_back": False}
    assert stored["tried"][1] == {"order": "PLAY 3 LAMB", "outcome": "not allowed", "condition": "",
                                  "why": {"refusal": "short", "count": 1, "need": 3, "what": "lamb"}}
    assert game.resolution_from_json(stored) == event
    assert game.presenter.resolution_lines(event, private=True) == CARD_LINES


def test_a_card_turn_stored_with_words_still_reads_the_same() -> None:
    game = find_game("card-race")
    old: dict[str, Any] = {"kind": "card turn", "seat": 0, "text": "Ann plays 2 fox cards and draws 2",
                           "details": [], "private": [line.removeprefix("   (private) ") for line in CARD_LINES[1:]],
                           "played": "FF", "table": "", "number": 3}
    event = game.resolution_from_json(old)
    assert event.tried == () and event.source is None
    assert game.presenter.resolution_lines(event, private=True) == CARD_LINES
    assert game.resolution_to_json(event) == old  # written back in the shape it was read


BADGER_LINES = [
    "Ann passes",
    "  used: turn line 1 (line 3)",
    "  tried PLAY 5M: skipped, the condition is false",
    "  tried PLAY 6M 7M: skipped, the final rank 7 is lower than 8",
    "  tried PLAY LOWEST: skipped, no single is legal",
    "  tried nothing true and legal: PASS",
]


def test_a_badger_turn_keeps_what_it_tried_as_records_told_in_words() -> None:
    game = find_game("badger")
    event = BadgerEvent(BadgerKind.PASS, 0, "Ann", "Ann passes", forced=False, used=Used(LineKind.TURN_LINE, 1, 3), tried=(
        Tried("PLAY 5M", Outcome.CONDITION_FALSE),
        Tried("PLAY 6M 7M", Outcome.NOT_ALLOWED, Refusal(Why.TOO_LOW, words=("7", "8"))),
        Tried("PLAY LOWEST", Outcome.NOT_ALLOWED, Refusal(Why.NO_SINGLE))))
    stored = game.resolution_to_json(event)
    assert stored["used"] == {"kind": "turn line", "index": 1, "line": 3}
    assert stored["tried"][1] == {"action": "PLAY 6M 7M", "outcome": "not allowed",
                                  "reason": {"why": "too low", "cards": [], "words": ["7", "8"]}}
    assert game.resolution_from_json(stored) == event
    assert game.presenter.resolution_lines(event, private=True) == BADGER_LINES


def test_a_badger_turn_stored_with_words_still_reads_the_same() -> None:
    game = find_game("badger")
    event = BadgerEvent(BadgerKind.PASS, 0, "Ann", "Ann passes", forced=False, line="turn line 1 (line 3)", tried=(
        Tried("PLAY 5M", Outcome.CONDITION_FALSE),
        Tried("PLAY 6M 7M", Outcome.NOT_ALLOWED, Refusal(Why.TOO_LOW, words=("7", "8"))),
        Tried("PLAY LOWEST", Outcome.NOT_ALLOWED, Refusal(Why.NO_SINGLE))))
    old = game.resolution_to_json(event)
    old["tried"] = [line.removeprefix("  tried ") for line in BADGER_LINES[2:]]
    assert "used" not in old  # stored before: `line` in words, no `used`
    decoded = game.resolution_from_json(old)
    assert decoded.tried == tuple(old["tried"]) and decoded.used is None
    assert game.presenter.resolution_lines(decoded, private=True) == BADGER_LINES


def test_the_line_a_card_turn_used_is_told_in_words() -> None:
    game = find_game("card-race")
    told = {used: game.presenter.resolution_lines(Event(Kind.CARD_TURN, 0, "", source=Source(used, 7, 2)),
                                                  private=True)
            for used in LineUsed}
    assert told == {
        LineUsed.NO_SHEET: ["   (private) no sheet: the default play"],
        LineUsed.REJECTED: ["   (private) play line on line 7 was rejected: the default play"],
        LineUsed.PLAY_LINE: ["   (private) play line 2 (line 7)"],
        LineUsed.DEFAULT: ["   (private) the DEFAULT line (line 7)"],
        LineUsed.NONE_LEFT: ["   (private) no play line left and no DEFAULT line: the default play"],
    }
    fell = Event(Kind.CARD_TURN, 0, "", source=Source(LineUsed.DEFAULT, 7, fell_back=True))
    assert game.presenter.resolution_lines(fell, private=True) == [
        "   (private) the DEFAULT line (line 7); no alternative was true and legal: the default play"]
