"""The moderator on the embedded default: the CLI over SQLite, a Maildir and an outbox folder."""

from __future__ import annotations

import email
import email.policy
import json
import re
from collections.abc import Iterator
from datetime import datetime, timezone
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from pbem import intake, turns
from pbem.cli import main
from pbem.config import load_config
from pbem.moderator import Moderator
from pbem.store import MailRow

PLAYERS = ["Ann=ann@example.org", "Bob=bob@example.net", "Cyd=cyd@example.com"]
SECRETS = ["Ann=AAA-111", "Bob=BBB-222", "Cyd=CCC-333"]


def run(*args: str, input: bytes | None = None) -> Result:
    return CliRunner().invoke(main, list(args), input=input, catch_exceptions=False)


def ok(result: Result) -> Result:
    assert result.exit_code == 0, result.output
    return result


def order_mail(sender: str, body: str, *, mid: str, subject: str = "orders", name: str = "") -> bytes:
    return (
        f"From: {name or sender.split('@')[0].title()} <{sender}>\nTo: gm@pbem.example\nSubject: {subject}\n"
        f"Message-ID: <{mid}>\nDate: Fri, 20 Nov 2026 10:00:00 +0000\nContent-Type: text/plain; charset=utf-8\n\n{body}"
    ).encode()


def outbox(root: Path) -> list[Path]:
    return sorted((root / "outbox").glob("*.eml"))


def text_of(path: Path) -> str:
    msg = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
    part = msg.get_body(("plain",))
    assert part is not None
    return str(part.get_content())  # type: ignore[attr-defined]


def html_of(path: Path) -> str:
    msg = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
    part = msg.get_body(("html",))
    assert part is not None
    return str(part.get_content())  # type: ignore[attr-defined]


def ingest(root: Path, raw: bytes, name: str) -> str:
    path = root / name
    path.write_bytes(raw)
    return str(ok(run("ingest", str(path))).output)


def test_init_writes_a_documented_config(gm: Path) -> None:
    text = (gm / "pbem.toml").read_text()
    assert "[database]" in text and "[inbox]" in text and "[outbox]" in text and "# " in text
    assert (gm / "pbem.sqlite").is_file()
    assert all((gm / "inbox" / d).is_dir() for d in ("cur", "new", "tmp"))
    result = run("init", ".")
    assert result.exit_code == 1 and "already exists" in result.output


def test_welcome_mails_carry_the_order_template(gm: Path) -> None:
    mails = outbox(gm)
    assert [p.name for p in mails] == [
        "000001-welcome-ann@example.org.eml", "000002-welcome-bob@example.net.eml", "000003-welcome-cyd@example.com.eml"
    ]
    text = text_of(mails[1])
    lines = text.splitlines()
    assert lines[lines.index("GAME race") : lines.index("GAME race") + 3] == ["GAME race", "TURN 1", "SECRET BBB-222"]
    assert "Ann, Bob, Cyd, Ann" in text
    assert "MOVE: IF SQUARE 23 IS FREE THEN TO 23 ELSE NEXT CARROT" in text
    assert "SECRET BBB-222" in html_of(mails[1])


def test_orders_are_acknowledged_line_by_line(gm: Path) -> None:
    body = "GAME race\nTURN 1\nSECRET bbb-222\nMOVE: IF SQUARE 5 IS FREE THEN TO 5 ELSE NEXT\nMOVE: TO 99\nSee you!\n"
    out = ingest(gm, order_mail("bob@example.net", body, mid="b1@x"), "b1.eml")
    assert "accepted Bob in race" in out
    ack = outbox(gm)[-1]
    assert ack.name == "000004-ack-bob@example.net.eml"
    msg = email.message_from_bytes(ack.read_bytes(), policy=email.policy.default)
    assert msg["In-Reply-To"] == "<b1@x>" and msg["Auto-Submitted"] == "auto-replied"
    text = text_of(ack)
    assert "  line 4: MOVE 1: IF SQUARE 5 IS FREE THEN TO 5 ELSE NEXT" in text
    assert "  line 5, column 10: square 99 is off the board (squares run from 0 to 64)" in text
    assert "  line 6: See you!" in text
    assert "is now in force" in text and "Deadline: Fri 27 Nov 2026 09:00 UTC" in text
    status = ok(run("status", "race")).output
    assert re.search(r"Bob .* orders in", status) and "1 of 3 sheets in" in status


def test_the_same_mail_twice_changes_nothing(gm: Path) -> None:
    raw = order_mail("ann@example.org", "GAME race\nSECRET AAA-111\nMOVE: TO 5\n", mid="a1@x")
    ingest(gm, raw, "a1.eml")
    before = sorted(p.name for p in outbox(gm))
    out = ingest(gm, raw, "a1-again.eml")
    assert "duplicate" in out
    assert sorted(p.name for p in outbox(gm)) == before


def test_a_later_sheet_replaces_the_earlier(gm: Path) -> None:
    ingest(gm, order_mail("ann@example.org", "GAME race\nSECRET AAA-111\nMOVE: TO 2\n", mid="a1@x"), "a1.eml")
    ingest(gm, order_mail("ann@example.org", "GAME race\nSECRET AAA-111\nMOVE: TO 5\nMOVE: TO 8\n", mid="a2@x"),
           "a2.eml")
    assert "replaces the one you sent before" in text_of(outbox(gm)[-1])
    ok(run("resolve-turn", "race"))
    data = json.loads(ok(run("show", "race", "--json")).output)
    assert data["runners"][0]["square"] == 8


@pytest.mark.parametrize(
    ("sender", "body", "subject", "reason"),
    [
        ("ann@example.org", "GAME race\nSECRET WRONG-1\nMOVE: TO 5", "orders", "the SECRET 'WRONG-1' is not yours"),
        ("ann@example.org", "GAME race\nMOVE: TO 5", "orders", "the orders have no SECRET line"),
        ("ann@example.org", "GAME chess-9\nSECRET AAA-111\nMOVE: TO 5", "orders", "there is no game called 'chess-9'"),
        ("ann@example.org", "GAME race\nTURN 4\nSECRET AAA-111\nMOVE: TO 5", "orders",
         "these orders are for turn 4, which is not open yet; the current turn is 1"),
    ],
)
def test_bad_mail_gets_a_polite_refusal_and_no_orders(gm: Path, sender: str, body: str, subject: str,
                                                      reason: str) -> None:
    out = ingest(gm, order_mail(sender, body, mid="r1@x", subject=subject), "r1.eml")
    assert "refused" in out
    refusal = outbox(gm)[-1]
    assert refusal.name.startswith("000004-refusal-")
    assert reason in text_of(refusal)
    status = ok(run("status", "race")).output
    assert "0 of 3 sheets in" in status


def test_auto_replies_and_bounces_are_ignored_without_reply(gm: Path) -> None:
    auto = order_mail("ann@example.org", "I am away until Monday.\nGAME race\nSECRET AAA-111\nMOVE: TO 5", mid="auto@x")
    auto = auto.replace(b"Subject: orders", b"Subject: Out of office\nAuto-Submitted: auto-replied")
    bounce = order_mail("MAILER-DAEMON@example.org", "Delivery failed", mid="bounce@x")
    assert "ignored" in ingest(gm, auto, "auto.eml")
    assert "ignored" in ingest(gm, bounce, "bounce.eml")
    assert len(outbox(gm)) == 3
    assert "0 of 3 sheets in" in ok(run("status", "race")).output


def test_the_game_is_found_from_the_subject(gm: Path) -> None:
    out = ingest(gm, order_mail("cyd@example.com", "SECRET CCC-333\nMOVE: NEXT", mid="c1@x", subject="Re: race turn 1"),
                 "c1.eml")
    assert "accepted Cyd in race" in out


def test_a_crashing_step_quarantines_the_message_and_the_run_goes_on(gm: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def crash(m: object, session: object, it: intake.Intake) -> None:
        if b"boom" in it.row.raw:
            raise RuntimeError("parser exploded")

    steps = list(intake.PIPELINE)
    steps.insert(5, ("explode", crash))
    monkeypatch.setattr(intake, "PIPELINE", tuple(steps))
    (gm / "mails").mkdir()
    mails = gm / "mails"
    (mails / "1.eml").write_bytes(order_mail("ann@example.org", "GAME race\nSECRET AAA-111\nMOVE: boom", mid="q1@x"))
    (mails / "2.eml").write_bytes(order_mail("bob@example.net", "GAME race\nSECRET BBB-222\nMOVE: TO 4", mid="q2@x"))
    out = ok(run("ingest", str(gm / "mails"))).output
    assert "1.eml: quarantined" in out and "2.eml: accepted" in out
    listing = ok(run("quarantine", "list")).output
    assert "step explode: RuntimeError: parser exploded" in listing and "1 quarantined message" in listing
    m = Moderator(load_config(gm / "pbem.toml"))
    [row] = m.quarantined()
    assert b"MOVE: boom" in row.raw and "Traceback" in row.traceback
    monkeypatch.setattr(intake, "PIPELINE", tuple(s for s in steps if s[0] != "explode"))
    retried = ok(run("quarantine", "retry", str(row.id))).output
    assert "accepted" in retried
    assert "0 quarantined" in ok(run("quarantine", "list")).output


def test_resolving_twice_is_refused_and_preview_keeps_nothing(gm: Path) -> None:
    preview = ok(run("resolve-turn", "race", "--preview")).output
    assert "Preview only: nothing was kept." in preview
    assert json.loads(ok(run("show", "race", "--json")).output)["turn"] == 1
    ok(run("resolve-turn", "race"))
    mails = outbox(gm)
    second = run("resolve-turn", "race")
    assert second.exit_code == 1 and "turn 1 of race is already resolved" in second.output
    assert outbox(gm) == mails
    assert json.loads(ok(run("show", "race", "--json")).output)["turn"] == 2
    explicit = run("resolve-turn", "race", "--turn", "1")
    assert explicit.exit_code == 1 and "already resolved" in explicit.output
    ok(run("resolve-turn", "race", "--force"))
    assert json.loads(ok(run("show", "race", "--json")).output)["turn"] == 3


def test_show_json(gm: Path) -> None:
    ingest(gm, order_mail("ann@example.org", "GAME race\nSECRET AAA-111\nMOVE: TO 10\nMOVE: NEXT", mid="a@x"), "a.eml")
    ok(run("resolve-turn", "race"))
    data = json.loads(ok(run("show", "race", "--json")).output)
    assert data["game"] == "race" and data["turn"] == 2 and data["over"] is False
    assert data["runners"][0] == {"name": "Ann", "square": 10, "carrots": 20, "lettuces": 2, "place": None,
                                  "must": "leave", "skip": False}
    assert [r["name"] for r in data["runners"]] == ["Ann", "Bob", "Cyd"]
    first = json.loads(ok(run("show", "race", "--turn", "1", "--json")).output)
    assert first["turn"] == 1 and all(r["square"] == "start" and r["carrots"] == 65 for r in first["runners"])


def test_reports_never_leak_another_players_carrots(gm: Path) -> None:
    for sender, secret, mid in (("ann@example.org", "AAA-111", "a"), ("bob@example.net", "BBB-222", "b"),
                                ("cyd@example.com", "CCC-333", "c")):
        body = f"GAME race\nSECRET {secret}\nMOVE: IF SQUARE 2 IS FREE THEN TO 2 ELSE NEXT CARROT ELSE NEXT\nMOVE: STAY"
        ingest(gm, order_mail(sender, body, mid=f"{mid}@x"), f"{mid}.eml")
    ok(run("resolve-turn", "race"))
    state = json.loads(ok(run("show", "race", "--json")).output)
    carrots = {r["name"]: r["carrots"] for r in state["runners"]}
    reports = {p.name.split("-")[2].split("@")[0]: p for p in outbox(gm)
               if "-report-" in p.name and "gm-" not in p.name}
    assert set(reports) == {"ann", "bob", "cyd"}
    for reader, path in reports.items():
        for body in (text_of(path), html_of(path)):
            for name, value in carrots.items():
                own = name.lower() == reader
                shown = re.search(rf"{name}\s+square \S+\s+lettuces \d\s+carrots {value}\b", body) or \
                    re.search(rf"<strong>{name}</strong></td><td[^>]*>\S+</td><td[^>]*>\d</td><td[^>]*>{value}<", body)
                assert bool(shown) == own, (reader, name)
            assert "carrots" not in "".join(
                line for line in body.splitlines()
                if re.match(r"\s+\d+\. .* — (taken|skipped)", line) and reader not in line.lower()
            )
    gm_report = next(p for p in outbox(gm) if "gm-report" in p.name)
    assert all(f"carrots {v}" in text_of(gm_report) for v in carrots.values())


def test_re_rendering_a_turn_gives_the_same_bytes(gm: Path) -> None:
    ok(run("resolve-turn", "race"))
    m = Moderator(load_config(gm / "pbem.toml"))
    game, players, record = m.turn_record("race", 1)
    fresh = m.render_turn(game, players, record)
    with m.store.session() as session:
        rows = [mail for mail in m.store.mails(session) if mail.kind in ("report", "gm-report")]
    bodies = m.store.mail_bodies([mail.id or 0 for mail in rows])
    stored = {mail.message_id: bodies[mail.id or 0] for mail in rows}
    assert {mail.msg_id: mail.raw for mail in fresh} == stored
    report = next(p for p in outbox(gm) if p.name.endswith("report-ann@example.org.eml"))
    msg = email.message_from_bytes(report.read_bytes(), policy=email.policy.default)
    kinds = [part.get_content_type() for part in msg.walk()]
    # the next turn's deadline comes as a calendar event beside the report
    assert kinds == ["multipart/mixed", "multipart/alternative", "text/plain", "multipart/related", "text/html",
                     "image/png", "text/calendar"]
    assert msg["Date"] == "Fri, 20 Nov 2026 09:00:00 +0000"


def test_board_pictures(gm: Path) -> None:
    ok(run("board", "race", "-o", str(gm / "b.svg")))
    ok(run("board", "race", "-o", str(gm / "b.png")))
    assert (gm / "b.svg").read_text().startswith("<svg")
    assert (gm / "b.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    bad = run("board", "race", "-o", str(gm / "b.gif"))
    assert bad.exit_code == 1 and ".svg or a .png" in bad.output


def test_errors_say_how_to_fix(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("PBEM_CONFIG", raising=False)
    result = run("status", "race")
    assert result.exit_code == 1 and "run `pbem init DIR` first" in result.output
    ok(run("init", "."))
    result = run("status", "nope")
    assert result.exit_code == 1 and "no game called 'nope'" in result.output
    result = run("new-game", "g", "--game", "chess", "--player", "A=a@x.org", "--player", "B=b@x.org")
    assert result.exit_code == 1 and "known games:" in result.output and "hare-tortoise" in result.output
    result = run("new-game", "g", "--player", "Ann=a@x.org")
    assert result.exit_code == 1 and "takes 2 to 6 players, not 1" in result.output


def test_every_command_has_help_with_an_example() -> None:
    def walk(group: object, prefix: list[str]) -> Iterator[list[str]]:
        for name, cmd in getattr(group, "commands", {}).items():
            yield prefix + [name]
            yield from walk(cmd, prefix + [name])

    for path in walk(main, []):
        out = ok(run(*path, "--help")).output
        assert "Example: pbem " in out, path


def test_ingest_reads_the_maildir_and_stdin(gm: Path) -> None:
    raw = order_mail("ann@example.org", "GAME race\nSECRET AAA-111\nMOVE: TO 5", mid="md@x")
    (gm / "inbox" / "new" / "1700000000.1.host").write_bytes(raw)
    out = ok(run("ingest")).output
    assert "accepted Ann in race" in out
    assert not list((gm / "inbox" / "new").iterdir()) and len(list((gm / "inbox" / "cur").iterdir())) == 1
    mail = order_mail("bob@example.net", "GAME race\nSECRET BBB-222\nMOVE: TO 4", mid="s@x")
    out = ok(run("ingest", "-", input=mail)).output
    assert "accepted Bob in race" in out


def test_orders_for_a_finished_game_are_refused(gm: Path) -> None:
    m = Moderator(load_config(gm / "pbem.toml"), now=lambda: datetime(2026, 11, 20, tzinfo=timezone.utc))
    with m.store.session() as session:
        game = m.store.game(session, "race")
        game.over = True
        session.add(game)
    out = ingest(gm, order_mail("ann@example.org", "GAME race\nSECRET AAA-111\nMOVE: TO 5", mid="late@x"), "l.eml")
    assert "refused" in out and "the game race is over" in text_of(outbox(gm)[-1])


def test_outbox_rows_match_files(gm: Path) -> None:
    m = Moderator(load_config(gm / "pbem.toml"))
    with m.store.session() as session:
        rows: list[MailRow] = m.store.mails(session)
    bodies = m.store.mail_bodies([r.id or 0 for r in rows])
    assert all(r.status == "sent" and Path(r.path).read_bytes() == bodies[r.id or 0] for r in rows)


def test_a_player_sets_their_time_zone_by_mail(gm: Path) -> None:
    body = "GAME race\nSECRET AAA-111\nTIMEZONE Asia/Kolkata\nMOVE: TO 5\n"
    ingest(gm, order_mail("ann@example.org", body, mid="tz@x"), "tz.eml")
    assert "Deadline: Fri 27 Nov 2026 09:00 UTC (Asia/Kolkata: Fri 27 Nov 14:30)" in text_of(outbox(gm)[-1])


def test_run_once_on_the_embedded_default(gm: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`pbem run --once` without [imap]/[smtp]: the inbox Maildir in, the outbox folder out."""
    for n, (sender, secret) in enumerate((("ann@example.org", "AAA-111"), ("bob@example.net", "BBB-222"))):
        raw = order_mail(sender, f"GAME race\nSECRET {secret}\nMOVE: NEXT\nMOVE: NEXT", mid=f"run{n}@x")
        (gm / "inbox" / "new" / f"17000000{n}.M1.host").write_bytes(raw)
    out = ok(run("run", "--once")).output
    assert "2 fetched; 2 accepted" in out and "0 turns resolved" in out
    assert not list((gm / "inbox" / "new").iterdir())
    monkeypatch.setenv("PBEM_NOW", "2026-11-27T09:30:00Z")  # the 7-day deadline has passed
    out = ok(run("run", "--once")).output
    assert "1 turn resolved (race turn 1: 4 reports); 0 reminders; 4 sent" in out  # each mail the round sent, counted
    assert sum(1 for p in outbox(gm) if "-report-" in p.name) == 4
    assert json.loads(ok(run("show", "race", "--json")).output)["turn"] == 2


def test_a_time_zone_line_is_listed_as_applied(gm: Path) -> None:
    body = "GAME race\nSECRET AAA-111\nTime zone: Asia/Kolkata\nMOVE: TO 5\n"
    ingest(gm, order_mail("ann@example.org", body, mid="tz2@x"), "tz.eml")
    ack = text_of(outbox(gm)[-1])
    accepted = ack.split("ACCEPTED")[1].split("You have")[0]
    assert "  line 3: TIMEZONE Asia/Kolkata\n" in accepted and "IGNORED" not in ack


@pytest.mark.parametrize("zone", ["America", "Etc", "Europe/Atlantis", "A" * 300, "../../etc/passwd"])
def test_an_unknown_time_zone_is_rejected_with_a_reason_and_the_orders_kept(gm: Path, zone: str) -> None:
    body = f"GAME race\nSECRET AAA-111\nTIMEZONE {zone}\nMOVE: TO 5\n"
    out = ingest(gm, order_mail("ann@example.org", body, mid=f"tz-{len(zone)}-{zone[:3]}@x"), "tz.eml")
    assert "accepted Ann in race" in out
    ack = text_of(outbox(gm)[-1])
    assert "REJECTED" in ack and "line 3, column" in ack and "time zone" in ack
    assert "line 4: MOVE 1: TO 5" in ack
    assert "Deadline: Fri 27 Nov 2026 09:00 UTC\n" in ack  # the zone stays UTC
    assert ok(run("quarantine", "list")).output.strip().endswith("0 quarantined messages")


def test_orders_from_a_seat_with_no_move_are_refused(gm: Path) -> None:
    m = Moderator(load_config(gm / "pbem.toml"))
    with m.store.session() as session:
        game = m.store.game(session, "race")
        state = json.loads(game.state)
        state["runners"][0].update(square=64, place=1, carrots=0, lettuces=0)
        game.state = json.dumps(state)
        session.add(game)
    out = ingest(gm, order_mail("ann@example.org", "GAME race\nSECRET AAA-111\nMOVE: TO 5", mid="home@x"), "h.eml")
    assert "refused" in out and "Ann has no move in turn 1 of race" in text_of(outbox(gm)[-1])
    assert "has no move this turn" in ok(run("status", "race")).output


def test_a_computer_player_takes_a_seat_with_no_address(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("PBEM_NOW", "2026-11-20T09:00:00Z")
    monkeypatch.delenv("PBEM_CONFIG", raising=False)
    ok(run("init", ".", "--address", "gm@pbem.example"))
    ok(run("new-game", "duel", "--seed", "3", "--player", "Ann=ann@example.org", "--player", "Sam=bot:strong",
           "--early"))
    assert [p.name for p in outbox(tmp_path)] == [n for n in (p.name for p in outbox(tmp_path)) if "ann@" in n]
    m = Moderator(load_config(tmp_path / "pbem.toml"))
    _, players, _ = m.game_state("duel")
    assert [(p.name, p.email, p.bot) for p in players] == [("Ann", "ann@example.org", ""), ("Sam", "", "strong")]
    ingest(tmp_path, order_mail("ann@example.org", f"GAME duel\nSECRET {players[0].secret}\nMOVE: TO 5\nMOVE: NEXT",
                                mid="duel@x"), "d.eml")
    assert m.due_games() == [("duel", 1)]  # the computer player's seat does not hold the turn up
    summary = m.resolve("duel")
    # the computer player wrote its sheet, which went through intake like Ann's
    assert [(s.name, s.rule) for s in summary.resolutions] == [("Ann", None), ("Sam", None), ("Ann", None)]
    assert summary.resolutions[1].order == "MOVE 1"
    with m.store.session() as session:
        mails = m.store.mails(session)
        sheets = [r for r in m.store.messages(session) if r.source == "computer-player"]
    assert [(r.status, r.step, r.subject) for r in sheets] == [("accepted", "store-sheet", "Sam (computer)")]
    reports = {r.recipient: r for r in mails if r.kind in ("report", "gm-report")}
    assert set(reports) == {"ann@example.org", "gm@pbem.example"}
    bodies = m.store.mail_bodies([r.id or 0 for r in reports.values()])
    for r in reports.values():
        body = email.message_from_bytes(bodies[r.id or 0], policy=email.policy.default).get_body(("plain",))
        assert body is not None and "Computer players: Sam (strong)." in str(body.get_content())  # type: ignore[attr-defined]


def test_mail_from_strangers_is_kept_and_counted_but_not_answered(gm: Path) -> None:
    before = sorted(p.name for p in outbox(gm))
    for n in range(5):
        out = ingest(gm, order_mail(f"eve{n}@example.org", "GAME race\nSECRET AAA-111\nMOVE: TO 5", mid=f"eve{n}@x"),
                     "e.eml")
        assert "refused" in out and f"eve{n}@example.org is not a player of race" in out
    assert sorted(p.name for p in outbox(gm)) == before
    assert "5 mails from addresses that play no game here" in ok(run("status", "race")).output


def test_refusals_to_strangers_when_the_gm_turns_them_on_are_bounded(gm: Path) -> None:
    from dataclasses import replace

    m = Moderator(load_config(gm / "pbem.toml"))
    m.intake = replace(m.intake, policy=replace(m.intake.policy, reply_to_strangers=True, strangers_per_hour=3))
    for n in range(6):  # a robot answering from a fresh address each time
        m.ingest(order_mail(f"robot{n}@example.org", "GAME race\nMOVE: TO 5", mid=f"robot{n}@x"), "r")
    with m.store.session() as session:
        refusals = [r.recipient for r in m.store.mails(session) if r.kind == "refusal"]
    assert refusals == ["robot0@example.org", "robot1@example.org", "robot2@example.org"]


def test_wrong_secrets_never_starve_the_real_acknowledgement_and_the_gm_is_told(gm: Path) -> None:
    for n in range(25):  # more than max_replies_per_hour (20) in Ann's name
        ingest(gm, order_mail("ann@example.org", "GAME race\nSECRET GUESS-1\nMOVE: TO 5", mid=f"guess{n}@x"), "g.eml")
    out = ingest(gm, order_mail("ann@example.org", "GAME race\nSECRET AAA-111\nMOVE: TO 2", mid="real@x"), "a.eml")
    assert "accepted Ann in race" in out
    assert "your orders for race turn 1 are in" in text_of(outbox(gm)[-1])
    m = Moderator(load_config(gm / "pbem.toml"))
    with m.store.session() as session:
        alerts = [r for r in m.store.mails(session) if r.kind == "gm-alert"]
    assert len(alerts) == 1 and alerts[0].recipient == "gm@pbem.example"
    assert "wrong secret in Ann's name" in alerts[0].subject


def test_a_known_message_id_with_another_body_is_another_mail(gm: Path) -> None:
    ingest(gm, order_mail("ann@example.org", "GAME race\nSECRET AAA-111\nMOVE: TO 2", mid="same@x"), "a.eml")
    out = ingest(gm, order_mail("ann@example.org", "GAME race\nSECRET AAA-111\nMOVE: TO 5", mid="same@x"), "b.eml")
    assert "accepted Ann in race" in out and "replaces the one you sent before" in text_of(outbox(gm)[-1])
    out = ingest(gm, order_mail("ann@example.org", "GAME race\nSECRET AAA-111\nMOVE: TO 5", mid="same@x"), "c.eml")
    assert "duplicate" in out
    long_id = "x" * 2000 + "@example.org"
    ingest(gm, order_mail("ann@example.org", "GAME race\nSECRET AAA-111\nMOVE: TO 3", mid=long_id), "d.eml")
    out = ingest(gm, order_mail("ann@example.org", "GAME race\nSECRET AAA-111\nMOVE: TO 4", mid=long_id), "e.eml")
    assert "accepted Ann in race" in out


def test_sheets_count_in_arrival_order_not_processing_order(gm: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    m = Moderator(load_config(gm / "pbem.toml"))
    first, _ = intake.store_raw(m.intake, order_mail("ann@example.org", "GAME race\nSECRET AAA-111\nMOVE: TO 2",
                                                      mid="older@x"), "older")
    assert first is not None  # stored, then the process died before its pipeline ran
    m.ingest(order_mail("ann@example.org", "GAME race\nSECRET AAA-111\nMOVE: TO 5", mid="newer@x"), "newer")
    status = ok(run("status", "race")).output
    assert "1 mail stored but not yet taken in" in status
    result = intake.run_pipeline(m.intake, first)  # recovered later
    assert result.status == "accepted" and "later is in force" in result.reason
    assert "was sent before the sheet of yours that is in force" in text_of(outbox(gm)[-1])
    out = ok(run("resolve-turn", "race", "--force")).output
    assert "1. Ann moves from START to square 5\n     order: MOVE 1: TO 5" in out


def test_a_sheet_that_misses_the_turn_is_told_so(gm: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    m = Moderator(load_config(gm / "pbem.toml"))
    original = intake.acknowledge
    # the other process took in the mail pending when it began, before this one was stored
    monkeypatch.setattr(turns, "recover", lambda _deps: [])

    def resolve_meanwhile(deps: intake.Deps, session: object, it: intake.Intake) -> None:
        original(deps, session, it)  # type: ignore[arg-type]
        Moderator(load_config(gm / "pbem.toml")).resolve("race", force=True)  # another process resolves now

    monkeypatch.setattr(intake, "PIPELINE", tuple((n, resolve_meanwhile if n == "acknowledge" else s)
                                                  for n, s in intake.PIPELINE))
    result = m.ingest(order_mail("ann@example.org", "GAME race\nSECRET AAA-111\nMOVE: TO 5", mid="late@x"), "l")
    assert result.status == "refused" and "was resolved while these orders were on their way" in result.reason
    assert "TURN 2" in text_of(outbox(gm)[-1])
    with m.store.session() as session:
        assert m.store.current_sheets(session, 1, 1) == {} and m.store.current_sheets(session, 1, 2) == {}


def test_reports_carry_a_reply_token_for_one_turn_not_the_secret(gm: Path) -> None:
    from pbem.tokens import reply_token

    ingest(gm, order_mail("ann@example.org", "GAME race\nSECRET AAA-111\nMOVE: TO 5", mid="t1@x"), "t1.eml")
    ack = text_of(outbox(gm)[-1])
    assert "AAA-111" not in ack and "SECRET (checked; not repeated here)" in ack
    ok(run("resolve-turn", "race"))
    report = text_of(next(p for p in outbox(gm) if p.name.endswith("report-ann@example.org.eml")))
    token = reply_token("AAA-111", "race", 2)
    assert f"SECRET {token}" in report and "AAA-111" not in report
    out = ingest(gm, order_mail("ann@example.org", f"GAME race\nSECRET {token}\nMOVE: NEXT", mid="t2@x"), "t2.eml")
    assert "accepted Ann" in out
    stale = reply_token("AAA-111", "race", 1)  # a token of another turn proves nothing
    out = ingest(gm, order_mail("ann@example.org", f"GAME race\nSECRET {stale}\nMOVE: NEXT", mid="t3@x"), "t3.eml")
    assert "refused" in out


def test_secrets_change_by_the_gm_and_by_mail(gm: Path) -> None:
    out = ok(run("secret", "race", "Ann", "--set", "NEW-777")).output
    assert "new secret, mailed to ann@example.org" in out
    assert "NEW-777" in text_of(outbox(gm)[-1])
    assert "refused" in ingest(gm, order_mail("ann@example.org", "GAME race\nSECRET AAA-111\nMOVE: TO 5", mid="s1@x"), "s")
    out = ingest(gm, order_mail("ann@example.org", "GAME race\nSEND SECRET", mid="s2@x"), "s")
    assert "answered" in out and "NEW-777" in text_of(outbox(gm)[-1])
    out = ingest(gm, order_mail("ann@example.org", "GAME race\nSECRET NEW-777\nNEW SECRET\nMOVE: TO 5", mid="s3@x"), "s")
    assert "accepted Ann" in out
    mails = [text_of(p) for p in outbox(gm)[-2:]]
    assert any("you asked for a new one" in t for t in mails) and not any("NEW-777" in t for t in mails)
    for bad in ("has space", "x", "-lead"):
        assert run("secret", "race", "Ann", "--set", bad).exit_code == 1
    assert "no player 'Zed'" in run("secret", "race", "Zed").output


def test_history_says_where_a_slot_ended_after_the_hare(gm: Path) -> None:
    ok(run("resolve-turn", "race", "--force"))
    m = Moderator(load_config(gm / "pbem.toml"))
    for _ in range(2, 16):  # seed 7 (keyed): the hare first moves a runner in turn 13
        m.resolve("race", force=True)
        out = ok(run("history", "race")).output
        if "the hare sends it to" in out:
            line = next(x for x in out.splitlines() if "the hare sends it to" in x)
            moved, _, ended = line.partition(", and the hare sends it to ")
            assert moved.split(" to ")[-1] != ended
            return
    pytest.fail("no hare result moved a runner in fifteen turns of this seed")


def test_an_intake_step_runs_alone_with_only_what_it_uses(tmp_path: Path) -> None:
    from pbem.mailer import Mailer
    from pbem.postbox import Postbox
    from pbem.store import MessageRow, Store

    store = Store("sqlite://")
    store.create()
    now = lambda: datetime(2026, 11, 20, tzinfo=timezone.utc)  # noqa: E731
    config = load_config(_init(tmp_path))
    deps = intake.Deps(store, now, lambda name: pytest.fail("no game is looked up"), Mailer(config, Postbox(store), now),
                       lambda: 0)
    it = intake.Intake(row=MessageRow(message_id="x", raw=b"From: Ann <ann@example.org>\nSubject: hi\n\nGAME race\n"))
    with store.session() as session:
        intake.read_headers(deps, session, it)
        intake.take_text(deps, session, it)
        try:
            intake.find_game(deps, session, it)
        except intake.Stop as stop:
            assert (stop.status, stop.reason) == ("refused", "there is no game called 'race'")
    assert (it.sender, it.sheet.game) == ("ann@example.org", "race")


def _init(root: Path) -> Path:
    from pbem.config import write_config

    return write_config(root, address="gm@pbem.example")


def test_a_game_that_resolves_on_receipt_resolves_when_the_last_sheet_comes_in(
        gm: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from dataclasses import replace

    from pbem.games import find_game

    game = find_game("hare-tortoise")
    monkeypatch.setattr(type(game), "info", replace(game.info, resolve_on_receipt=True))
    m = Moderator(load_config(gm / "pbem.toml"))
    for sender, secret in (("ann@example.org", "AAA-111"), ("bob@example.net", "BBB-222")):
        m.ingest(order_mail(sender, f"GAME race\nSECRET {secret}\nMOVE: NEXT", mid=f"{secret}@r"), "r")
        assert m.game_state("race")[0].turn == 1
    m.ingest(order_mail("cyd@example.com", "GAME race\nSECRET CCC-333\nMOVE: NEXT", mid="ccc@r"), "r")
    assert m.game_state("race")[0].turn == 2
