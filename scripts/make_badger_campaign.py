"""Write sample_turns/badger/: a Badger tournament by mail, each mail turn's sheets in a folder.

The waiting player's sheet comes first, then the sheet of the player to act, which resolves the
mail turn on receipt. Run: PYTHONPATH=. python scripts/make_badger_campaign.py
"""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path

from pbem.games.badger_bunny import GAME
from pbem.games.base import SeatSpec, Setup
from pbem.games.chance import LegacyChance
from pbem.games.sheet import read_sheet

SEED = 4242
OUT = Path("sample_turns/badger")
PLAYERS = (("Ann", "ann@example.org", "A1N-77Q"), ("Bob", "bob@example.net", "B0B-3KX"))
CAMPAIGN = f'''name = "badger-cup"
game = "badger-bunny"
rules = "basic"
options = ["tournament"]
seed = {SEED}
chance = "legacy"   # its mails were written against the draws of the generator before 0010
moderator = "gm@pbem.example"

[[players]]
name = "Ann"
email = "ann@example.org"
secret = "A1N-77Q"
timezone = "Europe/London"

[[players]]
name = "Bob"
email = "bob@example.net"
secret = "B0B-3KX"
timezone = "Pacific/Auckland"
'''

# what each player writes, by mail turn: (lines of the player to act, lines of the waiting one)
ACTING = [
    "PLAY LOWEST\nIF OPPONENT PASSED THEN PLAY LOWEST ELSE PASS",
    "IF I LEAD THEN PLAY LOWEST ELSE PLAY LOWEST ELSE PASS\nDEFAULT: PLAY LOWEST ELSE PASS",
    "DEFAULT: IF HAND > 3 THEN PLAY LOWEST ELSE IF I LEAD THEN PLAY LOWEST ELSE PASS",
]
WAITING = [
    "# my answers while I wait\nIF SERIES IS SINGLE AND LAST RANK < 9 THEN PLAY LOWEST ELSE PASS\nDEFAULT: PLAY LOWEST",
    "Hello Ann!\nDEFAULT: PLAY LOWEST ELSE PASS\nPLAY LUNATIK",
    "DEFAULT: PLAY LOWEST ELSE PASS",
]


def mail(sender: int, turn: int, body: str, when: datetime, n: int) -> str:
    name, address, secret = PLAYERS[sender]
    return (f"From: {name} <{address}>\nTo: gm@pbem.example\nSubject: badger-cup turn {turn}\n"
            f"Date: {when.strftime('%a, %d %b %Y %H:%M:%S +0000')}\n"
            f"Message-ID: <badger-{turn}-{n}-{name.lower()}@example.org>\nMIME-Version: 1.0\n"
            f"Content-Type: text/plain; charset=UTF-8\n\nGame: badger-cup\nTurn: {turn}\nSecret: {secret}\n\n"
            f"{body}\n\n-- \n{name}\n")


def main() -> None:
    state = GAME.new_state(Setup("basic", tuple(SeatSpec(p[0]) for p in PLAYERS), ("tournament",)),
                           LegacyChance(SEED, 0))
    when = datetime(2026, 11, 2, 18, 0)
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "campaign.toml").write_text(CAMPAIGN, encoding="utf-8")
    turn = 1
    while not GAME.is_over(state) and turn < 40:
        folder = OUT / f"turn{turn}"
        folder.mkdir(exist_ok=True)
        act = state.race.act
        k = (turn - 1) % 3
        texts = {1 - act: WAITING[k], act: ACTING[k]}
        (folder / f"01-{PLAYERS[1 - act][0].lower()}.eml").write_text(mail(1 - act, turn, texts[1 - act], when, 1),
                                                                      encoding="utf-8")
        when += timedelta(hours=3)
        (folder / f"02-{PLAYERS[act][0].lower()}.eml").write_text(mail(act, turn, texts[act], when, 2),
                                                                  encoding="utf-8")
        when += timedelta(hours=9)
        orders = {s: GAME.parse(state, read_sheet(t), s).orders for s, t in texts.items()}
        state = GAME.resolve(state, orders, LegacyChance(SEED, turn)).state
        turn += 1
    print(f"{turn - 1} mail turns; champion seat {state.champion}, totals {state.totals}")


if __name__ == "__main__":
    main()
