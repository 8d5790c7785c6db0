"""Where pbem's data folders (grammar, templates, sample campaign) and each game's own folders are."""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from importlib.resources.abc import Traversable

_PACKAGE = Path(__file__).resolve().parent


def data_dir(name: str) -> Path:
    """The folder `name` (e.g. ``"orders_grammar"``): inside the wheel, or at the checkout's top."""
    for candidate in (_PACKAGE / "_data" / name, _PACKAGE.parent / name):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(f"pbem's {name}/ folder is missing: reinstall pbem")


def game_folder(package: str, name: str) -> Traversable | None:
    """The folder `name` (``"templates"``, ``"cases"``) of a game's own package (`Game.package`),
    wherever the game was installed from; None when the game has none."""
    folder = files(package) / name
    return folder if folder.is_dir() else None
