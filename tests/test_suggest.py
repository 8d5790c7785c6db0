"""SUGGEST as a player meets it, over every registered game with a strong computer player.

The suggestion is a sheet the player can send back: every order line once, each alternative of
a line explained by a comment line above it, nothing the game's reader rejects; HELP lists
SUGGEST; the answer is threaded under the player's mail.
"""

from __future__ import annotations

import email
import email.policy
import random
import textwrap
from typing import Any

import pytest

from pbem.commands import suggested_sheet
from pbem.games import AnyGame, games
from pbem.games.base import SeatSpec, Setup, Viewer
from pbem.games.card_race.cards import ANIMAL_WORDS, counts
from pbem.games.chance import LegacyChance
from pbem.games.sheet import Rejected, read_sheet
from tests.test_mail_commands import Folder, client_mail, folder, new_game, text_of

__all__ = ["folder"]  # the fixture

ADVISED = [g for g in games() if g.bot("strong") is not None]
NAMES = ("Ann", "Bob", "Cyd", "Dot")


def positions(engine: AnyGame, count: int = 4) -> list[Any]:
    """Positions of a game of the first ruleset: the start, then after turns of random sheets."""
    ruleset = engine.info.rulesets[0]
    seats = max(ruleset.min_players, min(4, ruleset.max_players))
    _, chosen = engine.info.check_setup(ruleset.name, (), seats)
    state = engine.new_state(Setup(ruleset.name, tuple(SeatSpec(n) for n in NAMES[:seats]), chosen),
                             LegacyChance(5, 0))
    rng = random.Random(5)
    out = [state]
    while len(out) < count and not engine.is_over(state):
        orders = {s: engine.parse(state, read_sheet(engine.random_sheet(state, s, rng)), s).orders
                  for s in engine.may_send(state)}
        state = engine.resolve(state, orders, LegacyChance(5, engine.turn(state))).state
        out.append(state)
    return out


def order_lines(text: str) -> list[tuple[list[str], str]]:
    """Each order line with the comment lines just above it."""
    out: list[tuple[list[str], str]] = []
    comments: list[str] = []
    for line in text.splitlines():
        if line.startswith("#"):
            comments.append(line)
        elif line.strip():
            out.append((comments, line))
            comments = []
    return out


@pytest.mark.parametrize("engine", ADVISED, ids=lambda g: g.info.name)
def test_a_suggestion_is_a_sheet_to_send(engine: AnyGame) -> None:
    advisor = engine.bot("strong")
    assert advisor is not None
    for state in positions(engine):
        for seat in engine.may_send(state):
            text = suggested_sheet(engine, advisor, state, seat, LegacyChance("advice", engine.turn(state)))
            lines = order_lines(text)
            written = [line for _, line in lines]
            assert len(written) == len(set(written)), text  # no line twice
            for comments, line in lines:
                body = line.split(":", 1)[1] if line.split()[0].endswith(":") else line
                alternatives = body.split(" ELSE ")
                assert len(alternatives) == len(set(alternatives)), line
                assert len(comments) >= len(alternatives), f"{line!r} has {len(comments)} comments:\n{text}"
            parsed = engine.parse(state, read_sheet(text), seat)
            assert not [e for e in parsed.echo if isinstance(e, Rejected)], text


def test_the_card_race_suggests_only_cards_in_hand() -> None:
    engine = next(g for g in ADVISED if g.info.name == "card-race")
    advisor = engine.bot("strong")
    assert advisor is not None
    for state in positions(engine, 6):
        for seat in engine.may_send(state):
            hand = counts(engine.view(state, Viewer(seat)).players[seat].hand or ())
            text = suggested_sheet(engine, advisor, state, seat, LegacyChance("advice", engine.turn(state)))
            for _, line in order_lines(text):
                for alternative in line.removeprefix("DEFAULT:").split(" ELSE "):
                    words = alternative.split()
                    if words[0] == "PLAY":
                        assert hand[ANIMAL_WORDS[words[2]]] >= int(words[1]), (alternative, hand)
                    if words[0] == "BET":
                        assert hand[ANIMAL_WORDS[words[1]]] >= 1, (alternative, hand)


@pytest.mark.parametrize("kind", [g.info.name for g in ADVISED])
def test_suggest_by_mail_is_listed_and_threaded(folder: Folder, kind: str) -> None:
    emails = new_game("race", kind)
    game, players, state = folder.m.game_state("race")
    seat = folder.m.engine(game).may_send(state)[0]
    ann = next(p for p in players if p.seat == seat)
    head = f"GAME race\nSECRET {ann.secret}\n"
    _, mails = folder.send(client_mail(ann.email, head + "HELP", mid="h1@example.org"))
    assert "  SUGGEST " in text_of(next(p for p in mails if "-answer-" in p.name))
    _, mails = folder.send(client_mail(ann.email, head + "SUGGEST", mid="s1@example.org"))
    answer = next(p for p in mails if "-answer-" in p.name)
    msg = email.message_from_bytes(answer.read_bytes(), policy=email.policy.default)
    assert msg["In-Reply-To"] == "<s1@example.org>" and "<s1@example.org>" in str(msg["References"])
    assert msg["Subject"] == "race: SUGGEST"
    assert "this is what pbem's strong computer player would send for your seat" in text_of(answer)
    assert emails
    # sent back as a mail program sends a reply: every line broken at 76 columns; the comments
    # are short enough to come back whole, and every order line is taken
    advice = text_of(answer)
    template = advice[advice.index("GAME race"):].split("\n\n")[0].splitlines()
    assert max(len(line) for line in template if line.startswith("#")) <= 72
    wrapped = "\n".join(piece for line in template for piece in textwrap.wrap(line, 76, break_on_hyphens=False))
    _, mails = folder.send(client_mail(ann.email, wrapped, mid="s2@example.org"))
    ack = text_of(next(p for p in mails if "-ack-" in p.name))
    assert "is now in force" in ack and "IGNORED" not in ack and "REJECTED" not in ack, ack
