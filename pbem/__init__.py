"""pbem: a play-by-email moderator for turn-based games."""

from __future__ import annotations

__version__ = "0.1.0"
