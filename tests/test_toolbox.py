"""The GM's toolbox and the players' mail commands, by mail on the embedded default."""

from __future__ import annotations

import email
import email.policy
import json
from pathlib import Path

import pytest

from pbem.config import load_config
from pbem.moderator import Moderator
from tests.test_moderator import html_of, ingest, ok, order_mail, outbox, run, text_of


def new_mails(root: Path, before: set[str]) -> list[Path]:
    return [p for p in outbox(root) if p.name not in before]


def names(root: Path) -> set[str]:
    return {p.name for p in outbox(root)}


def parts(path: Path) -> list[str]:
    msg = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
    return [p.get_content_type() for p in msg.walk()]


def calendar_of(path: Path) -> str:
    msg = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
    part = next(p for p in msg.walk() if p.get_content_type() == "text/calendar")
    return str(part.get_content())  # type: ignore[attr-defined]


def mail(root: Path, sender: str, body: str, mid: str) -> tuple[str, list[Path]]:
    before = names(root)
    out = ingest(root, order_mail(sender, body, mid=mid), f"{mid}.eml")
    return out, new_mails(root, before)


# the players' commands --------------------------------------------------------------------------

def test_help_needs_no_secret_and_goes_only_to_the_players_own_address(gm: Path) -> None:
    out, mails = mail(gm, "bob@example.net", "HELP\n", "h1@x")
    assert "answered" in out
    assert [p.name.split("-", 1)[1] for p in mails] == ["answer-bob@example.net.eml"]
    text = text_of(mails[0])
    assert "your secret is BBB-222" in text and "PREVIEW" in text and "VACATION <from> <to>" in text
    assert "GAME race" in text  # the ready-to-edit sheet


def test_status_tells_who_sent_orders_never_what(gm: Path) -> None:
    mail(gm, "ann@example.org", "GAME race\nSECRET AAA-111\nMOVE: TO 5\n", "a1@x")
    out, mails = mail(gm, "bob@example.net", "GAME race\nSECRET BBB-222\nSTATUS\n", "s1@x")
    assert "answered" in out and len(mails) == 1
    text = text_of(mails[0])
    assert "Ann          in" in text and "Bob          not yet" in text
    assert "TO 5" not in text
    assert "Deadline: Fri 27 Nov 2026 09:00 UTC" in text
    assert "text/calendar" in parts(mails[0])
    assert "DTSTART:20261127T090000Z" in calendar_of(mails[0])


def test_commands_need_the_secret(gm: Path) -> None:
    out, mails = mail(gm, "bob@example.net", "GAME race\nSTATUS\n", "s1@x")
    assert "refused" in out and "SECRET" in text_of(mails[0])


def test_preview_tells_slot_by_slot_and_stores_nothing(gm: Path) -> None:
    body = "GAME race\nSECRET AAA-111\nPREVIEW\nMOVE: IF CARROTS > 100 THEN TO 5 ELSE STAY ELSE TO 2\nMOVE: TO 9\n"
    out, mails = mail(gm, "ann@example.org", body, "p1@x")
    assert "PREVIEW was answered" in out
    text = text_of(mails[0])
    assert "alternative 1 `IF CARROTS > 100 THEN TO 5`: skipped, the condition is false" in text
    assert "alternative 2 `STAY`: skipped, START is not a carrot square" in text
    assert "alternative 3 `TO 2`: taken" in text
    assert "Nothing was stored" in text
    status = ok(run("status", "race")).output
    assert "0 of 3 sheets in" in status


def test_preview_never_throws_the_die_on_a_hare_square(gm: Path) -> None:
    m = Moderator(load_config(gm / "pbem.toml"))
    before = m.game_state("race")[0].seed
    out, mails = mail(gm, "ann@example.org", "GAME race\nSECRET AAA-111\nPREVIEW\nMOVE: TO 3\n", "p2@x")
    text = text_of(mails[0])
    assert "hare square 3" in text and "the die decides (1:" in text and "preview stops here" in text
    assert m.game_state("race")[0].seed == before


def test_order_lint_warns_and_rejects_nothing(gm: Path) -> None:
    body = ("GAME race\nSECRET AAA-111\nMOVE: IF CARROTS > 50 AND CARROTS < 10 THEN TO 5 ELSE TO 2\n"
            "MOVE: STAY\nMOVE: TO 7\nMOVE: TO 9\n")
    out, mails = mail(gm, "ann@example.org", body, "l1@x")
    assert "accepted" in out
    text = text_of(mails[0])
    assert "WARNINGS" in text
    assert "can never be taken: `CARROTS < 10` contradicts an earlier part of the condition" in text
    assert "4 MOVE lines, but you have 2 slots this turn: MOVE 3 and later are never used" in text
    assert "REJECTED" not in text


def test_lint_warns_of_a_move_onto_a_tortoise_square_ahead(gm: Path) -> None:
    """A forward move never ends on a tortoise square: `TO 11` from START is always skipped, and
    the acknowledgement says so before the turn, as it does for `STAY` off a carrot square."""
    body = "GAME race\nSECRET AAA-111\nMOVE: TO 11 ELSE TO 2\nMOVE: TO 11\n"
    out, mails = mail(gm, "ann@example.org", body, "l3@x")
    assert "accepted" in out
    text = text_of(mails[0])
    assert ("MOVE 1 (line 3), alternative 1 `TO 11`: square 11 is a tortoise square ahead of you, and a tortoise "
            "square is reached only by falling back, so this alternative is always skipped") in text
    # MOVE 2 is not warned: the runner may stand beyond square 11 by then, and fall back to it
    assert text.count("is a tortoise square ahead of you") == 1
    assert "REJECTED" not in text


def test_lint_warns_of_slots_left_to_the_default_move(gm: Path) -> None:
    _, mails = mail(gm, "ann@example.org", "GAME race\nSECRET AAA-111\nMOVE: TO 2\n", "l2@x")
    assert "the default move plays there" in text_of(mails[0])


def test_standing_orders_play_in_later_turns_until_another_sheet(gm: Path) -> None:
    _, mails = mail(gm, "ann@example.org", "GAME race\nSECRET AAA-111\nSTANDING\nMOVE: NEXT CARROT\nDEFAULT: NEXT CARROT\n",
                    "st1@x")
    assert "STANDING: this sheet stays in force" in text_of(mails[0])
    ok(run("resolve-turn", "race", "--force"))
    assert "Ann          ann@example.org              standing orders" in ok(run("status", "race")).output
    ok(run("resolve-turn", "race", "--force"))
    m = Moderator(load_config(gm / "pbem.toml"))
    _, _, record = m.turn_record("race", 2)
    assert "NEXT CARROT" in (json.loads(record.sheets)["Ann"] or "")
    assert json.loads(record.sheets)["Bob"] is None
    mail(gm, "ann@example.org", "GAME race\nSECRET AAA-111\nMOVE: NEXT\n", "st2@x")
    ok(run("resolve-turn", "race", "--force"))
    ok(run("resolve-turn", "race", "--force"))
    _, _, record = m.turn_record("race", 4)
    assert json.loads(record.sheets)["Ann"] is None  # a plain sheet ended the standing orders


def test_history_and_resend_by_mail(gm: Path) -> None:
    ok(run("resolve-turn", "race", "--force"))
    out, mails = mail(gm, "cyd@example.com", "GAME race\nSECRET CCC-333\nHISTORY\nRESEND 1\n", "r1@x")
    assert "answered: HISTORY, RESEND" in out
    subjects = [email.message_from_bytes(p.read_bytes(), policy=email.policy.default)["Subject"] for p in mails]
    assert subjects == ["race: HISTORY, RESEND 1"]  # one mail, one answer
    assert "(race: turn 1 report (sent again)):" in text_of(mails[0]) and parts(mails[0])[-1] == "image/png"
    assert all(p.name.endswith("cyd@example.com.eml") for p in mails)
    out, mails = mail(gm, "cyd@example.com", "GAME race\nSECRET CCC-333\nRESEND 7\n", "r2@x")
    assert "has resolved turns 1 to 1" in text_of(mails[0])


def test_a_command_written_many_times_is_answered_once(gm: Path) -> None:
    ok(run("resolve-turn", "race", "--force"))
    body = "GAME race\nSECRET CCC-333\n" + "STATUS\n" * 50 + "RESEND 1\n" * 9 + "VACATION 2026-12-01 2026-12-02\n" * 3
    out, mails = mail(gm, "cyd@example.com", body, "many@x")
    assert "answered" in out
    assert sorted(p.name.split("-", 1)[1] for p in mails) == [
        "answer-cyd@example.com.eml", "gm-alert-gm@pbem.example.eml"]


def test_press_reaches_the_players_and_nobody_else(gm: Path) -> None:
    out, mails = mail(gm, "ann@example.org", "GAME race\nSECRET AAA-111\nPRESS\nBob, shall we both avoid 23?\n"
                      "-- \nAnn", "pr1@x")
    assert "answered" in out
    to = sorted(p.name.split("-", 1)[1] for p in mails)
    assert to == ["answer-ann@example.org.eml", "press-bob@example.net.eml", "press-cyd@example.com.eml"]
    press = text_of(next(p for p in mails if "press-bob" in p.name))
    assert "Bob, shall we both avoid 23?" in press and "from Ann" in press and "AAA-111" not in press
    # a stranger cannot send press
    out, mails = mail(gm, "eve@evil.example", "GAME race\nSECRET AAA-111\nPRESS\nspam\n", "pr2@x")
    assert "refused" in out and not mails


def test_the_gm_switches_press_off(gm: Path) -> None:
    before = names(gm)
    ok(run("press", "race", "off"))
    assert len(new_mails(gm, before)) == 3
    _, mails = mail(gm, "ann@example.org", "GAME race\nSECRET AAA-111\nPRESS hello\n", "po1@x")
    assert [p.name.split("-", 1)[1] for p in mails] == ["answer-ann@example.org.eml"]
    assert "switched press off" in text_of(mails[0])
    assert run("press", "race", "off").exit_code == 1


def test_press_has_a_daily_limit(gm: Path) -> None:
    for n in range(5):
        mail(gm, "ann@example.org", f"GAME race\nSECRET AAA-111\nPRESS hello {n}\n", f"pl{n}@x")
    _, mails = mail(gm, "ann@example.org", "GAME race\nSECRET AAA-111\nPRESS once more\n", "pl9@x")
    assert [p.name.split("-", 1)[1] for p in mails] == ["answer-ann@example.org.eml"]
    assert "5 PRESS messages a day" in text_of(mails[0])


def test_vacation_within_the_budget_and_the_gm_is_told(gm: Path) -> None:
    out, mails = mail(gm, "bob@example.net", "GAME race\nSECRET BBB-222\nVACATION 2026-11-21 2026-11-30\n", "v1@x")
    assert "answered" in out
    kinds = sorted(p.name.split("-", 1)[1] for p in mails)
    assert kinds == ["answer-bob@example.net.eml", "gm-alert-gm@pbem.example.eml"]
    assert "10 of 14" in text_of(next(p for p in mails if "answer" in p.name))
    out, mails = mail(gm, "bob@example.net", "GAME race\nSECRET BBB-222\nVACATION 2026-12-01 2026-12-05\n", "v2@x")
    assert "answered" in out and "4 of the game's 14 vacation days" in text_of(mails[0])
    out, mails = mail(gm, "bob@example.net", "GAME race\nSECRET BBB-222\nVACATION 2026-11-01 2026-11-02\n", "v3@x")
    assert "in the past" in text_of(mails[0])
    # no reminder goes to a player away
    m = Moderator(load_config(gm / "pbem.toml"), now=lambda: __import__("datetime").datetime(
        2026, 11, 26, 12, tzinfo=__import__("datetime").timezone.utc))
    from datetime import timedelta
    m.queue_reminders([timedelta(hours=48)])
    reminded = sorted(p.name.split("-", 1)[1] for p in outbox(gm) if "reminder" in p.name)
    assert reminded == ["reminder-ann@example.org.eml", "reminder-cyd@example.com.eml"]


# the GM's commands ------------------------------------------------------------------------------

def test_games_lists_every_game_with_missing_orders(gm: Path) -> None:
    mail(gm, "ann@example.org", "GAME race\nSECRET AAA-111\nMOVE: TO 5\n", "a1@x")
    out = ok(run("games")).output
    assert "race" in out and "hare-tortoise (variable-pig)" in out and "turn 1" in out
    assert "missing: Bob, Cyd" in out


def test_replace_a_player(gm: Path) -> None:
    ok(run("resolve-turn", "race", "--force"))  # nobody sent orders: everybody missed turn 1
    before = names(gm)
    out = ok(run("replace", "race", "Cyd", "--email", "dora@example.org")).output
    assert "now played by dora@example.org from turn 2" in out
    mails = new_mails(gm, before)
    to = sorted(p.name.split("-", 1)[1] for p in mails)
    assert to == ["notice-ann@example.org.eml", "notice-bob@example.net.eml", "notice-dora@example.org.eml",
                  "welcome-dora@example.org.eml"]
    story = text_of(next(p for p in mails if "notice-dora" in p.name))
    assert "Turn 1" in story and "The position now" in story
    welcome = text_of(next(p for p in mails if "welcome-dora" in p.name))
    assert "CCC-333" not in welcome
    # the old secret and address no longer work; the new player's orders do
    out, _ = mail(gm, "cyd@example.com", "GAME race\nSECRET CCC-333\nMOVE: NEXT\n", "c1@x")
    assert "refused" in out
    history = ok(run("history", "race")).output
    assert "Cyd: 0 missed turns since turn 2" in history and "Ann: 1 missed turn (1)" in history
    assert "handed to <dora@example.org> from turn 2" in history


def test_a_replacement_gets_the_deadline_extended(gm: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PBEM_NOW", "2026-11-26T09:00:00Z")  # a day before the deadline
    before = names(gm)
    ok(run("replace", "race", "Bob", "--email", "ben@example.org"))
    notice = next(p for p in new_mails(gm, before) if "notice-ann" in p.name)
    assert "deadline is extended" in text_of(notice) and "2026-11-29 09:00 UTC" in text_of(notice)
    assert "text/calendar" in parts(notice)


def test_replace_with_a_bot_plays_the_seat(gm: Path) -> None:
    assert run("replace", "race", "Bob", "--bot", "easy").exit_code == 1  # no such level: refused
    ok(run("replace", "race", "Bob", "--bot", "baseline"))
    ok(run("resolve-turn", "race", "--force"))
    assert "Bob" in ok(run("history", "race")).output


def test_pause_resume_and_deadline(gm: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    before = names(gm)
    ok(run("pause", "race"))
    assert len(new_mails(gm, before)) == 3
    assert "paused" in ok(run("games")).output
    monkeypatch.setenv("PBEM_NOW", "2026-11-28T09:00:00Z")  # past the old deadline: nothing is due while paused
    m = Moderator(load_config(gm / "pbem.toml"))
    assert m.due_games() == []
    monkeypatch.setenv("PBEM_NOW", "2026-11-22T09:00:00Z")
    out = ok(run("resume", "race")).output
    assert "Sun 29 Nov 2026 09:00 UTC" in out  # moved on by the two days of the pause
    before = names(gm)
    ok(run("deadline", "race", "2026-12-01 18:00 Europe/London"))
    notice = new_mails(gm, before)[0]
    assert "2026-12-01 18:00 UTC" in text_of(notice) and "DTSTART:20261201T180000Z" in calendar_of(notice)
    assert run("deadline", "race", "2020-01-01 00:00").exit_code == 1


def test_rollback_and_a_corrected_resolution(gm: Path) -> None:
    mail(gm, "ann@example.org", "GAME race\nSECRET AAA-111\nMOVE: TO 2\n", "a1@x")
    ok(run("resolve-turn", "race", "--force"))
    out = ok(run("rollback", "race")).output
    assert "Turn 1 of race is undone" in out
    assert "turn 1" in ok(run("games")).output
    mail(gm, "ann@example.org", "GAME race\nSECRET AAA-111\nMOVE: TO 5\n", "a2@x")
    before = names(gm)
    ok(run("resolve-turn", "race", "--force"))
    reports = [p for p in new_mails(gm, before) if "report" in p.name]
    assert len(reports) == 4
    msg = email.message_from_bytes(reports[0].read_bytes(), policy=email.policy.default)
    assert msg["Subject"] == "race: turn 1 report (correction 1)"
    assert "CORRECTION: turn 1 was resolved again" in text_of(reports[0])
    assert "<strong>CORRECTION</strong>: turn 1 was resolved again" in html_of(reports[0])
    m = Moderator(load_config(gm / "pbem.toml"))
    _, _, record = m.turn_record("race", 1)
    assert "MOVE: TO 5" in json.loads(record.sheets)["Ann"] and record.correction == 1
    with m.store.session() as session:
        from pbem.store import UndoneTurnRow

        undone = list(session.exec(__import__("sqlmodel").select(UndoneTurnRow)))
    assert len(undone) == 1 and '"Ann"' in undone[0].sheets
    assert "(correction 1)" in ok(run("history", "race")).output


def test_edit_is_recorded_and_told_without_hidden_values(gm: Path) -> None:
    out = ok(run("edit", "race", "Ann", "carrots=40", "square=5", "--reason", "a wrong sheet in turn 0")).output
    assert "carrots  40" in out
    assert run("edit", "race", "Ann", "gold=3", "--reason", "x").exit_code == 1
    assert run("edit", "race", "Ann", "carrots=40").exit_code == 2  # --reason is required
    ok(run("resolve-turn", "race", "--force"))
    ann = text_of(next(p for p in outbox(gm) if p.name.endswith("report-ann@example.org.eml")))
    bob = text_of(next(p for p in outbox(gm) if p.name.endswith("report-bob@example.net.eml")))
    assert "the GM set Ann's carrots to 40 (a wrong sheet in turn 0)" in ann
    assert "the GM changed Ann's carrots (a wrong sheet in turn 0)" in bob and "to 40" not in bob
    bob_html = html_of(next(p for p in outbox(gm) if p.name.endswith("report-bob@example.net.eml")))
    assert "the GM changed Ann&#39;s carrots" in bob_html and "to 40" not in bob_html
    assert "the GM set Ann's square to 5" in ok(run("history", "race")).output


def test_end_and_resend(gm: Path) -> None:
    ok(run("resolve-turn", "race", "--force"))
    before = names(gm)
    ok(run("resend", "race", "Bob", "--turn", "1"))
    again = new_mails(gm, before)
    assert [p.name.split("-", 1)[1] for p in again] == ["answer-bob@example.net.eml"]
    before = names(gm)
    out = ok(run("end", "race", "--result", "Ann wins by agreement")).output
    assert "over: Ann wins by agreement" in out
    assert len(new_mails(gm, before)) == 3
    out, mails = mail(gm, "ann@example.org", "GAME race\nSECRET AAA-111\nMOVE: NEXT\n", "e1@x")
    assert "refused" in out


def test_every_command_through_pbem_run_once(gm: Path) -> None:
    """The commands arrive in the Maildir and `pbem run --once` answers them."""
    inbox = gm / "inbox" / "new"
    for n, (sender, body) in enumerate([
        ("ann@example.org", "GAME race\nSECRET AAA-111\nSTATUS\n"),
        ("bob@example.net", "GAME race\nSECRET BBB-222\nSTANDING\nMOVE: NEXT\n"),
        ("cyd@example.com", "GAME race\nSECRET CCC-333\nPREVIEW\nMOVE: TO 2\n"),
    ]):
        (inbox / f"{n}.eml").write_bytes(order_mail(sender, body, mid=f"run{n}@x"))
    result = run("run", "--once")
    assert result.exit_code == 0, result.output
    kinds = sorted(p.name.split("-", 1)[1] for p in outbox(gm) if not p.name.split("-", 1)[1].startswith("welcome"))
    assert kinds == ["ack-bob@example.net.eml", "answer-ann@example.org.eml", "answer-cyd@example.com.eml"]


def test_the_gm_replaces_a_sheet_after_a_rollback(gm: Path) -> None:
    mail(gm, "ann@example.org", "GAME race\nSECRET AAA-111\nMOVE: TO 2\n", "g1@x")
    ok(run("resolve-turn", "race", "--force"))
    ok(run("rollback", "race"))
    (gm / "ann.txt").write_text("MOVE: TO 5\nMOVE: NEXT\n", encoding="utf-8")
    before = names(gm)
    out = ok(run("sheet", "race", "ann", str(gm / "ann.txt"))).output
    assert "ann in race: accepted" in out
    [ack] = [p for p in new_mails(gm, before) if "ack" in p.name]
    assert "line 3: MOVE 1: TO 5" in text_of(ack) and "replaces the one you sent before" in text_of(ack)
    ok(run("resolve-turn", "race", "--force"))
    m = Moderator(load_config(gm / "pbem.toml"))
    _, _, record = m.turn_record("race", 1)
    assert json.loads(record.sheets)["Ann"].endswith("MOVE: TO 5\nMOVE: NEXT\n")
    (gm / "bad.txt").write_text("MOVE: TO 99\n", encoding="utf-8")
    assert run("sheet", "race", "Zed", str(gm / "bad.txt")).exit_code == 1


def test_a_seat_replaced_twice_in_one_turn_gets_mail_each_time(gm: Path) -> None:
    ok(run("replace", "race", "Bob", "--email", "dora@example.org"))
    before = names(gm)
    ok(run("replace", "race", "Bob", "--email", "eli@example.org"))  # the same turn, the same second
    welcomes = [p for p in new_mails(gm, before) if "eli@example.org" in p.name]
    assert len(welcomes) == 2  # the welcome and the story so far
