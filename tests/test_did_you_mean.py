"""Every game answers an unknown word near one of its own with 'did you mean', in the answer a
player gets: each word of the game's good order lines, misspelt (the line's first word too), is
named back spelt right."""

from __future__ import annotations

import random
import re

import pytest

from pbem.games import find_game, games
from pbem.games.base import Viewer
from pbem.games.present import Reader
from pbem.games.sheet import Accepted, read_sheet
from tests.test_mail_commands import Folder, client_mail, folder, new_game, text_of

__all__ = ["folder"]  # the fixture, used by name


def misspelt(word: str) -> tuple[str, ...]:
    """The word with two neighbouring letters swapped, and with its last letter doubled: one edit each."""
    swapped = word[0] + word[2] + word[1] + word[3:] if word[1] != word[2] else word
    return tuple(w for w in (swapped, word + word[-1]) if w != word)


def typo_lines(lines: list[str], seats: list[str]) -> list[tuple[str, str]]:
    """(line with one word misspelt, the word spelt right), once for every word of `lines` that can
    be misspelt: four letters or more (three for a line's first word, which says what the line
    is), no name."""
    out: list[tuple[str, str]] = []
    done: set[str] = set()
    names = {s.upper() for s in seats}
    for line in lines:
        for k, m in enumerate(re.finditer(r"[A-Za-z]+", line)):
            word = m.group().upper()
            if len(word) < (3 if k == 0 else 4) or word in names or word in done:
                continue
            done.add(word)
            out += [(line[:m.start()] + wrong + line[m.end():], word) for wrong in misspelt(word)]
    return out


def order_lines(kind: str, state: object, seat: int, reader: Reader) -> list[str]:
    """Lines the game takes whole, alone: its order template and its random sheets' good lines."""
    engine = find_game(kind)
    lines = list(engine.presenter.order_lines(engine.view(state, reader.viewer), reader))
    rng = random.Random(5)
    for _ in range(30):
        lines += engine.random_sheet(state, seat, rng).splitlines()
    taken = []
    for line in dict.fromkeys(lines):
        echo = engine.parse(state, read_sheet(line), seat).echo
        if [type(e) for e in echo] == [Accepted]:
            taken.append(line)
    return taken


@pytest.mark.parametrize("kind", [g.info.name for g in games()])
def test_an_unknown_word_gets_did_you_mean_in_the_answer(folder: Folder, kind: str) -> None:
    addresses = new_game("typos", kind)
    game, players, state = folder.m.game_state("typos")
    engine = folder.m.engine(game)
    seat = engine.to_move(state)[0]
    player = next(p for p in players if p.seat == seat)
    reader = Reader(Viewer(seat), player.name, (seat,))
    lines = order_lines(kind, state, seat, reader)
    typos = typo_lines(lines, [p.name for p in players])
    assert len(typos) >= 4, lines
    body = "\n".join(line for line, _ in typos)
    _, mails = folder.send(client_mail(addresses[seat], f"GAME typos\nSECRET {player.secret}\n{body}", mid="t@x"))
    (ack,) = [p for p in mails if "-ack-" in p.name]
    answer = " ".join(text_of(ack).split())  # the answer's lines may wrap
    # the word spelt right is named, alone or in a longer name (a card: CROWN-LEAVES for LEAVES)
    missing = [(line, word) for line, word in typos if not re.search(rf"did you mean [^?]*?\b{word}", answer)]
    assert not missing, (missing, answer)


def test_the_typos_are_one_edit_from_the_word() -> None:
    assert misspelt("TAKE") == ("TKAE", "TAKEE")
    assert typo_lines(["MOVE: NEXT", "BID 7", "MOVE 2: IF Ann IS AHEAD THEN NEXT"], ["Ann"]) == [
        ("MVOE: NEXT", "MOVE"), ("MOVEE: NEXT", "MOVE"), ("MOVE: NXET", "NEXT"), ("MOVE: NEXTT", "NEXT"),
        ("BDI 7", "BID"), ("BIDD 7", "BID"),
        ("MOVE 2: IF Ann IS AEHAD THEN NEXT", "AHEAD"), ("MOVE 2: IF Ann IS AHEADD THEN NEXT", "AHEAD"),
        ("MOVE 2: IF Ann IS AHEAD TEHN NEXT", "THEN"), ("MOVE 2: IF Ann IS AHEAD THENN NEXT", "THEN")]


#: how players end a mail: a greeting, thanks, and their first name alone on a line (names one or two
#: letters from a line word of some game among them: Grace, Bert, Ida, Pat, Mo)
SIGN_OFFS = ("Hi all,", "Thanks!", "Cheers,", "Best,", "Alice", "Grace", "Bert", "Ida", "Pat", "Mo", "Bob",
             "Ann", "Tom", "Dee", "Ed", "Kate", "Paul")


@pytest.mark.parametrize("kind", [g.info.name for g in games()])
def test_a_signature_is_no_misspelt_order(folder: Folder, kind: str) -> None:
    """A mail of greetings and a name is no sheet (only orders replace orders), however near a
    name is to one of the game's words, and nothing in it is answered with 'did you mean'."""
    addresses = new_game("names", kind)
    game, players, state = folder.m.game_state("names")
    seat = folder.m.engine(game).may_send(state)[0]
    player = next(p for p in players if p.seat == seat)
    for i, name in enumerate(SIGN_OFFS):
        body = f"GAME names\nSECRET {player.secret}\n\nHi all,\nThanks!\nCheers,\n{name}"
        _, mails = folder.send(client_mail(addresses[seat], body, mid=f"n{i}@x"))
        answer = " ".join(text_of(next(p for p in mails if "-answer-" in p.name or "-ack-" in p.name)).split())
        assert "did you mean" not in answer and "rejected" not in answer, (name, answer)
        assert "the sheet in force is unchanged" in answer, (name, answer)
