"""Chance nobody can reconstruct: secret 256-bit seeds, keyed per-purpose streams, and the games
made before migration 0010 replaying with the generator they were played with."""

from __future__ import annotations

import hashlib
import hmac
import itertools
import json
import random
from collections import Counter
from datetime import datetime, timezone
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from sqlalchemy import MetaData, Table, inspect, text
from sqlalchemy.engine import Engine

from pbem import migrations
from pbem.cli import main
from pbem.config import load_config, write_config
from pbem.errors import PbemError
from pbem.games.base import SeatSpec, Setup
from pbem.games.chance import Chance, Generator, KeyedChance, LegacyChance, Seeding, game_chance
from pbem.moderator import Moderator, PlayerSpec
from pbem.store import GameRow, Store
from tests.mailcheck import stored_reports

MOMENT = datetime(2026, 11, 20, 9, tzinfo=timezone.utc)
PLAYERS = [PlayerSpec("Ann", "ann@example.org", "AAA-111"), PlayerSpec("Bob", "bob@example.net", "BBB-222")]
CHI2_P001 = {5: 20.515, 99: 148.230}  # chi-square at p = 0.001 by degrees of freedom: a fair source fails 1 in 1000


def moderator(root: Path) -> Moderator:
    m = Moderator(load_config(write_config(root)), now=lambda: MOMENT)
    m.store.create()
    return m


def run(*args: str) -> Result:
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def chi2(counts: Counter[int], n: int, draws: int) -> float:
    expected = draws / n
    return sum((counts[v] - expected) ** 2 / expected for v in range(n))


# seeds ---------------------------------------------------------------------------------------

def test_a_new_game_has_a_secret_seed_of_256_random_bits(tmp_path: Path) -> None:
    m = moderator(tmp_path)
    first = m.new_game("one", game="card-race", rules=None, players=PLAYERS, seed=None, deadline=None)
    second = m.new_game("two", game="card-race", rules=None, players=PLAYERS, seed=None, deadline=None)
    for row in (first, second):
        assert row.generator == Generator.KEYED.value == "hmac-sha256"
        assert len(row.seed) == 64 and int(row.seed, 16) >= 2**128  # false for a 31-bit seed (and 1 in 2^128 by luck)
    assert first.seed != second.seed
    # the deal at set-up came from the game's own keyed stream
    deal = KeyedChance(first.seed, 0, "setup")
    setup = Setup(first.rules, tuple(SeatSpec(p.name) for p in PLAYERS), tuple(json.loads(first.options)))
    assert Moderator.dumps(m.engine(first).dump_state(m.engine(first).new_state(setup, deal))) == first.state
    assert json.loads(first.setup_chance) == [d.to_json() for d in deal.drawn] != []


def test_the_cli_keeps_a_random_seed_off_the_terminal(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("PBEM_CONFIG", raising=False)
    run("init", ".")
    out = run("new-game", "g", "--player", "Ann=ann@example.org", "--player", "Bob=bob@example.net").output
    row = Moderator(load_config(tmp_path / "pbem.toml")).game_state("g")[0]
    assert "secret random seed" in out and row.seed not in out
    history = run("history", "g").output
    assert history.startswith("g: hare-tortoise (variable-pig), players Ann") and row.seed not in history


def test_a_given_seed_of_any_length_keys_a_reproducible_game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("PBEM_CONFIG", raising=False)
    run("init", ".")
    players = ["--player", "Ann=ann@example.org", "--player", "Bob=bob@example.net"]
    for name in ("a", "b"):
        result = run("new-game", name, "--game", "card-race", "--seed", "12345678901234567890123", *players)
        assert result.exit_code == 0, result.output
        assert "seed 12345678901234567890123" in result.output
    m = Moderator(load_config(tmp_path / "pbem.toml"))
    a, b = m.game_state("a")[0], m.game_state("b")[0]
    assert (a.seed, a.generator) == ("12345678901234567890123", "hmac-sha256")
    assert a.setup_chance == b.setup_chance and a.state == b.state  # the same seed, the same deal
    refused = run("new-game", "c", "--seed", " ", *players)
    assert refused.exit_code == 1 and "an empty --seed keys nothing" in refused.output


# the keyed stream -----------------------------------------------------------------------------

def test_the_stream_is_hmac_sha256_of_turn_purpose_and_block() -> None:
    """uniform(256) takes one byte: 40 of them are the first 40 bytes of HMAC-SHA256(seed, domain,
    turn, purpose, block 0 then 1), the construction the module documents."""
    seed = "00" * 32

    def block(i: int) -> bytes:
        return hmac.digest(seed.encode(), b"pbem-chance-v1\0" + b"3\0turn\0" + i.to_bytes(8, "big"), hashlib.sha256)

    chance = KeyedChance(seed, 3, "turn")
    assert [chance.uniform(256) for _ in range(40)] == list((block(0) + block(1))[:40])
    assert [d.turn for d in chance.drawn] == [3] * 40


def test_the_stream_is_the_same_for_the_same_seed_turn_and_purpose() -> None:
    def draws(seed: str, turn: int, purpose: str) -> list[int]:
        chance = KeyedChance(seed, turn, purpose)
        return [chance.uniform(2**32) for _ in range(8)]

    assert draws("k", 4, "turn") == draws("k", 4, "turn")
    streams = [draws(s, t, p) for s in ("k", "k2") for t in (0, 4, 5)
               for p in ("turn", "setup", "suggest/0", "suggest/1", "computer/0", "computer/1")]
    assert len({tuple(s) for s in streams}) == len(streams) == 36  # every seed, turn and purpose its own stream


def test_die_values_are_uniform() -> None:
    chance = KeyedChance("chi-square", 1)
    draws = 60_000
    dice = Counter(chance.die(6) for _ in range(draws))
    assert sorted(dice) == [1, 2, 3, 4, 5, 6]
    assert chi2(Counter({v - 1: c for v, c in dice.items()}), 6, draws) < CHI2_P001[5]
    hundred = Counter(chance.uniform(100) for _ in range(draws))
    assert chi2(hundred, 100, draws) < CHI2_P001[99]
    assert [chance.uniform(1) for _ in range(3)] == [0, 0, 0]
    with pytest.raises(ValueError, match="from 0 values"):
        chance.uniform(0)


def test_a_shuffle_is_a_permutation_and_every_order_as_likely() -> None:
    chance = KeyedChance("shuffle", 2)
    deck = [f"card{i}" for i in range(52)]
    dealt = chance.shuffle(deck)
    assert sorted(dealt) == sorted(deck) and dealt != deck
    assert chance.drawn[-1].kind == "shuffle" and [deck[i] for i in chance.drawn[-1].value] == dealt
    draws = 30_000
    orders = Counter(tuple(chance.shuffle("abc")) for _ in range(draws))
    index = {p: i for i, p in enumerate(itertools.permutations("abc"))}
    assert len(orders) == 6 and chi2(Counter({index[p]: c for p, c in orders.items()}), 6, draws) < CHI2_P001[5]


# which generator a game uses -------------------------------------------------------------------

def test_a_legacy_game_draws_exactly_as_before_0010() -> None:
    """The strings the code before 0010 seeded with: "seed/turn" for the game's dice (set-up is
    turn 0), "seed/suggest/SEAT/turn" for SUGGEST, "seed/computer/SEAT/turn" for computer players."""
    def dice(chance: Chance) -> list[int]:
        return [chance.die(6) for _ in range(10)]

    legacy = Seeding("7", Generator.LEGACY)
    twister = random.Random("7/2")  # noqa: S311 - the legacy generator, reproduced
    assert dice(game_chance(legacy, 2)) == dice(LegacyChance(7, 2)) == [1 + int(twister.random() * 6) for _ in range(10)]
    assert dice(game_chance(legacy, 0, "setup")) == dice(LegacyChance(7, 0))
    assert dice(game_chance(legacy, 2, "suggest/1")) == dice(LegacyChance("7/suggest/1", 2))
    assert dice(game_chance(legacy, 2, "computer/0")) == dice(LegacyChance("7/computer/0", 2))
    assert dice(game_chance(Seeding("7", Generator.KEYED), 2)) == dice(KeyedChance("7", 2))
    assert dice(game_chance(Seeding("7", Generator.KEYED), 2)) != dice(LegacyChance(7, 2))
    with pytest.raises(ValueError, match="unknown chance generator 'mt'"):
        game_chance(Seeding("7", "mt"), 2)


def _dice_of(m: Moderator, name: str, turn: int) -> list[list[object]]:
    return list(json.loads(m.turn_record(name, turn)[2].dice))


def _replayed(m: Moderator, name: str, turn: int, chance: LegacyChance) -> list[list[object]]:
    """The dice the code before 0010 drew for a turn resolved with the default orders."""
    game, players, record = m.turn_record(name, turn)
    engine = m.engine(game)
    before = m.state(game, record.before)
    orders = {p.seat: o for p in players if (o := engine.default_orders(before, p.seat)) is not None}
    engine.resolve(before, orders, chance)
    return [d.to_json() for d in chance.drawn]


def _stored_and_fresh(m: Moderator, name: str, turn: int) -> tuple[dict[str, bytes], dict[str, bytes]]:
    game, players, record = m.turn_record(name, turn)
    fresh = {mail.msg_id: mail.raw for mail in m.render_turn(game, players, record)}
    return stored_reports(m, game.id or 0, turn), fresh


def test_a_game_stored_before_0010_replays_with_its_own_dice(tmp_path: Path) -> None:
    """A game as the store held it at 0009 (a number seed, no generator) keeps drawing what the
    old generator drew: its stored turn renders to the same bytes, its next turn rolls the same dice."""
    m = moderator(tmp_path)
    deal = m.new_game("deal", game="card-race", rules=None, players=PLAYERS, seed=7, deadline="7d",
                      generator=Generator.LEGACY)
    setup = Setup(deal.rules, tuple(SeatSpec(p.name) for p in PLAYERS), tuple(json.loads(deal.options)))
    chance = LegacyChance(7, 0)
    assert Moderator.dumps(m.engine(deal).dump_state(m.engine(deal).new_state(setup, chance))) == deal.state
    assert json.loads(deal.setup_chance) == [d.to_json() for d in chance.drawn] != []
    m.new_game("old", game="hare-tortoise", rules=None, players=PLAYERS, seed=7, deadline="7d",
               generator=Generator.LEGACY)
    m.resolve("old", force=True)
    engine_ = m.store.engine
    migrations.downgrade(engine_, "0009")  # the schema, and this row, as pbem before 0010 had them
    with engine_.connect() as conn:
        assert conn.execute(text("SELECT seed FROM game")).scalars().all() == [7, 7]
    assert "generator" not in {c["name"] for c in inspect(engine_).get_columns("game")}
    m.store.create()  # upgraded again, as the next pbem command would
    assert [(g.seed, g.generator) for g in (m.game_state("deal")[0], m.game_state("old")[0])] == [("7", "legacy")] * 2
    stored, fresh = _stored_and_fresh(m, "old", 1)
    assert fresh == stored != {}
    m.resolve("old", force=True)
    assert _dice_of(m, "old", 2) == _replayed(m, "old", 2, LegacyChance(7, 2)) != []
    assert _dice_of(m, "old", 1) == _replayed(m, "old", 1, LegacyChance(7, 1)) != []


def _insert(engine: Engine, **values: object) -> None:
    reflected = Table("game", MetaData(), autoload_with=engine)
    with engine.begin() as conn:
        conn.execute(reflected.insert().values(**values))


def _seeds(engine: Engine) -> list[tuple[object, ...]]:
    with engine.connect() as conn:
        return [tuple(r) for r in conn.execute(text("SELECT name, seed FROM game ORDER BY id"))]


def test_the_migration_keeps_number_seeds_as_their_digits_and_back(url: str) -> None:
    store = Store(url)
    engine = store.engine
    try:
        migrations.upgrade(engine, "0009")
        for name, seed in (("a", 7), ("b", 2**31 - 1)):
            _insert(engine, name=name, game="hare-tortoise", rules="standard", seed=seed, state="{}", turn=1,
                    over=False, created_at=MOMENT)
        migrations.upgrade(engine)
        assert _seeds(engine) == [("a", "7"), ("b", "2147483647")]
        with store.session() as session:
            assert [(g.generator, g.seed) for g in (store.game(session, "a"), store.game(session, "b"))] == [
                ("legacy", "7"), ("legacy", "2147483647")]
            session.add(GameRow(name="new", game="hare-tortoise", rules="standard", seed="ab" * 32, state="{}"))
        # a keyed game's seed does not fit the older schema's number: the downgrade is refused, whole
        with pytest.raises(PbemError, match="1 games \\(new\\) draw from the keyed chance generator"):
            migrations.downgrade(engine, "0009")
        assert migrations.current_revision(engine) == migrations.HEAD
        with engine.begin() as conn:
            conn.execute(text("DELETE FROM game WHERE name = 'new'"))
        migrations.downgrade(engine, "0009")
        assert _seeds(engine) == [("a", 7), ("b", 2147483647)]
    finally:
        engine.dispose()
