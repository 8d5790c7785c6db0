"""People across games: the migration makes one person per distinct address of today's players,
and changes nothing a player has."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timezone
from typing import Any

import pytest
from sqlalchemy import MetaData, Table, create_engine, inspect, text
from sqlalchemy.engine import Engine

from pbem import migrations


@pytest.fixture
def engine(url: str) -> Iterator[Engine]:
    made = create_engine(url)
    yield made
    made.dispose()


def _insert(engine: Engine, table: str, **values: Any) -> None:
    reflected = Table(table, MetaData(), autoload_with=engine)
    with engine.begin() as conn:
        conn.execute(reflected.insert().values(**values))


def _rows(engine: Engine, query: str) -> list[tuple[Any, ...]]:
    with engine.connect() as conn:
        return [tuple(r) for r in conn.execute(text(query)).all()]


PLAYERS = "SELECT id, game_id, seat, name, email, secret, timezone, team, bot, since_turn, vacation_days, away " \
          "FROM player ORDER BY id"


def test_one_person_per_distinct_address_and_the_players_unchanged(engine: Engine) -> None:
    migrations.upgrade(engine, "0011")
    moment = datetime(2026, 11, 20, 9, tzinfo=timezone.utc)
    for name in ("g1", "g2"):
        _insert(engine, "game", name=name, game="some-game", rules="r", seed="7", state="{}", turn=4, over=False,
                created_at=moment)
    seats = [(1, 0, "Ann", "ann@x.org", "Europe/Paris", 1), (1, 1, "Bob", "bob@x.org", "UTC", 3),
             (1, 2, "Cpu", "", "UTC", 1), (2, 0, "Annie", "ANN@x.org", "UTC", 1), (2, 1, "Bob", "bob@x.org", "UTC", 1)]
    for game, seat, name, email, zone, since in seats:
        _insert(engine, "player", game_id=game, seat=seat, name=name, email=email, secret=f"S-{seat}{game}",
                timezone=zone, bot="" if email else "baseline", since_turn=since, vacation_days=seat)
    before = _rows(engine, PLAYERS)

    migrations.upgrade(engine, "head")

    assert _rows(engine, PLAYERS) == before
    assert _rows(engine, "SELECT id, name, timezone FROM person ORDER BY id") == [(1, "Ann", "Europe/Paris"),
                                                                                 (2, "Bob", "UTC")]
    assert _rows(engine, "SELECT person_id, address FROM person_address ORDER BY id") == [(1, "ann@x.org"),
                                                                                        (2, "bob@x.org")]
    assert _rows(engine, "SELECT player_id, person_id, game_id, from_turn, to_turn, ended FROM tenure ORDER BY id") == [
        (1, 1, 1, 1, None, ""), (2, 2, 1, 3, None, ""), (4, 1, 2, 1, None, ""), (5, 2, 2, 1, None, "")]

    migrations.downgrade(engine, "0011")
    assert _rows(engine, PLAYERS) == before
    assert "person" not in inspect(engine).get_table_names()
