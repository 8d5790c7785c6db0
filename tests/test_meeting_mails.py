"""Every game as its players meet it, through mail as clients send it and the outbox as they read it.

Each registered game is set up with a computer player where it takes one; its players answer the
welcome from a mail program, a GM resolves, reminders go out, a player asks for HELP. Then every
mail of the outbox is read as a player reads it: whatever its text part tells, its HTML part (what
most mail programs show) tells too; a welcome shows the board and names the computer player.
"""

from __future__ import annotations

import email
import email.policy
import html
import re
from datetime import datetime, timedelta, timezone
from email.message import EmailMessage
from pathlib import Path

import pytest
from click.testing import CliRunner

from pbem.cli import main
from pbem.config import load_config, write_config
from pbem.games import AnyGame, find_game, games
from pbem.games.base import Viewer
from pbem.games.chance import LegacyChance
from pbem.games.present import Reader
from pbem.moderator import Moderator, PlayerSpec
from pbem.reports import letter_html

NAMES = ("Ann", "Bob", "Sam")
GAME = "meet"


class Clock:
    def __init__(self) -> None:
        self.moment = datetime(2026, 11, 2, 9, tzinfo=timezone.utc)

    def __call__(self) -> datetime:
        return self.moment


def thunderbird(sender: str, body: str, mid: str) -> bytes:
    """A reply as Thunderbird sends it: a greeting, the sheet, a sign-off, format=flowed."""
    name = sender.split("@")[0].title()
    return (f"From: {name} <{sender}>\nTo: gm@pbem.example\nSubject: Re: Welcome\nMessage-ID: <{mid}>\n"
            "Date: Mon, 02 Nov 2026 10:00:00 +0000\nUser-Agent: Mozilla Thunderbird\nMIME-Version: 1.0\n"
            "Content-Type: text/plain; charset=UTF-8; format=flowed\nContent-Transfer-Encoding: 7bit\n\n"
            f"Hi GM,\n\n{body}\n\nCheers,\n{name}\n").encode()


def gmail(sender: str, body: str, mid: str) -> bytes:
    """A reply as Gmail sends it: multipart/alternative, each line a <div> in the HTML part."""
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = f"{sender.split('@')[0].title()} <{sender}>", "gm@pbem.example", "Re: x"
    msg["Message-ID"], msg["Date"] = f"<{mid}>", "Mon, 02 Nov 2026 11:00:00 +0000"
    msg.set_content(f"{body}\n")
    msg.add_alternative('<div dir="ltr">' + "".join(f"<div>{html.escape(x) or '<br>'}</div>" for x in body.split("\n"))
                        + "</div>", subtype="html")
    return msg.as_bytes()


def parts(path: Path) -> tuple[str, str | None]:
    """A mail's text part and its HTML part (None when it has none)."""
    msg = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
    text = msg.get_body(("plain",))
    assert text is not None
    rich = msg.get_body(("html",))
    return str(text.get_content()), None if rich is None else str(rich.get_content())


def html_lines(page: str) -> str:
    """What a reader of the HTML part reads: the tags gone, the entities read."""
    return html.unescape(re.sub(r"<[^>]+>", "", page))


def untold(text: str, page: str) -> list[str]:
    """The lines of the text part the HTML part does not tell."""
    shown = html_lines(page)
    return [line for line in text.splitlines() if line.strip() and line.strip() not in shown]


def _bot_sheet(engine: AnyGame, state: object, seat: int) -> str:
    bot = engine.bot(engine.info.bot_levels[0])
    assert bot is not None
    return bot.write(engine.view(state, Viewer(seat)), LegacyChance("meet", 1))


def play(engine: AnyGame, directory: Path) -> tuple[Moderator, Path]:
    """The game with a computer player in its last seat where it takes one, answered from two
    mail programs, resolved, reminded and asked for HELP."""
    seats = min(len(NAMES), engine.info.default_ruleset.max_players)
    clock = Clock()
    m = Moderator(load_config(write_config(directory, address="gm@pbem.example")), now=clock)
    m.store.create()
    bot = engine.info.bot_levels[0] if engine.info.bot_levels and seats > 2 else None
    specs = [PlayerSpec(n, f"{n.lower()}@example.org", f"{n.upper()}-SECRET") for n in NAMES[:seats]]
    if bot:
        specs[-1] = PlayerSpec(NAMES[seats - 1], "", None, bot=bot)
    m.new_game(GAME, game=engine.info.name, rules=None, seed=5, deadline="2d", players=specs)
    game, players, state = m.game_state(GAME)
    senders = [thunderbird, gmail]
    for p in players:
        if p.email and p.seat in engine.may_send(state) and m.game_state(GAME)[0].turn == 1:
            sheet = f"GAME {GAME}\nTURN 1\nSECRET {p.secret}\n{_bot_sheet(engine, state, p.seat)}"
            m.ingest(senders[p.seat % 2](p.email, sheet, f"t1.{p.seat}@client"), "test")
    if m.game_state(GAME)[0].turn == 1:
        clock.moment += timedelta(days=2, minutes=1)
        m.resolve(GAME, force=True)
    spans = [timedelta(hours=48), timedelta(hours=6)]
    m.queue_reminders(spans)  # as `pbem run` does, in the run that resolved the turn
    deadline = m.game_state(GAME)[0].deadline
    assert deadline is not None
    clock.moment = deadline.replace(tzinfo=timezone.utc) - timedelta(hours=5)
    m.queue_reminders(spans)
    ann = next(p for p in players if p.email)
    m.ingest(gmail(ann.email, f"GAME {GAME}\nSECRET {ann.secret}\nHELP", "help@client"), "test")
    return m, directory / "outbox"


_PLAYED: dict[str, tuple[Moderator, Path]] = {}


@pytest.fixture(params=[g.info.name for g in games()])
def played(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> tuple[AnyGame, Path]:
    name = request.param
    if name not in _PLAYED:
        _PLAYED[name] = play(find_game(name), tmp_path_factory.mktemp(name))
    return find_game(name), _PLAYED[name][1]


def kinds(outbox: Path) -> set[str]:
    return {p.stem.split("-", 1)[1].rsplit("-", 1)[0] for p in outbox.glob("*.eml")}


def test_the_html_part_tells_whatever_the_text_part_tells(played: tuple[AnyGame, Path]) -> None:
    engine, outbox = played
    assert {"welcome", "ack", "report", "gm-report", "reminder", "answer"} <= kinds(outbox), kinds(outbox)
    for path in sorted(outbox.glob("*.eml")):
        text, page = parts(path)
        if page is None:
            continue
        assert untold(text, page) == [], f"{engine.info.name} {path.name}"


def test_welcomes_and_reports_have_an_html_part_with_the_board_and_the_reply_sheet(played: tuple[AnyGame, Path]) -> None:
    engine, outbox = played
    for path in sorted([*outbox.glob("*-welcome-*.eml"), *outbox.glob("*-report-*.eml")]):
        text, page = parts(path)
        assert page is not None, path.name
        assert re.search(r'<img src="cid:board-[^"]+"', page), path.name
        raw = path.read_bytes()
        assert b"Content-Type: image/png" in raw, path.name
        secret = re.search(r"^SECRET \S+$", text, re.M)
        assert (secret is not None) == ("gm-report" not in path.name), path.name
        if secret is not None:
            assert "<pre" in page and secret.group() in html_lines(page), path.name


def test_the_welcome_names_the_computer_player_as_such(played: tuple[AnyGame, Path]) -> None:
    """Where the game seats a computer player beside the two people (Badger has two seats, and a
    game without levels none), every welcome names it as such; elsewhere none speaks of one."""
    engine, outbox = played
    seated = bool(engine.info.bot_levels) and engine.info.default_ruleset.max_players >= 3
    welcomes = list(outbox.glob("*-welcome-*.eml"))
    assert welcomes
    for path in welcomes:
        text, page = parts(path)
        assert page is not None
        assert ("Sam (a computer player)" in text) == seated, path.name
        assert ("Sam (a computer player)" in html_lines(page)) == seated, path.name


def test_no_reminder_goes_out_beside_the_report_that_opened_its_turn(played: tuple[AnyGame, Path]) -> None:
    """The deadline is 2 days and the first reminder 48 hours before it: the report that opened
    the turn said it all. The 6-hour reminder comes later, in a run of its own."""
    engine, outbox = played

    def dates(pattern: str) -> set[datetime]:
        return {email.message_from_bytes(p.read_bytes(), policy=email.policy.default)["Date"].datetime
                for p in outbox.glob(pattern)}

    reminders = sorted(outbox.glob("*-reminder-*.eml"))
    assert reminders
    assert not dates("*-reminder-*.eml") & (dates("*-report-*.eml") | dates("*-welcome-*.eml"))
    assert len({p.name.split("-reminder-")[1] for p in reminders}) == len(reminders)  # one each


def test_the_converter_keeps_every_line_and_boxes_the_sheet() -> None:
    text = "Hello Ann!\n\nWHAT HAPPENED\n  1 < 2 & more\n\nGAME g\nTURN 2\nSECRET T2-AAA-BBB\nMOVE: NEXT\n"
    page = str(letter_html(text, "GAME g\nTURN 2\nSECRET T2-AAA-BBB\nMOVE: NEXT"))
    assert "<strong>WHAT HAPPENED</strong>" in page and "1 &lt; 2 &amp; more" in page
    assert page.count("<pre") == 2 and untold(text, page) == []


def test_the_gm_console_names_the_turn_a_sheet_resolved(tmp_path: Path) -> None:
    """In a game that resolves on receipt, `pbem ingest` says which turn a mail resolved and how
    many reports went out; a sheet whose every order line is rejected is not 'accepted' bare."""
    runner = CliRunner()
    engine = next((g for g in games() if g.info.resolve_on_receipt), None)
    assert engine is not None
    config = write_config(tmp_path, address="gm@pbem.example")
    m = Moderator(load_config(config))
    m.store.create()
    m.new_game(GAME, game=engine.info.name, rules=None, seed=5, deadline="2d",
               players=[PlayerSpec(n, f"{n.lower()}@example.org", f"{n.upper()}-SECRET") for n in NAMES[:2]])
    _, players, state = m.game_state(GAME)
    mover = next(p for p in players if p.seat in engine.to_move(state))
    other = next(p for p in players if p is not mover)
    bad = tmp_path / "bad.eml"
    bad.write_bytes(thunderbird(other.email, f"GAME {GAME}\nTURN 1\nSECRET {other.secret}\nPLAY NONSENSE-CARD", "b@x"))
    out = runner.invoke(main, ["ingest", str(bad), "--config", str(config)], catch_exceptions=False).output
    assert "accepted Bob in meet — orders in force; every order line rejected (1)" in out.replace(other.name, "Bob")
    good = tmp_path / "good.eml"
    sheet = _bot_sheet(engine, state, mover.seat)
    good.write_bytes(thunderbird(mover.email, f"GAME {GAME}\nTURN 1\nSECRET {mover.secret}\n{sheet}", "g@x"))
    out = runner.invoke(main, ["ingest", str(good), "--config", str(config)], catch_exceptions=False).output
    assert f"good.eml: {GAME} turn 1 resolved with it: 3 reports written" in out, out
    assert out.rstrip().endswith("Ingested 1 message: 1 accepted; 1 turn resolved"), out
    ack = sorted((tmp_path / "outbox").glob(f"*-ack-{mover.email}.eml"))[-1]
    text, _ = parts(ack)
    assert "Your sheet was the last one turn 1 waited for: the turn is resolved with it now" in text
    assert "Send a corrected sheet" not in text and "\nGAME " not in text


def test_a_late_answer_to_the_welcome_is_told_what_happened_and_what_is_asked(tmp_path: Path) -> None:
    engine = next((g for g in games() if g.info.resolve_on_receipt), None)
    assert engine is not None
    clock = Clock()
    m = Moderator(load_config(write_config(tmp_path, address="gm@pbem.example")), now=clock)
    m.store.create()
    m.new_game(GAME, game=engine.info.name, rules=None, seed=5, deadline="2d",
               players=[PlayerSpec(n, f"{n.lower()}@example.org", f"{n.upper()}-SECRET") for n in NAMES[:2]])
    _, players, state = m.game_state(GAME)
    mover = next(p for p in players if p.seat in engine.to_move(state))
    other = next(p for p in players if p is not mover)
    m.ingest(thunderbird(mover.email, f"GAME {GAME}\nTURN 1\nSECRET {mover.secret}\n"
                         f"{_bot_sheet(engine, state, mover.seat)}", "first@x"))
    game, _, now = m.game_state(GAME)
    assert game.turn > 1
    reader = Reader(Viewer(other.seat), other.name, (other.seat,))
    lines = "\n".join(engine.presenter.order_lines(engine.view(state, reader.viewer), reader))
    result = m.ingest(gmail(other.email, f"GAME {GAME}\nTURN 1\nSECRET {other.secret}\n{lines}", "late@x"))
    assert result.status == "refused"
    refusal = sorted((tmp_path / "outbox").glob(f"*-refusal-{other.email}.eml"))[-1]
    text, _ = parts(refusal)
    assert f"these orders are for turn 1, which is already resolved; the current turn is {game.turn}" in text
    assert f"What happened: turn 1 was resolved as soon as {mover.name}'s sheet arrived.\n" in text
    if other.seat in engine.may_send(now):
        assert f"What is asked of you now: your orders for turn {game.turn}, which is open." in text
        assert f"\nGAME {GAME}\nTURN {game.turn}\nSECRET T{game.turn}-" in text


def _cli(config: Path, *args: str) -> str:
    result = CliRunner().invoke(main, [*args, "--config", str(config)], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.output


def test_missed_turns_are_turns_the_seat_had_to_move_in(tmp_path: Path) -> None:
    """In a game where one seat moves at a time, a turn that was the other seat's is no missed turn."""
    engine = next(g for g in games() if g.info.resolve_on_receipt and g.info.default_ruleset.max_players == 2)
    config = write_config(tmp_path, address="gm@pbem.example")
    clock = Clock()
    m = Moderator(load_config(config), now=clock)
    m.store.create()
    m.new_game(GAME, game=engine.info.name, rules=None, seed=5, deadline="2d",
               players=[PlayerSpec(n, f"{n.lower()}@example.org", f"{n.upper()}-SECRET") for n in NAMES[:2]])
    _, players, state = m.game_state(GAME)
    mover = next(p for p in players if p.seat in engine.to_move(state))
    m.ingest(thunderbird(mover.email, f"GAME {GAME}\nTURN 1\nSECRET {mover.secret}\n"
                         f"{_bot_sheet(engine, state, mover.seat)}", "first@x"))
    game, _, now = m.game_state(GAME)
    waiting = [p for p in players if p.seat in engine.to_move(now)]
    clock.moment += timedelta(days=3)
    m.resolve(GAME, force=True)  # its deadline passed without the sheet it waited for
    story = _cli(config, "history", GAME)
    for p in players:
        missed = [game.turn] if p in waiting else []
        count = f"{len(missed)} missed turn" + ("" if len(missed) == 1 else "s")
        assert f"\n{p.name}: {count}" + (f" ({game.turn})" if missed else "") + "\n" in story, story


def test_status_games_and_history_agree_about_a_computer_player(tmp_path: Path) -> None:
    engine = next(g for g in games() if g.info.bot_levels and g.info.default_ruleset.max_players >= 3)
    config = write_config(tmp_path, address="gm@pbem.example")
    m = Moderator(load_config(config))
    m.store.create()
    level = engine.info.bot_levels[0]
    m.new_game(GAME, game=engine.info.name, rules=None, seed=5, deadline="2d",
               players=[PlayerSpec("Ann", "ann@example.org", None), PlayerSpec("Bob", "bob@example.org", None),
                        PlayerSpec("Sam", "", None, bot=level)])
    _, players, state = m.game_state(GAME)
    ann = players[0]
    m.ingest(gmail(ann.email, f"GAME {GAME}\nSECRET {ann.secret}\n{_bot_sheet(engine, state, ann.seat)}", "a@x"))
    status = _cli(config, "status", GAME)
    assert f"  Sam          {'computer player (' + level + ')':<28} writes its sheet when the turn is resolved" in status
    assert status.rstrip().endswith("\n1 of 2 sheets in"), status  # as `pbem games` counts: Sam never holds it up
    assert "; missing: Bob\n" in _cli(config, "games")
    assert f"Sam (computer player, {level})" in _cli(config, "history", GAME)
    assert "Sam <>" not in _cli(config, "history", GAME)


@pytest.mark.parametrize("game", ["card-race", "badger-bunny"])
def test_pbem_demo_plays_the_sample_campaign_of_a_game(game: str, tmp_path: Path) -> None:
    from pbem.demo import campaigns

    assert game in campaigns()
    result = CliRunner().invoke(main, ["demo", str(tmp_path / "demo"), "--game", game], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert "resolved" in result.output and "Where to look:" in result.output
    reports = sorted((tmp_path / "demo" / "outbox").glob("*-report-*.eml"))
    assert reports and list((tmp_path / "demo").glob("board-turn-*.png"))
    unknown = CliRunner().invoke(main, ["demo", str(tmp_path / "other"), "--game", "nope"])
    assert unknown.exit_code == 1 and "no sample campaign plays 'nope'; there are campaigns of" in unknown.output


def test_pbem_games_lines_up_its_columns(tmp_path: Path) -> None:
    config = write_config(tmp_path, address="gm@pbem.example")
    m = Moderator(load_config(config))
    m.store.create()
    for name, engine in (("a", games()[0]), ("a-much-longer-name", games()[-1])):
        seats = engine.info.default_ruleset.min_players
        m.new_game(name, game=engine.info.name, rules=None, seed=5, deadline="2d",
                   players=[PlayerSpec(n, f"{n.lower()}@example.org", None) for n in NAMES[:seats]])
    lines = _cli(config, "games").splitlines()
    assert len(lines) == 2 and len({line.index(" turn 1,") for line in lines}) == 1, lines
    starts = {line.index(kind) for line, kind in zip(lines, (games()[0].info.name, games()[-1].info.name), strict=True)}
    assert len(starts) == 1, lines


def test_polish_of_the_words_players_read(played: tuple[AnyGame, Path]) -> None:
    """No '(you) you', no 'send one MOVE line for each' of 1 slot, no ignored greeting in a
    report, and a reminder shows a player the hand she writes her sheet from."""
    engine, outbox = played
    for path in outbox.glob("*.eml"):
        text, _ = parts(path)
        assert "(you) you" not in text and "1 slot: send one MOVE line for each" not in text, path.name
        assert "each of 1 players" not in text and "lose half the carrots; loses" not in text, path.name
        if "-report-" in path.name:
            assert "ignored: Hi GM," not in text and "ignored: Cheers," not in text, path.name
    for path in outbox.glob("*-reminder-*.eml"):
        welcome = parts(next(outbox.glob(f"*-welcome-{path.name.split('-reminder-')[1]}")))[0]
        if "YOUR CARDS" in welcome:
            assert "YOUR CARDS (nobody else sees them)\n  hand: " in parts(path)[0], path.name


def test_the_demo_says_before_turn_5(tmp_path: Path) -> None:
    lines: list[str] = []
    from pbem.demo import run_demo

    run_demo(tmp_path / "demo", echo=lines.append)
    assert any(line.startswith("Before turn 5: Dmitri is handed to") for line in lines), lines


def test_the_welcome_links_the_rules_the_archive_publishes(tmp_path: Path) -> None:
    """With `[archive] url` set, the welcome links the game's rules, and the archive holds them there."""
    for engine in (g for g in games() if g.info.rules_page):
        root = tmp_path / engine.info.name
        config = write_config(root, address="gm@pbem.example")
        with config.open("a", encoding="utf-8") as toml:
            toml.write('\n[archive]\nurl = "https://races.example.org/archive/"\ndir = "site"\n')
        m = Moderator(load_config(config))
        m.store.create()
        m.new_game(GAME, game=engine.info.name, rules=None, seed=5, deadline="2d",
                   players=[PlayerSpec(n, f"{n.lower()}@example.org", None) for n in NAMES[:2]])
        text, page = parts(next((root / "outbox").glob("*-welcome-ann@example.org.eml")))
        link = re.search(r"^  https://races\.example\.org/archive/(\S+)$", text, re.M)
        assert link is not None and "The whole rules as pbem plays them:" in text, text
        assert page is not None and link.group().strip() in html_lines(page)
        _cli(config, "archive", str(root / "site"))
        published = (root / "site" / link.group(1)).read_text(encoding="utf-8")
        assert "the rules as pbem plays them" in published


def test_archive_thumbnails_keep_each_board_shape(tmp_path: Path) -> None:
    """Each thumbnail's width and height are its own board's shape, read from the board's SVG;
    the index names a game's ruleset without parentheses inside parentheses."""
    config = write_config(tmp_path, address="gm@pbem.example")
    m = Moderator(load_config(config))
    m.store.create()
    for engine in games():
        seats = engine.info.default_ruleset.min_players
        m.new_game(engine.info.name, game=engine.info.name, rules=None, seed=5, deadline="2d",
                   players=[PlayerSpec(n, f"{n.lower()}@{engine.info.name}.example.org", None) for n in NAMES[:seats]])
        m.resolve(engine.info.name, force=True)
    _cli(config, "archive", str(tmp_path / "site"))
    index = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    shapes = set()
    for src, width, height in re.findall(r'<img src="([^"]+)" alt="[^"]*" width="(\d+)" height="(\d+)"', index):
        box = re.search(r'viewBox="0 0 ([\d.]+) ([\d.]+)"', (tmp_path / "site" / src).read_text(encoding="utf-8"))
        assert box is not None, src
        assert abs(int(height) - round(int(width) * float(box.group(2)) / float(box.group(1)))) <= 1, src
        shapes.add(round(int(height) / int(width), 2))
    assert len(shapes) > 1
    assert not re.search(r"\([^()<]*\([^()<]*\)\)", index)


def test_the_next_template_keeps_the_choices_a_sheet_made_for_later_turns(tmp_path: Path) -> None:
    """A HARE answer and a DEFAULT line sent in turn 1 are in the turn-2 template, so that a player
    who sends the template back unchanged does not undo them."""
    engine = find_game("hare-tortoise")
    clock = Clock()
    m = Moderator(load_config(write_config(tmp_path, address="gm@pbem.example")), now=clock)
    m.store.create()
    m.new_game(GAME, game=engine.info.name, rules="variable-pig", seed=5, deadline="2d",
               players=[PlayerSpec(n, f"{n.lower()}@example.org", f"{n.upper()}-SECRET") for n in NAMES[:2]])
    m.ingest(thunderbird("ann@example.org", f"GAME {GAME}\nTURN 1\nSECRET ANN-SECRET\nMOVE: NEXT CARROT\n"
                         "MOVE: NEXT\nDEFAULT: NEXT LETTUCE ELSE NEXT\nHARE: GIVE", "ann@x"))
    clock.moment += timedelta(days=2, minutes=1)
    m.resolve(GAME, force=True)
    ann, _ = parts(next((tmp_path / "outbox").glob("*-report-ann@example.org.eml")))
    bob, _ = parts(next((tmp_path / "outbox").glob("*-report-bob@example.org.eml")))
    assert ann.rstrip().endswith("\nDEFAULT: NEXT LETTUCE ELSE NEXT\nHARE: GIVE"), ann[-300:]
    assert bob.rstrip().endswith("\nDEFAULT: NEXT\nHARE: TAKE"), bob[-300:]


def test_pbem_games_in_a_fresh_home_loads_no_store_machinery(tmp_path: Path) -> None:
    """A command imports what it needs when it needs it: a fresh home's `pbem games` answers
    from the standard library (benchmarks/cli_startup.py measures what that saves)."""
    import os
    import subprocess
    import sys

    Moderator(load_config(write_config(tmp_path, address="gm@pbem.example"))).store.create()
    probe = ("import sys; from pbem.cli import main\n"
             "try:\n    main(['games'])\nexcept SystemExit:\n    pass\n"
             "print(sorted(m for m in ('sqlalchemy', 'sqlmodel', 'jinja2', 'pbem.store', 'pbem.games') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", probe], cwd=tmp_path, capture_output=True, text=True, check=True,
                         env={**os.environ, "PBEM_CONFIG": str(tmp_path / "pbem.toml"),
                              "PYTHONPATH": str(Path(__file__).resolve().parent.parent)}).stdout
    assert out.splitlines() == ["No games yet: pbem new-game NAME --player Ann=ann@example.org --player Bob=bob@example.net",
                                "[]"], out


def test_a_refused_secret_says_which_letters_a_secret_may_hold() -> None:
    from pbem.tokens import check_secret

    assert check_secret("BOB-SECRET") == ("a secret is digits, '-' and letters other than I and O (which read as "
                                          "1 and 0), with no spaces, not 'BOB-SECRET'")
    assert check_secret("BEN-SECRET") is None
