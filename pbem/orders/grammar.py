"""A game's order language written down once, as data: rules in EBNF, from which the game's
reader takes its line words and its vocabulary, and the guide its grammar.

A rule's shape is EBNF: `"WORD"` a word of the language, a bare name another rule, `[ ]` optional,
`{ }` repeated, `( )` a group and `|` alternatives; a name with no rule of its own (`digits`) is a
token the rule's note describes. The reader that follows the rules is the game's
own (recursive descent, one function a rule); what is derived here cannot drift from it: every
word it knows and every word a line may start with.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_ITEM = re.compile(r'"[^"]*"|[A-Za-z_][A-Za-z_0-9]*|[\[\]{}()|]')


@dataclass(frozen=True)
class Rule:
    """One rule: its name, its shape in EBNF and, when a player needs one, a note on it."""

    name: str
    shape: str
    note: str = ""


@dataclass(frozen=True)
class Grammar:
    rules: tuple[Rule, ...]

    def rule(self, name: str) -> Rule:
        found = next((r for r in self.rules if r.name == name), None)
        if found is None:
            raise KeyError(f"the grammar has no rule {name!r}")
        return found

    def keywords(self) -> frozenset[str]:
        """Every word of the language (the quoted words made of letters)."""
        return frozenset(w for r in self.rules for w in _words(r.shape) if w.isalpha())

    def alternatives(self, name: str) -> tuple[str, ...]:
        """The rule names a rule of the shape `a | b | c` chooses between."""
        return tuple(item for item in _items(self.rule(name).shape) if item != "|")

    def first_words(self, name: str) -> tuple[str, ...]:
        """The words a text of the rule can start with, in the order the grammar gives them."""
        return tuple(dict.fromkeys(self._first(_items(self.rule(name).shape), depth=0)))

    def _first(self, items: list[str], depth: int) -> list[str]:
        if depth > len(self.rules):
            raise ValueError("the grammar is left-recursive")
        out: list[str] = []
        for branch in _split(items):
            i = 0
            while i < len(branch):
                item = branch[i]
                if item in "[{(":
                    end = _close(branch, i)
                    out += self._first(branch[i + 1:end], depth)
                    i = end + 1
                    if item == "(":
                        break
                    continue  # an optional or repeated part may be left out: what follows may start it too
                if item.startswith('"'):
                    out.append(item.strip('"'))
                else:
                    out += self._first(_items(self.rule(item).shape), depth + 1)
                break
        return out

    def text(self, width: int = 100) -> str:
        """The grammar as EBNF for the players' guide: a rule a line, a long rule broken before
        its alternatives."""
        name_width = max(len(r.name) for r in self.rules)
        lines: list[str] = []
        for r in self.rules:
            head = f"{r.name:<{name_width}} = "
            rows = [head]
            for k, branch in enumerate(_branches(r.shape)):
                part = branch if k == 0 else f"| {branch}"
                if k and len(rows[-1]) + len(part) + 1 > width:
                    rows.append(" " * (len(head) - 2))
                rows[-1] += part if rows[-1].endswith(" ") else f" {part}"
            rows[-1] += " ;" + (f"  (* {r.note} *)" if r.note else "")
            lines += rows
        return "\n".join(lines)


def _items(shape: str) -> list[str]:
    return _ITEM.findall(shape)


def _words(shape: str) -> list[str]:
    return [item.strip('"') for item in _items(shape) if item.startswith('"')]


def _branches(shape: str) -> list[str]:
    """The shape's text split at its top-level `|` (outside brackets and quotes)."""
    out, depth, quoted, start = [], 0, False, 0
    for i, ch in enumerate(shape):
        if ch == '"':
            quoted = not quoted
        elif not quoted and ch in "[{(":
            depth += 1
        elif not quoted and ch in "]})":
            depth -= 1
        elif not quoted and ch == "|" and depth == 0:
            out.append(shape[start:i].strip())
            start = i + 1
    return [*out, shape[start:].strip()]


def _close(items: list[str], start: int) -> int:
    """The index of the bracket that closes the one at `start`."""
    depth = 0
    for i in range(start, len(items)):
        if items[i] in "[{(":
            depth += 1
        elif items[i] in "]})":
            depth -= 1
            if depth == 0:
                return i
    raise ValueError(f"unclosed {items[start]!r} in the grammar")


def _split(items: list[str]) -> list[list[str]]:
    """The alternatives of a sequence, split at its top-level `|`."""
    out: list[list[str]] = [[]]
    depth = 0
    for item in items:
        if item == "|" and depth == 0:
            out.append([])
            continue
        if item in "[{(":
            depth += 1
        elif item in "]})":
            depth -= 1
        out[-1].append(item)
    return out
