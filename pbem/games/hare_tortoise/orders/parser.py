"""Read an order sheet from mail text: classify lines, parse order lines with the lark grammar."""

from __future__ import annotations

import difflib
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path

from lark import Lark, Token, Transformer, Tree, v_args
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken, VisitError

from pbem.games.hare_tortoise.orders.model import (
    Action,
    ActionKind,
    Alternative,
    Chain,
    Compare,
    Condition,
    HareAlternative,
    HareChoice,
    IAm,
    MoveOrder,
    NextKind,
    OrderSheet,
    PlayerIs,
    Quantity,
    RejectedLine,
    RejectionKind,
    RunnerTest,
    SheetLine,
    SquareIs,
    hare_text,
)
from pbem.games.sheet import Accepted, Line, Rejected, read_sheet
from pbem.orders import (
    And,
    Cmp,
    Lexicon,
    Mistake,
    Not,
    Or,
    OrderError,
    TokenKind,
    caret,
    did_you_mean,
    known_mistake,
    meant,
    misspelt_line_word,
    suggest,
    tokenize,
)

HIGHEST_SQUARE = 64

# Limits on one order line. Each is rejected at parse time with a reason, so that whatever the
# parser accepts is small enough to build, compile and resolve (README, "The order language").
#: characters in an order line, after what mail does to text is undone
MAX_LINE_LENGTH = 500
#: alternatives in one chain (IF ... THEN ... ELSE ...)
MAX_ALTERNATIVES = 16
#: levels of NOT, AND, OR and brackets in one condition; `A OR B OR C` is one level
MAX_CONDITION_DEPTH = 12
#: tests (atoms such as `SQUARE 5 IS FREE` or `RANK = 1`) in one condition
MAX_CONDITION_TESTS = 32
#: digits in a number
MAX_NUMBER_DIGITS = 4


@dataclass(frozen=True)
class OrderLimits:
    """The limits one order line is held to; the defaults are the module's constants."""

    line_length: int = MAX_LINE_LENGTH
    alternatives: int = MAX_ALTERNATIVES
    condition_depth: int = MAX_CONDITION_DEPTH
    condition_tests: int = MAX_CONDITION_TESTS
    number_digits: int = MAX_NUMBER_DIGITS


LIMITS = OrderLimits()

#: Every keyword of the language; a seat may not be called by one of these.
KEYWORDS = frozenset(
    """move default hare take give else otherwise if then not and or square is free occupied on
    ahead behind home i am first last rank carrots lettuces my to advance next back stay eat
    carrot lettuce number game turn secret keep refuse none""".split()
)

_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")
# Line classifiers, run on every line of a mail however long. Every repetition is possessive
# (`*+`, `++`: it never gives back what it matched) and no two neighbouring repetitions can match
# the same character, so a match attempt never backtracks and takes time linear in the line.
# (`\s*:?\s*` in a header pattern made `game` + n spaces + `!` cost n² steps.)
_ORDER_WORD = re.compile(r"\s*+(move|default|hare)(?![a-z])", re.IGNORECASE)
_MOVE_NUMBER = re.compile(r"\s*+move\s*+(\d++)", re.IGNORECASE)

_NICE_TERMINALS = {
    "INT": "a number", "NAME": "a player's name", "CMP": "a comparison (=, !=, <, <=, >, >=)",
    "LPAR": "'('", "RPAR": "')'", "COLON": "':'", "COMMA": "','", "SEMICOLON": "';'",
    "SIGN": "'+' or '-'", "$END": "the end of the line",
}
_ACTION_WORDS = {"TO", "HOME", "ADVANCE", "NEXT", "BACK", "STAY", "EAT"}


_GRAMMAR = Path(__file__).with_name("grammar.lark")


@lru_cache(maxsize=2)
def _lark(positions: bool = False) -> Lark:
    """The parser of both forms of the language (start rule `start`, or `start_two` for the
    two-player form, a runner's name before each action); with `positions`, every tree node knows
    its column (a third slower, so only used to say where a line exceeds a limit)."""
    return Lark(_GRAMMAR.read_text(encoding="utf-8"), parser="lalr", lexer="contextual", maybe_placeholders=True,
                propagate_positions=positions, start=["start", "start_two"])


def _start(two: bool) -> str:
    return "start_two" if two else "start"


#: the order error of the toolkit, under the name this package's callers know it by
OrderLineError = OrderError
_LineError = OrderError


def _square(tok: Token) -> int:
    n = int(tok)
    if n > HIGHEST_SQUARE:
        raise _LineError(tok.column or 1, f"square {n} is off the board (squares run from 0 to 64)",
                         RejectionKind.ILLEGAL)
    return n


@v_args(inline=True)
class _Build(Transformer[Token, object]):
    """Turns a parse tree into typed orders, checking what the grammar cannot."""

    def __init__(self, players: Sequence[str], two: TwoPlayer | None = None) -> None:
        super().__init__()
        self.two = two
        if two is not None:
            players = two.runners
        self.players: dict[str, tuple[int, str]] = {}
        self.shared: dict[str, list[str]] = {}  # names more than one seat answers to
        for i, p in enumerate(players):
            key = p.lower()
            if key in self.players:
                self.shared.setdefault(key, [self.players[key][1]]).append(p)
            else:
                self.players[key] = (i, p)

    # lines -----------------------------------------------------------------
    def start(self, line: object) -> object:
        return line

    def start_two(self, line: object) -> object:
        return line

    def move_line(self, number: Token | None, chain: Chain) -> tuple[str, int | None, Chain]:
        return ("move", None if number is None else int(number), chain)

    def default_line(self, chain: Chain) -> tuple[str, Chain]:
        return ("default", chain)

    def hare_line(self, chain: tuple[HareAlternative, ...]) -> tuple[str, tuple[HareAlternative, ...]]:
        return ("hare", chain)

    def hare_chain(self, *alternatives: HareAlternative) -> tuple[HareAlternative, ...]:
        return alternatives

    def hare_conditional(self, condition: Condition, choice: HareChoice) -> HareAlternative:
        return HareAlternative(condition, choice)

    def hare_unconditional(self, choice: HareChoice) -> HareAlternative:
        return HareAlternative(None, choice)

    def choice(self, word: Token) -> HareChoice:
        return HareChoice(word.type)

    def chain(self, *alternatives: Alternative) -> Chain:
        return Chain(tuple(alternatives))

    def conditional(self, condition: Condition, action: Action) -> Alternative:
        return Alternative(condition, action)

    def unconditional(self, action: Action) -> Alternative:
        return Alternative(None, action)

    def conditional_runner(self, condition: Condition, name: Token | None, action: Action) -> Alternative:
        index, canonical = self._acting(name, action)
        return Alternative(condition, action, index, canonical)

    def unconditional_runner(self, name: Token | None, action: Action) -> Alternative:
        index, canonical = self._acting(name, action)
        return Alternative(None, action, index, canonical)

    def _acting(self, name: Token | None, action: Action) -> tuple[int, str]:
        """Two-player: the acting runner named before an action, which must be the author's own."""
        two = self.two
        assert two is not None
        own = [two.runners[j] for j in two.own]
        choices = " or ".join(f"{r} {action}" for r in own)
        if name is None:
            raise _LineError(two.column, f"name the runner that makes the move {action}: {choices}")
        key = str(name)
        for j in two.own:
            if two.runners[j].lower() == key:
                return j, two.runners[j]
        column = name.column or 1
        other = next((r for r in two.runners if r.lower() == key), None)
        if other is not None:
            raise _LineError(column, f"{other} is another player's runner; you move only {' and '.join(own)}")
        seat = next((p for p in two.seats if p.lower() == key), None)
        if seat is not None:
            raise _LineError(column, f"{seat} is a player, not a runner: name the runner that moves ({choices})")
        close = difflib.get_close_matches(key, [r.lower() for r in own], n=1)
        hint = meant(next(r for r in own if r.lower() == close[0])) if close else \
            f" (your runners: {' and '.join(own)})"
        raise _LineError(column, f"no runner called {key.capitalize()}{hint}")

    # conditions ------------------------------------------------------------
    def or_(self, left: Condition, right: Condition) -> Condition:
        parts = left.parts if isinstance(left, Or) else (left,)
        return Or(parts + (right,))

    def and_(self, left: Condition, right: Condition) -> Condition:
        parts = left.parts if isinstance(left, And) else (left,)
        return And(parts + (right,))

    def not_(self, _not: Token, inner: Condition) -> Condition:
        return Not(inner)

    def group(self, inner: Condition) -> Condition:
        return inner

    def _seat(self, name: Token) -> tuple[int, str]:
        key = str(name)
        if key in self.shared:
            seats = self.shared[key]
            raise _LineError(name.column or 1, f"{key.capitalize()} could mean the seat "
                             f"{', '.join(seats[:-1])} or {seats[-1]}", RejectionKind.AMBIGUOUS)
        if key in self.players:
            return self.players[key]
        two = self.two
        seat = None if two is None else next((p for p in two.seats if p.lower() == key), None)
        if two is not None and seat is not None:
            runners = [r for r in two.runners if r[:-1].lower() == key]
            raise _LineError(name.column or 1, f"{seat} is a player: in a two-player game conditions name a "
                             f"runner ({' or '.join(runners)})")
        known = {k: p for k, (_, p) in self.players.items()}
        close = difflib.get_close_matches(key, list(known), n=1)
        hint = meant(known[close[0]]) if close else f" (players: {', '.join(known.values())})"
        what = "player" if self.two is None else "runner"
        raise _LineError(name.column or 1, f"no {what} called {key.capitalize()}{hint}")

    def square_is(self, square: Token, neg: Token | None, word: Token) -> Condition:
        atom = SquareIs(_square(square), free=word.type == "FREE")
        return Not(atom) if neg is not None else atom

    def player_on(self, name: Token, neg: Token | None, square: Token) -> Condition:
        seat, canonical = self._seat(name)
        return PlayerIs(seat, canonical, RunnerTest.ON, neg is not None, _square(square))

    def player_is(self, name: Token, neg: Token | None, test: Token) -> Condition:
        seat, canonical = self._seat(name)
        return PlayerIs(seat, canonical, RunnerTest[test.type], neg is not None)

    def i_am(self, neg: Token | None, word: Token) -> Condition:
        return IAm(last=word.type == "LAST", negated=neg is not None)

    def compare(self, quantity: Token, cmp: Token, value: Token) -> Condition:
        q = Quantity.MY_SQUARE if quantity.type == "MY" else Quantity[quantity.type]
        sign = Cmp.of(str(cmp))  # the grammar admits only signs the toolkit knows, synonyms included
        assert sign is not None
        n = _square(value) if q is Quantity.MY_SQUARE else int(value)
        return Compare(q, sign, n)

    # actions ---------------------------------------------------------------
    def to_square(self, square: Token) -> Action:
        n = _square(square)
        return Action(ActionKind.HOME) if n == HIGHEST_SQUARE else Action(ActionKind.TO, square=n)

    def to_home(self, _home: Token) -> Action:
        return Action(ActionKind.HOME)

    def advance(self, distance: Token) -> Action:
        return Action(ActionKind.ADVANCE, distance=int(distance))

    def next(self, kind: tuple[NextKind, int | None] | None) -> Action:
        if kind is None:
            return Action(ActionKind.NEXT)
        return Action(ActionKind.NEXT, next_kind=kind[0], number=kind[1])

    def next_kind(self, word: Token, number: Token | None) -> tuple[NextKind, int | None]:
        kind = {"CARROT": NextKind.CARROT, "LETTUCE": NextKind.LETTUCE, "HARE_KIND": NextKind.HARE,
                "NUMBER": NextKind.NUMBER}[word.type]
        if number is None:
            return (kind, None)
        if kind is not NextKind.NUMBER:
            raise _LineError(number.column or 1, f"only NEXT NUMBER takes a number, not NEXT {kind.value}")
        d = int(number)
        if not 1 <= d <= 6:
            raise _LineError(number.column or 1, f"NEXT NUMBER {d}: number squares count for positions 1 to 6",
                             RejectionKind.ILLEGAL)
        return (kind, d)

    def back(self, distance: Token | None) -> Action:
        if distance is None:
            return Action(ActionKind.BACK)
        return Action(ActionKind.BACK, distance=int(distance))

    def stay(self, amount: bool | None) -> Action:
        return Action(ActionKind.STAY, give=bool(amount))

    def stay_amount(self, *parts: Token) -> bool:
        """True for GIVE."""
        if parts[0].type in ("TAKE", "GIVE"):
            return parts[0].type == "GIVE"
        sign = str(parts[0]) if len(parts) == 2 else "+"
        number = parts[-1]
        if int(number) != 10:
            raise _LineError(parts[0].column or 1, f"STAY {sign}{int(number)}: a runner can only take or give 10 carrots",
                             RejectionKind.ILLEGAL)
        return sign == "-"

    def eat(self) -> Action:
        return Action(ActionKind.EAT)


_caret = caret


def _describe(expected: set[str]) -> str:
    words = sorted(_NICE_TERMINALS.get(t, t.upper()) for t in expected if t not in ("NAME",) or len(expected) == 1)
    if "NAME" in expected and len(expected) > 1:
        words.append("a player's name")
    if len(words) > 6:
        return ", ".join(words[:6]) + " …"
    return " or ".join(words) if len(words) <= 2 else ", ".join(words[:-1]) + " or " + words[-1]


#: typical mistakes, spotted by their words side by side (`#`: any number), and the hint that
#: replaces the parser's "expected ..." when a line with one of them does not parse
MISTAKES = (
    Mistake(("SQUARE", "#", "FREE"), "missing IS: write SQUARE 5 IS FREE"),
    Mistake(("SQUARE", "#", "OCCUPIED"), "missing IS: write SQUARE 5 IS OCCUPIED"),
    Mistake(("SQUARE", "#", "NOT"), "missing IS: write SQUARE 5 IS NOT FREE"),
    Mistake(("IS", "EMPTY"), "a square is FREE or OCCUPIED: write SQUARE 5 IS FREE"),
    Mistake(("IS", "NOT", "EMPTY"), "a square is FREE or OCCUPIED: write SQUARE 5 IS OCCUPIED"),
    Mistake(("ON", "SQUARE"), "IS ON takes the square's number alone: write ANN IS ON 5"),
    Mistake(("GO", "TO"), "write TO 5 (TO is the whole move; there is no GO)"),
    Mistake(("MOVE", "MOVE"), "write MOVE once, at the start of the line: MOVE: TO 5"),
    Mistake(("AM", "1ST"), "write I AM FIRST (or I AM LAST; for other places, RANK = 2)"),
    Mistake(("AM", "#"), "write I AM FIRST or I AM LAST; for another place, RANK = 2"),
    Mistake(("HARE", "YES"), "a HARE line names the choice itself: HARE: TAKE"),
    Mistake(("HARE", "NO"), "a HARE line names the choice itself: HARE: GIVE"),
    Mistake(("CARROTS", "IS"), "CARROTS compares with a number: IF CARROTS >= 20 THEN ..."),
    Mistake(("RANK", "IS"), "RANK compares with a number: IF RANK = 1 THEN ..."),
    *(Mistake((*move, "THEN"), "THEN follows a condition (IF ... THEN); between alternatives write ELSE")
      for move in (("NEXT",), ("EAT",), ("STAY",), ("BACK",), ("TO", "#"), ("ADVANCE", "#"), ("BACK", "#"))),
)
_LEXICON = Lexicon(word_chars="")


def _words(text: str) -> list[str]:
    try:
        return [t.text for t in tokenize(text, _LEXICON) if t.kind is not TokenKind.PUNCT]
    except OrderError:
        return []


def _vocabulary(players: Sequence[str]) -> list[str]:
    """The words a line may hold: the keywords (as written, in capitals) and the players' names."""
    return [*sorted(w.upper() for w in KEYWORDS), *(p.capitalize() for p in players)]


def _unknown_word(text: str, column: int, players: Sequence[str]) -> tuple[int, str] | None:
    """The first word up to `column` that the language does not know, when one it knows is near."""
    known = KEYWORDS | {p.lower() for p in players}
    for tok in tokenize(text, _LEXICON):
        if tok.column > column:
            break
        if tok.kind is TokenKind.WORD and tok.text[:1].isalpha() and tok.text.lower() not in known:
            near = suggest(tok.text, _vocabulary(players))
            if near is None:
                return None
            found = text[tok.column - 1:tok.column - 1 + len(tok.text)]
            return tok.column, f"unknown word {found!r}{meant(near)}"
    return None


def _explain(err: UnexpectedInput, text: str, players: Sequence[str]) -> tuple[int, str]:
    """A plain-words reason for a syntax error, labelling the typical mistakes."""
    column = getattr(err, "column", 0) or len(text) + 1
    hint = known_mistake(_words(text), MISTAKES)
    if hint is not None:
        return column, hint
    unknown = _unknown_word(text, column, players)
    if unknown is not None:
        return unknown
    # Every syntax error is of the invalid kind: the line was not understood.
    if isinstance(err, UnexpectedCharacters):
        return column, f"{text[column - 1]!r} is not part of the order language"
    if isinstance(err, (UnexpectedToken, UnexpectedEOF)):
        token = getattr(err, "token", None)
        expected = {str(e) for e in err.expected}
        if token is None or token.type == "$END":
            return len(text) + 1, f"the line ends too early: expected {_describe(expected)}"
        found = text[token.start_pos : token.end_pos] if token.start_pos is not None else str(token)
        if "THEN" in expected and token.type.upper() in _ACTION_WORDS | {"HOME"}:
            return column, f"missing THEN before {found.upper()!r}"
        if "ELSE" in expected and token.type in ("IF",):
            return column, "missing ELSE before IF"
        if token.type == "NAME" and text.lstrip()[:4].lower() == "hare" and str(token) in {p.lower() for p in players}:
            return column, f"{found} names a runner; a HARE choice names none (the runner concerned chooses)"
        if token.type == "NAME":
            return column, f"unknown word {found!r}{did_you_mean(str(token), _vocabulary(players))}"
        return column, f"expected {_describe(expected)}, not {found!r}"
    return column, str(err)


_LOGIC = frozenset({"or_", "and_", "not_", "group"})
_TESTS = frozenset({"square_is", "player_on", "player_is", "i_am", "compare"})


def _column(node: Tree[Token]) -> int:
    return getattr(node.meta, "column", 1) or 1


def _check_limits(tree: Tree[Token], limits: OrderLimits) -> None:
    """Reject a parsed line that exceeds a limit, at the first place it does.

    The walk keeps its own stack rather than recursing: it runs before the tree is built into
    orders (which recurses), and must hold for any nesting the grammar lets through.
    """
    # (node, level of NOT/AND/OR/brackets, the logic node it sits in, the count of its condition's tests)
    stack: list[tuple[Tree[Token] | Token | None, int, str, list[int]]] = [(tree, 0, "", [0])]
    while stack:
        node, level, parent, tests = stack.pop()
        if node is None:
            continue
        if isinstance(node, Token):
            if node.type == "INT" and len(node) > limits.number_digits:
                shown = str(node) if len(node) <= 12 else f"{str(node)[:8]}…"
                raise _LineError(node.column or 1, f"the number {shown} is too long: numbers in orders have "
                                 f"at most {limits.number_digits} digits")
            continue
        kind = str(node.data)
        if kind == "chain" and len(node.children) > limits.alternatives:
            extra = node.children[limits.alternatives]
            raise _LineError(_column(extra) if isinstance(extra, Tree) else 1,
                             f"the chain has more than {limits.alternatives} alternatives (IF … THEN … ELSE …); "
                             f"at most {limits.alternatives} are allowed")
        if kind == "conditional":
            tests = [0]  # each alternative's condition is counted on its own
        elif kind in _LOGIC:
            # a run of ORs (or of ANDs) is one level: A OR B OR C nests as (A OR B) OR C
            if not (kind in ("or_", "and_") and parent == kind):
                level += 1
            if level > limits.condition_depth:
                raise _LineError(_column(node), f"the condition nests more than {limits.condition_depth} "
                                 "levels of NOT, AND, OR and brackets")
        elif kind in _TESTS:
            tests[0] += 1
            if tests[0] > limits.condition_tests:
                raise _LineError(_column(node), f"the condition has more than {limits.condition_tests} tests "
                                 "(SQUARE … IS FREE, RANK = …); split it over alternatives")
        below = kind if kind in _LOGIC else ""
        stack.extend((child, level, below, tests) for child in reversed(node.children))


@dataclass(frozen=True)
class Dialect:
    """What a ruleset adds to the order language: its HARE choice words (the default first) and
    whether `BACK <n>` exists."""

    choices: tuple[str, ...] = ("TAKE", "GIVE")
    back_n: bool = False


DEFAULT_DIALECT = Dialect()


@dataclass(frozen=True)
class TwoPlayer:
    """The two-player game's names for one author: every runner (two per seat, in seat order),
    the author's own runners by index, and the seat names (which conditions may not use)."""

    runners: tuple[str, ...]
    own: tuple[int, ...]
    seats: tuple[str, ...]
    #: where a missing runner name is reported (set per line)
    column: int = 1


_ACTION_WORD = re.compile(r"(?:^|[\s:,;])(to|home|advance|next|back|stay|eat)(?![a-z0-9])")


def _missing_runner_column(lowered: str) -> int:
    """The column of the first action word with no runner name before it (for the rejection)."""
    for m in _ACTION_WORD.finditer(lowered):
        before = lowered[:m.start(1)].split()
        prev = before[-1].rstrip(":,;") if before else ""
        if prev in ("then", "else", "otherwise", "", "move", "default") or prev.isdigit() or before[-1].endswith((":", ",", ";")):
            return m.start(1) + 1
    return 1


def _check_dialect(parsed: ParsedLine, dialect: Dialect) -> None:
    """Words the grammar knows but this ruleset does not have: the line does not parse."""
    if parsed.kind == "hare":
        assert isinstance(parsed.value, tuple)
        for alt in parsed.value:
            if alt.choice.value not in dialect.choices:
                raise _LineError(1, f"{alt.choice.value} is not a hare choice in this game; "
                                 f"the choices are {', '.join(dialect.choices)}")
        return
    if dialect.back_n:
        return
    assert isinstance(parsed.value, Chain)
    for alt in parsed.value.alternatives:
        if alt.action.kind is ActionKind.BACK and alt.action.distance is not None:
            raise _LineError(1, f"BACK {alt.action.distance}: in this game BACK takes no number "
                             "(it goes to the nearest tortoise square behind)")


@dataclass(frozen=True)
class ParsedLine:
    kind: str  # "move", "default" or "hare"
    value: object
    number: int | None = None


def parse_order_line(text: str, players: Sequence[str], limits: OrderLimits = LIMITS,
                     two: TwoPlayer | None = None) -> ParsedLine:
    """Parse one normalised MOVE, DEFAULT or HARE line for a game with these seat names.

    Raises OrderLineError, and nothing else, with the column, the reason and the kind of error.
    The time taken is linear in the length of the line, and a line that the limits let through
    builds orders small enough to compile and resolve.

    A line read once is known again: the same line is read when its mail comes in and when its
    turn is resolved, and most sheets hold the same few lines (MOVE: NEXT). The result is made
    of frozen values only, so the same object serves every reading.
    """
    if len(text) > limits.line_length:
        return _parse_order_line(text, players, limits, two)
    found = _parse_order_line_known(text, tuple(players), limits, two)
    if isinstance(found, tuple):
        raise OrderLineError(*found)
    return found


@lru_cache(maxsize=4096)
def _parse_order_line_known(text: str, players: tuple[str, ...], limits: OrderLimits, two: TwoPlayer | None
                            ) -> ParsedLine | tuple[int, str, RejectionKind]:
    """The line's orders, or its error's column, reason and kind (not the exception: its
    traceback would keep its frames alive). The key holds everything the reading depends on:
    the line, the seats, the limits and (two-player) the author's runners."""
    try:
        return _parse_order_line(text, players, limits, two)
    except OrderLineError as err:
        return (err.column, err.reason, err.kind)


def _parse_order_line(text: str, players: Sequence[str], limits: OrderLimits, two: TwoPlayer | None) -> ParsedLine:
    if len(text) > limits.line_length:
        raise _LineError(limits.line_length + 1, f"the line is {len(text)} characters long; an order line may "
                         f"have at most {limits.line_length}")
    lowered = text.translate(_ASCII_LOWER)
    try:
        two_form = two is not None
        tree = _lark().parse(lowered, start=_start(two_form))
        try:
            _check_limits(tree, limits)
        except _LineError:
            _check_limits(_lark(positions=True).parse(lowered, start=_start(two_form)), limits)  # the same error, with its column
            raise
        if two is not None:
            two = replace(two, column=_missing_runner_column(lowered))
        result = _Build(players, two).transform(tree)
    except VisitError as err:
        if isinstance(err.orig_exc, _LineError):
            raise err.orig_exc from None
        raise
    except UnexpectedInput as err:
        column, reason = _explain(err, text, two.runners if two is not None else players)
        raise _LineError(column, reason) from None
    assert isinstance(result, tuple)
    if result[0] == "move":
        return ParsedLine("move", result[2], result[1])
    return ParsedLine(result[0], result[1])


def parse_sheet(text: str, players: Sequence[str], dialect: Dialect = DEFAULT_DIALECT,
                two: TwoPlayer | None = None) -> OrderSheet:
    """Read a whole order sheet (an email body, or a rule case's ORDERS block) for these seats.

    The generic reader takes the header lines, quotes and signature; the rest are order lines
    (accepted, or rejected with line, column and reason) or ignored lines.
    """
    sheet = read_sheet(text)
    orders = parse_lines(sheet.lines, players, dialect, two)
    headers = [SheetLine(e.line, e.text, e.canonical) for e in sheet.echo if isinstance(e, Accepted)]
    rejected = [RejectedLine(e.line, e.column, e.text, e.reason, e.context, RejectionKind(e.kind.value))
                for e in sheet.echo if isinstance(e, Rejected)]
    return replace(
        orders,
        game=sheet.game,
        turn=sheet.turn,
        secret=sheet.secret,
        accepted=tuple(sorted((*headers, *orders.accepted), key=lambda a: a.line)),
        rejected=tuple(sorted((*rejected, *orders.rejected), key=lambda r: r.line)),
    )


_LINE_WORDS = ("MOVE", "DEFAULT", "HARE")


def _reads(text: str, players: Sequence[str], two: TwoPlayer | None) -> bool:
    """Whether `text` reads as an order line (allowed now or not)."""
    try:
        parse_order_line(text, players, two=two)
    except OrderError as err:
        return err.kind is not RejectionKind.INVALID
    return True


def parse_lines(lines: Sequence[Line], players: Sequence[str], dialect: Dialect = DEFAULT_DIALECT,
                two: TwoPlayer | None = None) -> OrderSheet:
    """The orders of a sheet's lines (headers, quotes and signature already taken off)."""
    moves: list[MoveOrder] = []
    default: Chain | None = None
    default_line: int | None = None
    hare = HareChoice(dialect.choices[0])
    hare_chain: tuple[HareAlternative, ...] = ()
    accepted: list[SheetLine] = []
    rejected: list[RejectedLine] = []
    ignored: list[SheetLine] = []
    for item in lines:
        number, raw, line = item.number, item.raw, item.text
        if _ORDER_WORD.match(line):
            is_move = line[:4].lower() == "move"
            try:
                parsed = parse_order_line(line, players, two=two)
                _check_dialect(parsed, dialect)
            except _LineError as err:
                rejected.append(RejectedLine(number, err.column, raw, err.reason, _caret(line, err.column), err.kind))
                if is_move:
                    moves.append(MoveOrder(None, number, raw))
                continue
            if parsed.kind == "move":
                assert isinstance(parsed.value, Chain)
                expected_number = len(moves) + 1
                if parsed.number is not None and parsed.number != expected_number:
                    found = _MOVE_NUMBER.match(line)
                    col = found.start(1) + 1 if found else 1
                    rejected.append(RejectedLine(
                        number, col, raw,
                        f"MOVE {parsed.number} is out of sequence: this is MOVE line {expected_number}",
                        _caret(line, col), RejectionKind.ILLEGAL))
                    moves.append(MoveOrder(None, number, raw))
                    continue
                moves.append(MoveOrder(parsed.value, number, raw))
                accepted.append(SheetLine(number, raw, f"MOVE {expected_number}: {parsed.value}"))
            elif parsed.kind == "default":
                assert isinstance(parsed.value, Chain)
                default, default_line = parsed.value, number
                accepted.append(SheetLine(number, raw, f"DEFAULT: {parsed.value}"))
            else:
                assert isinstance(parsed.value, tuple)
                hare_chain = parsed.value
                if len(hare_chain) == 1 and hare_chain[0].condition is None:
                    hare = hare_chain[0].choice
                accepted.append(SheetLine(number, raw, f"HARE: {hare_text(hare_chain)}"))
            continue
        misspelt = misspelt_line_word(line, _LINE_WORDS, lambda fixed: _reads(fixed, players, two))
        if misspelt is not None:
            rejected.append(RejectedLine(number, misspelt.column, raw, misspelt.reason(),
                                         _caret(line, misspelt.column), RejectionKind.INVALID))
            if misspelt.meant == "MOVE":
                moves.append(MoveOrder(None, number, raw))  # it still takes its slot
            continue
        ignored.append(SheetLine(number, raw, line))
    return OrderSheet(
        moves=tuple(moves),
        default=default,
        default_line=default_line,
        hare=hare,
        hare_chain=hare_chain,
        accepted=tuple(accepted),
        rejected=tuple(rejected),
        ignored=tuple(ignored),
    )
