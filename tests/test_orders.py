"""The order language: what is accepted, rejected (where and why) and ignored."""

from __future__ import annotations

import pytest

from pbem.games.hare_tortoise.orders import HareChoice, parse_sheet

PLAYERS = ["Ann", "Bob", "Cyd"]


def canon(text: str) -> list[str]:
    return [a.canonical for a in parse_sheet(text, PLAYERS).accepted]


def reject(line: str) -> tuple[int, str, str]:
    sheet = parse_sheet(line, PLAYERS)
    assert len(sheet.rejected) == 1, sheet
    r = sheet.rejected[0]
    return r.column, r.reason, r.context


def test_the_core_examples_parse_to_canonical_form() -> None:
    sheet = parse_sheet(
        "Game: race-7\nTurn: 12\nSecret: 7K2-MQ9\n"
        "MOVE: IF SQUARE 23 IS FREE THEN TO 23 ELSE IF RANK <= 2 THEN BACK ELSE NEXT CARROT\n"
        "MOVE: IF CARROTS > 40 AND NOT I AM LAST THEN STAY GIVE ELSE NEXT\n"
        "HARE: GIVE\n"
        "Thanks, see you next turn!        # ignored, and reported as ignored\n",
        PLAYERS,
    )
    assert (sheet.game, sheet.turn, sheet.secret, sheet.hare) == ("race-7", 12, "7K2-MQ9", HareChoice.GIVE)
    assert [a.canonical for a in sheet.accepted] == [
        "GAME race-7",
        "TURN 12",
        "SECRET (checked; not repeated here)",
        "MOVE 1: IF SQUARE 23 IS FREE THEN TO 23 ELSE IF RANK <= 2 THEN BACK ELSE NEXT CARROT",
        "MOVE 2: IF CARROTS > 40 AND NOT I AM LAST THEN STAY GIVE ELSE NEXT",
        "HARE: GIVE",
    ]
    assert [(i.line, i.canonical) for i in sheet.ignored] == [(7, "Thanks, see you next turn!")]
    assert sheet.rejected == ()


def test_every_action_and_atom() -> None:
    assert canon(
        "move if bob is on 21 or square 22 is occupied then advance 3 else to 22\n"
        "DEFAULT: NEXT LETTUCE ELSE NEXT\n"
        "MOVE IF Cyd IS NOT HOME AND ann is ahead AND bob is behind THEN TO HOME ELSE HOME ELSE TO 64\n"
        "MOVE 3: IF LETTUCES != 0 OR MY SQUARE >= 12 OR RANK = 1 THEN STAY +10 ELSE STAY -10 ELSE STAY TAKE\n"
        "MOVE: IF I AM NOT FIRST THEN NEXT NUMBER 5 ELSE NEXT NUMBER ELSE NEXT HARE ELSE EAT\n"
        "MOVE: IF SQUARE 5 IS NOT FREE THEN BACK ELSE IF NOT (CARROTS < 5 OR CARROTS > 50) THEN NEXT CARROT\n"
    ) == [
        "MOVE 1: IF Bob IS ON 21 OR SQUARE 22 IS OCCUPIED THEN ADVANCE 3 ELSE TO 22",
        "DEFAULT: NEXT LETTUCE ELSE NEXT",
        "MOVE 2: IF Cyd IS NOT HOME AND Ann IS AHEAD AND Bob IS BEHIND THEN HOME ELSE HOME ELSE HOME",
        "MOVE 3: IF LETTUCES != 0 OR MY SQUARE >= 12 OR RANK = 1 THEN STAY ELSE STAY GIVE ELSE STAY",
        "MOVE 4: IF I AM NOT FIRST THEN NEXT NUMBER 5 ELSE NEXT NUMBER ELSE NEXT HARE ELSE EAT",
        "MOVE 5: IF NOT SQUARE 5 IS FREE THEN BACK ELSE IF NOT (CARROTS < 5 OR CARROTS > 50) THEN NEXT CARROT",
    ]


def test_mail_damage_is_forgiven() -> None:
    text = (
        "\u00a0\u00a0Move:\tTO\u00a012.\n"  # non-breaking spaces, a tab, a trailing dot
        "MOVE: IF CARROTS \u2265 40 THEN ADVANCE 2 \u2026\n"  # typographic >=, an ellipsis
        "MOVE: IF CARROTS > 40 THEN ADVANCE 2 ~\n"
        "> MOVE: TO 30\n"  # quoted reply text
        "   > MOVE: TO 31\n"
        "ＭＯＶＥ： ＴＯ １３\n"  # full-width forms
        "--  \n"
        "MOVE: TO 40\n"  # after the signature
    )
    sheet = parse_sheet(text, PLAYERS)
    assert [a.canonical for a in sheet.accepted] == [
        "MOVE 1: TO 12", "MOVE 2: IF CARROTS >= 40 THEN ADVANCE 2", "MOVE 4: TO 13"
    ]
    assert [(r.line, r.reason) for r in sheet.rejected] == [(3, "'~' is not part of the order language")]
    assert len(sheet.moves) == 4


def test_colons_are_optional_and_numbers_must_follow_on() -> None:
    sheet = parse_sheet("MOVE 1 NEXT\nMOVE 3: NEXT\nMOVE NEXT\nDEFAULT BACK\nHARE GIVE", PLAYERS)
    assert [a.canonical for a in sheet.accepted] == ["MOVE 1: NEXT", "MOVE 3: NEXT", "DEFAULT: BACK", "HARE: GIVE"]
    assert [(r.line, r.column, r.reason) for r in sheet.rejected] == [
        (2, 6, "MOVE 3 is out of sequence: this is MOVE line 2"),
    ]
    assert [m.chain is None for m in sheet.moves] == [False, True, False]


@pytest.mark.parametrize(
    ("line", "column", "reason"),
    [
        ("MOVE: IF CARROTS > 5 TO 5", 22, "missing THEN before 'TO'"),
        ("MOVE: TO 70", 10, "square 70 is off the board (squares run from 0 to 64)"),
        ("MOVE: IF SQUARE 65 IS FREE THEN NEXT", 17, "square 65 is off the board (squares run from 0 to 64)"),
        ("MOVE: NEXT NUMBER 7", 19, "NEXT NUMBER 7: number squares count for positions 1 to 6"),
        ("MOVE: STAY +20", 12, "STAY +20: a runner can only take or give 10 carrots"),
        ("MOVE: IF Bobb IS ON 21 THEN TO 5", 10, "no player called Bobb — did you mean Bob?"),
        ("MOVE: IF Zed IS HOME THEN BACK", 10, "no player called Zed (players: Ann, Bob, Cyd)"),
        ("MOVE: SQAURE 5 IS FREE", 7, "unknown word 'SQAURE' — did you mean SQUARE?"),
        ("MOVE: JUMP", 7, "unknown word 'JUMP'"),
        ("MOVE: ADVANSE 3", 7, "unknown word 'ADVANSE' — did you mean ADVANCE?"),
        ("MOVE: IF I AM FIRST THEN", 25, "the line ends too early: expected ADVANCE, BACK, EAT, HOME, NEXT, STAY …"),
        ("MOVE: TO 5 IF CARROTS > 3 THEN BACK", 12, "missing ELSE before IF"),
        ("HARE: MAYBE", 7, "unknown word 'MAYBE'"),
        ("MOVE: TO 5 $", 12, "'$' is not part of the order language"),
    ],
)
def test_rejected_lines_say_where_and_why(line: str, column: int, reason: str) -> None:
    got_column, got_reason, context = reject(line)
    assert (got_column, got_reason) == (column, reason)
    assert context.splitlines()[1] == " " * (column - 1) + "^"


def test_rejected_lines_keep_their_slot_but_not_default_or_hare() -> None:
    sheet = parse_sheet("MOVE: TO 99\nDEFAULT: BACK\nDEFAULT: FORWARD\nHARE: GIVE\nHARE: SOMETIMES", PLAYERS)
    assert [m.chain for m in sheet.moves] == [None]
    assert str(sheet.default) == "BACK"
    assert sheet.hare is HareChoice.GIVE


def test_the_last_default_and_hare_lines_count() -> None:
    sheet = parse_sheet("DEFAULT: BACK\nHARE: GIVE\nDEFAULT: NEXT\nHARE: TAKE", PLAYERS)
    assert (str(sheet.default), sheet.hare) == ("NEXT", HareChoice.TAKE)


def test_extensions() -> None:
    assert canon("MOVE: TO 5, ELSE NEXT CARROTS OTHERWISE STAY\nMOVE: IF CARROTS == 4 OR CARROTS <> 5 THEN BACK") == [
        "MOVE 1: TO 5 ELSE NEXT CARROT ELSE STAY",
        "MOVE 2: IF CARROTS = 4 OR CARROTS != 5 THEN BACK",
    ]


def test_greetings_and_header_like_text_are_ignored() -> None:
    sheet = parse_sheet("Hi all,\nGame on!\nTurn left at the lights\n\nCheers", PLAYERS)
    assert [i.canonical for i in sheet.ignored] == ["Hi all,", "Game on!", "Turn left at the lights", "Cheers"]
    assert sheet.game is None and sheet.turn is None
