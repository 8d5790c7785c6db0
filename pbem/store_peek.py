"""What a SQLite store holds, read with the standard library alone: a command with nothing to
show (`pbem games` in a fresh home) answers without loading the store's machinery, whose imports
cost several times what the answer does."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

#: the store's table of games (pbem.store.GameRow)
GAME_TABLE = "game"
_PREFIX = "sqlite:///"


def holds_no_game(url: str) -> bool:
    """True when `url` is a SQLite store whose table of games is there and empty; False when it
    holds a game, and whenever that cannot be told this cheaply (another database, a store not
    made yet, a file that is no store): the caller then asks the store itself."""
    if not url.startswith(_PREFIX):
        return False
    path = Path(url[len(_PREFIX):].partition("?")[0])
    if not path.is_absolute() or not path.is_file():
        return False
    try:
        with closing(sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True)) as db:
            return db.execute(f"SELECT 1 FROM {GAME_TABLE} LIMIT 1").fetchone() is None  # noqa: S608 - a constant
    except sqlite3.Error:
        return False
