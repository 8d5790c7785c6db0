"""A resolved turn decoded once, as every reader of it needs it, and the one public picture of a turn."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from functools import cached_property
from typing import Any, Protocol

from pbem.clock import utc
from pbem.games import AnyGame
from pbem.games.base import Viewer
from pbem.games.present import Picture


class StoredTurn(Protocol):
    """A turn as the store keeps it (the store's TurnRow): its values as JSON text. A protocol, so
    that this module needs no store and the envelope may use it."""

    @property
    def turn(self) -> int: ...

    @property
    def resolved_at(self) -> datetime: ...

    @property
    def deadline(self) -> datetime | None: ...

    @property
    def correction(self) -> int: ...

    @property
    def before(self) -> str: ...

    @property
    def after(self) -> str: ...

    @property
    def resolutions(self) -> str: ...

    @property
    def sheets(self) -> str: ...


@dataclass(frozen=True)
class TurnRecord:
    """A resolved turn with its resolutions decoded; its states and sheets are decoded when first
    asked for (a turn's history needs its resolutions alone)."""

    game: AnyGame
    turn: int
    resolved_at: datetime  # with its zone, UTC
    deadline: datetime | None  # of the next turn
    correction: int
    resolutions: tuple[Any, ...]
    stored_before: str | Mapping[str, Any] = field(repr=False)
    stored_after: str | Mapping[str, Any] = field(repr=False)
    stored_sheets: str | Mapping[str, str | None] = field(repr=False)

    @classmethod
    def from_row(cls, game: AnyGame, row: StoredTurn) -> TurnRecord:
        """The turn a store row keeps."""
        return cls.from_json(game, turn=row.turn, resolved_at=row.resolved_at, deadline=row.deadline,
                             correction=row.correction, resolutions=json.loads(row.resolutions),
                             before=row.before, after=row.after, sheets=row.sheets)

    @classmethod
    def from_json(cls, game: AnyGame, *, turn: int, resolved_at: datetime, resolutions: Sequence[Mapping[str, Any]],
                  before: str | Mapping[str, Any], after: str | Mapping[str, Any],
                  sheets: str | Mapping[str, str | None], deadline: datetime | None = None,
                  correction: int = 0) -> TurnRecord:
        """The turn from its values as JSON (states and sheets may still be text)."""
        return cls(game=game, turn=turn, resolved_at=utc(resolved_at), deadline=deadline, correction=correction,
                   resolutions=tuple(game.resolution_from_json(d) for d in resolutions),
                   stored_before=before, stored_after=after, stored_sheets=sheets)

    @cached_property
    def before(self) -> Any:
        """The position the turn was resolved from."""
        return self.game.load_state(_decoded(self.stored_before))

    @cached_property
    def after(self) -> Any:
        """The position the turn left."""
        return self.game.load_state(_decoded(self.stored_after))

    @cached_property
    def sheets(self) -> Mapping[str, str | None]:
        """Each seat name's sheet text, None when none came."""
        sheets: Mapping[str, str | None] = _decoded(self.stored_sheets)
        return sheets

    def seen_by(self, viewer: Viewer) -> tuple[Any, ...]:
        """The resolutions as `viewer` may see them."""
        return self.game.redact_all(self.resolutions, viewer)


def picture(game: AnyGame, state: Any, resolutions: Sequence[Any], *, title: str, subtitle: str,
            viewer: Viewer | None = None) -> Picture:
    """The board of `state` after `resolutions` (whole, not yet redacted) as `viewer` may see it:
    by default the public's, the same for every reader."""
    seer = Viewer.public() if viewer is None else viewer
    return game.presenter.picture(game.view(state, seer), game.redact_all(resolutions, seer),
                                  title=title, subtitle=subtitle)


def _decoded(value: str | Mapping[str, Any]) -> Any:
    return json.loads(value) if isinstance(value, str) else value
