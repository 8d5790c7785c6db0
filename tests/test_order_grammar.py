"""A game's order language is written down once, in its grammar table: the reader's line words
and vocabulary come from it, and the players' guide shows it as the reader reads it."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

import pytest

from pbem.games.badger_bunny import orders as badger_orders
from pbem.games.card_race import orders as card_race_orders
from pbem.orders import Grammar, Rule

DOCS = Path(__file__).resolve().parents[1] / "docs" / "orders"

TOY = Grammar((
    Rule("line", "order | default"),
    Rule("order", 'alternative { "ELSE" alternative }'),
    Rule("default", '"DEFAULT" [":"] order'),
    Rule("alternative", '[ "IF" test "THEN" ] ( "GO" n | "WAIT" )', "n at most 9 digits"),
    Rule("test", '{ "NOT" } "SUNNY"'),
    Rule("n", "digits"),
))


def test_the_words_a_line_starts_with_follow_optional_and_repeated_parts() -> None:
    assert TOY.first_words("line") == ("IF", "GO", "WAIT", "DEFAULT")
    assert TOY.first_words("test") == ("NOT", "SUNNY")
    assert TOY.alternatives("line") == ("order", "default")


def test_the_vocabulary_is_every_quoted_word() -> None:
    assert TOY.keywords() == {"ELSE", "DEFAULT", "IF", "THEN", "GO", "WAIT", "NOT", "SUNNY"}


def test_the_grammar_is_written_as_ebnf_with_its_notes() -> None:
    assert TOY.text().splitlines()[3] == 'alternative = [ "IF" test "THEN" ] ( "GO" n | "WAIT" ) ;  (* n at most 9 digits *)'


def test_a_left_recursive_grammar_is_refused() -> None:
    with pytest.raises(ValueError, match="left-recursive"):
        Grammar((Rule("a", 'b "X"'), Rule("b", 'a "Y"'))).first_words("a")


@pytest.mark.parametrize(("module", "guide"), [(card_race_orders, "card-race.md"), (badger_orders, "badger-bunny.md")])
def test_the_guide_shows_the_grammar_the_reader_reads(module: ModuleType, guide: str) -> None:
    assert f"```\n{module.GRAMMAR.text()}\n```" in (DOCS / guide).read_text(encoding="utf-8")


def test_the_readers_take_their_line_words_from_the_grammar() -> None:
    assert card_race_orders.LINE_FORMS == {"BET": "bet", "IF": "play", "PLAY": "play", "DEFAULT": "default",
                                           "RACE": "race"}
    assert badger_orders.LINE_FORMS == {"IF": "turn", "PLAY": "turn", "PASS": "turn", "DEFAULT": "default"}
    assert card_race_orders.KEYWORDS == card_race_orders.GRAMMAR.keywords() >= {"SHEEP", "HOWL", "TABLE"}
    assert badger_orders.KEYWORDS == badger_orders.GRAMMAR.keywords() >= {"LOWEST", "STRAIGHT", "OPPONENT"}
