"""What a game's presenter gives the moderator: its parts of every mail, console lines, pictures.

A presenter sees only views and resolutions already redacted for the reader (see
`Game.view` and `Game.redact`), so a report cannot show what its reader may not see. It
renders nothing itself: each part names a template under `templates/<game>/` and the typed
context it is rendered with; the generic layer wraps it in the shared envelope.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, TypeVar

from pbem.games.base import Parsed, Viewer

S = TypeVar("S")
R = TypeVar("R")


@dataclass(frozen=True)
class Part:
    """A game's part of a mail: `template` (relative to templates/) rendered with `context`."""

    template: str
    context: object


@dataclass(frozen=True)
class Picture:
    """A picture of the board: SVG for the web, PNG for mail, and words for who cannot see it."""

    svg: str
    png: bytes
    alt: str


@dataclass(frozen=True)
class Letter:
    """A mail's body as the game writes it: a text part and, where the game has one, HTML."""

    text: Part
    html: Part | None = None


@dataclass(frozen=True)
class Reader:
    """The reader of a mail, as the presenter may know them."""

    viewer: Viewer
    name: str  # the seat's name, or "GM"
    seats: tuple[int, ...] = ()  # the seats this reader plays


class Presenter(ABC, Generic[S, R]):
    """Turns a game's views and redacted resolutions into parts of mail and console text."""

    @abstractmethod
    def welcome(self, view: Any, reader: Reader) -> Letter:
        """The rules in brief and what the reader does first."""

    @abstractmethod
    def acknowledgement(self, view: Any, reader: Reader, parsed: Parsed[Any]) -> Part:
        """Notes for the acknowledgement of an accepted sheet (the echo itself is generic)."""

    @abstractmethod
    def report(self, view: Any, resolutions: Sequence[R], reader: Reader) -> Letter:
        """The report of a resolved turn for one reader; `view` is the position after it."""

    @abstractmethod
    def reminder(self, view: Any, reader: Reader) -> Part:
        """What the reader still has to send."""

    @abstractmethod
    def order_lines(self, view: Any, reader: Reader) -> list[str]:
        """The order lines of a ready-to-edit sheet (the header lines are added around them)."""

    #: whether each player's report carries a picture of her own (`reader_picture`, drawn from her
    #: own view) instead of the one public picture of the turn; the GM's copy, the archive and
    #: `pbem board` always show the public picture
    private_pictures: ClassVar[bool] = False

    @abstractmethod
    def picture(self, view: Any, resolutions: Sequence[R], *, title: str, subtitle: str) -> Picture:
        """The board after the turn; the same for every reader (it shows nothing hidden)."""

    def reader_picture(self, view: Any, resolutions: Sequence[R], reader: Reader, *, title: str,
                       subtitle: str) -> Picture:
        """The picture in one player's report when `private_pictures` is set: `view` and
        `resolutions` are hers (already redacted for her), so it may show what she alone sees.
        By default, the public picture."""
        return self.picture(view, resolutions, title=title, subtitle=subtitle)

    @abstractmethod
    def position_lines(self, view: Any) -> list[str]:
        """The position in a few console lines (`pbem show`)."""

    @abstractmethod
    def resolution_lines(self, resolution: R, *, private: bool) -> list[str]:
        """One resolution told in console lines (`resolve-turn`, `history`: first line only)."""

    @abstractmethod
    def summary(self, view: Any) -> dict[str, Any]:
        """The position as JSON (`pbem show --json`)."""
