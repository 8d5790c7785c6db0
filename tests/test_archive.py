"""The public archive: the sample campaign (running) and a finished game as a static site, its JSON and feeds,
incremental writing, hidden information, `pbem archive` and `pbem run` — and the site read in a real browser.

The browser tests drive Debian's Chromium through its chromedriver with Selenium (installed by
scripts/install_servers.sh; nothing downloads a browser). Without them they skip and say how to
install them; under CI=true they fail.
"""

from __future__ import annotations

import functools
import http.server
import io
import json
import os
import re
import shutil
import tempfile
import threading
import urllib.request
from collections.abc import Iterator
from dataclasses import replace
from datetime import datetime, timedelta, timezone
from html.parser import HTMLParser
from pathlib import Path
from typing import Any
from urllib.parse import urldefrag, urljoin, urlparse
from xml.etree import ElementTree

import pytest
from click.testing import CliRunner

from conftest import free_port, require, unavailable
from pbem.archive import MANIFEST, SCHEMA, GameData, Pictures, Settings, build_archive, load_games, render_site
from pbem.cli import main
from pbem.config import load_config
from pbem.demo import run_demo
from pbem.errors import PbemError
from pbem.games import find_game
from pbem.games.base import Viewer
from pbem.games.hare_tortoise.testing import FINISHER
from pbem.moderator import Moderator, PlayerSpec
from pbem.runner import Runner

RUNNING = "sample-race"
FINISHED = "finished"
SECRETS = {"ann@example.org": "AAA-111", "bob@example.net": "BBB-222"}


class Clock:
    def __init__(self, moment: datetime) -> None:
        self.moment = moment

    def __call__(self) -> datetime:
        return self.moment


def play_to_the_end(config_path: Path) -> None:
    """Add a two-player game that every seat plays home with the same sheet, to its end."""
    clock = Clock(datetime(2026, 11, 2, 9, tzinfo=timezone.utc))
    m = Moderator(load_config(config_path), now=clock)
    m.new_game(FINISHED, game="hare-tortoise", rules=None, seed=5, deadline="7d",
               players=[PlayerSpec("Ann", "ann@example.org", SECRETS["ann@example.org"]),
                        PlayerSpec("Bob", "bob@example.net", SECRETS["bob@example.net"])])
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(Moderator, "render_turn", lambda *_: [])  # the archive reads no mail: spare drawing it
        for turn in range(1, 100):
            for address, secret in SECRETS.items():
                m.ingest((f"From: X <{address}>\nTo: gm@pbem.example\nSubject: orders\nMessage-ID: <t{turn}.{address}>\n"
                          f"Date: Mon, 02 Nov 2026 10:00:00 +0000\nContent-Type: text/plain; charset=utf-8\n\n"
                          f"GAME {FINISHED}\nTURN {turn}\nSECRET {secret}\n{FINISHER}\n").encode(), "test")
            clock.moment += timedelta(days=1)
            if m.resolve(FINISHED, force=True).engine.is_over(m.game_state(FINISHED)[2]):
                return
    raise AssertionError("the finishing sheet did not end the game")


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A GM's folder with the sample campaign (four turns, running) and a finished game."""
    root = tmp_path_factory.mktemp("archive") / "gm"
    run_demo(root, echo=lambda _: None)
    play_to_the_end(root / "pbem.toml")
    return root


def moderator(root: Path) -> Moderator:
    return Moderator(load_config(root / "pbem.toml"))


@pytest.fixture
def own_store(store: Path, tmp_path: Path) -> Path:
    """A copy of the store's folder that a test may change."""
    copy = tmp_path / "gm"
    shutil.copytree(store, copy, ignore=shutil.ignore_patterns("outbox", "*.png"))
    return copy


@pytest.fixture(scope="module")
def site(store: Path) -> Path:
    out = store.parent / "site"
    build_archive(moderator(store), out)
    return out


def drawn(site: Path, tmp_path: Path) -> Path:
    """A copy of the module's site, so that a build there draws no board whose inputs are unchanged."""
    out = tmp_path / "site"
    shutil.copytree(site, out)
    return out


def text(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def turn_count(root: Path, name: str) -> int:
    return moderator(root).history(name)[0].turn - 1


# ---------------------------------------------------------------------------------------------- the files


def test_the_site_has_an_index_a_page_per_game_and_per_turn_and_the_data(store: Path, site: Path) -> None:
    assert (site / "index.html").is_file() and (site / "style.css").is_file() and (site / "feed.atom").is_file()
    for name in (RUNNING, FINISHED):
        turns = turn_count(store, name)
        assert turns >= 4
        folder = site / name
        names = {p.name for p in folder.iterdir()}
        assert names == {"index.html", "game.json", "feed.atom",
                         *(f"turn-{n}.html" for n in range(1, turns + 1)),
                         *(f"board-{n}.svg" for n in range(1, turns + 1))}
    index = text(site / "index.html")
    assert f'href="{RUNNING}/index.html"' in index and f'src="{RUNNING}/board-6.svg"' in index


def test_every_page_title_names_the_game_and_the_turn(site: Path) -> None:
    for page in site.glob("*/turn-*.html"):
        turn = page.stem.split("-")[1]
        title = re.search(r"<title>(.*?)</title>", text(page))
        assert title is not None
        assert f"Turn {turn} — {page.parent.name} (Hare &amp; Tortoise)" in title.group(1), title.group(1)
    assert "<title>sample-race (Hare &amp; Tortoise) — turn 7 to play" in text(site / RUNNING / "index.html")


def test_a_turn_page_has_the_board_inline_the_moves_the_orders_the_chance_and_its_neighbours(site: Path) -> None:
    page = text(site / RUNNING / "turn-3.html")
    assert page.count("<svg") == 1 and '<svg role="img" aria-label="The board: Alice square 5' in page
    assert "3. Alice moves from square 12 to square 14, and the hare sends it to square 5" in page
    assert "hare: die 2 + position 2 = 4: move back to the nearest vacant carrot square" in page
    # Dmitri's sheet was refused (wrong secret): no orders; the others' sheets are held back while
    # the game runs (Hare & Tortoise's `public_orders`), and shown, canonical, once it is over
    assert "<dt>Dmitri</dt>\n<dd>no orders sent" in page
    assert "I AM FIRST" not in page and page.count("held back until the game ends") == 3
    assert "<pre>DEFAULT: HOME ELSE IF LETTUCES &gt; 0 AND CARROTS &gt; 20" in text(site / FINISHED / "turn-1.html")
    assert "<li>die 2</li>" in page
    assert 'href="turn-2.html" rel="prev"' in page and 'href="turn-4.html" rel="next"' in page
    last = text(site / RUNNING / "turn-6.html")
    assert 'rel="next"' not in last.split("</head>")[1] and "Latest turn" in last


def test_no_address_and_no_secret_reaches_the_site(store: Path, site: Path) -> None:
    _, players, _ = moderator(store).history(RUNNING)
    secrets = [p.secret for p in players] + list(SECRETS.values())
    for path in site.rglob("*"):
        if path.is_file():
            body = path.read_text(encoding="utf-8")
            assert "@" not in body.replace("@media", ""), path
            assert not any(s in body for s in secrets), path
            assert "SECRET" not in body and "GAME sample" not in body, path


def test_the_json_export_follows_its_schema(store: Path, site: Path) -> None:
    data = json.loads(text(site / RUNNING / "game.json"))
    assert data["schema"] == SCHEMA == "pbem-archive/1"
    assert {k: data[k] for k in ("game", "kind", "ruleset", "over", "revealed", "orders_held", "next_turn")} == {
        "game": RUNNING, "kind": "hare-tortoise", "ruleset": "variable-pig", "over": False, "revealed": False,
        "orders_held": False, "next_turn": 7}
    assert [p["name"] for p in data["players"]] == ["Alice", "Bruno", "Chandra", "Dmitri"]
    assert re.fullmatch(r"2026-12-13T05:30:\d\dZ", data["deadline"])
    assert [t["turn"] for t in data["turns"]] == [1, 2, 3, 4, 5, 6]
    three = data["turns"][2]
    assert re.fullmatch(r"2026-11-18T19:17:\d\dZ", three["resolved_at"]) and three["chance"] == [["die", 2]]
    # no orders from Dmitri; the others' held back while the game runs, shown once it is over
    assert set(three["orders"].values()) == {None} and three["orders_held"] == ["Alice", "Bruno", "Chandra"]
    assert [s["seat"] for s in three["resolutions"]] == [2, 3, 0, 1, 2]
    assert three["narration"][2][0].startswith("3. Alice moves from square 12")
    # hidden while running: no carrots anywhere, no order details in the resolutions
    for turn in data["turns"]:
        assert all(r["carrots"] is None for r in turn["position"]["runners"])
        assert all(s["carrots_before"] is None and s["order"] == "" and s["tried"] == [] for s in turn["resolutions"])
    over = json.loads(text(site / FINISHED / "game.json"))
    assert over["over"] and over["revealed"] and over["next_turn"] is None and over["result"]["winners"]
    assert all(isinstance(r["carrots"], int) for r in over["position"]["runners"])
    assert all(s["order"] for t in over["turns"] for s in t["resolutions"])
    assert all(o[0].startswith("DEFAULT: HOME") for t in over["turns"] for o in t["orders"].values())


def test_the_feeds_are_atom_with_one_entry_per_resolved_turn(store: Path, site: Path) -> None:
    ns = {"a": "http://www.w3.org/2005/Atom"}
    whole = ElementTree.parse(site / "feed.atom").getroot()
    entries = whole.findall("a:entry", ns)
    assert len(entries) == turn_count(store, RUNNING) + turn_count(store, FINISHED)
    assert len({e.findtext("a:id", namespaces=ns) for e in entries}) == len(entries)
    stamps = [e.findtext("a:updated", namespaces=ns) or "" for e in entries]
    assert stamps == sorted(stamps, reverse=True) and whole.findtext("a:updated", namespaces=ns) == stamps[0]
    for e in entries:
        link = e.find("a:link", ns)
        assert link is not None and (site / link.attrib["href"]).is_file()
    game = ElementTree.parse(site / RUNNING / "feed.atom").getroot()
    first = game.findall("a:entry", ns)[-1]
    assert first.findtext("a:title", namespaces=ns) == "sample-race: turn 1 resolved"
    link = first.find("a:link", ns)
    assert link is not None and (site / RUNNING / link.attrib["href"]).resolve() == (site / RUNNING / "turn-1.html")
    assert "1. Alice moves from START to square 7" in (first.findtext("a:summary", namespaces=ns) or "")


def test_feeds_link_absolutely_under_the_published_address(store: Path, site: Path, tmp_path: Path) -> None:
    tmp_path = drawn(site, tmp_path)
    build_archive(moderator(store), tmp_path, settings=Settings(url="https://example.org/hare/"))
    feed = text(tmp_path / RUNNING / "feed.atom")
    assert 'href="https://example.org/hare/sample-race/turn-1.html"' in feed
    assert 'rel="self" type="application/atom+xml" href="https://example.org/hare/sample-race/feed.atom"' in feed


# ---------------------------------------------------------------------------------------------- incremental


def test_running_again_writes_nothing_and_a_new_turn_rewrites_only_what_it_changes(own_store: Path, tmp_path: Path) -> None:
    m = moderator(own_store)
    out = tmp_path / "site"
    first = build_archive(m, out)
    assert first.files == len(first.written) and first.pictures_drawn == 6 + turn_count(own_store, FINISHED)
    stamps = {p: p.stat().st_mtime_ns for p in out.rglob("*")}
    again = build_archive(m, out)
    assert again.written == [] and again.removed == [] and again.pictures_drawn == 0
    assert {p: p.stat().st_mtime_ns for p in out.rglob("*")} == stamps
    m.resolve(RUNNING, force=True)
    after = build_archive(m, out)
    assert after.pictures_drawn == 1
    assert sorted(after.written) == sorted([
        "index.html", "feed.atom", f"{RUNNING}/index.html", f"{RUNNING}/game.json", f"{RUNNING}/feed.atom",
        f"{RUNNING}/turn-6.html",  # its "next" link
        f"{RUNNING}/turn-7.html", f"{RUNNING}/board-7.svg"])


def test_a_game_left_out_is_removed_and_other_files_are_left_alone(store: Path, site: Path, tmp_path: Path) -> None:
    m = moderator(store)
    tmp_path = drawn(site, tmp_path)
    (tmp_path / "robots.txt").write_text("User-agent: *\n", encoding="utf-8")
    build_archive(m, tmp_path)
    only = build_archive(m, tmp_path, [RUNNING])
    assert only.removed and all(p.startswith(f"{FINISHED}/") for p in only.removed)
    assert not (tmp_path / FINISHED).exists() and (tmp_path / "robots.txt").is_file()
    assert FINISHED not in text(tmp_path / "index.html")
    assert json.loads(text(tmp_path / MANIFEST))["files"] == sorted(p.relative_to(tmp_path).as_posix()
                                                                     for p in tmp_path.rglob("*") if p.is_file()
                                                                     and p.name not in (MANIFEST, "robots.txt"))


def test_a_board_changed_on_disk_is_put_right(store: Path, tmp_path: Path) -> None:
    m = moderator(store)
    build_archive(m, tmp_path, [RUNNING])
    (tmp_path / RUNNING / "board-2.svg").write_text("<svg/>", encoding="utf-8")
    (tmp_path / RUNNING / "turn-3.html").unlink()
    again = build_archive(m, tmp_path, [RUNNING])
    # the manifest still matches board 2's inputs, so the damaged file is read back as it is: the
    # pages show what is on disk; a changed input (or deleting the manifest) draws it again
    assert f"{RUNNING}/turn-3.html" in again.written
    (tmp_path / MANIFEST).unlink()
    fresh = build_archive(m, tmp_path, [RUNNING])
    assert fresh.pictures_drawn == 6 and "<svg/>" not in text(tmp_path / RUNNING / "board-2.svg")


# ---------------------------------------------------------------------------------------------- hidden information


def varied(game: GameData, seat: int, seed: int) -> GameData:
    """The game with `seat`'s hidden values changed in every stored position and resolution."""
    engine = find_game(game.kind)
    turns = []
    for t in game.turns:
        after, slots = engine.vary_hidden(engine.load_state(t.after), [engine.resolution_from_json(r) for r in t.resolutions],
                                          seat, seed)
        before, _ = engine.vary_hidden(engine.load_state(t.before), [], seat, seed)
        turns.append(replace(t, before=engine.dump_state(before), after=engine.dump_state(after),
                             resolutions=[engine.resolution_to_json(s) for s in slots]))
    now, _ = engine.vary_hidden(engine.load_state(game.state), [], seat, seed)
    return replace(game, state=engine.dump_state(now), turns=tuple(turns))


def site_files(games: list[GameData], directory: Path) -> dict[str, bytes]:
    return render_site(games, Settings(), Pictures(directory, {}))


def test_no_page_of_a_running_game_depends_on_a_hidden_value(store: Path, tmp_path: Path) -> None:
    games = {g.name: g for g in load_games(moderator(store))}
    plain = site_files([games[RUNNING]], tmp_path)
    for seat in range(len(games[RUNNING].seats)):
        other = site_files([varied(games[RUNNING], seat, 1)], tmp_path)
        assert [p for p in plain if other[p] != plain[p]] == [], f"seat {seat}'s hidden values show"


def test_a_finished_game_reveals_them_so_the_check_can_see_a_difference(store: Path, tmp_path: Path) -> None:
    games = {g.name: g for g in load_games(moderator(store))}
    last = games[FINISHED].turns[-1].turn
    plain = site_files([games[FINISHED]], tmp_path)
    other = site_files([varied(games[FINISHED], 0, 1)], tmp_path)
    assert {f"{FINISHED}/index.html", f"{FINISHED}/game.json", f"{FINISHED}/turn-{last}.html"} <= {
        p for p in plain if other[p] != plain[p]}
    page = text_of_html(plain[f"{FINISHED}/turn-{last}.html"].decode())
    assert "carrots" in page and "->" in page and "order: DEFAULT: HOME" in page


def test_orders_can_be_held_back_until_the_game_ends(store: Path, site: Path, tmp_path: Path) -> None:
    tmp_path = drawn(site, tmp_path)
    build_archive(moderator(store), tmp_path, settings=Settings(hold_orders=frozenset({"*"})))
    page = text(tmp_path / RUNNING / "turn-3.html")
    assert "I AM FIRST" not in page and page.count("held back until the game ends") == 4
    data = json.loads(text(tmp_path / RUNNING / "game.json"))
    assert data["orders_held"] and all(o is None for t in data["turns"] for o in t["orders"].values())
    assert data["turns"][0]["orders_held"] == ["Alice", "Bruno", "Chandra", "Dmitri"]
    assert "held back" not in text(tmp_path / FINISHED / "turn-1.html")  # over: shown


def test_the_default_hooks_show_accepted_lines_and_keep_shuffles_for_the_gm(store: Path) -> None:
    from pbem.games.chance import Draw
    from pbem.games.sheet import read_sheet

    engine = find_game("hare-tortoise")
    state = moderator(store).game_state(RUNNING)[2]
    sheet = read_sheet("GAME sample-race\nTURN 5\nSECRET K7M-4QX\nmove 1 : next carrot.\nMOVE: JUMP\nHello!\n")
    assert engine.orders_seen(state, sheet, 0, (), Viewer.gm()) == ("MOVE 1: NEXT CARROT",)
    assert engine.orders_seen(state, sheet, 0, (), Viewer(0)) == ("MOVE 1: NEXT CARROT",)
    assert engine.orders_seen(state, sheet, 0, (), Viewer.public()) is None  # held back while it runs
    assert engine.orders_seen(state, sheet, 0, (), Viewer.public(), over=True) == ("MOVE 1: NEXT CARROT",)
    draws = [Draw(1, "die", 4), Draw(1, "shuffle", [3, 1, 2]), Draw(1, "uniform", 7)]
    assert engine.archived_draws(draws, Viewer.public()) == (draws[0], draws[2])
    assert engine.archived_draws(draws, Viewer.gm()) == tuple(draws)


# ---------------------------------------------------------------------------------------------- accessibility in the markup


class Markup(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def parsed(html: str) -> Markup:
    p = Markup()
    p.feed(html)
    return p


def text_of_html(html: str) -> str:
    return " ".join("".join(parsed(html).text).split())


def test_every_page_has_a_language_one_heading_a_skip_link_and_words_for_every_picture(site: Path) -> None:
    pages = sorted(site.rglob("*.html"))
    assert len(pages) > 10
    for page in pages:
        tags = parsed(text(page)).tags
        assert ("html", {"lang": "en"}) in tags, page
        assert sum(1 for t, _ in tags if t == "h1") == 1, page
        assert any(t == "meta" and a.get("name") == "viewport" for t, a in tags), page
        assert tags[[t for t, _ in tags].index("body") + 1] == ("a", {"class": "skip", "href": "#main"}), page
        assert any(t == "main" and a.get("id") == "main" for t, a in tags), page
        for tag, attrs in tags:
            if tag == "img":
                assert (attrs.get("alt") or "").startswith("The board: "), page
            if tag == "svg" and "xmlns" in attrs:
                assert attrs.get("role") == "img" and (attrs.get("aria-label") or "").startswith("The board: "), page


def test_the_archive_templates_know_no_game() -> None:
    folder = Path(__file__).resolve().parent.parent / "templates" / "archive"
    for path in folder.iterdir():
        words = set(re.findall(r"[A-Za-z]+", path.read_text(encoding="utf-8")))
        assert not words & {"carrot", "carrots", "hare", "Hare", "lettuce", "MOVE", "Tortoise"}, path.name


def _luminance(colour: str) -> float:
    def channel(c: int) -> float:
        s = c / 255
        return s / 12.92 if s <= 0.03928 else ((s + 0.055) / 1.055) ** 2.4

    r, g, b = (int(colour[i:i + 2], 16) for i in (1, 3, 5))
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)


def contrast(a: str, b: str) -> float:
    la, lb = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def test_the_colours_have_sufficient_contrast(site: Path) -> None:
    css = text(site / "style.css")
    colours = dict(re.findall(r"--([a-z]+):\s*(#[0-9a-f]{6})", css))
    for fg in ("ink", "muted", "link", "focus"):
        for bg in ("paper", "panel"):
            assert contrast(colours[fg], colours[bg]) >= 4.5, (fg, bg)
    assert "@media print" in css and "@media (max-width" in css and ":focus-visible" in css


# ---------------------------------------------------------------------------------------------- the commands


def test_pbem_archive_writes_the_site_and_names_an_unknown_game(store: Path, tmp_path: Path) -> None:
    config = str(store / "pbem.toml")
    result = CliRunner().invoke(main, ["archive", str(tmp_path / "site"), RUNNING, "--config", config])
    assert result.exit_code == 0, result.output
    # with the rules page and the club's two pages: the ratings from the store's finished game, and the hall of fame
    assert "21 files" in result.output and "21 written" in result.output and "index.html" in result.output
    result = CliRunner().invoke(main, ["archive", str(tmp_path / "site"), "--config", config, "--hold-orders", RUNNING])
    assert result.exit_code == 0, result.output
    assert "held back" in text(tmp_path / "site" / RUNNING / "turn-1.html")
    result = CliRunner().invoke(main, ["archive", str(tmp_path / "site"), "nosuch", "--config", config])
    assert result.exit_code == 1 and "no game called 'nosuch'" in result.output


def test_the_archive_table_of_pbem_toml_is_checked(own_store: Path) -> None:
    path = own_store / "pbem.toml"
    base = text(path)
    path.write_text(base + '\n[archive]\ndir = "public"\nhold_orders = ["sample-race"]\n'
                    'url = "https://example.org/"\n', encoding="utf-8")
    config = load_config(path)
    assert config.archive_dir == own_store.resolve() / "public"
    assert config.archive_hold_orders == ("sample-race",) and config.archive_url == "https://example.org/"
    path.write_text(base + '\n[archive]\ndri = "public"\n', encoding="utf-8")
    with pytest.raises(PbemError, match="did you mean 'dir'"):
        load_config(path)
    path.write_text(base + '\n[archive]\nhold_orders = "sample-race"\n', encoding="utf-8")
    with pytest.raises(PbemError, match=r'hold_orders must be a list of strings in quotes, e\.g\. \["race-7"\]'):
        load_config(path)


def test_pbem_run_refreshes_the_archive_at_its_first_round_and_after_each_resolution(own_store: Path) -> None:
    path = own_store / "pbem.toml"
    path.write_text(text(path) + '\n[archive]\ndir = "public"\n', encoding="utf-8")
    clock = Clock(datetime(2026, 11, 26, 9, tzinfo=timezone.utc))
    runner = Runner(Moderator(load_config(path), now=clock))
    runner.round()
    site = own_store / "public"
    assert (site / RUNNING / "turn-6.html").is_file() and not (site / RUNNING / "turn-7.html").exists()
    (site / "index.html").unlink()
    runner.round()  # nothing resolved: the archive is left alone
    assert not (site / "index.html").exists()
    clock.moment = datetime(2026, 12, 14, 9, tzinfo=timezone.utc)  # past turn 7's deadline
    assert runner.round().resolved == [f"{RUNNING} turn 7: 5 reports"]
    assert (site / RUNNING / "turn-7.html").is_file() and (site / "index.html").is_file()


def test_a_failing_archive_never_stops_the_round(own_store: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = own_store / "pbem.toml"
    (own_store / "blocked").write_text("a file where the folder should be", encoding="utf-8")
    path.write_text(text(path) + '\n[archive]\ndir = "blocked"\n', encoding="utf-8")
    runner = Runner(Moderator(load_config(path), now=lambda: datetime(2026, 11, 26, 9, tzinfo=timezone.utc)))
    runner.round()
    assert not runner.published


# ---------------------------------------------------------------------------------------------- in a real browser

CHROMIUM_FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync",
                  "--disable-dev-shm-usage", "--window-size=1200,900")


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the base class's name
        pass


@pytest.fixture(scope="module")
def served(site: Path) -> Iterator[str]:
    """The site over HTTP on loopback, as a web host would serve it."""
    http.server.SimpleHTTPRequestHandler.extensions_map.update({".atom": "application/atom+xml"})
    server = http.server.ThreadingHTTPServer(("127.0.0.1", free_port()), functools.partial(_Quiet, directory=str(site)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Debian's Chromium, driven through its chromedriver; never a browser or driver fetched from the net."""
    chromium = require("chromium")
    driver_path = require("chromedriver")
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        unavailable("selenium", "the Python package is not installed (pip install -e '.[test]')")
    os.environ["SE_OFFLINE"] = "true"  # Selenium Manager, if ever asked, must not download anything
    profile = tempfile.mkdtemp(prefix="pbem-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for flag in (*CHROMIUM_FLAGS, f"--user-data-dir={profile}"):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    try:
        driver = webdriver.Chrome(options=options, service=Service(executable_path=driver_path))
    except Exception as err:  # noqa: BLE001 - say why the browser would not start
        unavailable("chromium", f"it did not start through chromedriver: {str(err).splitlines()[0]}")
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


def crawl(driver: Any, start: str) -> dict[str, str]:
    """Every HTML page reachable from `start` by links: url -> the page's text. Each page must load
    without a console error, and every link, stylesheet, picture and fragment on it must resolve."""
    from selenium.webdriver.common.by import By

    pages: dict[str, str] = {}
    todo = [start]
    checked: set[str] = set()
    while todo:
        url = todo.pop()
        if url in pages:
            continue
        driver.get(url)
        errors = [e for e in driver.get_log("browser") if e["level"] in ("SEVERE", "ERROR")]
        assert errors == [], f"{url}: {errors}"
        assert driver.execute_script("return document.readyState") == "complete"
        pages[url] = driver.find_element(By.TAG_NAME, "body").text
        refs = driver.execute_script(
            "return [...document.querySelectorAll('a[href], link[href], img[src]')]"
            ".map(e => e.href || e.src).filter(Boolean)")
        for ref in refs:
            target, fragment = urldefrag(urljoin(url, ref))
            if fragment:
                assert target != url or driver.find_elements(By.ID, fragment), f"{url}: no #{fragment}"
            if not target.startswith(start.rsplit("/", 1)[0]):
                continue
            if target not in checked:
                with urllib.request.urlopen(target) as answer:  # noqa: S310 - our own loopback server
                    assert answer.status == 200, f"{url} links to {target}: {answer.status}"
                checked.add(target)
            if urlparse(target).path.endswith(".html") and target not in pages:
                todo.append(target)
    return pages


@pytest.fixture(scope="module")
def crawled(browser: Any, served: str) -> dict[str, str]:
    return crawl(browser, served + "index.html")


def test_every_page_loads_without_console_errors_and_every_link_resolves(crawled: dict[str, str], site: Path,
                                                                         served: str) -> None:
    on_disk = {served + p.relative_to(site).as_posix() for p in site.rglob("*.html")}
    assert set(crawled) == on_disk  # every page is reachable by links, from the index


def test_every_board_picture_renders(browser: Any, served: str, site: Path) -> None:
    from PIL import Image
    from selenium.webdriver.common.by import By

    for page in sorted(site.glob("*/turn-*.html")):
        browser.get(served + page.relative_to(site).as_posix())
        board = browser.find_element(By.CSS_SELECTOR, "figure.board svg")
        assert board.size["width"] >= 600 and board.size["height"] >= 300, page
        shot = Image.open(io.BytesIO(board.screenshot_as_png)).convert("RGB")
        colours = shot.getcolors(maxcolors=1 << 20) or []
        assert len(colours) > 50, f"{page}: the board looks blank ({len(colours)} colours)"
        assert max(n for n, _ in colours) < 0.9 * shot.width * shot.height, f"{page}: the board is one colour"
    for index in ("index.html", f"{RUNNING}/index.html", f"{FINISHED}/index.html"):
        browser.get(served + index)
        images = browser.find_elements(By.TAG_NAME, "img")
        assert images
        for img in images:
            assert browser.execute_script("return arguments[0].complete && arguments[0].naturalWidth > 0", img), index


def hidden_texts(store: Path, name: str) -> tuple[set[str], set[str]]:
    """What only the GM may read of a game's turns — each private line of every resolution and
    every line of the GM's position — and what anyone may read (for the check's own check)."""
    m = moderator(store)
    game, _, turns = m.history(name)
    engine = m.engine(game)
    presenter = engine.presenter
    secret: set[str] = set()
    public: set[str] = set()
    for t in turns:
        for data in json.loads(t.resolutions):
            resolution = engine.resolution_from_json(data)
            shown = presenter.resolution_lines(engine.redact(resolution, Viewer.public()), private=False)
            full = presenter.resolution_lines(engine.redact(resolution, Viewer.gm()), private=True)
            public.update(" ".join(x.split()) for x in shown)
            secret.update(" ".join(x.split()) for x in full if x not in shown)
        after = m.state(game, t.after)
        gm = presenter.position_lines(engine.view(after, Viewer.gm()))
        anyone = presenter.position_lines(engine.view(after, Viewer.public()))
        secret.update(" ".join(x.split()) for x in gm if x not in anyone)
    return secret, public


def test_no_hidden_value_of_the_running_game_appears_in_any_page(crawled: dict[str, str], store: Path) -> None:
    def lines(game: str) -> str:
        """The text of every page but the other game's own (which may say the same words)."""
        other = f"/{FINISHED if game == RUNNING else RUNNING}/"
        return "\n".join(" ".join(line.split()) for url, page in crawled.items() if other not in url
                         for line in page.splitlines())

    secret, public = hidden_texts(store, RUNNING)
    assert len(secret) > 20 and all(line in lines(RUNNING) for line in public)
    assert sorted(line for line in secret if line in lines(RUNNING)) == []
    revealed, _ = hidden_texts(store, FINISHED)
    shown = lines(FINISHED)
    assert sum(line in shown for line in revealed) > 0.9 * len(revealed)  # over: shown, so the check can see them


def test_the_keyboard_reaches_the_skip_link_and_walks_the_turns(browser: Any, served: str) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    browser.get(served + f"{RUNNING}/turn-2.html")
    body = browser.find_element(By.TAG_NAME, "body")
    body.send_keys(Keys.TAB)
    skip = browser.switch_to.active_element
    assert skip.text == "Skip to content" and skip.is_displayed()
    assert skip.rect["x"] >= 0 and skip.rect["y"] >= 0  # shown on the screen once focused
    skip.send_keys(Keys.ENTER)
    assert browser.switch_to.active_element.get_attribute("id") == "main"
    for _ in range(10):  # the next links in order: the pager's
        browser.switch_to.active_element.send_keys(Keys.TAB)
        if browser.switch_to.active_element.text == "Turn 3 →":
            break
    focused = browser.switch_to.active_element
    assert focused.text == "Turn 3 →"
    outline = browser.execute_script("return getComputedStyle(arguments[0]).outlineStyle", focused)
    assert outline == "solid"
    focused.send_keys(Keys.ENTER)
    assert browser.current_url.endswith("/turn-3.html") and "turn 3" in browser.title.lower()


def test_pages_fit_a_phone_and_print_without_navigation(browser: Any, served: str, site: Path) -> None:
    from selenium.webdriver.common.by import By

    pages = ["index.html", f"{RUNNING}/index.html", f"{RUNNING}/turn-3.html", f"{FINISHED}/turn-1.html"]
    try:
        browser.set_window_size(390, 844)
        for page in pages:
            browser.get(served + page)
            wide = browser.execute_script("return [document.documentElement.scrollWidth, window.innerWidth]")
            assert wide[0] <= wide[1], f"{page} scrolls sideways on a phone: {wide}"
        browser.save_screenshot(str(site.parent / "phone-turn.png"))
    finally:
        browser.set_window_size(1200, 900)
    browser.get(served + f"{RUNNING}/turn-3.html")
    browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "print"})
    try:
        nav = browser.find_element(By.CSS_SELECTOR, "header")
        board = browser.find_element(By.CSS_SELECTOR, "figure.board svg")
        assert not nav.is_displayed() and board.is_displayed()
        assert all(not p.is_displayed() for p in browser.find_elements(By.CSS_SELECTOR, "nav.pager"))
    finally:
        browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": ""})
    pdf = browser.print_page()
    assert len(pdf) > 10_000
