"""Secrets and reply tokens: what proves that a sheet comes from its player.

Each player has a master secret, mailed in the welcome mail (and again on request). Every
later mail's ready-to-edit sheet carries a reply token instead: valid for that player and that
turn only, so a forwarded report gives nobody the player's orders for later turns.
"""

from __future__ import annotations

import enum
import hashlib
import hmac
import secrets
from dataclasses import dataclass

ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
_ALLOWED = frozenset(ALPHABET + ALPHABET.lower() + "0123456789-")


def new_secret() -> str:
    pick = secrets.choice
    return "".join(pick(ALPHABET) for _ in range(3)) + "-" + "".join(pick(ALPHABET) for _ in range(3))


def check_secret(value: str) -> str | None:
    """Why `value` cannot be a secret a GM sets (None when it can)."""
    if not 4 <= len(value) <= 40:
        return f"a secret has 4 to 40 characters, not {len(value)}"
    if not set(value) <= _ALLOWED or value.startswith("-"):
        return (f"a secret is digits, '-' and letters other than I and O (which read as 1 and 0), "
                f"with no spaces, not {value!r}")
    return None


def reply_token(secret: str, game: str, turn: int) -> str:
    """The token of `turn`: a keyed digest of the game and turn under the player's secret."""
    digest = hmac.new(secret.upper().encode(), f"{game.lower()}/{turn}".encode(), hashlib.sha256).digest()
    letters = "".join(ALPHABET[b % len(ALPHABET)] for b in digest[:6])
    return f"T{turn}-{letters[:3]}-{letters[3:]}"


def secret_matches(given: str, secret: str, game: str, turn: int) -> bool:
    """The master secret, or the reply token of the current turn (compared in constant time)."""
    return identify(given, secret, game, turn).kind in (Proof.MASTER, Proof.TOKEN)


class Proof(enum.Enum):
    """What a SECRET line proves. Only the master secret proves who the player is for good; a reply
    token proves that its turn's sheet is hers, and a stale token only that she once had it."""

    MASTER = "master"
    TOKEN = "token"  # noqa: S105 - the reply token of the current turn
    STALE = "stale"  # her reply token of an earlier turn
    NONE = "none"


@dataclass(frozen=True)
class Identity:
    kind: Proof
    turn: int | None = None  # the turn of a token (current or stale)


#: the longest turn number a token may name (a longer one is no token pbem made)
_MAX_TURN_DIGITS = 9


def identify(given: str, secret: str, game: str, turn: int) -> Identity:
    """What `given` proves for the player whose master secret is `secret`, in `game` at `turn`
    (every comparison in constant time)."""
    value = given.strip().upper()
    if hmac.compare_digest(value.encode(), secret.upper().encode()):
        return Identity(Proof.MASTER)
    if hmac.compare_digest(value.encode(), reply_token(secret, game, turn).upper().encode()):
        return Identity(Proof.TOKEN, turn)
    number = value[1:].partition("-")[0]
    if value.startswith("T") and number.isascii() and number.isdigit() and len(number) <= _MAX_TURN_DIGITS:
        earlier = int(number)
        if 0 <= earlier < turn and hmac.compare_digest(value.encode(),
                                                       reply_token(secret, game, earlier).upper().encode()):
            return Identity(Proof.STALE, earlier)
    return Identity(Proof.NONE)
