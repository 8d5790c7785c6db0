"""Reports and mails: typed contexts rendered through strict jinja2 templates."""

from __future__ import annotations

from dataclasses import is_dataclass
from datetime import datetime, timezone
from functools import lru_cache
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import jinja2

from pbem.resources import data_dir


@lru_cache(maxsize=1)
def environment() -> jinja2.Environment:
    """Strict templates: an undefined name is an error; HTML (and SVG) is autoescaped."""
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(data_dir("templates"))),
        undefined=jinja2.StrictUndefined,
        autoescape=jinja2.select_autoescape(["html", "svg", "html.j2"], default_for_string=False),
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )


def render(template: str, context: object) -> str:
    """Render `template` with one typed context object (a dataclass), exposed as `c`."""
    if not is_dataclass(context):
        raise TypeError("a template context is a dataclass")
    return environment().get_template(template).render(c=context)


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
