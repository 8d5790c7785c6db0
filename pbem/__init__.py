"""pbem: a play-by-email moderator for Hare & Tortoise and its family of race games."""

from __future__ import annotations

__version__ = "0.1.0"
