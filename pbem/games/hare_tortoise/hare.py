"""What a hare square does to the runner that lands on it: the die and the hare table, or a hare card."""

from __future__ import annotations

from collections.abc import Sequence

from pbem.games.chance import Chance
from pbem.games.hare_tortoise.board import HOME, START, Kind
from pbem.games.hare_tortoise.chain import hare_choice
from pbem.games.hare_tortoise.orders.model import HareChoice
from pbem.games.hare_tortoise.position import COST, Position
from pbem.games.hare_tortoise.resolution import HareRoll
from pbem.games.hare_tortoise.rules import Card, HareDeck, HareEffect
from pbem.games.hare_tortoise.state import Must


def _free_move(p: Position, i: int, squares: Sequence[int], ahead: bool) -> str:
    """A free hare move to the nearest unoccupied square of a kind, passing everything between."""
    s = p.sq[i]
    if ahead:
        to = next((x for x in squares if x > s and not p.occ[x]), -1)
    else:
        to = next((x for x in reversed(squares) if x < s and not p.occ[x]), -1)
    if to < 0:
        return "no vacant square of that kind: nothing happens"
    p.occ[s] -= 1
    p.occ[to] += 1
    p.sq[i] = to
    p.inert[i] = False
    return f"moved free to square {to}"


def hare_square(p: Position, i: int, chance: Chance, paid: int) -> tuple[HareRoll, bool]:
    """What the hare square runner i landed on does, right after landing and paying: the hare
    table (one die plus the runner's position), or a card of the hare deck. Returns the record of
    the throw or card and whether an extra slot follows at once."""
    if p.rules.deck is not None:
        return _card(p, i, chance, paid, p.rules.deck)
    s = p.sq[i]
    position = p.position_at(s)
    die, total, effect = p.rules.hare.draw(chance, position)
    again = False
    detail: str
    if effect in (HareEffect.BACK_TO_HARE, HareEffect.BACK_TO_CARROT, HareEffect.AHEAD_TO_CARROT):
        squares = p.tables.hares if effect is HareEffect.BACK_TO_HARE else p.tables.carrots
        detail = _free_move(p, i, squares, effect is HareEffect.AHEAD_TO_CARROT)
    elif effect is HareEffect.MISS_TURN:
        p.skip[i] = True
        detail = "the next slot is missed"
    elif effect is HareEffect.CHEW_CARROT:
        detail = _take_or_give(p, i, hare_choice(p, i) is HareChoice.GIVE)
    elif effect is HareEffect.RESTORE:
        p.car[i] = p.rules.restore_carrots
        detail = f"carrots restored to {p.rules.restore_carrots}"
    elif effect is HareEffect.REFUND:
        p.car[i] += paid
        detail = f"the {paid} carrots paid are given back"
    elif effect is HareEffect.HALVE:
        lost = p.car[i] // 2
        p.car[i] -= lost
        detail = f"lost {lost} carrots"
    elif effect is HareEffect.EXTRA_SLOT:
        again = True
        detail = "an extra slot follows at once"
    elif p.let[i] > 0:
        p.must[i] = Must.EAT
        detail = "the square counts as a lettuce square: eat at the next slot"
    else:
        detail = "no lettuce left: nothing happens"
    roll = HareRoll(die=die, position=position, total=total, effect=effect, detail=detail, square=s,
                    to_square=p.sq[i])
    return roll, again


def _take_or_give(p: Position, i: int, give: bool) -> str:
    if give and p.car[i] >= 10:
        p.car[i] -= 10
        return "paid 10 carrots"
    p.car[i] += 10
    return "drew 10 carrots" if not give else "drew 10 carrots (fewer than 10 to give)"


def _card(p: Position, i: int, chance: Chance, paid: int, deck: HareDeck) -> tuple[HareRoll, bool]:
    """A hare card: drawn from the deck in the state, carried out at once."""
    s = p.sq[i]
    card = Card(deck.take(p.deck, p.used, chance))
    position = p.position_at(s)
    again = False
    sq, car, seat_of = p.sq, p.car, p.seat_of
    detail: str
    if card is Card.GIVE_BEHIND:
        behind = [j for j in range(p.n) if seat_of[j] != seat_of[i] and sq[j] < s]  # an opponent's runners
        k = len(behind)
        amount = next((a for a in (10, 5, 1) if car[i] >= a * k), 0) if k else 0
        if not k:
            detail = "no runner behind: nothing happens"
        elif not amount:
            detail = f"fewer carrots than the {k} runners behind: nothing is given"
        else:
            car[i] -= amount * k
            parts = []
            for j in behind:
                if hare_choice(p, j) is HareChoice.REFUSE:
                    parts.append(f"{p.names[j]} refuses them")
                else:
                    car[j] += amount
                    parts.append(f"{p.names[j]} keeps them")
            detail = f"gives {amount} carrots to each runner behind: {', '.join(parts)}"
    elif card is Card.MISS_OR_AGAIN:
        behind_n = sum(1 for j in range(p.n) if j != i and sq[j] < s)
        front_n = sum(1 for j in range(p.n) if j != i and sq[j] > s)
        if behind_n > front_n:
            p.skip[i] = True
            detail = f"{behind_n} runners behind, {front_n} in front: the next slot is missed"
        else:
            again = True
            detail = f"{behind_n} runners behind, {front_n} in front: an extra slot follows at once"
    elif card is Card.RESTORE_65:
        car[i] = p.rules.restore_carrots
        detail = f"carrots restored to {p.rules.restore_carrots}"
    elif card is Card.PER_LETTUCE:
        if p.let[i]:
            car[i] += 10 * p.let[i]
            detail = f"drew {10 * p.let[i]} carrots, 10 for each lettuce held"
        else:
            p.skip[i] = True
            detail = "no lettuce left: the next slot is missed"
    elif card is Card.FREE_RIDE:
        car[i] += paid
        detail = f"the {paid} carrots paid are given back"
    elif card is Card.HALF:
        lost = car[i] // 2
        car[i] -= lost
        detail = f"lost {lost} carrots"
    elif card is Card.SHOW:
        detail = f"shows {car[i]} carrots to everyone"
    elif card is Card.SHUFFLE:
        payers: list[int] = []  # one runner for each other seat with a runner racing and a carrot
        for j in range(p.n):
            if (seat_of[j] != seat_of[i] and sq[j] != HOME and car[j] >= 1
                    and all(seat_of[x] != seat_of[j] for x in payers)):
                payers.append(j)
        for j in payers:
            car[j] -= 1
            car[i] += 1
        deck.reshuffle(p.deck, chance)
        got = {0: "received no carrot (no other player could give one)",
               1: "received 1 carrot from 1 other player"}.get(
            len(payers), f"received 1 carrot from each of {len(payers)} players")
        detail = f"{got}; the hare cards are shuffled"
    elif card is Card.MISS:
        p.skip[i] = True
        detail = "the next slot is missed"
    elif card is Card.BACK_CARROT or card is Card.NEXT_CARROT:
        detail = _free_move(p, i, p.tables.carrots, card is Card.NEXT_CARROT)
    elif card is Card.AGAIN:
        again = True
        detail = "an extra slot follows at once"
    elif card is Card.TAKE_GIVE:
        word = hare_choice(p, i)
        detail = "takes nothing and gives nothing" if word is HareChoice.NONE else _take_or_give(
            p, i, word is HareChoice.GIVE)
    elif card is Card.LETTUCE:
        if p.let[i] > 0:
            p.must[i] = Must.EAT
            detail = "eat a lettuce at the next slot"
        else:
            p.skip[i] = True
            detail = "no lettuce left: the next slot is missed"
    elif card is Card.UP_ONE:
        detail = _up_one(p, i)
    else:
        detail = _down_one(p, i)
    roll = HareRoll(die=0, position=position, total=0, effect=HareEffect.CARD, detail=detail, square=s,
                    to_square=p.sq[i], card=card.value)
    return roll, again


def _up_one(p: Position, i: int) -> str:
    s = p.sq[i]
    ahead = [x for j, x in enumerate(p.sq) if j != i and s < x < HOME]
    if not ahead:
        return "no racing runner ahead: nothing happens"
    target = -1
    for n in range(min(ahead) + 1, HOME + 1):
        if n == HOME:
            cost = COST[HOME - s]
            if p.first_home(i) or (not p.let[i] and p.car[i] - cost <= p.allowance[p.home_count]):
                target = HOME
            break
        k = p.kinds[n]
        if p.occ[n] or k == Kind.TORTOISE or (k == Kind.LETTUCE and not p.let[i]):
            continue
        target = n
        break
    if target < 0:
        return "no square beyond the runner ahead to land on: nothing happens"
    cost = COST[target - s]
    if p.car[i] < cost:
        return f"{'HOME' if target == HOME else f'square {target}'} costs {cost} carrots, more than held: nothing happens"
    p.car[i] -= cost
    p.occ[s] -= 1
    p.occ[target] += 1
    p.sq[i] = target
    p.inert[i] = False
    if target == HOME:
        p.home_count += 1
        p.place[i] = p.home_count
        return f"paid {cost} carrots and went HOME"
    if p.kinds[target] == Kind.LETTUCE:
        p.must[i] = Must.EAT
    return f"paid {cost} carrots and moved up to square {target}"


def _down_one(p: Position, i: int) -> str:
    s = p.sq[i]
    below = [x for j, x in enumerate(p.sq) if j != i and x < s]
    if not below:
        return "no runner behind: nothing happens"
    b = max(below)
    if b == START:
        return "the runner behind is on START: nothing happens"
    tortoise = p.tables.tortoise_behind[s]
    if tortoise < 0:
        return "no tortoise square behind: nothing happens"
    target = next((n for n in range(b - 1, tortoise - 1, -1)
                   if not p.occ[n] and (p.kinds[n] != Kind.LETTUCE or p.let[i])), -1)
    if target < 0:
        return "no square below the runner behind to move back to: nothing happens"
    drew = 10 * (s - target)
    p.car[i] += drew
    p.occ[s] -= 1
    p.occ[target] += 1
    p.sq[i] = target
    k = p.kinds[target]
    p.inert[i] = k in (Kind.HARE, Kind.CARROT, Kind.NUMBER)
    if k == Kind.LETTUCE:
        p.must[i] = Must.EAT
    return f"moved back to square {target} and drew {drew} carrots"
