"""The club by mail on the embedded default: strangers find an open game with LIST, join it
(confirmed from their address), watch, play, resign or are replaced from the standby pool, and
a person's STATUS lists every game they play."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from pbem.club import signup
from pbem.club.rows import OpenGameRow, PersonRow, SignupRow, TenureRow
from pbem.config import load_config
from pbem.games import find_game
from pbem.games.base import Viewer
from pbem.games.chance import Generator, Seeding, game_chance
from pbem.moderator import Moderator
from tests.test_mail_commands import client_mail, ok, run, text_of

GAME = "hare-tortoise"
TITLE = find_game(GAME).info.title


class Club:
    """A GM's folder that answers strangers; `send` ingests a mail as a mail program writes it
    and returns the new mails of the outbox, by recipient."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.m = Moderator(load_config(root / "pbem.toml"))
        self.count = 0

    def send(self, sender: str, body: str) -> dict[str, list[str]]:
        before = set((self.root / "outbox").glob("*.eml"))
        self.count += 1
        result = self.m.ingest(client_mail(sender, body, mid=f"club-{self.count}@x"))
        assert result.status != "quarantined", result
        return self.new_mails(before)

    def new_mails(self, before: set[Path]) -> dict[str, list[str]]:
        out: dict[str, list[str]] = {}
        for path in sorted(set((self.root / "outbox").glob("*.eml")) - before):
            out.setdefault(path.name.split("-", 2)[2].removesuffix(".eml"), []).append(path.name.split("-")[1] + ":"
                                                                                       + text_of(path))
        return out

    def answer(self, sender: str, body: str) -> str:
        mails = self.send(sender, body)
        assert list(mails) == [sender], mails
        [text] = mails[sender]
        return text

    def join(self, sender: str, name: str, word: str = "") -> dict[str, list[str]]:
        """JOIN and CONFIRM: the mails the confirmation brought."""
        return self.send(sender, f"CONFIRM {token(self.answer(sender, f'JOIN {name} {word}'.strip()))}")


def token(text: str) -> str:
    """The CONFIRM token an answer carries."""
    found = re.search(r"CONFIRM (\S+)", text)
    assert found is not None, text
    return found.group(1)


@pytest.fixture
def club(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Club:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("PBEM_NOW", "2026-11-20T09:00:00Z")
    monkeypatch.delenv("PBEM_CONFIG", raising=False)
    ok(run("init", ".", "--address", "gm@pbem.example"))
    config = tmp_path / "pbem.toml"
    config.write_text(config.read_text().replace("[moderator]\n", "[moderator]\nreply_to_strangers = true\n", 1))
    return Club(tmp_path)


def test_a_stranger_finds_joins_and_the_full_game_starts_with_its_seats_drawn(club: Club) -> None:
    out = ok(run("open", "oak", "--game", GAME, "--seats", "2-3", "--invite", "acorn", "--deadline", "7d")).output
    assert out == "oak is open for sign-up: hare-tortoise (variable-pig), 2 to 3 seats; it starts when 3 have joined; " \
                  "invitation word acorn\n"
    pair = ok(run("open", "elm", "--game", GAME, "--seats", "2-2")).output
    assert pair == "elm is open for sign-up: hare-tortoise (variable-pig), 2 seats; it starts when 2 have joined\n"
    assert "  seats: 0 taken, 2 left (2 play)" in club.answer("ann@example.org", "LIST")
    helped = club.answer("ann@example.org", "HELP")
    assert "  JOIN NAME [WORD]" in helped and "  STANDINGS [TOURNAMENT]" in helped
    refused = club.answer("ann@example.org", "RESIGN oak")
    assert "RESIGN is for players of this club" in refused  # a stranger lists, joins, watches and stands by only
    listing = club.answer("ann@example.org", "Hello,\nLIST\nThanks")
    assert f"oak: {TITLE}, rules variable-pig, options: none" in listing
    assert "seats: 0 taken, 3 left (2 to 3 play)" in listing
    assert "deadlines: 7d; starts when 3 have joined" in listing
    assert "joining needs an invitation word (JOIN NAME WORD)" in listing

    refused = club.answer("ann@example.org", "JOIN oak")
    assert "JOIN oak: not done:" not in refused and "oak needs its invitation word" in refused and "CONFIRM" not in refused
    asked = club.answer("ann@example.org", "JOIN oak acorn")
    assert "a seat in oak is yours once you confirm it" in asked
    with club.m.store.session() as session:
        assert session.exec(signup.select(SignupRow)).all() == []  # nothing held before the confirmation
    confirmed = club.send("ann@example.org", f"CONFIRM {token(asked)}")
    assert "you have a seat in oak" in confirmed["ann@example.org"][0]
    assert "You play as Ann; 1 of 3 seats are taken." in confirmed["ann@example.org"][0]

    # the same token again confirms nothing; a forged From's token is nobody's
    again = club.answer("ann@example.org", f"CONFIRM {token(asked)}")
    assert "confirms nothing pending from ann@example.org" in again

    club.join("bob@example.org", "oak", "acorn")
    listing = club.answer("cyd@example.org", "LIST")
    assert "seats: 2 taken, 1 left" in listing and "- Ann: 100% of turns kept (0 missed of 0)" in listing
    started = club.join("cyd@example.org", "oak", "ACORN")
    assert "The game is full and starts now" in started["cyd@example.org"][0]
    assert sorted(started) == ["ann@example.org", "bob@example.org", "cyd@example.org"]
    assert all(any(t.startswith("welcome:") for t in texts) for texts in started.values())

    game, players, _ = club.m.game_state("oak")
    with club.m.store.session() as session:
        row = signup.find_open(session, "oak")
        assert row is not None and row.status == "started"
        drawn = json.loads(row.seats)
        tenures = session.exec(signup.select(TenureRow).order_by(TenureRow.player_id)).all()
        persons = {p.id: p.name for p in session.exec(signup.select(PersonRow))}
    # the seats as the game's own chance drew them under the purpose "seats", and recorded
    expected = game_chance(Seeding(game.seed, Generator(game.generator)), 0, "seats").shuffle(["Ann", "Bob", "Cyd"])
    assert drawn == {"signed": ["Ann", "Bob", "Cyd"], "drawn": expected, "purpose": "seats"}
    assert [p.name for p in players] == expected
    assert [(persons[t.person_id], t.from_turn, t.to_turn) for t in tenures] == [(n, 1, None) for n in expected]


def test_leave_observe_and_status_of_every_game(club: Club) -> None:
    ok(run("open", "elm", "--game", GAME, "--seats", "2", "--deadline", "7d"))
    club.join("ann@example.org", "elm")
    left = club.answer("ann@example.org", "LEAVE elm")
    club.send("ann@example.org", f"CONFIRM {token(left)}")
    assert "seats: 0 taken, 2 left" in club.answer("dot@example.org", "LIST")
    watch = club.answer("dot@example.org", "OBSERVE elm")
    club.send("dot@example.org", f"CONFIRM {token(watch)}")
    club.join("ann@example.org", "elm")
    club.join("bob@example.org", "elm")
    game, _, _ = club.m.game_state("elm")
    engine = find_game(GAME)
    status = club.answer("ann@example.org", "STATUS")
    assert f"elm: {TITLE}, you play Ann, turn 1: your orders are due; deadline {game.deadline:%a %d %b %Y %H:%M} UTC" in status
    assert "Your record: 100% of turns kept (0 missed of 0), 0 games finished, 0 resigned, 0 replaced." in status
    # a turn resolved: the observer gets the public report, not a player's
    before = set((club.root / "outbox").glob("*.eml"))
    club.m.resolve("elm", force=True)
    mails = club.new_mails(before)
    [report] = mails["dot@example.org"]
    assert report.startswith("notice:Dot, turn 1 of elm")
    public = engine.presenter.position_lines(engine.view(club.m.game_state("elm")[2], Viewer.public()))
    assert "The position:\n" + "\n".join(f"  {x}" for x in public) in report
    status = club.answer("ann@example.org", "STATUS")
    assert "Your record: 0% of turns kept (1 missed of 1)" in status
    watching = club.answer("dot@example.org", "STATUS")
    assert "You hold no seat in a running game.\n\nYou watch:\n  elm\n" in watching


def test_the_gm_closes_sign_up_to_strangers_or_altogether(club: Club) -> None:
    ok(run("open", "oak", "--game", GAME, "--seats", "3"))
    asked = club.answer("ann@example.org", "JOIN oak")
    assert ok(run("sign-up", "oak", "--members-only")).output == "oak: open to the club's people only\n"
    assert "oak is open to players of this club only" in club.answer("ann@example.org", f"CONFIRM {token(asked)}")
    assert ok(run("sign-up", "oak", "--close")).output == "oak: sign-up closed\n"
    assert "No game is open for sign-up now." in club.answer("ann@example.org", "LIST")


def test_strangers_get_no_answer_unless_the_gm_lets_pbem_answer_them(club: Club) -> None:
    config = club.root / "pbem.toml"
    config.write_text(config.read_text().replace("reply_to_strangers = true\n", ""))
    club.m = Moderator(load_config(config))
    ok(run("open", "ash", "--game", GAME, "--seats", "2"))
    assert club.send("eve@example.org", "LIST") == {}
    with club.m.store.session() as session:
        assert session.exec(signup.select(OpenGameRow)).one().status == "open"


def _confirm(club: Club, sender: str, body: str) -> dict[str, list[str]]:
    """A command and its CONFIRM: the mails the confirmation brought."""
    return club.send(sender, f"CONFIRM {token(club.answer(sender, body))}")


def test_a_resigned_seat_goes_to_the_first_standby_who_answers(club: Club) -> None:
    ok(run("open", "fir", "--game", GAME, "--seats", "2", "--deadline", "7d"))
    club.join("ann@example.org", "fir")
    club.join("bob@example.org", "fir")
    for sender in ("cyd@example.org", "dot@example.org"):
        done = _confirm(club, sender, f"STANDBY {GAME}")
        assert f"you are in the standby pool of {GAME}" in done[sender][0]
    club.m.resolve("fir", force=True)

    resigned = _confirm(club, "bob@example.org", "RESIGN fir")
    assert "you have given up Bob in fir." in resigned["bob@example.org"][0]
    for sender in ("cyd@example.org", "dot@example.org"):
        [offer] = resigned[sender]
        assert "TAKEOVER fir Bob" in offer
    _, players, _ = club.m.game_state("fir")
    assert next(p for p in players if p.name == "Bob").bot != ""  # a computer player keeps the seat meanwhile

    taken = club.send("dot@example.org", "TAKEOVER fir Bob")
    assert "the seat is yours" in taken["dot@example.org"][0]
    assert any(t.startswith("welcome:") for t in taken["dot@example.org"])
    assert any("this is what happened before you took over" in t for t in taken["dot@example.org"])
    late = club.answer("cyd@example.org", "TAKEOVER fir Bob")
    assert "no seat 'Bob' of fir is offered now" in late

    game, players, _ = club.m.game_state("fir")
    bob = next(p for p in players if p.name == "Bob")
    assert (bob.email, bob.bot, bob.since_turn) == ("dot@example.org", "", 2)
    with club.m.store.session() as session:
        names = {p.id: p.name for p in session.exec(signup.select(PersonRow))}
        tenures = [(names[t.person_id], t.from_turn, t.to_turn, t.ended)
                   for t in session.exec(signup.select(TenureRow).where(TenureRow.player_id == bob.id)
                                         .order_by(TenureRow.id))]
    assert tenures == [("Bob", 1, 2, "resigned"), ("Dot", 2, None, "")]
    assert "0 games finished, 1 resigned, 0 replaced" in club.answer("bob@example.org", "STATUS")
    assert "fir: " + TITLE + ", you play Bob, turn 2" in club.answer("dot@example.org", "STATUS")


def test_the_gm_or_missed_turns_offer_a_seat_to_the_pool(club: Club) -> None:
    ok(run("open", "yew", "--game", GAME, "--seats", "2", "--deadline", "7d"))
    club.join("ann@example.org", "yew")
    club.join("bob@example.org", "yew")
    _confirm(club, "cyd@example.org", f"STANDBY {GAME}")
    before = set((club.root / "outbox").glob("*.eml"))
    out = ok(run("replace", "yew", "Ann", "--standby")).output
    assert out == "Ann of yew is offered to the standby pool: the first TAKEOVER by mail gets it; 1 in the pool were told\n"
    [offer] = club.new_mails(before)["cyd@example.org"]
    assert "TAKEOVER yew Ann" in offer
    again = run("replace", "yew", "Ann", "--standby")  # a typed-twice command makes no second offer
    assert again.exit_code == 1 and "Ann of yew is offered to the standby pool already" in again.output
    ok(run("club-game", "yew", "--missed-limit", "2"))
    before = set((club.root / "outbox").glob("*.eml"))
    club.m.resolve("yew", force=True)
    assert club.new_mails(before).get("cyd@example.org", []) == []  # one turn missed: fewer than the limit
    club.m.resolve("yew", force=True)
    [offer] = club.new_mails(before)["cyd@example.org"]  # Ann's seat has its offer open already
    assert offer.startswith("notice:Cyd, the seat Bob of yew") and "TAKEOVER yew Bob" in offer
    club.m.resolve("yew", force=True)
    assert len(club.new_mails(before)["cyd@example.org"]) == 1  # offered once


def test_another_address_is_confirmed_from_that_address(club: Club) -> None:
    ok(run("open", "ivy", "--game", GAME, "--seats", "3", "--members-only"))
    refused = club.answer("ann@example.org", "JOIN ivy")
    assert "ivy is open to players of this club only" in refused
    ok(run("new-game", "old", "--game", GAME, "--player", "Ann=ann@example.org", "--player", "Bob=bob@example.org",
           "--deadline", "7d"))
    asked = club.send("ann@example.org", "I AM ALSO ann@home.example")
    assert "a mail went to ann@home.example" in asked["ann@example.org"][0]
    [there] = asked["ann@home.example"]
    assert "Ann <ann@example.org> says this address is theirs too" in there
    assert "confirms nothing pending" in club.answer("ann@example.org", f"CONFIRM {token(there)}")  # not from there
    done = club.answer("ann@home.example", f"CONFIRM {token(there)}")
    assert "ann@home.example is now an address of Ann." in done
    # the club knows her at either address: a member may join, and her games are one list
    club.join("ann@home.example", "ivy")
    status = club.answer("ann@home.example", "STATUS")
    assert "old: " in status and "Signed up, waiting for the start:\n  ivy" in status
    status = club.answer("ann@example.org", "TIMEZONE Europe/Paris\nSTATUS")
    assert "your time zone is set" in status and "Fri 27 Nov 2026 09:00 UTC (Europe/Paris: Fri 27 Nov 10:00)" in status


def test_an_open_game_starts_at_its_date_with_its_minimum(club: Club, monkeypatch: pytest.MonkeyPatch) -> None:
    ok(run("open", "oak", "--game", GAME, "--seats", "2-4", "--start", "2026-11-21T18:00:00Z"))
    club.join("ann@example.org", "oak")
    club.join("bob@example.org", "oak")
    assert signup.start_due(club.m) == []  # not yet its date
    monkeypatch.setenv("PBEM_NOW", "2026-11-21T18:00:00Z")
    assert signup.start_due(club.m) == ["oak"]
    _, players, _ = club.m.game_state("oak")
    assert sorted(p.name for p in players) == ["Ann", "Bob"]


def test_a_minimum_of_turns_kept_for_joining(club: Club) -> None:
    ok(run("open", "elm", "--game", GAME, "--seats", "2", "--deadline", "7d"))
    club.join("ann@example.org", "elm")
    club.join("bob@example.org", "elm")
    club.m.resolve("elm", force=True)  # nobody sent orders: a turn missed each
    ok(run("open", "ash", "--game", GAME, "--seats", "2", "--min-reliability", "80"))
    assert "ash asks for 80% of turns kept; you have kept 0%" in club.answer("ann@example.org", "JOIN ash")
    assert "joining needs 80% of turns kept" in club.answer("cyd@example.org", "LIST")
    assert "a seat in ash is yours once you confirm it" in club.answer("cyd@example.org", "JOIN ash")
