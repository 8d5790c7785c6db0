"""Where pbem's data folders (grammar, templates, sample campaign) are, installed or in a checkout."""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


def data_dir(name: str) -> Path:
    """The folder `name` (e.g. ``"orders_grammar"``): inside the wheel, or at the checkout's top."""
    for candidate in (_PACKAGE / "_data" / name, _PACKAGE.parent / name):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(f"pbem's {name}/ folder is missing: reinstall pbem")
