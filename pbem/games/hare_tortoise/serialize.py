"""Slots to JSON and back, so a resolved turn can be stored and its reports rendered again."""

from __future__ import annotations

from dataclasses import fields
from typing import Any

from pbem.games.hare_tortoise.resolution import HareRoll, Outcome, Slot, Tried
from pbem.games.hare_tortoise.rules import HareEffect


def _fields(record: Slot | Tried | HareRoll) -> dict[str, Any]:
    """A record's fields by name, in their order (one level: nested records stay records)."""
    return {f.name: getattr(record, f.name) for f in fields(record)}


def slot_to_json(slot: Slot) -> dict[str, Any]:
    data = _fields(slot)
    data["outcome"] = slot.outcome.value
    data["tried"] = [_fields(t) for t in slot.tried]
    if slot.hare is not None:
        hare = _fields(slot.hare)
        hare["effect"] = slot.hare.effect.name
        if hare.get("card") is None:
            hare.pop("card", None)  # stored as before for the die rulesets
        data["hare"] = hare
    return data


def slot_from_json(data: dict[str, Any]) -> Slot:
    values = dict(data)
    values["outcome"] = Outcome(data["outcome"])
    values["tried"] = tuple(Tried(**t) for t in data["tried"])
    if data.get("hare") is not None:
        hare = dict(data["hare"])
        hare["effect"] = HareEffect[hare["effect"]]
        values["hare"] = HareRoll(**hare)
    return Slot(**values)
