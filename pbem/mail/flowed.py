"""Plain text sent as `format=flowed` (RFC 3676), read back into the lines its writer typed.

Thunderbird and Apple Mail send a long line as several short ones, each but the last ending in
a space (a soft break); with `DelSp=yes` that space was added by the mail program and goes
when the lines are joined again. A line that starts with a space or with `>` is "stuffed" with
one more space, and quoted lines carry their depth as leading `>` marks: only lines of the same
depth are joined. The signature separator `-- ` ends with a space but is never joined. One pass
over the text, linear in its length.
"""

from __future__ import annotations

SIGNATURE = "-- "


def unflow(text: str, *, delsp: bool) -> str:
    """`text` (lines split on "\\n") with its soft breaks joined and its stuffing removed; a
    quoted line comes back as its `>` marks, a space and its joined text."""
    out: list[str] = []
    paragraph: list[str] = []  # the pieces of the flowed line being joined
    depth_of_paragraph = 0
    for line in text.split("\n"):
        depth = len(line) - len(line.lstrip(">"))
        body = line[depth:]
        if body.startswith(" "):
            body = body[1:]  # space-stuffing (RFC 3676, 4.4)
        if paragraph and depth != depth_of_paragraph:  # another quote depth ends it (4.5)
            out.append(_quoted(depth_of_paragraph, "".join(paragraph)))
            paragraph = []
        soft = body.endswith(" ") and body != SIGNATURE
        if soft and delsp:
            body = body[:-1]
        paragraph.append(body)
        depth_of_paragraph = depth
        if not soft:
            out.append(_quoted(depth, "".join(paragraph)))
            paragraph = []
    if paragraph:
        out.append(_quoted(depth_of_paragraph, "".join(paragraph)))
    return "\n".join(out)


def _quoted(depth: int, text: str) -> str:
    return f"{'>' * depth} {text}" if depth else text
