"""Secrets and reply tokens: what proves that a sheet comes from its player.

Each player has a master secret, mailed in the welcome mail (and again on request). Every
later mail's ready-to-edit sheet carries a reply token instead: valid for that player and that
turn only, so a forwarded report gives nobody the player's orders for later turns.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

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
        return f"a secret is letters, digits and '-' (no spaces), not {value!r}"
    return None


def reply_token(secret: str, game: str, turn: int) -> str:
    """The token of `turn`: a keyed digest of the game and turn under the player's secret."""
    digest = hmac.new(secret.upper().encode(), f"{game.lower()}/{turn}".encode(), hashlib.sha256).digest()
    letters = "".join(ALPHABET[b % len(ALPHABET)] for b in digest[:6])
    return f"T{turn}-{letters[:3]}-{letters[3:]}"


def secret_matches(given: str, secret: str, game: str, turn: int) -> bool:
    """The master secret, or the reply token of the current turn (compared in constant time)."""
    value = given.strip().upper().encode()
    return hmac.compare_digest(value, secret.upper().encode()) or hmac.compare_digest(
        value, reply_token(secret, game, turn).upper().encode())
