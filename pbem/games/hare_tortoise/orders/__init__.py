"""The Hare & Tortoise order language: typed orders, and the parser that reads them from mail text."""

from __future__ import annotations

from pbem.games.hare_tortoise.orders.model import (
    Action,
    ActionKind,
    Alternative,
    Chain,
    Condition,
    HareChoice,
    OrderSheet,
    RejectedLine,
    SheetLine,
)
from pbem.games.hare_tortoise.orders.parser import parse_sheet

__all__ = [
    "Action",
    "ActionKind",
    "Alternative",
    "Chain",
    "Condition",
    "HareChoice",
    "OrderSheet",
    "RejectedLine",
    "SheetLine",
    "parse_sheet",
]
