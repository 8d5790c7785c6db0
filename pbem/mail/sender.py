"""Who sent a mail: one From address the stdlib's header registry reads without a defect.

pbem answers the From address and looks players up by it, so it is read strictly: with
``email.headerregistry`` under ``policy.default``, exactly one address, no defects, no
group, plain ASCII.  Anything else is refused with a reason rather than guessed at, and a
display name that holds an address is dropped, so it cannot pass for the address.
"""

from __future__ import annotations

import email.policy
from dataclasses import dataclass
from email.headerregistry import AddressHeader
from email.message import Message
from typing import Final

from pbem.errors import PbemError
from pbem.mail.headers import clean_text, raw_headers

__all__ = ["Refusal", "Sender", "read_sender", "validate_address"]

_MAX_ADDRESS: Final = 254  # RFC 5321 path limit less the brackets
_ADDRESS_SPECIALS: Final = frozenset('<>()[]\\,;:" ')


@dataclass(frozen=True)
class Sender:
    """The one address a mail comes from (lower case) and its display name ("" if none)."""

    address: str
    name: str


@dataclass(frozen=True)
class Refusal:
    """Why a mail's sender cannot be trusted, in plain words, and what to do about it."""

    reason: str
    fix: str


_FIX: Final = "Send your orders from your own mail program, with just your address in From."


def _plain_address(addr: str) -> bool:
    """A bare 'local@domain' pbem can write into a To header as it is."""
    local, at, domain = addr.partition("@")
    return (
        bool(local and at and domain)
        and len(addr) <= _MAX_ADDRESS
        and addr.isascii()
        and addr.isprintable()
        and "@" not in domain
        and not any(ch in _ADDRESS_SPECIALS for ch in addr)
        and "." in domain
        and not domain.startswith((".", "-"))
        and not domain.endswith((".", "-"))
        and ".." not in addr
    )


def _dmarc_failed(msg: Message, authserv_id: str) -> bool:
    """Does the topmost Authentication-Results, if our server wrote it, say dmarc=fail?

    Only the topmost field counts (RFC 8601 5): the receiving server adds it last, and
    any field below it may come from the sender.  One from another authserv-id is not
    trusted at all.
    """
    results = [v for name, v in raw_headers(msg) if name == "authentication-results"]
    if not results:
        return False
    value = clean_text(results[0], limit=8192)
    # Comments ("dmarc=fail (p=reject)") cannot nest deeper than the text is long; one
    # pass drops them.
    out: list[str] = []
    depth = 0
    for ch in value:
        if ch == "(":
            depth += 1
        elif ch == ")" and depth:
            depth -= 1
        elif not depth:
            out.append(ch)
    fields = "".join(out).split(";")
    server = fields[0].split()
    if not server or server[0].lower() != authserv_id.lower():
        return False
    for resinfo in fields[1:]:
        words = resinfo.split()
        if words and words[0].lower().replace(" ", "") == "dmarc=fail":
            return True
    return False


def read_sender(msg: Message, *, authserv_id: str | None = None) -> Sender | Refusal:
    """The one trusted From address of a mail, or why there is none.

    Refused: no From, more than one From field, a From the header registry reads with any
    defect, a group, more or fewer than one address, an address that is not a plain ASCII
    'local@domain'.  An encoded word in the display name never counts as the address
    ('=?utf-8?q?ann@example.org?= <eve@evil.example>' is eve@evil.example), and a display
    name holding '@' is dropped.  With `authserv_id`, a mail whose topmost
    Authentication-Results field comes from that server and says dmarc=fail is refused
    too.  Intake calls it once, after parsing, and replies only to a Sender.
    """
    froms = [value for name, value in raw_headers(msg) if name == "from"]
    if not froms:
        return Refusal("the mail has no From address", _FIX)
    if len(froms) > 1:
        return Refusal("the mail has more than one From field", _FIX)
    try:
        header = email.policy.default.header_factory("from", froms[0])
        if not isinstance(header, AddressHeader):
            return Refusal("pbem cannot read the mail's From field", _FIX)
        addresses = header.addresses
        groups = header.groups
        defects = list(getattr(header, "defects", ()))
        for address in addresses:
            defects.extend(getattr(address, "defects", ()))
        spec = addresses[0].addr_spec if addresses else ""
        name = addresses[0].display_name if addresses else ""
    except Exception:  # the registry raised: a From nobody can trust
        return Refusal("pbem cannot read the mail's From field", _FIX)
    shown = clean_text(froms[0], limit=120)
    if defects:
        return Refusal(f"the From field {shown!r} is not a well-formed address", _FIX)
    if len(addresses) != 1:
        return Refusal(f"the From field {shown!r} holds {len(addresses)} addresses, not one", _FIX)
    if any(group.display_name is not None for group in groups):
        return Refusal(f"the From field {shown!r} is a group, not one address", _FIX)
    if not _plain_address(spec):
        return Refusal(f"the From address {clean_text(spec, limit=120)!r} is not one pbem can answer", _FIX)
    name = clean_text(name, limit=100)
    if "@" in name:
        name = ""
    if authserv_id is not None and _dmarc_failed(msg, authserv_id):
        return Refusal(
            f"the mail claims to come from {spec.lower()}, but that domain's DMARC check failed",
            "Send your orders from your own mail provider's server, not through another one.",
        )
    return Sender(address=spec.lower(), name=name)


def validate_address(text: str) -> str:
    """A player's address as a GM types it, checked and in lower case.

    Only a bare 'local@domain' is taken; a name, angle brackets, a second address, spaces
    or a missing domain raise a PbemError that says what to type instead.
    """
    typed = text.strip()
    example = "Type just the address, like ann@example.org."
    if not typed:
        raise PbemError(f"no address given. {example}")
    if "<" in typed or ">" in typed:
        raise PbemError(f"{typed!r} has angle brackets or a name. {example}")
    if "," in typed or ";" in typed or typed.count("@") > 1:
        raise PbemError(f"{typed!r} looks like more than one address. Give one address per player, like ann@example.org.")
    if any(ch.isspace() for ch in typed):
        raise PbemError(f"{typed!r} has spaces in it. {example}")
    local, at, domain = typed.partition("@")
    if not at or not local or not domain:
        raise PbemError(f"{typed!r} has no domain. Type the whole address, like ann@example.org.")
    if "." not in domain:
        raise PbemError(f"{typed!r} has no full domain (like example.org). {example}")
    if not _plain_address(typed):
        raise PbemError(f"{typed!r} is not a plain ASCII address pbem can write to. {example}")
    try:
        header = email.policy.default.header_factory("to", typed)
        ok = isinstance(header, AddressHeader) and not getattr(header, "defects", ()) and [
            a.addr_spec for a in header.addresses
        ] == [typed]
    except Exception:  # the registry raised: not an address
        ok = False
    if not ok:
        raise PbemError(f"{typed!r} is not a valid address. {example}")
    return typed.lower()

