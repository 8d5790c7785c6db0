"""Each game's table of typical mistakes: every entry is reached by a line that makes the mistake,
and the player gets the entry's fix instead of the reader's "expected ..."."""

from __future__ import annotations

import re

import pytest

from pbem.games.badger_bunny.cards import Deck
from pbem.games.badger_bunny.orders import MISTAKES as BADGER
from pbem.games.badger_bunny.orders import read_line
from pbem.games.card_race.cards import ANIMAL_WORDS
from pbem.games.card_race.orders import MISTAKES as CARD_RACE
from pbem.games.card_race.orders import read_chain
from pbem.games.hare_tortoise.orders.parser import MISTAKES as HARE_TORTOISE
from pbem.games.hare_tortoise.orders.parser import OrderLineError, parse_order_line
from pbem.orders import ErrorKind, Mistake, OrderError

HARE_LINES = {
    "MOVE: IF SQUARE 5 FREE THEN NEXT": "missing IS: write SQUARE 5 IS FREE",
    "MOVE: IF SQUARE 5 OCCUPIED THEN NEXT": "missing IS: write SQUARE 5 IS OCCUPIED",
    "MOVE: IF SQUARE 5 NOT FREE THEN NEXT": "missing IS: write SQUARE 5 IS NOT FREE",
    "MOVE: IF SQUARE 5 IS EMPTY THEN NEXT": "a square is FREE or OCCUPIED: write SQUARE 5 IS FREE",
    "MOVE: IF SQUARE 5 IS NOT EMPTY THEN NEXT": "a square is FREE or OCCUPIED: write SQUARE 5 IS OCCUPIED",
    "MOVE: IF Ann IS ON SQUARE 5 THEN NEXT": "IS ON takes the square's number alone: write ANN IS ON 5",
    "MOVE: GO TO 5": "write TO 5 (TO is the whole move; there is no GO)",
    "MOVE: MOVE TO 5": "write MOVE once, at the start of the line: MOVE: TO 5",
    "MOVE: IF I AM 1ST THEN NEXT": "write I AM FIRST (or I AM LAST; for other places, RANK = 2)",
    "MOVE: IF I AM 2 THEN NEXT": "write I AM FIRST or I AM LAST; for another place, RANK = 2",
    "HARE: YES": "a HARE line names the choice itself: HARE: TAKE",
    "HARE: NO": "a HARE line names the choice itself: HARE: GIVE",
    "MOVE: IF CARROTS IS 20 THEN NEXT": "CARROTS compares with a number: IF CARROTS >= 20 THEN ...",
    "MOVE: IF RANK IS 1 THEN NEXT": "RANK compares with a number: IF RANK = 1 THEN ...",
    "MOVE: NEXT THEN EAT": "THEN follows a condition (IF ... THEN); between alternatives write ELSE",
    "MOVE: EAT THEN NEXT": "THEN follows a condition (IF ... THEN); between alternatives write ELSE",
    "MOVE: STAY THEN NEXT": "THEN follows a condition (IF ... THEN); between alternatives write ELSE",
    "MOVE: BACK THEN NEXT": "THEN follows a condition (IF ... THEN); between alternatives write ELSE",
    "MOVE: TO 5 THEN NEXT": "THEN follows a condition (IF ... THEN); between alternatives write ELSE",
    "MOVE: ADVANCE 3 THEN NEXT": "THEN follows a condition (IF ... THEN); between alternatives write ELSE",
    "MOVE: BACK 3 THEN NEXT": "THEN follows a condition (IF ... THEN); between alternatives write ELSE",
}
CARD_LINES = {
    "PLAY FOX": "PLAY takes the number of cards first: PLAY 1 FOX",
    "PLAY TORTOISES": "PLAY takes the number of cards first: PLAY 1 TORTOISES",
    "IF FOX >= 2 THEN PLAY 1 FOX": "a condition counts cards in your HAND or on the TABLE: HAND FOX >= 1",
    "IF HAND FOX > 1 AND LAMB > 1 THEN PLAY 1 FOX":
        "a condition counts cards in your HAND or on the TABLE: HAND LAMB >= 1",
    "PLAY 1 FOX OR PLAY 1 LAMB": "between alternatives write ELSE; OR joins conditions",
    "PLAY 1 FOX AND PLAY 1 LAMB": "one line plays once; between alternatives write ELSE",
    "PLAY 2 FOX AND 1 LAMB": "a card turn plays cards of one animal: give the other its own PLAY line",
    "PLAY TWO FOX": "write the number of cards in digits: PLAY 2 FOX",
    "PLAY A FOX": "write the number of cards in digits: PLAY 2 FOX",
    "IF TABLE >= 3 THEN 1 FOX": "THEN is followed by PLAY: IF TABLE FOX >= 2 THEN PLAY 1 LAMB",
    "PLAY 1 FOX ELSE 1 LAMB": "ELSE is followed by PLAY or IF: PLAY 2 FOX ELSE PLAY 1 LAMB",
}
BADGER_LINES = {
    "IF SERIES = SINGLE THEN PASS": "write SERIES IS SINGLE (or MULTIPLE, STRAIGHT)",
    "IF SERIES != SINGLE THEN PASS": "write SERIES IS NOT SINGLE (or MULTIPLE, STRAIGHT)",
    "IF I HAVE LUNATIC THEN PLAY LUNATIC": "write I HOLD and the card: I HOLD 6-MOONS",
    "IF LAST RANK IS 7 THEN PASS": "LAST RANK compares with a rank: LAST RANK >= 7",
    "IF LAST IS 7 THEN PASS": "write LAST RANK and a comparison: LAST RANK >= 7",
    "PLAY HIGHEST": "there is no PLAY HIGHEST: name the cards, or PLAY LOWEST",
    "PLAY ANY": "name the cards to play, or PLAY LOWEST",
    "IF I LEAD THEN IF HAND > 2 THEN PASS": "after THEN comes PLAY or PASS; between alternatives write ELSE",
}


def _hare(line: str) -> str:
    with pytest.raises(OrderLineError) as err:
        parse_order_line(line, ["Ann", "Bob"])
    assert err.value.kind is ErrorKind.INVALID
    return err.value.reason


def _card(line: str) -> str:
    with pytest.raises(OrderError) as err:
        read_chain(line, apprentice=False, skip_first=False)
    return err.value.reason


def _badger(line: str) -> str:
    error = read_line(line, Deck(extended=False, excuse=False)).error
    assert error is not None
    return error.reason


@pytest.mark.parametrize(("read", "examples", "table"), [
    (_hare, HARE_LINES, HARE_TORTOISE), (_card, CARD_LINES, CARD_RACE), (_badger, BADGER_LINES, BADGER),
], ids=["hare-tortoise", "card-race", "badger-bunny"])
def test_every_typical_mistake_gets_its_fix(read: object, examples: dict[str, str],
                                            table: tuple[Mistake, ...]) -> None:
    assert callable(read)
    told = {line: read(line) for line in examples}
    assert told == examples
    # an entry is reached when its hint is, an animal's name standing for any animal's
    unreached = {_shape(m.hint) for m in table} - {_shape(h) for h in examples.values()}
    assert not unreached, unreached


def _shape(hint: str) -> str:
    return re.sub(r"\b(?:" + "|".join(ANIMAL_WORDS) + r")\b", "<animal>", hint)
