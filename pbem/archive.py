"""The public archive: every game as a small static website (HTML and CSS), a JSON export and Atom feeds.

The archive knows no game: it reaches each one through the registry and the protocol. While a
game runs, every page is written from `Viewer.public()` (views and redacted resolutions, the
orders and chance `Game.public_orders` and `Game.archived_draws` allow); once the game is over,
from `Viewer.gm()`, so every hidden value is revealed. A run reads one turn at a time and writes each
file as it is made, so its memory is bounded by one turn, however long the game; every file goes
through a temporary file and an atomic rename, so a run killed at any moment leaves every page whole,
and only the files whose bytes changed are replaced. A board picture is drawn again only when its
inputs changed (their digest is kept in the folder's manifest, `.pbem-archive.json`). Each game lives
in a folder of its own that no other name shares, even on a case-insensitive file system (`folder`).
"""

from __future__ import annotations

import hashlib
import heapq
import json
import os
import re
import sys
import tempfile
import uuid
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone
from functools import lru_cache
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, overload

import jinja2
from markupsafe import Markup

from pbem import __version__, render
from pbem.games import AnyGame, find_game
from pbem.games.base import Place, Viewer
from pbem.games.chance import Draw
from pbem.games.sheet import read_sheet
from pbem.reports import rules_href, when
from pbem.resources import data_dir
from pbem.turn_record import TurnRecord, picture

if TYPE_CHECKING:
    from pbem.moderator import Moderator

#: the version of the JSON export (docs/gm.md: "The archive")
SCHEMA = "pbem-archive/1"
MANIFEST = ".pbem-archive.json"
_TEMPLATES = "archive"
#: the site-wide feed, and each game's, holds this many of the latest resolved turns
FEED_ENTRIES = 50
#: the files at the top of the site: no game's folder may be one of them
SITE_FILES = frozenset({"index.html", "feed.atom", "style.css", MANIFEST})
#: turns read from the store at once (the memory a run needs is about this many turns)
TURNS_AT_ONCE = 8
_TMP = ".tmp-"


def folder(name: str) -> str:
    """The folder of the game `name`: the name itself when it is in lower case and not a file of the
    site's own; else the name in lower case, '~' and which of its letters are capitals (a hex mask).
    No game name holds '~', and the mask tells apart names that differ only by case, so no two games
    share a folder, even where the file system ignores case."""
    if name == name.lower() and name not in SITE_FILES:
        return name
    mask = sum(1 << i for i, ch in enumerate(name) if ch.isupper())
    return f"{name.lower()}~{mask:x}"


# ---------------------------------------------------------------------------------------------- the data


@dataclass(frozen=True)
class TurnData:
    """A resolved turn as the store keeps it."""

    turn: int
    resolved_at: datetime
    before: Mapping[str, Any]
    after: Mapping[str, Any]
    resolutions: Sequence[Mapping[str, Any]]
    sheets: Mapping[str, str | None]  # seat name: the sheet's text, None when none came
    draws: Sequence[Any]  # [kind, value] pairs (bare dice before migration 0005)


@dataclass(frozen=True)
class GameData:
    """A game as the archive reads it: no addresses, no secrets. `turns` may be read from the
    store as they are needed (`StoredTurns`)."""

    name: str
    kind: str  # the registered game
    ruleset: str
    options: tuple[str, ...]
    created_at: datetime
    deadline: datetime | None
    seats: tuple[str, ...]
    state: Mapping[str, Any]  # the position now
    turns: Sequence[TurnData]


class StoredTurns(Sequence[TurnData]):
    """A game's resolved turns, read from the store a few at a time whenever they are walked: a
    game of a thousand turns is never in memory at once."""

    def __init__(self, moderator: Moderator, game_id: int, numbers: Sequence[int]) -> None:
        self.moderator = moderator
        self.game_id = game_id
        self.numbers = tuple(numbers)

    def __len__(self) -> int:
        return len(self.numbers)

    @overload
    def __getitem__(self, index: int) -> TurnData: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[TurnData]: ...
    def __getitem__(self, index: int | slice) -> TurnData | Sequence[TurnData]:
        if isinstance(index, slice):
            return StoredTurns(self.moderator, self.game_id, self.numbers[index])
        return self._read([self.numbers[index]])[0]

    def __iter__(self) -> Iterator[TurnData]:
        for start in range(0, len(self.numbers), TURNS_AT_ONCE):
            yield from self._read(self.numbers[start : start + TURNS_AT_ONCE])

    def _read(self, numbers: Sequence[int]) -> list[TurnData]:
        from sqlmodel import col, select

        from pbem.store import TurnRow

        if not numbers:
            raise IndexError("no such turn")
        with self.moderator.store.session() as session:
            rows = session.exec(select(TurnRow).where(TurnRow.game_id == self.game_id,
                                                      col(TurnRow.turn).in_(list(numbers))).order_by(col(TurnRow.turn)))
            return [_turn_data(t) for t in rows]


def _turn_data(t: Any) -> TurnData:
    return TurnData(t.turn, _utc(t.resolved_at), json.loads(t.before), json.loads(t.after),
                    json.loads(t.resolutions), json.loads(t.sheets), json.loads(t.dice))


@dataclass(frozen=True)
class Settings:
    """How to publish: whose orders to hold back until the end, and where the site will live."""

    hold_orders: frozenset[str] = frozenset()  # game names; "*" for every game
    url: str = ""  # the published site's address, for absolute links in the feeds
    author: str = "pbem"

    def holds(self, game: str) -> bool:
        return "*" in self.hold_orders or game in self.hold_orders


def _utc(moment: datetime) -> datetime:
    return moment.replace(tzinfo=timezone.utc) if moment.tzinfo is None else moment.astimezone(timezone.utc)


def load_games(moderator: Moderator, names: Sequence[str] = ()) -> list[GameData]:
    """The games named (default: every game) from the moderator's store, in name order; their turns
    are read when they are walked (`StoredTurns`)."""
    from sqlmodel import col, select

    from pbem.store import TurnRow

    store = moderator.store
    with store.session() as session:
        rows = [store.game(session, n) for n in dict.fromkeys(names)] if names else store.games(session)
        out = []
        for row in sorted(rows, key=lambda r: r.name):
            assert row.id is not None
            players = store.players(session, row.id)
            numbers = session.exec(select(TurnRow.turn).where(TurnRow.game_id == row.id).order_by(col(TurnRow.turn)))
            out.append(GameData(row.name, row.game, row.rules, tuple(json.loads(row.options or "[]")),
                                _utc(row.created_at), _utc(row.deadline) if row.deadline else None,
                                tuple(p.name for p in sorted(players, key=lambda p: p.seat)),
                                json.loads(row.state), StoredTurns(moderator, row.id, list(numbers))))
        return out


# ---------------------------------------------------------------------------------------------- page contexts


@dataclass(frozen=True)
class Crumb:
    title: str
    href: str  # "" for the page itself


@dataclass(frozen=True)
class Layout:
    """What every page shares: its title, the way up to the site's root, the breadcrumbs."""

    title: str
    root: str  # "" or "../"
    crumbs: tuple[Crumb, ...]
    feed: str  # the feed for this page's <link rel="alternate">


@dataclass(frozen=True)
class Standing:
    place: str
    name: str
    detail: str


@dataclass(frozen=True)
class Board:
    """A board picture: the file, its words, and (on a turn page) the SVG itself."""

    href: str
    alt: str
    svg: Markup = Markup("")
    #: height over width, from the SVG's viewBox: each game's board keeps its own shape in a tile
    ratio: float = 0.583


@dataclass(frozen=True)
class Event:
    headline: str
    details: tuple[str, ...]


@dataclass(frozen=True)
class Orders:
    name: str
    status: str  # "sent", "none" or "held"
    lines: tuple[str, ...]


@dataclass(frozen=True)
class TurnLink:
    turn: int
    href: str
    resolved: str
    events: int


@dataclass(frozen=True)
class GameTile:
    """A game on the index page."""

    name: str
    href: str
    title: str
    ruleset: str
    players: str
    turn: int
    state: str
    board: Board


@dataclass(frozen=True)
class Table:
    caption: str
    head: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]


@dataclass(frozen=True)
class ClubPage:
    """A page of the club's tables (ratings, the hall of fame, a tournament), from finished games only."""

    path: str  # e.g. _club/ratings-GAME.html
    title: str
    intro: str
    tables: tuple[Table, ...]


@dataclass(frozen=True)
class TablesPage:
    layout: Layout
    page: ClubPage


@dataclass(frozen=True)
class IndexPage:
    layout: Layout
    games: tuple[GameTile, ...]
    club: tuple[Crumb, ...] = ()


@dataclass(frozen=True)
class GamePage:
    layout: Layout
    name: str
    title: str
    ruleset: str
    options: str
    rules: str  # the link to the game's rules page, "" for none
    players: str
    state: str
    revealed: bool
    held: bool
    deadline: str
    standings: tuple[Standing, ...]
    position: tuple[str, ...]
    board: Board | None
    latest: str  # the latest turn page, "" before the first
    turns: tuple[TurnLink, ...]


@dataclass(frozen=True)
class TurnPage:
    layout: Layout
    name: str
    title: str
    turn: int
    resolved: str
    revealed: bool
    board: Board
    events: tuple[Event, ...]
    orders: tuple[Orders, ...]
    chance: tuple[str, ...]
    standings: tuple[Standing, ...]
    position: tuple[str, ...]
    previous: str
    next: str


@dataclass(frozen=True)
class Entry:
    id: str
    title: str
    href: str
    updated: str
    text: str


@dataclass(frozen=True)
class Feed:
    id: str
    title: str
    href: str  # the page the feed is about
    self_href: str
    updated: str
    author: str
    entries: tuple[Entry, ...]


# ---------------------------------------------------------------------------------------------- rendering


@lru_cache(maxsize=1)
def _environment() -> jinja2.Environment:
    """Strict templates; everything is escaped (HTML and the Atom XML alike)."""
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(data_dir("templates"))),
        undefined=jinja2.StrictUndefined,
        autoescape=True,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )


def _render(template: str, context: object) -> bytes:
    return _environment().get_template(f"{_TEMPLATES}/{template}").render(c=context).encode("utf-8")


def _stamp(moment: datetime) -> str:
    return _utc(moment).strftime("%Y-%m-%dT%H:%M:%SZ")


def _digest(*parts: object) -> str:
    return hashlib.sha256(json.dumps(parts, sort_keys=True, default=str).encode("utf-8")).hexdigest()


@lru_cache(maxsize=8)
def _code_digest(engine_module: str) -> str:
    """What draws a game's pictures: its package and the picture toolkit. A change to either draws
    them anew (the pages themselves are rendered at every run)."""
    h = hashlib.sha256(__version__.encode())
    folders = [Path(render.__file__).parent]
    module = sys.modules.get(engine_module)
    if module is not None and getattr(module, "__file__", None):
        folders.append(Path(str(module.__file__)).parent)
    files = sorted(p for f in folders for p in f.rglob("*") if p.is_file() and p.suffix != ".pyc")
    for path in files:
        h.update(path.name.encode())
        h.update(path.read_bytes())
    return h.hexdigest()


def _inline_svg(svg: str, alt: str) -> Markup:
    """A board SVG to put inside a page: no XML prolog, and named for screen readers."""
    start = svg.find("<svg")
    body = svg[start:] if start >= 0 else svg
    label = str(Markup.escape(alt))
    return Markup(body.replace("<svg", f'<svg role="img" aria-label="{label}"', 1))  # noqa: S704 - the game's own SVG


def _standings(places: Iterable[Place]) -> tuple[Standing, ...]:
    """The game's order of the seats: a finishing place once a seat has one, else the rank in that order."""
    return tuple(Standing(str(p.place if p.place is not None else rank), p.name, p.detail)
                 for rank, p in enumerate(places, start=1))


def _draw(turn: int, stored: Any) -> Draw:
    return Draw(turn, "die", stored) if isinstance(stored, int) else Draw(turn, str(stored[0]), stored[1])


def _chance_words(draws: Sequence[Draw]) -> tuple[str, ...]:
    return tuple(f"{d.kind} {d.value if not isinstance(d.value, list) else ', '.join(map(str, d.value))}" for d in draws)


class Pictures:
    """Board pictures, drawn again only when their inputs change (by the manifest's digests)."""

    def __init__(self, directory: Path, old: Mapping[str, Any]) -> None:
        self.directory = directory
        self.old = old
        self.new: dict[str, dict[str, str]] = {}
        self.drawn = 0

    def get(self, path: str, key: str, draw: Callable[[], tuple[str, str]]) -> tuple[str, str]:
        """(svg, alt) for the file `path`."""
        known = self.old.get(path)
        target = self.directory / path
        if isinstance(known, dict) and known.get("key") == key and target.is_file():
            svg = target.read_text(encoding="utf-8")
            alt = str(known.get("alt", ""))
        else:
            svg, alt = draw()
            self.drawn += 1
        self.new[path] = {"key": key, "alt": alt}
        return svg, alt


class Site:
    """Where a run puts the site's files as they are made: a folder, where each file goes through a
    temporary file and an atomic rename (and only when its bytes changed), or memory (`files`)."""

    def __init__(self, directory: Path | None) -> None:
        self.directory = directory
        self.files: dict[str, bytes] = {}  # in memory only
        self.paths: set[str] = set()
        self.size = 0
        self.written: list[str] = []

    def _claim(self, path: str) -> None:
        if path in self.paths:  # two files at one place: the folders of two games would be one
            raise ValueError(f"the archive made {path} twice")
        self.paths.add(path)

    def put(self, path: str, data: bytes) -> None:
        self._claim(path)
        self.size += len(data)
        if self.directory is None:
            self.files[path] = data
            return
        target = self.directory / path
        try:
            same = target.stat().st_size == len(data) and target.read_bytes() == data
        except OSError:
            same = False
        if not same:
            _write(target, data)
            self.written.append(path)

    def put_stream(self, path: str, chunks: Callable[[], Iterable[bytes]]) -> None:
        """A file too long to hold at once, made piece by piece (a game's JSON export): `chunks` gives
        its pieces each time it is called. They are compared with the file first, so an unchanged
        file (and its folder) is not touched."""
        if self.directory is None:
            self.put(path, b"".join(chunks()))
            return
        self._claim(path)
        target = self.directory / path
        digest = hashlib.sha256()
        for chunk in chunks():
            digest.update(chunk)
            self.size += len(chunk)
        if _file_digest(target) == digest.digest():
            return
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=_TMP, suffix=target.suffix)
        try:
            with os.fdopen(fd, "wb") as out:
                for chunk in chunks():
                    out.write(chunk)
            os.chmod(tmp, 0o644)  # a web server reads it as another user
            os.replace(tmp, target)
            self.written.append(path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise


def _file_digest(path: Path) -> bytes | None:
    try:
        with path.open("rb") as stream:
            digest = hashlib.sha256()
            while block := stream.read(1 << 16):
                digest.update(block)
            return digest.digest()
    except OSError:
        return None


class _Latest:
    """The `size` latest feed entries of those appended (by time, then id): a feed is capped, so its
    entries need not all be kept."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.heap: list[tuple[datetime, str, Entry]] = []

    def append(self, item: tuple[datetime, Entry]) -> None:
        keyed = (item[0], item[1].id, item[1])
        if len(self.heap) < self.size:
            heapq.heappush(self.heap, keyed)
        elif keyed[:2] > self.heap[0][:2]:
            heapq.heapreplace(self.heap, keyed)

    def __iter__(self) -> Iterator[tuple[datetime, Entry]]:
        return iter([(moment, entry) for moment, _, entry in sorted(self.heap, key=lambda x: x[:2], reverse=True)])


class _Spool:
    """A game's exported turns, kept on disk past a megabyte and read back in pieces."""

    def __init__(self) -> None:
        self.file: IO[bytes] = tempfile.SpooledTemporaryFile(max_size=1 << 20)  # noqa: SIM115 - closed by close()
        self.count = 0

    def append(self, item: Mapping[str, Any]) -> None:
        # each turn as json.dumps(..., indent=1) puts it inside the export's list
        text = json.dumps(item, indent=1, ensure_ascii=False).replace("\n", "\n  ")
        self.file.write((",\n  " if self.count else "\n  ").encode("utf-8") + text.encode("utf-8"))
        self.count += 1

    def chunks(self) -> Iterator[bytes]:
        self.file.seek(0)
        while block := self.file.read(1 << 16):
            yield block

    def close(self) -> None:
        self.file.close()


def _export_chunks(export: Mapping[str, Any], turns: _Spool) -> Iterator[bytes]:
    """The JSON export with its turns last, as `json.dumps(export | {"turns": [...]}, indent=1)` writes it."""
    head = json.dumps({**export, "turns": []}, indent=1, ensure_ascii=False)
    if not turns.count:
        yield (head + "\n").encode("utf-8")
        return
    yield head[: -len("]\n}")].encode("utf-8")
    yield from turns.chunks()
    yield b"\n ]\n}\n"


@dataclass(frozen=True)
class _GameSite:
    """One game written: its tile on the index and its latest feed entries."""

    tile: GameTile
    entries: _Latest


def _game_site(game: GameData, settings: Settings, pictures: Pictures, site: Site) -> _GameSite:
    engine: AnyGame = find_game(game.kind)
    info = engine.info
    presenter = engine.presenter
    now = engine.load_state(game.state)
    over = engine.is_over(now)
    viewer = Viewer.gm() if over else Viewer.public()
    held = settings.holds(game.name) and not over
    code = _code_digest(type(engine).__module__)
    ruleset = info.ruleset(game.ruleset).title if game.ruleset else info.default_ruleset.title
    d = folder(game.name)
    feed_href = f"{d}/feed.atom"

    def board(turn: int, state: Any, whole: Sequence[Any], seen: Sequence[Any], title: str) -> Board:
        """The board after `whole` (a turn's resolutions), of which the viewer sees `seen`."""
        path = f"{d}/board-{turn}.svg"
        key = _digest(code, game.kind, viewer.is_gm, engine.dump_state(state),
                      [engine.resolution_to_json(r) for r in seen], title)

        def draw() -> tuple[str, str]:
            drawn = picture(engine, state, whole, title=title, subtitle=f"{info.title}, {ruleset}", viewer=viewer)
            return drawn.svg, drawn.alt

        svg, alt = pictures.get(path, key, draw)
        site.put(path, svg.encode("utf-8"))
        return Board(f"board-{turn}.svg", alt, _inline_svg(svg, alt), _ratio(svg))

    def layout(title: str, crumbs: Sequence[Crumb]) -> Layout:
        return Layout(title, "../", (Crumb("Archive", "../index.html"), *crumbs), "feed.atom")

    turn_links: list[TurnLink] = []
    entries = _Latest(FEED_ENTRIES)  # a game's feed keeps the latest, as the site's does
    exported = _Spool()  # the export's turns, written as they come
    last = game.turns[-1].turn if game.turns else 0
    last_ratio = Board.ratio
    for t in game.turns:
        record = TurnRecord.from_json(engine, turn=t.turn, resolved_at=t.resolved_at, resolutions=t.resolutions,
                                      before=t.before, after=t.after, sheets=t.sheets)
        before, after, whole = record.before, record.after, record.resolutions
        resolutions = record.seen_by(viewer)
        lines = [presenter.resolution_lines(r, private=viewer.is_gm) for r in resolutions]
        events = tuple(Event(ls[0], tuple(x.strip() for x in ls[1:])) for ls in lines if ls)
        orders: list[Orders] = []
        for seat, name in enumerate(game.seats):
            text = t.sheets.get(name)
            if held:
                orders.append(Orders(name, "held", ()))
            elif text is None:
                orders.append(Orders(name, "none", ()))
            else:
                shown = engine.orders_seen(before, read_sheet(text), seat, whole, viewer, over=over)
                orders.append(Orders(name, "held", ()) if shown is None else Orders(name, "sent", shown))
        draws = engine.archived_draws([_draw(t.turn, x) for x in t.draws], viewer)
        after_view = engine.view(after, viewer)
        result = engine.result(after)
        resolved = when(t.resolved_at)
        pic = board(t.turn, after, whole, resolutions, f"{game.name} — turn {t.turn}")
        last_ratio = pic.ratio
        page = f"turn-{t.turn}.html"
        site.put(f"{d}/{page}", _render("turn.html.j2", TurnPage(
            layout=layout(f"Turn {t.turn} — {game.name} ({info.title})",
                          (Crumb(game.name, "index.html"), Crumb(f"Turn {t.turn}", ""))),
            name=game.name, title=info.title, turn=t.turn, resolved=resolved, revealed=over, board=pic,
            events=events, orders=tuple(orders), chance=_chance_words(draws), standings=_standings(result.places),
            position=tuple(presenter.position_lines(after_view)),
            previous=f"turn-{t.turn - 1}.html" if t.turn > 1 else "",
            next=f"turn-{t.turn + 1}.html" if t.turn < last else "")))
        turn_links.append(TurnLink(t.turn, page, resolved, len(events)))
        entry_text = "\n".join(e.headline for e in events)
        entries.append((t.resolved_at, Entry(
            id=uuid.uuid5(uuid.NAMESPACE_URL, f"pbem:{game.name}:{_stamp(game.created_at)}:turn:{t.turn}").urn,
            title=f"{game.name}: turn {t.turn} resolved", href=f"{d}/{page}", updated=_stamp(t.resolved_at),
            text=entry_text)))
        exported.append({
            "turn": t.turn,
            "resolved_at": _stamp(t.resolved_at),
            "position": presenter.summary(after_view),
            "orders": {o.name: list(o.lines) if o.status == "sent" else None for o in orders},
            "orders_held": [o.name for o in orders if o.status == "held"],
            "resolutions": [engine.resolution_to_json(r) for r in resolutions],
            "narration": lines,
            "chance": [d.to_json() for d in draws],
        })

    # the game page, its export and its feed
    result = engine.result(now)
    if over:
        winners = ", ".join(result.winners)
        state = f"over after turn {last}" + (f": {winners} won" if winners else "")
    else:
        state = f"turn {engine.turn(now)} to play"
    if game.turns:
        latest = Board(f"board-{last}.svg", pictures.new[f"{d}/board-{last}.svg"]["alt"], ratio=last_ratio)
    else:
        latest = board(0, now, [], [], f"{game.name} — before turn 1")
    site.put(f"{d}/index.html", _render("game.html.j2", GamePage(
        layout=layout(f"{game.name} ({info.title}) — {state}", (Crumb(game.name, ""),)),
        name=game.name, title=info.title, ruleset=ruleset, options=", ".join(game.options),
        rules=f"../{rules_href(info.rules_page)}" if _rules_source(info.rules_page) else "",
        players=", ".join(game.seats), state=state, revealed=over, held=held,
        deadline="" if over or game.deadline is None else when(game.deadline),
        standings=_standings(result.places), position=tuple(presenter.position_lines(engine.view(now, viewer))),
        board=latest, latest=f"turn-{last}.html" if last else "", turns=tuple(reversed(turn_links)))))
    export = {
        "schema": SCHEMA,
        "game": game.name,
        "kind": info.name,
        "title": info.title,
        "ruleset": game.ruleset,
        "options": list(game.options),
        "players": [{"seat": i, "name": n} for i, n in enumerate(game.seats)],
        "over": over,
        "revealed": over,
        "orders_held": held,
        "next_turn": None if over else engine.turn(now),
        "deadline": _stamp(game.deadline) if game.deadline and not over else None,
        "result": {"over": result.over, "winners": list(result.winners),
                   "places": [{"seat": p.seat, "name": p.name, "place": p.place, "detail": p.detail}
                              for p in result.places]},
        "position": presenter.summary(engine.view(now, viewer)),
    }
    try:
        site.put_stream(f"{d}/game.json", lambda: _export_chunks(export, exported))
    finally:
        exported.close()
    updated = max([game.created_at, *(moment for moment, _ in entries)])
    site.put(feed_href, _render("feed.atom.j2", _feed(
        settings, f"{game.name} ({info.title})", f"{d}/index.html", feed_href, updated,
        uuid.uuid5(uuid.NAMESPACE_URL, f"pbem:{game.name}:{_stamp(game.created_at)}").urn,
        [e for _, e in entries], prefix="../")))
    tile = GameTile(game.name, f"{d}/index.html", info.title, ruleset, ", ".join(game.seats), last, state,
                    Board(f"{d}/board-{last}.svg", latest.alt, ratio=latest.ratio))
    return _GameSite(tile, entries)


def _feed(settings: Settings, title: str, href: str, self_href: str, updated: datetime, feed_id: str,
          entries: Sequence[Entry], *, prefix: str) -> Feed:
    """A feed whose links are absolute under `settings.url`, else relative to the feed's own place."""
    def link(path: str) -> str:
        return settings.url.rstrip("/") + "/" + path if settings.url else prefix + path if prefix else path

    return Feed(feed_id, title, link(href), link(self_href), _stamp(updated), settings.author,
                tuple(Entry(e.id, e.title, link(e.href), e.updated, e.text) for e in entries))


def render_site(games: Sequence[GameData], settings: Settings, pictures: Pictures,
                club: Sequence[ClubPage] = ()) -> dict[str, bytes]:
    """Every file of the site, by its path relative to the site's folder (in memory: for checks)."""
    site = Site(None)
    _make_site(site, games, settings, pictures, club)
    return site.files


@dataclass(frozen=True)
class RulesPage:
    layout: Layout
    title: str
    text: str  # the page of pbem's documentation, as written


_VIEWBOX = re.compile(r'viewBox="\s*[-\d.]+[\s,]+[-\d.]+[\s,]+([\d.]+)[\s,]+([\d.]+)\s*"')


def _ratio(svg: str) -> float:
    """A picture's height over its width, read from its SVG's viewBox (the usual board's without one)."""
    found = _VIEWBOX.search(svg[:2000])
    width, height = (float(found.group(1)), float(found.group(2))) if found else (0.0, 0.0)
    return round(height / width, 4) if width > 0 and height > 0 else Board.ratio


def _rules_source(page: str) -> Path | None:
    """The documentation page `page` of the rules, where pbem has it."""
    if not page:
        return None
    try:
        source = data_dir("docs/rules") / f"{page}.md"
    except FileNotFoundError:
        return None
    return source if source.is_file() else None


def _rules_pages(site: Site, games: Sequence[GameData]) -> None:
    """The rules of each game played here, as pbem's documentation tells them, for the welcome's link."""
    for kind in sorted({g.kind for g in games}):
        info = find_game(kind).info
        source = _rules_source(info.rules_page)
        if source is None:
            continue
        layout = Layout(f"{info.title}: the rules", "../", (Crumb("Archive", "../index.html"), Crumb("Rules", "")),
                        "../feed.atom")
        site.put(rules_href(info.rules_page), _render("rules.html.j2", RulesPage(
            layout, info.title, source.read_text(encoding="utf-8"))))


def _make_site(site: Site, games: Sequence[GameData], settings: Settings, pictures: Pictures,
               club: Sequence[ClubPage] = ()) -> None:
    """Every file of the site into `site`, one game and one turn at a time."""
    site.put("style.css", (data_dir("templates") / _TEMPLATES / "style.css").read_bytes())
    _rules_pages(site, games)
    tiles = []
    entries = _Latest(FEED_ENTRIES)
    for game in games:
        made = _game_site(game, settings, pictures, site)
        tiles.append(made.tile)
        for entry in made.entries:
            entries.append(entry)
    for page in club:  # the club's pages sit one folder down, like a game's
        site.put(page.path, _render("tables.html.j2", TablesPage(
            Layout(page.title, "../", (Crumb("Archive", "../index.html"), Crumb(page.title, "")), "../feed.atom"), page)))
    site.put("index.html", _render("index.html.j2", IndexPage(
        Layout("Game archive", "", (Crumb("Archive", ""),), "feed.atom"), tuple(tiles),
        tuple(Crumb(page.title, page.path) for page in club))))
    latest = list(entries)
    updated = max([x[0] for x in latest] + [g.created_at for g in games], default=datetime(2000, 1, 1, tzinfo=timezone.utc))
    site.put("feed.atom", _render("feed.atom.j2", _feed(
        settings, "Game archive", "index.html", "feed.atom", updated,
        uuid.uuid5(uuid.NAMESPACE_URL, settings.url or "pbem:archive").urn,
        [e for _, e in latest], prefix="")))


# ---------------------------------------------------------------------------------------------- writing


@dataclass
class ArchiveReport:
    """What a run did to the folder."""

    directory: Path
    files: int = 0
    bytes: int = 0
    written: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    pictures_drawn: int = 0

    @property
    def unchanged(self) -> int:
        return self.files - len(self.written)

    def __str__(self) -> str:
        return (f"{self.files} files ({self.bytes / 1024:.0f} kB) in {self.directory}: {len(self.written)} written, "
                f"{self.unchanged} unchanged, {len(self.removed)} removed; {self.pictures_drawn} boards drawn")


def _write(path: Path, data: bytes) -> None:
    """Write through a temporary file, so a reader of the site never sees half a page."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=_TMP, suffix=path.suffix)
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
        os.chmod(tmp, 0o644)  # a web server reads it as another user
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _read_manifest(directory: Path) -> dict[str, Any]:
    try:
        data = json.loads((directory / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _clear_leftovers(directory: Path, old_files: Iterable[object]) -> None:
    """The temporary files of a run that was killed midway (each file is renamed into place whole,
    so a leftover is never a page), in the site's folder and its games' folders."""
    folders = {directory} | {(directory / str(p)).parent for p in old_files}
    for place in folders:
        if place == directory or directory.resolve() in place.resolve().parents:
            for leftover in place.glob(f"{_TMP}*"):
                if leftover.is_file():
                    leftover.unlink(missing_ok=True)


def write_archive(directory: Path, games: Sequence[GameData], settings: Settings = Settings(),
                  club: Sequence[ClubPage] = ()) -> ArchiveReport:
    """Write the site of `games` into `directory` as it is made, rewriting only the files whose bytes
    changed and removing the files an earlier run wrote that the site no longer has (nothing else)."""
    directory.mkdir(parents=True, exist_ok=True)
    manifest = _read_manifest(directory)
    listed = manifest.get("files", [])
    old_files = [str(p) for p in listed] if isinstance(listed, list) else []
    _clear_leftovers(directory, old_files)
    pictures = Pictures(directory, manifest.get("pictures", {}))
    site = Site(directory)
    _make_site(site, games, settings, pictures, club)
    report = ArchiveReport(directory, len(site.paths), site.size, sorted(site.written), pictures_drawn=pictures.drawn)
    for path in sorted(set(old_files) - site.paths):
        target = directory / path
        if directory.resolve() in target.resolve().parents and target.is_file():
            target.unlink()
            report.removed.append(path)
            if target.parent != directory and not any(target.parent.iterdir()):
                target.parent.rmdir()
    new_manifest = {"schema": SCHEMA, "files": sorted(site.paths), "pictures": dict(sorted(pictures.new.items()))}
    if new_manifest != manifest:
        _write(directory / MANIFEST, (json.dumps(new_manifest, indent=1) + "\n").encode("utf-8"))
    return report


def build_archive(moderator: Moderator, directory: Path, names: Sequence[str] = (),
                  settings: Settings | None = None) -> ArchiveReport:
    """The archive of the games named (default: every game) of the moderator's store, with the
    club's pages (ratings, hall of fame, tournaments: finished games only), written to `directory`."""
    if settings is None:
        config = moderator.config
        settings = Settings(frozenset(config.archive_hold_orders), config.archive_url, config.name)
    from pbem.club.pages import club_pages

    return write_archive(directory, load_games(moderator, names), settings, club_pages(moderator))


__all__ = ["MANIFEST", "SCHEMA", "ArchiveReport", "ClubPage", "GameData", "Settings", "Site", "StoredTurns", "TurnData",
           "Table", "build_archive", "folder", "load_games", "render_site", "write_archive"]
