"""Mail text: the shared envelope around a game's parts, rendered through strict jinja2 templates.

A game's presenter names a template `<game>/...` and gives its typed context; the template is
rendered with that context as `c` and the envelope — the game, the turn, the reader, the
deadline in UTC and the reader's zone, the moderator's address, the reply template — as `e`.
`<game>/...` is read from the `templates/` folder of the game's own package (found through the
registry, so a game installed from another distribution brings its own); a game's template
extends the shared one of its kind in pbem's `templates/mail/`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, is_dataclass
from datetime import datetime, timezone
from functools import lru_cache
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import jinja2
from markupsafe import Markup, escape

from pbem.games import games
from pbem.resources import data_dir, game_folder


def loader() -> jinja2.BaseLoader:
    """The shared templates, and under each registered game's name the templates of its package."""
    own = {game.info.name: jinja2.PackageLoader(game.package, "templates")
           for game in games() if game_folder(game.package, "templates") is not None}
    return jinja2.ChoiceLoader([jinja2.FileSystemLoader(str(data_dir("templates"))), jinja2.PrefixLoader(own)])


@lru_cache(maxsize=1)
def environment() -> jinja2.Environment:
    """Strict templates: an undefined name is an error; HTML (and SVG) is autoescaped."""
    env = jinja2.Environment(
        loader=loader(),
        undefined=jinja2.StrictUndefined,
        autoescape=jinja2.select_autoescape(["html", "svg", "html.j2"], default_for_string=False),
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["letter_html"] = letter_html
    return env


#: a heading of the text part: a line that opens with words in capitals (WHAT HAPPENED, NEXT: ...)
_HEADING = re.compile(r"[A-Z][A-Z'&-]+(?: [A-Z'&-]+)*(?=$|[ :(])")
_BLOCK = ("margin: 0 0 12px 0; white-space: pre-wrap; word-wrap: break-word; "
          "font-family: Menlo, Consolas, 'Courier New', monospace; font-size: 13px; line-height: 1.45;")
_SHEET = _BLOCK + " background: #ffffff; border: 1px solid #e0d2b8; padding: 10px;"


def _lines_html(text: str, headings: bool) -> str:
    out = []
    for line in text.split("\n"):
        heading = _HEADING.match(line) if headings else None
        if heading and len(heading.group()) > 2:
            out.append(f"<strong>{escape(heading.group())}</strong>"
                       f"{escape(line[heading.end():])}")
        else:
            out.append(str(escape(line)))
    return "\n".join(out)


def letter_html(text: str, sheet: str = "") -> Markup:
    """The text part of a mail as HTML, line for line, so that the HTML part (which most mail
    programs show) tells all the text tells and cannot drift from it; the ready-to-edit `sheet`
    stands out in a box of its own."""
    before, found, after = text.partition(sheet) if sheet else (text, "", "")
    blocks = [(before.strip("\n"), _BLOCK), (found, _SHEET), (after.strip("\n"), _BLOCK)]
    html = "\n".join(f'<pre style="{style}">{_lines_html(part, style is _BLOCK)}</pre>'
                     for part, style in blocks if part)
    return Markup(html)  # noqa: S704 - every piece of text in it went through escape()


def render(template: str, context: object, envelope: Envelope | None = None) -> str:
    """Render `template` with one typed context object (a dataclass) as `c`, and the envelope as `e`."""
    if not is_dataclass(context):
        raise TypeError("a template context is a dataclass")
    return environment().get_template(template).render(c=context, e=envelope)


@dataclass(frozen=True)
class EchoLine:
    line: int
    text: str
    canonical: str


@dataclass(frozen=True)
class RejectedLine:
    line: int
    column: int
    text: str
    reason: str
    context: str


@dataclass(frozen=True)
class Envelope:
    """What every mail of a game says around the game's own part."""

    game: str  # the game's name in this moderator (e.g. race-7)
    title: str  # what is played: the game's title
    turn: int
    reader: str  # a seat's name, or "GM"
    gm: bool
    deadline: str  # in UTC and the reader's zone
    moderator: str
    template: str = ""  # a ready-to-edit sheet, header lines included; "" when none is due
    resolved_at: str = ""
    board_cid: str = ""
    board_alt: str = ""
    received: str = ""
    replaced: bool = False
    superseded: bool = False
    accepted: tuple[EchoLine, ...] = ()
    rejected: tuple[RejectedLine, ...] = ()
    ignored: tuple[EchoLine, ...] = ()
    #: the acknowledgement's order lint (warnings never reject anything), and a STANDING sheet
    warnings: tuple[str, ...] = ()
    standing: bool = False
    #: the acknowledged sheet was the last one the turn waited for: it is resolved with it at once
    resolves: bool = False
    #: a report of a turn resolved again after a rollback (n: the n-th time), and the GM's notes
    correction: int = 0
    notes: tuple[str, ...] = ()
    computers: tuple[str, ...] = ()  # the seats computer players hold, as "Sam (strong)"
    sitter: tuple[str, ...] = ()  # what a computer sitter wrote for the reader's seat (the GM: for every seat)
    #: every seat's holder in seat order, a computer player named as such ("Sam (a computer player)")
    players: tuple[str, ...] = ()
    #: where the whole rules of the game are (the welcome names them)
    rules: str = ""
    #: the mail's text part, which its HTML part shows whole beside the game's pictures
    text: str = ""


def rules_href(page: str) -> str:
    """Where the archive publishes the rules page `page` (GameInfo.rules_page), from its root: in
    '~rules/', since '~' is in no game's name and so no game's folder can be it."""
    return f"~rules/{page}.html"


def rules_line(page: str, archive_url: str) -> str:
    """Where a welcome's reader finds the whole rules: the archive's page when it has an address."""
    if not page:
        return ""
    if archive_url:  # the address on a line of its own, where no mail program breaks it
        return f"The whole rules as pbem plays them:\n  {archive_url.rstrip('/')}/{rules_href(page)}"
    return (f"The whole rules as pbem plays them are in pbem's documentation,\n  docs/rules/{page}.md\n"
            "(your GM can send them to you).")


def zone(name: str) -> ZoneInfo | timezone:
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError, OSError):  # OSError: a folder such as "America"
        return timezone.utc


def when(moment: datetime | None, tz: str = "UTC") -> str:
    """A deadline as people read it: in UTC, and in the reader's own zone when that differs."""
    if moment is None:
        return "no deadline set"
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=timezone.utc)
    utc = moment.astimezone(timezone.utc)
    text = utc.strftime("%a %d %b %Y %H:%M UTC")
    if tz and tz.upper() != "UTC":
        local = moment.astimezone(zone(tz))
        text += local.strftime(f" ({tz}: %a %d %b %H:%M)")
    return text
