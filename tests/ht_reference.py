"""A second, independent model of the Hare & Tortoise rulesets, written from the contract
(RULES.md and RULESETS.md, without two-player) rather than from the engine, for differential
tests: `tests/test_rulesets_reference.py` plays random positions through both and compares.

It is deliberately plain: lists, one method per rule, no caching. Orders come from the
project's parser (the order model), and are evaluated here by the contract's words.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from pbem.games.hare_tortoise.orders.model import (
    ActionKind,
    Compare,
    IAm,
    NextKind,
    PlayerIs,
    Quantity,
    RunnerTest,
    SquareIs,
)
from pbem.orders import And, Not

HOME = 64
_GIBSONS = """0 start 1 hare 2 carrot 3 hare 4 3 5 carrot 6 hare 7 156 8 2 9 4 10 lettuce 11 tortoise 12 3 13 carrot
14 hare 15 tortoise 16 156 17 2 18 4 19 tortoise 20 3 21 carrot 22 lettuce 23 2 24 tortoise 25 hare 26 carrot 27 4
28 3 29 2 30 tortoise 31 hare 32 156 33 carrot 34 hare 35 2 36 3 37 tortoise 38 carrot 39 hare 40 carrot 41 2
42 lettuce 43 tortoise 44 3 45 4 46 hare 47 2 48 156 49 carrot 50 tortoise 51 hare 52 3 53 2 54 4 55 carrot
56 tortoise 57 lettuce 58 hare 59 carrot 60 156 61 carrot 62 hare 63 carrot""".split()
# the Ravensburger 1978/79 track differs at 7, 8, 10 and 60-63
_RAVENSBURGER = {7: "lettuce", 8: "tortoise", 10: "2", 60: "2", 61: "hare", 62: "lettuce", 63: "hare"}


def board(name: str) -> dict[int, str]:
    kinds = {int(a): b for a, b in zip(_GIBSONS[::2], _GIBSONS[1::2], strict=True)}
    if name == "1978":
        kinds.update(_RAVENSBURGER)
    kinds[HOME] = "home"
    return kinds


def numbers(kind: str) -> set[int]:
    if kind == "156":
        return {1, 5, 6}
    return {int(kind)} if kind in ("2", "3", "4") else set()


def _ten_per_place(place: int) -> int:
    return 10 * place


def _twenty(place: int) -> int:
    return 20


RULESETS: dict[str, dict[str, Any]] = {
    "variable-pig": {"board": "1987", "hare": "die", "home": _ten_per_place, "off": False, "back": False, "start": 65,
                     "big": None, "choices": ("TAKE", "GIVE")},
    "parlett-2010": {"board": "1987", "hare": "p10", "home": _ten_per_place, "off": True, "back": False, "start": 65,
                     "big": None, "choices": ("KEEP", "REFUSE")},
    "parlett-classic": {"board": "1978", "hare": "die", "home": _ten_per_place, "off": True, "back": False, "start": 65,
                        "big": None, "choices": ("TAKE", "GIVE")},
    "intellect-1974": {"board": "1978", "hare": "die", "home": _twenty, "off": True, "back": False, "start": 65,
                       "big": None, "choices": ("TAKE", "GIVE")},
    "hase-igel-sam": {"board": "1978", "hare": "sam", "home": _ten_per_place, "off": False, "back": True, "start": 68,
                      "big": 98, "choices": ("TAKE", "GIVE", "NONE")},
}
P10 = ("GIVE-BEHIND GIVE-BEHIND MISS-OR-AGAIN MISS-OR-AGAIN RESTORE-65 RESTORE-65 PER-LETTUCE PER-LETTUCE FREE-RIDE "
       "FREE-RIDE HALF HALF SHOW SHOW SHUFFLE").split()
SAM = "MISS BACK-CARROT NEXT-CARROT AGAIN FREE-RIDE FREE-RIDE TAKE-GIVE TAKE-GIVE LETTUCE UP-ONE DOWN-ONE DOWN-ONE".split()
TABLE = {2: "back-hare", 3: "miss", 4: "back-carrot", 5: "chew", 6: "restore", 7: "refund", 8: "half", 9: "again",
         10: "ahead-carrot", 11: "lettuce", 12: "restore"}

# a move: (kind, target, paid, drawn); kind is fwd, home, back or stay
Move = tuple[str, int, int, int]


def cost(d: int) -> int:
    return d * (d + 1) // 2


class Reference:
    """One turn of one game: the position as lists, played slot by slot by the contract's words."""

    def __init__(self, ruleset: str, options: Sequence[str], runners: Sequence[Any], first: int, deck: Sequence[str],
                 used: Sequence[str], inert: Sequence[int], teams: Sequence[Sequence[int]], chance: Any) -> None:
        self.r = RULESETS[ruleset]
        self.options = tuple(options)
        self.k = board(self.r["board"])
        self.n = len(runners)
        self.sq = [x.square for x in runners]
        self.car = [x.carrots for x in runners]
        self.let = [x.lettuces for x in runners]
        self.place = [x.place for x in runners]
        self.must = [x.must.value for x in runners]
        self.skip = [x.skip for x in runners]
        self.inert = set(inert)
        self.deck, self.used = list(deck), list(used)
        self.teams = [tuple(t) for t in teams]
        self.first = first
        self.chance = chance
        self.over = False
        self.hare: list[Any] = []
        if "carrots-95" in self.options:
            self.start = 95
        elif self.r["big"] and self.n >= 5:
            self.start = self.r["big"]
        else:
            self.start = self.r["start"]

    # positions -----------------------------------------------------------------------------
    def homes(self) -> int:
        return sum(1 for s in self.sq if s == HOME)

    def pos(self, i: int) -> int:
        if self.sq[i] == HOME:
            return int(self.place[i])
        return 1 + sum(1 for j in range(self.n) if j != i and self.sq[j] > self.sq[i])

    def occ(self, s: int) -> bool:
        return s in self.sq

    # legal moves -------------------------------------------------------------------------------
    def fwd(self, i: int, t: int) -> Move | None:
        s = self.sq[i]
        if t <= s or t > HOME:
            return None
        c = cost(t - s)
        if self.car[i] < c:
            return None
        if t == HOME:
            if self.let[i] > 0 or self.car[i] - c > self.r["home"](self.homes() + 1):
                return None
            return ("home", t, c, 0)
        if self.occ(t) or self.k[t] == "tortoise" or (self.k[t] == "lettuce" and self.let[i] == 0):
            return None
        return ("fwd", t, c, 0)

    def tortoise_behind(self, s: int) -> int | None:
        return next((x for x in range(s - 1, 0, -1) if self.k[x] == "tortoise"), None)

    def back(self, i: int) -> Move | None:
        s = self.sq[i]
        t = self.tortoise_behind(s)
        if t is None or self.occ(t):
            return None
        return ("back", t, 0, 10 * (s - t))

    def back_to(self, i: int, n: int) -> Move | None:
        """hase-igel-sam: back to any square down to the nearest tortoise square behind."""
        s = self.sq[i]
        t = self.tortoise_behind(s)
        if t is None or n < t or n >= s or n <= 0 or self.occ(n):
            return None
        if self.k[n] == "lettuce" and self.let[i] == 0:
            return None
        return ("back", n, 0, 10 * (s - n))

    def stay(self, i: int, give: bool) -> Move | None:
        s = self.sq[i]
        if self.k.get(s) != "carrot" or self.must[i] == "leave" or i in self.inert:
            return None
        if give:
            return ("stay", s, 10, 0) if self.car[i] >= 10 else None
        return ("stay", s, 0, 10)

    def nearest(self, i: int, kind: Callable[[int], bool] = lambda t: True) -> Move | None:
        for t in range(self.sq[i] + 1, HOME + 1):
            m = self.fwd(i, t) if kind(t) else None
            if m:
                return m
        return None

    def action(self, i: int, a: Any) -> Move | None:
        s = self.sq[i]
        kind = a.kind
        if kind is ActionKind.TO:
            if a.square > s:
                return self.fwd(i, a.square)
            if a.square == s:
                return None
            if self.r["back"]:
                return self.back_to(i, a.square)
            m = self.back(i)
            return m if m and m[1] == a.square else None
        if kind is ActionKind.HOME:
            return self.fwd(i, HOME)
        if kind is ActionKind.ADVANCE:
            if a.distance <= 0 or s + a.distance > HOME:
                return None
            return self.fwd(i, s + a.distance)
        if kind is ActionKind.NEXT:
            words = {NextKind.CARROT: "carrot", NextKind.HARE: "hare", NextKind.LETTUCE: "lettuce"}
            if a.next_kind is None:
                return self.nearest(i)
            if a.next_kind in words:
                return self.nearest(i, lambda t: self.k[t] == words[a.next_kind])
            if a.number is None:
                return self.nearest(i, lambda t: bool(numbers(self.k[t])))
            return self.nearest(i, lambda t: a.number in numbers(self.k[t]))
        if kind is ActionKind.BACK:
            if a.distance is None:
                return self.back(i)
            return self.back_to(i, s - a.distance) if a.distance > 0 else None
        if kind is ActionKind.STAY:
            return self.stay(i, a.give)
        return None  # EAT is never a move

    def holds(self, i: int, c: Any) -> bool:
        if isinstance(c, SquareIs):
            return not self.occ(c.square) if c.free else self.occ(c.square)
        if isinstance(c, PlayerIs):
            j = c.seat
            if c.test is RunnerTest.ON:
                v = self.sq[j] == c.square
            elif c.test is RunnerTest.HOME:
                v = self.sq[j] == HOME
            elif c.test is RunnerTest.AHEAD:
                v = j != i and self.pos(j) < self.pos(i)
            else:
                v = j != i and self.pos(j) > self.pos(i)
            return not v if c.negated else v
        if isinstance(c, IAm):
            v = self.pos(i) == (self.n if c.last else 1)
            return not v if c.negated else v
        if isinstance(c, Compare):
            value = {Quantity.CARROTS: self.car[i], Quantity.LETTUCES: self.let[i], Quantity.RANK: self.pos(i),
                     Quantity.MY_SQUARE: self.sq[i]}[c.quantity]
            return c.cmp.holds(value, c.value)
        if isinstance(c, Not):
            return not self.holds(i, c.inner)
        if isinstance(c, And):
            return all(self.holds(i, p) for p in c.parts)
        return any(self.holds(i, p) for p in c.parts)

    def choose(self, i: int, chain: Any) -> Move | None:
        """The chain's first true and legal alternative, else the default move (None: stuck)."""
        for alt in chain.alternatives if chain is not None else ():
            if alt.condition is None or self.holds(i, alt.condition):
                m = self.action(i, alt.action)
                if m:
                    return m
        m = self.nearest(i) or self.stay(i, False)
        if m:
            return m
        if not self.r["back"]:
            return self.back(i)
        s = self.sq[i]
        t = self.tortoise_behind(s)
        return next((m for n in range(t, s) if (m := self.back_to(i, n))), None) if t is not None else None

    def word(self, i: int) -> str:
        for alt in self.hare[i]:
            if alt.condition is None or self.holds(i, alt.condition):
                return str(alt.choice.value)
        return str(self.r["choices"][0])

    # a slot --------------------------------------------------------------------------------
    def slot(self, i: int, chain: Any) -> bool:
        """One slot; True when an extra slot follows at once."""
        if self.skip[i]:
            self.skip[i] = False
            return False
        p = self.pos(i)
        if i not in self.inert and p in numbers(self.k.get(self.sq[i], "")):
            self.car[i] += 10 * p
        if self.must[i] == "eat":
            self.let[i] = max(0, self.let[i] - 1)
            self.car[i] += 10 * p
            self.must[i] = "leave"
            return False
        m = self.choose(i, chain)
        if m is None:
            self.sq[i], self.car[i], self.must[i], self.skip[i] = 0, self.start, "none", False
            self.inert.discard(i)
            if not self.r["off"]:
                return False
            m = self.choose(i, chain)
            assert m is not None
        return self.make(i, m)

    def make(self, i: int, m: Move) -> bool:
        kind, t, paid, drew = m
        self.car[i] += drew - paid
        if kind == "stay":
            return False
        self.sq[i], self.must[i] = t, "none"
        self.inert.discard(i)
        if kind == "home":
            self.place[i] = self.homes()
            return False
        square = self.k[t]
        if square == "lettuce":
            self.must[i] = "eat"
        elif kind == "back":
            if self.r["back"] and (square in ("hare", "carrot") or numbers(square)):
                self.inert.add(i)
        elif square == "hare":
            return self.juggle(i, paid)
        return False

    def free_move(self, i: int, kind: str, ahead: bool) -> None:
        s = self.sq[i]
        for x in range(s + 1, HOME) if ahead else range(s - 1, 0, -1):
            if self.k[x] == kind and not self.occ(x):
                self.sq[i] = x
                return

    def take_give(self, i: int, word: str) -> None:
        if word == "GIVE" and self.car[i] >= 10:
            self.car[i] -= 10
        elif word in ("TAKE", "GIVE"):
            self.car[i] += 10

    def juggle(self, i: int, paid: int) -> bool:
        p = self.pos(i)
        if self.r["hare"] == "die":
            return self.die_result(i, TABLE[self.chance.die(6) + p], paid)
        if self.r["hare"] == "p10":
            card = self.deck.pop(0)
            if card != "SHUFFLE":
                self.deck.append(card)
        else:
            if not self.deck:
                self.deck, self.used = list(self.chance.shuffle(SAM)), []
            card = self.deck.pop(0)
            self.used.append(card)
        return self.card(i, card, p, paid)

    def die_result(self, i: int, effect: str, paid: int) -> bool:
        if effect == "back-hare":
            self.free_move(i, "hare", False)
        elif effect == "miss":
            self.skip[i] = True
        elif effect == "back-carrot":
            self.free_move(i, "carrot", False)
        elif effect == "chew":
            self.take_give(i, self.word(i))
        elif effect == "restore":
            self.car[i] = 65
        elif effect == "refund":
            self.car[i] += paid
        elif effect == "half":
            self.car[i] -= self.car[i] // 2
        elif effect == "ahead-carrot":
            self.free_move(i, "carrot", True)
        elif effect == "lettuce" and self.let[i] > 0:
            self.must[i] = "eat"
        return effect == "again"

    def card(self, i: int, card: str, p: int, paid: int) -> bool:
        s = self.sq[i]
        behind = [j for j in range(self.n) if j != i and self.pos(j) > p]
        front = [j for j in range(self.n) if j != i and self.pos(j) < p]
        if card == "GIVE-BEHIND" and behind:
            k = len(behind)
            amount = next((a for a in (10, 5, 1) if self.car[i] >= a * k), 0)
            self.car[i] -= amount * k
            for j in behind if amount else ():
                if self.word(j) != "REFUSE":
                    self.car[j] += amount
        elif card == "MISS-OR-AGAIN":
            if len(behind) <= len(front):
                return True
            self.skip[i] = True
        elif card == "RESTORE-65":
            self.car[i] = 65
        elif card == "PER-LETTUCE":
            self.car[i] += 10 * self.let[i]
            self.skip[i] = self.skip[i] or not self.let[i]
        elif card == "FREE-RIDE":
            self.car[i] += paid
        elif card == "HALF":
            self.car[i] -= self.car[i] // 2
        elif card == "SHUFFLE":
            for j in range(self.n):
                if j != i and self.sq[j] != HOME and self.car[j] >= 1:
                    self.car[j] -= 1
                    self.car[i] += 1
            self.deck = list(self.chance.shuffle(P10))
        elif card in ("MISS", "BACK-CARROT", "NEXT-CARROT"):
            if card == "MISS":
                self.skip[i] = True
            else:
                self.free_move(i, "carrot", card == "NEXT-CARROT")
        elif card == "AGAIN":
            return True
        elif card == "TAKE-GIVE":
            self.take_give(i, self.word(i))
        elif card == "LETTUCE":
            if self.let[i] > 0:
                self.must[i] = "eat"
            else:
                self.skip[i] = True
        elif card == "UP-ONE":
            self.up_one(i, s)
        elif card == "DOWN-ONE":
            self.down_one(i, s)
        return False

    def up_one(self, i: int, s: int) -> None:
        ahead = [self.sq[j] for j in range(self.n) if j != i and s < self.sq[j] < HOME]
        for t in range(min(ahead) + 1, HOME + 1) if ahead else ():
            c = cost(t - s)
            if t == HOME:
                if self.let[i] == 0 and self.car[i] >= c and self.car[i] - c <= self.r["home"](self.homes() + 1):
                    self.car[i] -= c
                    self.sq[i] = HOME
                    self.place[i] = self.homes()
                return
            if self.occ(t) or self.k[t] == "tortoise" or (self.k[t] == "lettuce" and not self.let[i]):
                continue
            if self.car[i] >= c:
                self.car[i] -= c
                self.sq[i] = t
                if self.k[t] == "lettuce":
                    self.must[i] = "eat"
            return

    def down_one(self, i: int, s: int) -> None:
        below = [self.sq[j] for j in range(self.n) if j != i and self.sq[j] < s]
        tortoise = self.tortoise_behind(s)
        if not below or max(below) == 0 or tortoise is None:
            return
        for t in range(max(below) - 1, tortoise - 1, -1):
            if self.occ(t) or (self.k[t] == "lettuce" and not self.let[i]):
                continue
            self.car[i] += 10 * (s - t)
            self.sq[i] = t
            if self.k[t] == "lettuce":
                self.must[i] = "eat"
            elif self.k[t] != "tortoise":
                self.inert.add(i)
            return

    # the turn --------------------------------------------------------------------------------
    def turn(self, sheets: Sequence[Any]) -> int:
        """Play the turn; the number of slots played."""
        n = self.n
        if "face-to-face" in self.options:
            queue = [j for j in range(n) if self.sq[j] != HOME]
        else:
            queue = [j for j in [*range(self.first, n), *range(self.first)] if self.sq[j] != HOME]
            if queue and queue[0] == self.first:
                queue.append(self.first)
        self.hare = [s.hare_chain if s is not None else () for s in sheets]
        used = [0] * n
        k = played = 0
        while k < len(queue):
            i = queue[k]
            k += 1
            if self.sq[i] == HOME:
                continue
            sheet = sheets[i]
            chain = None
            if sheet is not None:
                chain = sheet.moves[used[i]].chain if used[i] < len(sheet.moves) else sheet.default
            used[i] += 1
            homes = self.homes()
            if self.slot(i, chain):
                queue.insert(k, i)
            played += 1
            if self.homes() > homes and self.game_over():
                break
        return played

    def game_over(self) -> bool:
        if self.teams:
            self.over = any(all(self.sq[j] == HOME for j in t) for t in self.teams)
        elif self.n - self.homes() <= 1:
            self.over = True
            for j in range(self.n):
                if self.sq[j] != HOME:
                    self.place[j] = self.n
        return self.over

    def next_first(self) -> int:
        if "face-to-face" in self.options:
            return next(j for j in range(self.n) if self.sq[j] != HOME)
        return next((self.first + k) % self.n for k in range(1, self.n + 1) if self.sq[(self.first + k) % self.n] != HOME)
