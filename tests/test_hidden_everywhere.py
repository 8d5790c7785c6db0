"""Nobody sees what is hidden from them: every output, for every registered game and every reader.

Each registered game is played for a few turns by mail, its computer players writing the sheets
(`campaign`). Every output a reader gets is then rendered twice from what the store holds: as it
is, and with one other seat's hidden values changed by the game's own `vary_hidden` (in every
position and resolution) and lines appended to that seat's sheets that the turn never used. A
reader's output must be the same bytes both times; the GM and the varied seat herself may see
the change. `test_the_check_catches_a_planted_leak` plants a leak under each output and requires
the comparison to find it.
"""

from __future__ import annotations

import email
import email.policy
import hashlib
import json
import re
import sqlite3
import tempfile
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest
from sqlmodel import select

from pbem import commands, mailer
from pbem.archive import GameData, Pictures, Settings, load_games, render_site
from pbem.club import hooks as club_hooks
from pbem.club import people, ratings, signup, standby, tournament
from pbem.club.mail import Desk, Member
from pbem.club.pages import FOLDER, club_pages
from pbem.club.rows import ClubGameRow, EntrantRow, ObserverRow, OpenGameRow, SignupRow, TableRow, TournamentRow
from pbem.config import load_config, write_config
from pbem.games import AnyGame, find_game, games
from pbem.games.base import Viewer
from pbem.games.chance import LegacyChance
from pbem.games.present import Reader
from pbem.games.sheet import read_sheet
from pbem.mailer import Answer, GmNote, Mailer, Outgoing
from pbem.moderator import Moderator, PlayerSpec
from pbem.store import GameRow, PlayerRow, TurnRow

NAMES = ("Ann", "Bob", "Cyd")
GAME = "secrets"
TURNS = 3  # turns resolved before the outputs are rendered (the game still runs)
SEEDS = (1, 2)
GM = "GM"
PUBLIC = "public"
#: the club around the game: someone who watches it, a game open for sign-up its players joined,
#: and a tournament whose first round's table it is
OBSERVER = ("Oz", "oz@observer.example")
OPEN = "lobby"
CUP = "cup"


class Clock:
    def __init__(self) -> None:
        self.moment = datetime(2026, 11, 2, 9, tzinfo=timezone.utc)

    def __call__(self) -> datetime:
        return self.moment


@dataclass(frozen=True)
class World:
    """Everything stored of a game that an output is rendered from."""

    game: GameRow
    players: tuple[PlayerRow, ...]
    turns: tuple[TurnRow, ...]
    state: Any  # the position now
    archive: GameData


@dataclass(frozen=True)
class Campaign:
    m: Moderator
    engine: AnyGame
    world: World
    directory: Path
    #: the varied worlds and the mails rendered from each, by (what, other seat, seed)
    cache: dict[tuple[str, int, int], Any] = field(default_factory=dict)
    mails: dict[tuple[int, bool], dict[str, list[bytes]]] = field(default_factory=dict)


def _mail(address: str, secret: str, turn: int, text: str, n: int) -> bytes:
    return (f"From: X <{address}>\nTo: gm@pbem.example\nSubject: orders\nMessage-ID: <t{turn}.{n}.{address}>\n"
            f"Date: Mon, 02 Nov 2026 10:00:00 +0000\nContent-Type: text/plain; charset=utf-8\n\n"
            f"GAME {GAME}\nTURN {turn}\nSECRET {secret}\n{text}\n").encode()


def _bot_sheet(engine: AnyGame, state: Any, seat: int, key: str) -> str:
    bot = engine.bot(engine.info.bot_levels[0])
    assert bot is not None
    return bot.write(engine.view(state, Viewer(seat)), LegacyChance(key, engine.turn(state)))


def _play(engine: AnyGame, directory: Path) -> Campaign:
    """The game, three seats where it takes them, played by mail for `TURNS` turns."""
    seats = min(len(NAMES), engine.info.default_ruleset.max_players)
    clock = Clock()
    m = Moderator(load_config(write_config(directory, address="gm@pbem.example")), now=clock)
    m.store.create()
    m.new_game(GAME, game=engine.info.name, rules=None, seed=11, deadline="7d",
               players=[PlayerSpec(n, f"{n.lower()}@example.org", f"{n.upper()}-SECRET") for n in NAMES[:seats]])
    for turn in range(1, TURNS + 1):
        game, players, state = m.game_state(GAME)
        assert game.turn == turn and not engine.is_over(state), f"{engine.info.name}: over before turn {turn}"
        for p in players:
            if p.seat in engine.may_send(state):
                sheet = _bot_sheet(engine, state, p.seat, f"campaign/{p.seat}")
                m.ingest(_mail(p.email, p.secret, turn, sheet, p.seat), "test")
        clock.moment += timedelta(days=1)
        if m.game_state(GAME)[0].turn == turn:
            m.resolve(GAME, force=True)
    game, players, turns = m.history(GAME)
    state = m.state(game)
    assert not engine.is_over(state)
    _club(m, engine)
    return Campaign(m, engine, World(game, tuple(players), tuple(turns), state, load_games(m, [GAME])[0]), directory)


def _club(m: Moderator, engine: AnyGame) -> None:
    """The game in the club: its players are people, an observer watches it, it is rated, its
    players signed up for an open game, and it is a table of a tournament's first round."""
    ruleset = engine.info.default_ruleset
    with m.store.session() as session:
        game = m.store.game(session, GAME)
        assert game.id is not None
        people.sync(session, m.now())
        players = m.store.players(session, game.id)
        persons = [people.person_of(session, p.email) for p in players]
        watcher = people.ensure_person(session, OBSERVER[1], OBSERVER[0], m.now())
        session.add(ObserverRow(game_name=GAME, address=OBSERVER[1], person_id=watcher.id or 0))
        session.add(ClubGameRow(game_id=game.id, rated=True))
        lobby = OpenGameRow(name=OPEN, game=engine.info.name, rules=ruleset.name, min_seats=ruleset.min_players,
                            max_seats=ruleset.max_players, seed="lobby", deadline="7d")
        cup = TournamentRow(name=CUP, game=engine.info.name, rules=ruleset.name, format="swiss", rounds=2,
                            table_size=len(players), seed="cup", round=1)
        session.add_all([lobby, cup])
        session.flush()
        entrants = []
        for p, person in zip(players, persons, strict=True):
            assert person is not None
            session.add(SignupRow(open_game_id=lobby.id or 0, person_id=person.id or 0, name=p.name, address=p.email))
            entrants.append(EntrantRow(tournament_id=cup.id or 0, name=p.name, person_id=person.id,
                                       address=p.email, seed_order=p.seat))
        session.add_all(entrants)
        session.flush()
        session.add(TableRow(tournament_id=cup.id or 0, round=1, table=1, game_id=game.id,
                             entrants=json.dumps([e.id for e in entrants])))


_PLAYED: dict[str, Campaign] = {}


def campaign_of(name: str, tmp_path_factory: pytest.TempPathFactory) -> Campaign:
    """The game's campaign, played once for the whole module."""
    if name not in _PLAYED:
        _PLAYED[name] = _play(find_game(name), tmp_path_factory.mktemp(name))
    return _PLAYED[name]


@pytest.fixture(params=[g.info.name for g in games()])
def campaign(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Campaign:
    return campaign_of(request.param, tmp_path_factory)


# ---------------------------------------------------------------------------------------------- the variation


def _vary_turn(engine: AnyGame, before: Mapping[str, Any], after: Mapping[str, Any], resolutions: list[Any],
               sheets: dict[str, str | None], name: str, other: int, seed: int,
               unused: str) -> tuple[dict[str, Any], dict[str, Any], list[Any], dict[str, str | None]]:
    """One stored turn with seat `other`'s hidden values changed, and the lines `unused` (which
    the turn never read) appended to its sheet."""
    varied_after, varied = engine.vary_hidden(engine.load_state(after),
                                              [engine.resolution_from_json(r) for r in resolutions], other, seed)
    varied_before, _ = engine.vary_hidden(engine.load_state(before), (), other, seed)
    text = sheets.get(name)
    if text is not None:
        sheets = {**sheets, name: text + "\n" + unused}
    return (engine.dump_state(varied_before), engine.dump_state(varied_after),
            [engine.resolution_to_json(r) for r in varied], sheets)


def vary(c: Campaign, other: int, seed: int) -> World:
    """The world with seat `other`'s hidden values and unused order lines changed everywhere."""
    key = ("world", other, seed)
    if key not in c.cache:
        c.cache[key] = _vary(c, other, seed)
    world: World = c.cache[key]
    return world


def _vary(c: Campaign, other: int, seed: int) -> World:
    engine, w = c.engine, c.world
    name = w.players[other].name
    # another sheet of the seat's own for each turn, written after the turn: lines it never used
    unused = {t.turn: _bot_sheet(engine, _turn_state(c, t.before), other, f"unused/{seed}") for t in w.turns}
    turns = []
    for t in w.turns:
        before, after, resolutions, sheets = _vary_turn(engine, json.loads(t.before), json.loads(t.after),
                                                        json.loads(t.resolutions), json.loads(t.sheets), name,
                                                        other, seed, unused[t.turn])
        turns.append(TurnRow(**{**t.model_dump(), "before": json.dumps(before), "after": json.dumps(after),
                                "resolutions": json.dumps(resolutions), "sheets": json.dumps(sheets)}))
    state, _ = engine.vary_hidden(w.state, (), other, seed)
    game = GameRow(**{**w.game.model_dump(), "state": json.dumps(engine.dump_state(state))})
    data_turns = []
    for td in w.archive.turns:
        before, after, resolutions, sheets = _vary_turn(engine, td.before, td.after, list(td.resolutions),
                                                        dict(td.sheets), name, other, seed, unused[td.turn])
        data_turns.append(replace(td, before=before, after=after, resolutions=resolutions, sheets=sheets))
    archive = replace(w.archive, state=engine.dump_state(state), turns=tuple(data_turns))
    return World(game, w.players, tuple(turns), state, archive)


def _turn_state(c: Campaign, text: str) -> Any:
    return c.engine.load_state(json.loads(text))


Render = Callable[[Campaign, World], Mapping[str, bytes]]


def leaks(c: Campaign, render: Render) -> list[str]:
    """Every (reader, other seat) whose output changes when the other seat's hidden values and
    unused order lines do. The GM and the varied seat herself are not asked."""
    plain = render(c, c.world)
    found = []
    for other in range(len(c.world.players)):
        owner = c.world.players[other].name
        for seed in SEEDS:
            varied = render(c, vary(c, other, seed))
            assert varied.keys() == plain.keys()
            found += [f"{reader} sees {owner}'s hidden values (seed {seed})"
                      for reader in plain if reader not in (GM, owner) and varied[reader] != plain[reader]]
    return found


# ---------------------------------------------------------------------------------------------- the outputs


def _utc(moment: datetime) -> datetime:
    return moment if moment.tzinfo else moment.replace(tzinfo=timezone.utc)


def _reports(c: Campaign, w: World, *, again: bool = False) -> dict[str, list[bytes]]:
    """Every turn's report mails (or, `again`, each player's RESEND of it), by reader."""
    key = (id(w), again)
    if key not in c.mails:
        c.mails[key] = _render_reports(c, w, again=again)
    return c.mails[key]


def _render_reports(c: Campaign, w: World, *, again: bool) -> dict[str, list[bytes]]:
    out: dict[str, list[bytes]] = {}
    for t in w.turns:
        resolutions = [c.engine.resolution_from_json(r) for r in json.loads(t.resolutions)]
        kwargs: dict[str, Any] = dict(turn=t.turn, resolved=_utc(t.resolved_at), deadline=t.deadline)
        batches = ([c.m.mailer.reports(w.game, c.engine, w.players, _turn_state(c, t.after), resolutions,
                                       again=7, only=p.seat, **kwargs) for p in w.players] if again
                   else [c.m.mailer.reports(w.game, c.engine, w.players, _turn_state(c, t.after), resolutions,
                                            **kwargs)])
        for mail in (mail for batch in batches for mail in batch):
            out.setdefault(_reader(w, mail.to), []).append(mail.raw)
    return out


def _reader(w: World, address: str) -> str:
    return next((p.name for p in w.players if p.email == address), GM)


def _parts(raw: bytes) -> list[email.message.EmailMessage]:
    msg = email.message_from_bytes(raw, policy=email.policy.default)
    return [p for p in msg.walk() if not p.is_multipart()]


def _payload(raw: bytes, content_type: str) -> bytes:
    return b"\n--\n".join(p.get_payload(decode=True) or b"" for p in _parts(raw)  # type: ignore[misc]
                          if p.get_content_type() == content_type)


def _mail_output(pick: Callable[[bytes], bytes], *, again: bool = False) -> Render:
    def render(c: Campaign, w: World) -> dict[str, bytes]:
        return {reader: b"\n==\n".join(pick(raw) for raw in mails) for reader, mails in _reports(c, w, again=again).items()}
    return render


def _alt(raw: bytes) -> bytes:
    """The words for the picture: every alt text of the HTML part."""
    return b"\n".join(re.findall(rb'alt="([^"]*)"', _payload(raw, "text/html")))


def _names(raw: bytes) -> bytes:
    """The attachments' file names and content ids."""
    return "\n".join(f"{p.get_filename()} {p['Content-ID']}" for p in _parts(raw)).encode()


def _answers(c: Campaign, w: World, command: str, lines: Callable[[PlayerRow], list[str] | None]) -> dict[str, bytes]:
    out = {}
    for p in w.players:
        body = lines(p)
        if body is not None:
            out[p.name] = c.m.mailer.answer(w.game, p, command=command, opening=f"{command}:", lines=body, key=1,
                                            deadline=w.game.deadline).raw
    return out


def status(c: Campaign, w: World) -> dict[str, bytes]:
    return _answers(c, w, "STATUS", lambda p: commands.status_lines(c.engine, w.game, p, w.players, w.state, {0}, ()))


def history(c: Campaign, w: World) -> dict[str, bytes]:
    return _answers(c, w, "HISTORY", lambda p: commands.history_lines(c.engine, w.players, w.turns, p.seat))


def preview(c: Campaign, w: World) -> dict[str, bytes]:
    """Each seat that may send previews a sheet of its own (the same text in both worlds)."""
    def lines(p: PlayerRow) -> list[str] | None:
        if p.seat not in c.engine.may_send(w.state):
            return None
        key = ("preview", p.seat, 0)
        if key not in c.cache:
            c.cache[key] = _bot_sheet(c.engine, c.world.state, p.seat, "preview")
        sheet = read_sheet(c.cache[key])
        parsed = c.engine.parse(w.state, sheet, p.seat)
        return commands.preview_lines(c.engine, w.state, parsed.orders, (*sheet.echo, *parsed.echo), p.seat)
    return _answers(c, w, "PREVIEW", lines)


def suggest(c: Campaign, w: World) -> dict[str, bytes]:
    out = {}
    for p in w.players:
        advisor = c.engine.bot("strong") or c.engine.bot(c.engine.info.bot_levels[0])
        if advisor is not None and p.seat in c.engine.may_send(w.state):
            text = commands.suggested_sheet(c.engine, advisor, w.state, p.seat, LegacyChance("suggest", w.game.turn))
            out[p.name] = c.m.mailer.answers(w.game, p, [commands.suggestion(w.game, p, text)], key=1,
                                             original=None).raw
    return out


def press(c: Campaign, w: World) -> dict[str, bytes]:
    """Every player's PRESS relayed to every other, from the game as stored (its position too)."""
    return {f"{r.name}<-{a.name}": c.m.mailer.press(w.game, a, r, "Who holds the hares?", key=1).raw
            for a in w.players for r in w.players if r != a}


def welcome(c: Campaign, w: World) -> dict[str, bytes]:
    state = _turn_state(c, w.turns[0].before)
    return {p.name: c.m.mailer.welcome(w.game, c.engine, state, p, w.game.created_at).raw for p in w.players}


def _site(c: Campaign, w: World, keep: Callable[[str], bool]) -> dict[str, bytes]:
    """The public archive's files (the game runs: written for `Viewer.public()`), one reader."""
    files = render_site([w.archive], Settings(), Pictures(c.directory / "site", {}))
    return {PUBLIC: b"\n==\n".join(path.encode() + b"\n" + files[path] for path in sorted(files) if keep(path))}


def archive_pages(c: Campaign, w: World) -> dict[str, bytes]:
    return _site(c, w, lambda path: path.endswith((".html", ".svg")))


def archive_json(c: Campaign, w: World) -> dict[str, bytes]:
    return _site(c, w, lambda path: path.endswith(".json"))


def archive_feeds(c: Campaign, w: World) -> dict[str, bytes]:
    return _site(c, w, lambda path: path.endswith(".atom"))


def sitter_reports(c: Campaign, w: World) -> dict[str, bytes]:
    """Every turn's reports as they are when each seat's computer sitter wrote its sheet (from
    the seat's own view at the start of the turn, as a sitter does): the seat and the GM read
    the sheet, nobody else anything of it."""
    engine, out = c.engine, {}
    level = engine.info.bot_levels[0]
    for t in w.turns:
        before = _turn_state(c, t.before)
        sheets: dict[str, str | None] = {}
        notes: list[GmNote] = []
        for p in w.players:
            if p.seat in engine.may_send(before):
                # the sitters' sheets are kept, never the mails: a planted leak must reach the rendering
                key = ("sitter", id(w), t.turn * 100 + p.seat)
                if key not in c.cache:
                    c.cache[key] = _bot_sheet(engine, before, p.seat, f"sitter/{t.turn}")
                sheet = c.cache[key]
                sheets[p.name] = f"{commands.SITTER_MARK} ({level})\n{sheet}"
                notes.append(commands.read_sitter_event(p.seat, commands.sitter_event(p.name, level, "deadline", sheet)))
        resolutions = [engine.resolution_from_json(r) for r in json.loads(t.resolutions)]
        for mail in c.m.mailer.reports(w.game, engine, w.players, _turn_state(c, t.after), resolutions, turn=t.turn,
                                       resolved=_utc(t.resolved_at), deadline=t.deadline, notes=notes, sheets=sheets):
            out.setdefault(_reader(w, mail.to), []).append(mail.raw)
    return {reader: b"\n==\n".join(mails) for reader, mails in out.items()}


# the club's outputs: read from a store that holds the world ------------------------------------


def stored(c: Campaign, w: World) -> Moderator:
    """A moderator over a copy of the campaign's store that holds `w` (the game's position and
    its turns' records), on a clock that stands still."""
    key = ("store", id(w), 0)
    if key not in c.cache:
        folder = Path(tempfile.mkdtemp(prefix="store-", dir=c.directory))
        m = Moderator(load_config(write_config(folder, address="gm@pbem.example")), now=Clock())
        source = sqlite3.connect(c.m.config.database_url.removeprefix("sqlite:///"))
        copy = sqlite3.connect(m.config.database_url.removeprefix("sqlite:///"))
        with source, copy:
            source.backup(copy)
        source.close()
        copy.close()
        with m.store.session() as session:
            game = m.store.game(session, GAME)
            game.state = w.game.state
            session.add(game)
            for t in w.turns:
                row = m.store.turn(session, game.id or 0, t.turn)
                assert row is not None
                row.before, row.after, row.resolutions, row.sheets = t.before, t.after, t.resolutions, t.sheets
                session.add(row)
        c.cache[key] = m
    found: Moderator = c.cache[key]
    return found


def _club_answer(m: Moderator, name: str, address: str, command: str, opening: str, lines: list[str]) -> bytes:
    """The club's one answer to a mail holding `command`, as the club sends it."""
    return m.mailer.answers(Desk(), Member(name, address), [Answer(command, opening, tuple(lines))], key=1,
                            original=None).raw


def observed(c: Campaign, w: World) -> dict[str, bytes]:
    """The observer's account of the last resolved turn."""
    m = stored(c, w)
    sent: list[Outgoing] = []
    m.mailer.queue = lambda session, game, turn, *mails: sent.extend(mails)  # type: ignore[method-assign]
    try:
        club_hooks.observe(m, GAME)
    finally:
        del m.mailer.queue
    return {OBSERVER[0]: b"\n==\n".join(o.raw for o in sent)}


def status_of_all_games(c: Campaign, w: World) -> dict[str, bytes]:
    """STATUS without a GAME line, for each player and the observer."""
    m = stored(c, w)
    out = {}
    with m.store.session() as session:
        for name, address in [*((p.name, p.email) for p in w.players), OBSERVER]:
            person = people.person_of(session, address)
            assert person is not None
            out[name] = _club_answer(m, name, address, "STATUS", "your games:", standby.my_games(session, person))
    return out


def listing(c: Campaign, w: World) -> dict[str, bytes]:
    """LIST, with the game's players signed up for an open game (their records read from its turns)."""
    m = stored(c, w)
    with m.store.session() as session:
        return {PUBLIC: _club_answer(m, "Eve", "eve@stranger.example", "LIST", "the games open for sign-up:",
                                     signup.listing(session))}


def club_tables(c: Campaign, w: World) -> dict[str, bytes]:
    """RATINGS (every system and the game's own) and STANDINGS (the running ones and the cup's)."""
    m = stored(c, w)
    system = c.engine.info.name
    with m.store.session() as session:
        lines = [*ratings.table_lines(session, None), *ratings.table_lines(session, system),
                 *tournament.standings_lines(session, None), *tournament.standings_lines(session, CUP)]
    return {PUBLIC: _club_answer(m, "Eve", "eve@stranger.example", "RATINGS", "the ratings and standings:", lines)}


def club_archive(c: Campaign, w: World) -> dict[str, bytes]:
    """The club's archive pages: ratings per system, the hall of fame, the tournament's page."""
    m = stored(c, w)
    files = render_site([], Settings(), Pictures(c.directory / "club-site", {}), club_pages(m))
    shown = sorted(path for path in files if path.startswith(f"{FOLDER}/"))
    assert f"{FOLDER}/tournament-{CUP}.html" in shown
    return {PUBLIC: b"\n==\n".join(path.encode() + b"\n" + files[path] for path in shown)}


OUTPUTS: dict[str, Render] = {
    "report text": _mail_output(lambda raw: _payload(raw, "text/plain")),
    "report HTML": _mail_output(lambda raw: _payload(raw, "text/html")),
    "report picture": _mail_output(lambda raw: _payload(raw, "image/png")),
    "report alt text": _mail_output(_alt),
    "report attachment names": _mail_output(_names),
    "report .ics": _mail_output(lambda raw: _payload(raw, "text/calendar")),
    "welcome": welcome,
    "STATUS": status,
    "HISTORY": history,
    "RESEND": _mail_output(lambda raw: raw, again=True),
    "PREVIEW": preview,
    "SUGGEST": suggest,
    "press": press,
    "archive pages": archive_pages,
    "archive JSON": archive_json,
    "archive feeds": archive_feeds,
    "sitter notes": sitter_reports,
    "observer's turn mail": observed,
    "STATUS of every game": status_of_all_games,
    "LIST": listing,
    "RATINGS and STANDINGS": club_tables,
    "club archive pages": club_archive,
}


@pytest.mark.parametrize("output", OUTPUTS)
def test_no_reader_sees_another_seats_hidden_values(campaign: Campaign, output: str) -> None:
    assert OUTPUTS[output](campaign, campaign.world), f"{output}: nothing rendered"
    assert leaks(campaign, OUTPUTS[output]) == []


def test_the_variation_changes_what_its_owner_and_the_gm_see(campaign: Campaign) -> None:
    """Else the comparison would prove nothing: the varied seat's own report and the GM's change."""
    plain = _reports(campaign, campaign.world)
    for other, p in enumerate(campaign.world.players):
        for seed in SEEDS:
            varied = _reports(campaign, vary(campaign, other, seed))
            assert varied[p.name] != plain[p.name], (p.name, seed)
            assert varied[GM] != plain[GM], (p.name, seed)



def test_a_turns_reports_draw_the_public_picture_once(campaign: Campaign, monkeypatch: pytest.MonkeyPatch) -> None:
    """One public picture per turn, whoever reads; a reader's own picture (from her own view)
    only in a game that sets `private_pictures`, one per player who reads mail."""
    engine, w = campaign.engine, campaign.world
    calls: list[str] = []
    cls = type(engine.presenter)
    public, own = cls.picture, cls.reader_picture

    def counted(what: str, draw: Callable[..., Any]) -> Callable[..., Any]:
        def call(self: object, *args: Any, **kwargs: Any) -> Any:
            calls.append(what)
            return draw(self, *args, **kwargs)
        return call
    monkeypatch.setattr(cls, "picture", counted("public", public))
    monkeypatch.setattr(cls, "reader_picture", counted("own", own))
    t = w.turns[0]
    out = campaign.m.mailer.reports(w.game, engine, w.players, _turn_state(campaign, t.after),
                                    [engine.resolution_from_json(r) for r in json.loads(t.resolutions)],
                                    turn=t.turn, resolved=_utc(t.resolved_at), deadline=t.deadline)
    readers = len([p for p in w.players if p.email])
    assert len(out) == readers + 1
    assert calls == ["public"] + ["own"] * (readers if engine.presenter.private_pictures else 0)


# ---------------------------------------------------------------------------------------------- planted leaks


def _view_as_gm(mp: pytest.MonkeyPatch, c: Campaign) -> None:
    """Every reader is shown what only the GM may see, in her view and in the resolutions."""
    mp.setattr(Viewer, "may_see", lambda self, owner: True)


def _read_as_neighbour(mp: pytest.MonkeyPatch, c: Campaign) -> None:
    """Each player's mail is built from the next seat's view (her picture and its words too)."""
    seats = len(c.world.players)

    def reader_of(player: PlayerRow | None) -> Reader:
        if player is None:
            return Reader(Viewer.gm(), "GM", ())
        seat = (player.seat + 1) % seats
        return Reader(Viewer(seat), player.name, (seat,))
    mp.setattr(mailer, "reader_of", reader_of)


def _nothing_redacted(mp: pytest.MonkeyPatch, c: Campaign) -> None:
    """Every reader is given every resolution whole, told as to its owner."""
    engine = c.engine
    mp.setattr(type(engine), "redact_all", lambda self, resolutions, viewer: tuple(resolutions))
    honest = type(engine.presenter).resolution_lines
    mp.setattr(type(engine.presenter), "resolution_lines",
               lambda self, resolution, *, private: honest(self, resolution, private=True))


def _notes_counted(mp: pytest.MonkeyPatch, c: Campaign) -> None:
    """Each resolution is redacted, but a note private to another seat is still passed on."""
    mp.setattr(type(c.engine), "redact_all", lambda self, resolutions, viewer: tuple(
        self.redact(r, viewer) for r in resolutions))


def _every_order_line(mp: pytest.MonkeyPatch, c: Campaign) -> None:
    """The public reads every accepted line of every sheet."""
    mp.setattr(type(c.engine), "public_orders", lambda self, state, sheet, seat, resolutions:
               self.accepted_orders(state, sheet, seat))


def _preview_tells_all(mp: pytest.MonkeyPatch, c: Campaign) -> None:
    """PREVIEW tells the whole position (every seat's hidden values)."""
    honest = type(c.engine).preview
    mp.setattr(type(c.engine), "preview", lambda self, state, orders, seat: (
        *honest(self, state, orders, seat), json.dumps(self.dump_state(state), sort_keys=True)))


def _advisor_tells_all(mp: pytest.MonkeyPatch, c: Campaign) -> None:
    """SUGGEST's computer player sees everything, and says what it saw."""
    _view_as_gm(mp, c)
    honest = commands.suggested_sheet
    mp.setattr(commands, "suggested_sheet", lambda game, advisor, state, seat, chance: (
        honest(game, advisor, state, seat, chance) + "\n# " + repr(game.view(state, Viewer(seat)))))


def _mail_carries_its_text(mp: pytest.MonkeyPatch, c: Campaign) -> None:
    """Under a leaking view, a mail's attachment names and its calendar carry a digest of its text."""
    _view_as_gm(mp, c)
    honest = Mailer._compose

    def compose(self: Mailer, **kwargs: Any) -> bytes:
        digest = hashlib.sha256(str(kwargs["text"]).encode()).hexdigest()[:12]
        kwargs["pictures"] = [replace(p, filename=f"{digest}-{p.filename}") for p in kwargs.get("pictures", ())]
        due = kwargs.get("due")
        if due is not None and due[2] is not None:
            kwargs["due"] = (due[0], due[1], due[2] + timedelta(seconds=int(digest, 16) % 3600))
        return honest(self, **kwargs)
    mp.setattr(Mailer, "_compose", compose)


def _press_carries_the_position(mp: pytest.MonkeyPatch, c: Campaign) -> None:
    """A relayed PRESS carries the game's stored position."""
    honest = Mailer.press
    mp.setattr(Mailer, "press", lambda self, game, author, reader, text, key: honest(
        self, game, author, reader, text + "\n" + game.state, key))


def _sitter_tells_all(mp: pytest.MonkeyPatch, c: Campaign) -> None:
    """A computer sitter's note, with the sheet it wrote, goes to every reader."""
    mp.setattr(GmNote, "sitter_lines", lambda self, seat, gm: (self.full, *self.sheet))


def _observer_sees_all(mp: pytest.MonkeyPatch, c: Campaign) -> None:
    """The observer's account is told from the GM's view."""
    mp.setattr(Viewer, "public", classmethod(lambda cls: Viewer.gm()))


def _status_tells_the_position(mp: pytest.MonkeyPatch, c: Campaign) -> None:
    """STATUS of every game tells each game's stored position."""
    honest = standby.my_games
    mp.setattr(standby, "my_games", lambda session, person: [
        *honest(session, person), *(s.game.state for s in people.seats_of(session, person))])


def _digest(text: str) -> bytes:
    return hashlib.sha256(text.encode()).digest()


def _records_read_the_position(mp: pytest.MonkeyPatch, c: Campaign) -> None:
    """A person's record (LIST shows it) counts turns by a digest of her games' positions."""
    honest = people.reliability

    def reliability(session: Any, person: Any) -> people.Reliability:
        states = "".join(s.game.state for s in people.seats_of(session, person))
        return replace(honest(session, person), due=_digest(states)[0] + 1)
    mp.setattr(people, "reliability", reliability)


def _running_games_count(mp: pytest.MonkeyPatch, c: Campaign) -> None:
    """Ratings and a tournament's standings count the running game, placed by its position."""
    def places(state: str, seats: int) -> list[int]:
        return [_digest(state)[i] % 3 + 1 for i in range(seats)]

    honest_places = tournament._game_places

    def game_places(session: Any, table: TableRow) -> list[float] | None:
        game = session.get(GameRow, table.game_id)
        if game is None or game.over:
            return honest_places(session, table)
        return [float(p) for p in places(game.state, len(json.loads(table.entrants)))]

    honest_finished = ratings.finished_games

    def finished_games(session: Any, system: str | None = None) -> list[ratings.Finished]:
        out = honest_finished(session, system)
        for game in session.exec(select(GameRow).where(GameRow.over == False)):  # noqa: E712
            players = list(session.exec(select(PlayerRow).where(PlayerRow.game_id == game.id)))
            out.append(ratings.Finished(find_game(game.game).info.name, game.name, tuple(
                ratings.Seat(f"person:{p.id}", p.name, place, "")
                for p, place in zip(players, places(game.state, len(players)), strict=True))))
        return out
    mp.setattr(tournament, "_game_places", game_places)
    mp.setattr(ratings, "finished_games", finished_games)


Plant = Callable[[pytest.MonkeyPatch, Campaign], None]

#: for each output, the leaks planted under it
PLANTS: dict[str, tuple[Plant, ...]] = {
    "report text": (_view_as_gm, _nothing_redacted),
    "report HTML": (_view_as_gm, _nothing_redacted),
    "report picture": (_read_as_neighbour,),
    "report alt text": (_read_as_neighbour,),
    "report attachment names": (_mail_carries_its_text,),
    "report .ics": (_mail_carries_its_text,),
    "welcome": (_read_as_neighbour,),
    "STATUS": (_view_as_gm,),
    "HISTORY": (_nothing_redacted, _notes_counted),
    "RESEND": (_view_as_gm,),
    "PREVIEW": (_preview_tells_all,),
    "SUGGEST": (_advisor_tells_all,),
    "press": (_press_carries_the_position,),
    "archive pages": (_every_order_line, _notes_counted),
    "archive JSON": (_every_order_line, _notes_counted),
    "archive feeds": (_nothing_redacted,),
    "sitter notes": (_sitter_tells_all,),
    "observer's turn mail": (_observer_sees_all, _nothing_redacted),
    "STATUS of every game": (_status_tells_the_position,),
    "LIST": (_records_read_the_position,),
    "RATINGS and STANDINGS": (_running_games_count,),
    "club archive pages": (_running_games_count,),
}


@pytest.mark.parametrize(("output", "plant"), [(o, p) for o, plants in PLANTS.items() for p in plants],
                         ids=[f"{o}-{p.__name__.strip('_')}" for o, plants in PLANTS.items() for p in plants])
def test_the_check_catches_a_planted_leak(output: str, plant: Plant, tmp_path_factory: pytest.TempPathFactory,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """Each output's comparison finds a leak planted under it, in at least one registered game."""
    assert PLANTS.keys() == OUTPUTS.keys()
    caught = []
    for game in games():
        c = campaign_of(game.info.name, tmp_path_factory)
        with monkeypatch.context() as mp:
            plant(mp, c)
            if leaks(replace(c, cache=dict(c.cache), mails={}), OUTPUTS[output]):
                caught.append(game.info.name)
                break
    assert caught, f"{output}: no game's comparison caught the planted leak ({plant.__doc__})"
