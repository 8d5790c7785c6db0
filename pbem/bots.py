"""Computer players at work: each writes its seat's sheet when the turn's orders are due.

A computer player sees only its seat's view of the position at the start of the turn and draws
from a chance source of its own (keyed by the game's seed, its seat and the turn), so the sheet
is the one a person in its seat could have written, and writing it again gives the same text.
The sheet is stored as a message of its own and goes through intake like a person's: the
game's parser, the turn checks and the store; the reports show it like anyone's.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from pbem.errors import PbemError
from pbem.games import AnyGame
from pbem.games.base import Viewer
from pbem.games.chance import Chance, SeedRecord, game_chance
from pbem.intake import COMPUTER_SOURCE, Deps, IntakeResult, run_pipeline
from pbem.store import GameRow, MessageRow, PlayerRow


def computer_chance(game: SeedRecord, seat: int, turn: int) -> Chance:
    """The chance source of the computer player in `seat` for `turn` (apart from the game's own)."""
    return game_chance(game, turn, f"computer/{seat}")


def write_sheet(engine: AnyGame, state: Any, seat: int, level: str, game: SeedRecord) -> str:
    """The sheet the computer player of `level` writes for `seat`, from that seat's view only."""
    player = engine.bot(level)
    if player is None:
        raise PbemError(f"{engine.info.title} has no computer player of level {level!r}")
    return player.write(engine.view(state, Viewer(seat)), computer_chance(game, seat, engine.turn(state)))


def check_level(engine: AnyGame, level: str) -> None:
    """Raise PbemError when the game has no computer player of that level."""
    if engine.bot(level) is None:
        levels = ", ".join(engine.info.bot_levels) or "none"
        raise PbemError(f"{engine.info.title} has no computer player of level {level!r}; its levels: {levels}")


def due_seats(engine: AnyGame, state: Any, players: Sequence[PlayerRow], sent: set[int]) -> list[PlayerRow]:
    """The computer players that owe a sheet for the state's turn: on move, none sent yet."""
    moving = set(engine.may_send(state))
    return [p for p in players if p.bot and p.seat in moving and p.id not in sent
            and engine.bot(p.bot) is not None]


def take_sheets(m: Deps, name: str) -> list[IntakeResult]:
    """Every computer player of the game that owes a sheet for the current turn writes it, and
    it goes through intake (a sheet already stored for the turn is not written again)."""
    results = []
    with m.store.session() as session:
        game = m.store.game(session, name)
        if game.over or game.id is None:
            return []
        players = m.store.players(session, game.id)
        if not any(p.bot for p in players):
            return []  # no computer player: nothing to read
        engine = m.engine(game)
        state = engine.load_state(json.loads(game.state))
        sent = set(m.store.current_sheets(session, game.id, game.turn))
        owing = due_seats(engine, state, players, sent)
        for p in owing:
            session.expunge(p)
        session.expunge(game)
    for p in owing:
        text = write_sheet(engine, state, p.seat, p.bot, game)
        results.append(store_sheet(m, game, p, text))
    return results


def store_sheet(m: Deps, game: GameRow, player: PlayerRow, text: str) -> IntakeResult:
    """Store a computer player's sheet as a message and run it through intake."""
    header = f"GAME {game.name}\nTURN {game.turn}\n"
    key = f"<computer.{game.name}.{game.turn}.{player.seat}.{player.bot}@pbem.invalid>"
    row = m.store.add_message(MessageRow(message_id=key, raw=(header + text).encode(), source=COMPUTER_SOURCE,
                                         received_at=m.now(), sender="", subject=f"{player.name} (computer)",
                                         game_id=game.id, player_id=player.id))
    if row is None:  # written before (another worker, or a run that stopped after storing it)
        return IntakeResult(None, "duplicate", "this computer sheet was stored before", "store-raw",
                            game.name, player.name)
    return run_pipeline(m, row, deliver=False)
