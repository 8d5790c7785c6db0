"""What a game's presenter gives the moderator: its parts of every mail, console lines, pictures.

A presenter sees only views and resolutions already redacted for the reader (see
`Game.view` and `Game.redact`), so a report cannot show what its reader may not see; it is typed
by the game's view. It renders nothing itself: each part names a template — `<game>/...`, from
the `templates/` folder of the game's package, or a shared one such as `mail/...` — and the
typed context it is rendered with; the generic layer wraps it in the shared envelope.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import asdict, dataclass, is_dataclass
from typing import Any, ClassVar, Generic, TypeVar

from pbem.games.base import Parsed, Viewer

V = TypeVar("V")  # the game's view of a state for one reader
R = TypeVar("R")  # the game's resolution


@dataclass(frozen=True)
class Part:
    """A game's part of a mail: `template` (relative to templates/) rendered with `context`."""

    template: str
    context: object


@dataclass(frozen=True)
class NoNotes:
    """The context of a shared template that a game adds nothing to."""


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


class Presenter(ABC, Generic[V, R]):
    """Turns a game's views and redacted resolutions into parts of mail and console text."""

    @abstractmethod
    def welcome(self, view: V, reader: Reader) -> Letter:
        """The rules in brief and what the reader does first."""

    def acknowledgement(self, view: V, reader: Reader, parsed: Parsed[Any]) -> Part:
        """Notes for the acknowledgement of an accepted sheet (the echo itself is generic). By
        default none: the shared acknowledgement alone."""
        return Part("mail/ack.txt.j2", NoNotes())

    @abstractmethod
    def report(self, view: V, resolutions: Sequence[R], reader: Reader) -> Letter:
        """The report of a resolved turn for one reader; `view` is the position after it."""

    def reminder(self, view: V, reader: Reader) -> Part:
        """What the reader still has to send. By default the shared reminder alone."""
        return Part("mail/reminder.txt.j2", NoNotes())

    @abstractmethod
    def order_lines(self, view: V, reader: Reader) -> list[str]:
        """The order lines of a ready-to-edit sheet (the header lines are added around them)."""

    def next_lines(self, view: V, reader: Reader, previous: Sequence[str]) -> list[str]:
        """The order lines of the reader's next sheet when her last one said `previous` (its
        accepted lines, as echoed): by default `order_lines`. A game whose sheets hold choices
        that outlast a turn (a default, a standing answer) keeps them, so that a player who
        sends the template back unchanged does not undo them."""
        return self.order_lines(view, reader)

    #: whether each player's report carries a picture of her own (`reader_picture`, drawn from her
    #: own view) instead of the one public picture of the turn; the GM's copy, the archive and
    #: `pbem board` always show the public picture
    private_pictures: ClassVar[bool] = False

    @abstractmethod
    def picture(self, view: V, resolutions: Sequence[R], *, title: str, subtitle: str) -> Picture:
        """The board after the turn; the same for every reader (it shows nothing hidden)."""

    def reader_picture(self, view: V, resolutions: Sequence[R], reader: Reader, *, title: str,
                       subtitle: str) -> Picture:
        """The picture in one player's report when `private_pictures` is set: `view` and
        `resolutions` are hers (already redacted for her), so it may show what she alone sees.
        By default, the public picture."""
        return self.picture(view, resolutions, title=title, subtitle=subtitle)

    def position_lines(self, view: V) -> list[str]:
        """The position in a few console lines (`pbem show`). By default one line for each
        value of the summary."""
        return [f"{key}: {value}" for key, value in self.summary(view).items()]

    @abstractmethod
    def resolution_lines(self, resolution: R, *, private: bool) -> list[str]:
        """One resolution told in console lines (`resolve-turn`, `history`: first line only)."""

    def summary(self, view: V) -> dict[str, Any]:
        """The position as JSON (`pbem show --json`). By default the view's fields, for a view
        that is a dataclass of JSON values."""
        if not is_dataclass(view) or isinstance(view, type):
            raise TypeError(f"{type(self).__name__}: a view that is not a dataclass needs its own summary")
        return asdict(view)
