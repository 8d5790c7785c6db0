"""HTML mail as plain text, with the quoted mail it holds marked as quoted."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from typing import Final

from pbem.mail import mime

_VOID_TAGS: Final = frozenset(
    "area base basefont br col embed frame hr img input keygen link meta param source track"
    " wbr".split()
)
_BLOCK_TAGS: Final = frozenset(
    "address article aside blockquote body caption center dd div dl dt fieldset figcaption"
    " figure footer form h1 h2 h3 h4 h5 h6 header hr html li main nav ol p pre section table"
    " tbody tfoot thead tr ul".split()
)
_CELL_TAGS: Final = frozenset({"td", "th"})
# Containers that hold the whole quoted mail.  Not Outlook's "divRplyFwdMsg": it holds
# only the From:/Sent: lines, and the quoted body follows outside it, where the header
# block rule of reply_text() cuts it off.
_QUOTE_MARKERS: Final = (
    "gmail_quote", "yahoo_quoted", "olk_src_body_section", "protonmail_quote", "zmail_extra",
)  # fmt: skip
_WS_RE = re.compile(r"\s+")
_QUOTE_FLAG: Final = 1
_PRE_FLAG: Final = 2
_SKIP_FLAG: Final = 4


class _HtmlText(HTMLParser):
    """Collects the text of an HTML document, one output line per rendered line.

    Iterative by construction (html.parser is a state machine and the open elements live
    in a list), so arbitrarily deep nesting cannot overflow the stack.  Text inside
    <blockquote> and known quote containers is prefixed with '> ' per level, so that
    reply_text() drops it like plain-text quoting.
    """

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.lines: list[str] = []
        self._cur: list[str] = []
        self._cur_depth = 0
        self._depth = 0
        self._pre = 0
        self._skip = 0
        self._title = False
        self._stack: list[tuple[str, int]] = []
        self._open: dict[str, int] = {}

    def _flush(self, *, blank: bool = False) -> None:
        line = "".join(self._cur)
        if not self._pre:
            line = line.strip()
        if line.strip():
            self.lines.append("> " * self._cur_depth + line)
        elif blank:
            self.lines.append("")
        self._cur = []
        self._cur_depth = self._depth

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "title":
            self._title = True
            return
        if tag == "body":
            self._title = False
        if tag == "br":
            self._flush(blank=not self._cur)
            return
        if tag in _CELL_TAGS and self._cur:
            self._cur.append(" ")
        if tag in _BLOCK_TAGS:
            self._flush()
        if tag == "hr":
            self.lines.append("> " * self._depth + "_" * 32)
        if tag in _VOID_TAGS:
            return
        flags = 0
        marker = " ".join(v.lower() for k, v in attrs if k in ("class", "id") and v)
        if tag == "blockquote" or (marker and any(m in marker for m in _QUOTE_MARKERS)):
            flags |= _QUOTE_FLAG
            self._flush()
            self._depth += 1
            self._cur_depth = self._depth
        if tag in ("pre", "textarea", "listing", "plaintext", "xmp"):
            flags |= _PRE_FLAG
            self._pre += 1
        if tag in ("script", "style", "template"):
            flags |= _SKIP_FLAG
            self._skip += 1
        self._stack.append((tag, flags))
        self._open[tag] = self._open.get(tag, 0) + 1

    def handle_endtag(self, tag: str) -> None:
        if tag in ("title", "head"):
            self._title = False
        if tag in _BLOCK_TAGS or tag == "br":
            self._flush(blank=tag == "br" and not self._cur)
        if not self._open.get(tag):
            return
        while self._stack:  # implicitly close what was left open inside
            open_tag, flags = self._stack.pop()
            self._open[open_tag] -= 1
            if flags & _QUOTE_FLAG:
                self._flush()
                self._depth -= 1
                self._cur_depth = self._depth
            if flags & _PRE_FLAG:
                self._pre -= 1
            if flags & _SKIP_FLAG:
                self._skip -= 1
            if open_tag == tag:
                break

    def handle_data(self, data: str) -> None:
        if self._title or self._skip:
            return
        if self._pre:
            pieces = mime.normalise_newlines(data).split("\n")
            for index, piece in enumerate(pieces):
                if index:
                    self._flush(blank=True)
                if piece:
                    if not self._cur:
                        self._cur_depth = self._depth
                    self._cur.append(piece)
            return
        text = _WS_RE.sub(" ", data)
        if not self._cur:
            text = text.lstrip()
            if not text:
                return
            self._cur_depth = self._depth
        self._cur.append(text)

    def text(self) -> str:
        self._flush()
        out: list[str] = []
        for line in self.lines:
            if line or (out and out[-1]):
                out.append(line.rstrip())
        return "\n".join(out).strip("\n")


def html_to_text(source: str) -> str:
    """Render an HTML body as plain text lines; quoted blocks come out as '> ' lines."""
    parser = _HtmlText()
    try:
        parser.feed(source)
        parser.close()
    except Exception:  # html.parser is lenient; keep what was read
        pass
    return parser.text()
