"""The order language of If Badger was a Bunny: turn lines and DEFAULT, read once into typed chains.

The language is written down once, in `GRAMMAR`: the reader follows its rules one method a rule,
and takes from it the words a line starts with (`LINE_FORMS`) and every word it knows (`KEYWORDS`,
the vocabulary of "did you mean"). The reader is a hand-written tokenizer and a recursive-descent
parser over one bounded line: every character is looked at once and every token once, so no line
can take more than linear time.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from pbem.games.badger_bunny.cards import Card, CardError, Deck, Rank, parse_card, parse_rank
from pbem.games.sheet import Line, Rejection
from pbem.orders import (
    SIGNS,
    And,
    Brackets,
    Cmp,
    Grammar,
    Lexicon,
    Mistake,
    Not,
    Or,
    OrderError,
    Rule,
    Token,
    TokenKind,
    all_of,
    any_of,
    condition_text,
    known_mistake,
    meant,
    misspelt_line_word,
    suggest,
    tokenize,
)

MAX_LINE = 600  # characters of one order line

#: the badger's order language; keywords in any case, a colon may follow a line's first word
GRAMMAR = Grammar((
    Rule("line", "turn | default"),
    Rule("turn", "chain", "one turn's chain, the lines in the order of your turns"),
    Rule("default", '"DEFAULT" [":"] chain'),
    Rule("chain", 'alternative { "ELSE" alternative }'),
    Rule("alternative", '[ "IF" condition "THEN" ] action'),
    Rule("action", '"PLAY" card { [","] card } | "PLAY" "LOWEST" | "PASS"', "a card at most once"),
    Rule("condition", 'term { "OR" term }'),
    Rule("term", 'factor { "AND" factor }'),
    Rule("factor", '{ "NOT" } ( "(" condition ")" | atom )', "brackets at most 20 deep"),
    Rule("atom", '"I" "LEAD" | "I" "HOLD" card | "OPPONENT" ( "PASSED" | "PASSES" ) '
                 '| [ "OPPONENT" ] ( "HAND" | "DECK" ) cmp n | "SERIES" "IS" [ "NOT" ] series '
                 '| "LAST" "RANK" cmp rank'),
    Rule("series", '"SINGLE" | "SINGLES" | "MULTIPLE" | "MULTIPLES" | "STRAIGHT" | "STRAIGHTS"'),
    Rule("cmp", " | ".join(f'"{sign}"' for sign in SIGNS)),
    Rule("card", "name", "a card of the deck, by any of its names (the guide's Naming cards)"),
    Rule("rank", "name", "a rank of the deck, as a word or a number"),
    Rule("n", "digits", "a whole number of at most 9 digits"),
))
KEYWORDS = GRAMMAR.keywords()
#: each word a line may start with, and the rule it starts
LINE_FORMS = {word: form for form in GRAMMAR.alternatives("line") for word in GRAMMAR.first_words(form)}
ORDER_WORDS = tuple(LINE_FORMS)


class SetType(enum.Enum):
    SINGLE = "single"
    MULTIPLE = "multiple"
    STRAIGHT = "straight"


@dataclass(frozen=True)
class Lead:
    pass


@dataclass(frozen=True)
class OpponentPassed:
    pass


@dataclass(frozen=True)
class SeriesIs:
    kind: SetType
    negated: bool = False


@dataclass(frozen=True)
class LastRank:
    cmp: Cmp
    rank: Rank


@dataclass(frozen=True)
class Count:
    """HAND, DECK, OPPONENT HAND or OPPONENT DECK compared with a number."""

    what: str  # "hand" or "deck"
    opponent: bool
    cmp: Cmp
    n: int


@dataclass(frozen=True)
class Hold:
    card: Card


#: the badger's own tests: what the conditions of the toolkit's tree are made of
Atom = Lead | OpponentPassed | SeriesIs | LastRank | Count | Hold
Condition = Atom | Not[Atom] | And[Atom] | Or[Atom]


@dataclass(frozen=True)
class Play:
    cards: tuple[Card, ...]


@dataclass(frozen=True)
class PlayLowest:
    pass


@dataclass(frozen=True)
class Pass:
    pass


Action = Play | PlayLowest | Pass


@dataclass(frozen=True)
class Alternative:
    condition: Condition | None
    action: Action


@dataclass(frozen=True)
class Chain:
    alternatives: tuple[Alternative, ...]
    text: str  # canonical


PASS_CHAIN = Chain((Alternative(None, Pass()),), "PASS")


@dataclass(frozen=True)
class Turnline:
    """One turn line: its chain, or None when the line was rejected (its turn then passes)."""

    line: int
    chain: Chain | None


@dataclass(frozen=True)
class BadgerOrders:
    turns: tuple[Turnline, ...] = ()
    default: Chain | None = None
    #: private notes on lines that were rejected or ignored, for the owner's report
    notes: tuple[str, ...] = ()


#: a word is letters, digits, '-' and '_'; a lone '!' and any other stray character are errors
LEXICON = Lexicon(word_chars="-_", signs=("<=", ">=", "!=", "<", ">", "=", "!"), aliases={},
                  refused={"!": "'!' must be followed by '=' (write != for 'is not')"}, punctuation="(),:",
                  strict=True)


def tokenize_line(text: str) -> list[Token]:
    """Words, numbers, operators, brackets, commas and colons, each with its column."""
    return tokenize(text, LEXICON)


_VOCABULARY = tuple(sorted(KEYWORDS))


def _near(word: str, expected: tuple[str, ...]) -> str:
    """' — did you mean X?' for a word the language does not know: the expected words first."""
    if not word or not word[0].isalpha() or word in expected:
        return ""
    found = suggest(word, expected if word in KEYWORDS else (*expected, *_VOCABULARY))
    return meant(found) if found else ""


#: typical mistakes, spotted by their words side by side (`#`: any number); the hint replaces the
#: reader's "expected ..." when a line with one of them is not understood
MISTAKES = (
    Mistake(("SERIES", "="), "write SERIES IS SINGLE (or MULTIPLE, STRAIGHT)"),
    Mistake(("SERIES", "!="), "write SERIES IS NOT SINGLE (or MULTIPLE, STRAIGHT)"),
    Mistake(("I", "HAVE"), "write I HOLD and the card: I HOLD 6-MOONS"),
    Mistake(("LAST", "RANK", "IS"), "LAST RANK compares with a rank: LAST RANK >= 7"),
    Mistake(("LAST", "IS"), "write LAST RANK and a comparison: LAST RANK >= 7"),
    Mistake(("PLAY", "HIGHEST"), "there is no PLAY HIGHEST: name the cards, or PLAY LOWEST"),
    Mistake(("PLAY", "ANY"), "name the cards to play, or PLAY LOWEST"),
    Mistake(("THEN", "IF"), "after THEN comes PLAY or PASS; between alternatives write ELSE"),
)


class _Parser:
    def __init__(self, toks: list[Token], deck: Deck, end: int) -> None:
        self.toks = toks
        self.i = 0
        self.deck = deck
        self.end = end  # the column just past the line
        self.depth = 0

    def peek(self, k: int = 0) -> str:
        j = self.i + k
        return self.toks[j].text if j < len(self.toks) else ""

    def col(self) -> int:
        return self.toks[self.i].column if self.i < len(self.toks) else self.end

    def take(self, word: str) -> bool:
        if self.peek() == word:
            self.i += 1
            return True
        return False

    def expect(self, word: str, what: str) -> None:
        if not self.take(word):
            got = f"{self.peek()!r}" if self.peek() else "the end of the line"
            raise OrderError(self.col(), f"expected {what}, found {got}{_near(self.peek(), (word,))}")

    def chain(self) -> Chain:
        alts = [self.alternative()]
        while self.take("ELSE"):
            alts.append(self.alternative())
        if self.i < len(self.toks):
            if self.peek() == ":":
                raise OrderError(self.col(), "a colon may only follow the first word of a line")
            raise OrderError(self.col(), f"expected ELSE or the end of the line, found {self.peek()!r}"
                                         f"{_near(self.peek(), ('ELSE',))}")
        return Chain(tuple(alts), " ELSE ".join(_alt_text(a) for a in alts))

    def alternative(self) -> Alternative:
        if self.take("IF"):
            cond = self.condition()
            self.expect("THEN", "THEN after the condition")
            return Alternative(cond, self.action())
        return Alternative(None, self.action())

    def action(self) -> Action:
        if self.take("PASS"):
            return Pass()
        if self.take("PLAY"):
            if self.take("LOWEST"):
                return PlayLowest()
            cards: list[Card] = []
            while self.peek() not in ("", "ELSE"):
                if self.peek() == "," and cards:
                    self.i += 1
                    continue
                tok = self.toks[self.i]
                if tok.text in ("AND", "OR", "THEN", "IF"):
                    raise OrderError(tok.column, f"{tok.text} is not a card: list a set's cards with spaces "
                                                 "(PLAY 6-MOONS 7-MOONS), and join alternatives with ELSE")
                if tok.text in "(),:" or tok.text[0] in "<>!=":
                    raise OrderError(tok.column, f"expected a card, found {tok.text!r}")
                try:
                    c = parse_card(tok.text, self.deck)
                except CardError as err:
                    keyword = suggest(tok.text, ("LOWEST", "ELSE")) if not cards else None
                    if keyword is not None and err.kind is Rejection.INVALID:
                        raise OrderError(tok.column, f"{tok.text!r} is not a card{meant(keyword)}") from None
                    raise OrderError(tok.column, err.reason, err.kind) from None
                if c in cards:
                    raise OrderError(tok.column, f"{c.token} is given twice in one PLAY")
                cards.append(c)
                self.i += 1
            if not cards:
                raise OrderError(self.col(), "PLAY needs at least one card (or LOWEST)")
            return Play(tuple(cards))
        got = f"{self.peek()!r}" if self.peek() else "the end of the line"
        raise OrderError(self.col(), f"expected PLAY, PLAY LOWEST or PASS, found {got}"
                                     f"{_near(self.peek(), ('PLAY', 'PASS'))}")

    def condition(self) -> Condition:
        parts = [self.term()]
        while self.take("OR"):
            parts.append(self.term())
        return any_of(parts)

    def term(self) -> Condition:
        parts = [self.factor()]
        while self.take("AND"):
            parts.append(self.factor())
        return all_of(parts)

    def factor(self) -> Condition:
        nots = 0
        while True:  # NOT NOT ... and brackets, read without recursion per NOT
            if self.take("NOT"):
                nots += 1
                continue
            break
        if self.take("("):
            self.depth += 1
            if self.depth > 20:
                raise OrderError(self.col(), "brackets nested more than 20 deep")
            inner = self.condition()
            self.expect(")", "')'")
            self.depth -= 1
            out: Condition = inner
        else:
            out = self.atom()
        for _ in range(nots):
            out = Not[Atom](out)
        return out

    def cmp(self) -> Cmp:
        tok = self.peek()
        found = Cmp.of(tok)
        if found is not None:
            self.i += 1
            return found
        raise OrderError(self.col(), f"expected a comparison (= != < <= > >=), found {tok!r}")

    def number(self) -> int:
        tok = self.peek()
        if not tok.isdigit() or len(tok) > 9:
            raise OrderError(self.col(), f"expected a whole number, found {tok!r}")
        self.i += 1
        return int(tok)

    def atom(self) -> Condition:
        col = self.col()
        if self.take("I"):
            if self.take("LEAD"):
                return Lead()
            if self.take("HOLD"):
                tok = self.toks[self.i] if self.i < len(self.toks) else None
                if tok is None:
                    raise OrderError(self.end, "I HOLD needs a card")
                try:
                    c = parse_card(tok.text, self.deck)
                except CardError as err:
                    raise OrderError(tok.column, err.reason,
                                     Rejection.AMBIGUOUS if err.ambiguous else Rejection.INVALID) from None
                self.i += 1
                return Hold(c)
            raise OrderError(self.col(), f"expected LEAD or HOLD after I{_near(self.peek(), ('LEAD', 'HOLD'))}")
        if self.take("OPPONENT"):
            if self.take("PASSED") or self.take("PASSES"):
                return OpponentPassed()
            for what in ("HAND", "DECK"):
                if self.take(what):
                    return Count(what.lower(), True, self.cmp(), self.number())
            raise OrderError(self.col(), "expected PASSED, HAND or DECK after OPPONENT"
                                         f"{_near(self.peek(), ('PASSED', 'HAND', 'DECK'))}")
        for what in ("HAND", "DECK"):
            if self.take(what):
                return Count(what.lower(), False, self.cmp(), self.number())
        if self.take("SERIES"):
            self.expect("IS", "IS after SERIES")
            negated = self.take("NOT")
            word = self.peek().rstrip("S") if self.peek() != "MULTIPLES" else "MULTIPLE"
            word = {"SINGLE": "single", "MULTIPLE": "multiple", "STRAIGHT": "straight"}.get(word, "")
            if not word:
                raise OrderError(self.col(), f"expected SINGLE, MULTIPLE or STRAIGHT, found {self.peek()!r}"
                                             f"{_near(self.peek(), ('SINGLE', 'MULTIPLE', 'STRAIGHT'))}")
            self.i += 1
            return SeriesIs(SetType(word), negated)
        if self.take("LAST"):
            self.expect("RANK", "RANK after LAST")
            how = self.cmp()
            tok = self.toks[self.i] if self.i < len(self.toks) else None
            if tok is None:
                raise OrderError(self.end, "expected a rank")
            try:
                rank = parse_rank(tok.text, self.deck)
            except CardError as err:
                raise OrderError(tok.column, err.reason) from None
            self.i += 1
            return LastRank(how, rank)
        got = f"{self.peek()!r}" if self.peek() else "the end of the line"
        raise OrderError(col, f"expected a condition (I LEAD, OPPONENT PASSED, SERIES IS, LAST RANK, HAND, DECK, "
                              f"OPPONENT HAND, I HOLD), found {got}"
                              f"{_near(self.peek(), ('OPPONENT', 'SERIES', 'LAST', 'HAND', 'DECK', 'NOT'))}")


def _atom_text(c: object) -> str:
    """One test in canonical words (typed `object`: mypy reads the tree's atom type as such)."""
    if isinstance(c, Lead):
        return "I LEAD"
    if isinstance(c, OpponentPassed):
        return "OPPONENT PASSED"
    if isinstance(c, SeriesIs):
        return f"SERIES IS {'NOT ' if c.negated else ''}{c.kind.name}"
    if isinstance(c, LastRank):
        return f"LAST RANK {c.cmp.value} {c.rank.value}"
    if isinstance(c, Count):
        return f"{'OPPONENT ' if c.opponent else ''}{c.what.upper()} {c.cmp.value} {c.n}"
    assert isinstance(c, Hold)
    return f"I HOLD {c.card.token}"


def condition_words(c: Condition) -> str:
    """A condition in canonical words: every nested AND and OR in brackets."""
    return condition_text(c, _atom_text, Brackets.NESTED)


def action_text(a: Action) -> str:
    if isinstance(a, Pass):
        return "PASS"
    if isinstance(a, PlayLowest):
        return "PLAY LOWEST"
    return "PLAY " + " ".join(c.token for c in a.cards)


def _alt_text(a: Alternative) -> str:
    act = action_text(a.action)
    return act if a.condition is None else f"IF {condition_words(a.condition)} THEN {act}"


@dataclass(frozen=True)
class LineReading:
    """A line read: ('turn' | 'default' | 'ignored', chain or None, canonical, error)."""

    kind: str
    chain: Chain | None
    canonical: str = ""
    error: OrderError | None = None


def read_line(text: str, deck: Deck) -> LineReading:
    """One order line read: a turn line, a DEFAULT line or a line that is no order."""
    stripped = text[:MAX_LINE + 1]
    first = stripped.split(" ", 1)[0].split(":", 1)[0].upper()
    if first not in ORDER_WORDS:
        misspelt = misspelt_line_word(stripped, ORDER_WORDS, lambda fixed: _reads(fixed, deck))
        if misspelt is None:
            return LineReading("ignored", None)
        kind = LINE_FORMS[misspelt.meant]
        return LineReading(kind, None, error=OrderError(misspelt.column, misspelt.reason()))
    kind = LINE_FORMS[first]
    if len(text) > MAX_LINE:
        return LineReading(kind, None, error=OrderError(MAX_LINE, f"an order line may hold {MAX_LINE} characters"))
    toks: list[Token] = []
    try:
        toks = tokenize_line(text)
        if len(toks) > 1 and toks[1].text == ":":
            del toks[1]
        if kind == "default":
            toks = toks[1:]
        colon = next((t for t in toks if t.text == ":"), None)
        if colon is not None:
            raise OrderError(colon.column, "a colon may only follow the first word of a line")
        chain = _Parser(toks, deck, len(text) + 1).chain()
    except OrderError as err:
        words = [t.text for t in toks if t.kind is not TokenKind.PUNCT]
        hint = known_mistake(words, MISTAKES) if err.kind is Rejection.INVALID else None
        return LineReading(kind, None, error=err if hint is None else OrderError(err.column, hint))
    return LineReading(kind, chain, f"DEFAULT {chain.text}" if kind == "default" else chain.text)


def _reads(text: str, deck: Deck) -> bool:
    """Whether `text` reads as an order line (allowed now or not)."""
    reading = read_line(text, deck)
    return reading.kind != "ignored" and (reading.error is None or reading.error.kind is not Rejection.INVALID)


def parse_lines(lines: tuple[Line, ...], deck: Deck) -> tuple[BadgerOrders, list[tuple[Line, LineReading]]]:
    """The orders of a sheet's lines, and each line's reading for the echo."""
    turns: list[Turnline] = []
    default: Chain | None = None
    notes: list[str] = []
    readings = []
    for line in lines:
        r = read_line(line.text, deck)
        readings.append((line, r))
        if r.kind == "ignored":
            continue  # a greeting or a signature: the acknowledgement lists it, the report need not
        if r.error is not None:
            what = "its turn gets PASS" if r.kind == "turn" else "no DEFAULT from it"
            notes.append(f"line {line.number} rejected at column {r.error.column}: {r.error.reason} ({what})")
            if r.kind == "turn":
                turns.append(Turnline(line.number, None))
        elif r.kind == "turn":
            turns.append(Turnline(line.number, r.chain))
        else:
            default = r.chain
    return BadgerOrders(tuple(turns), default, tuple(notes)), readings


def parse_text(text: str, deck: Deck) -> BadgerOrders:
    """A case's sheet (the order lines only, headers read as by the sheet reader)."""
    from pbem.games.sheet import read_sheet

    return parse_lines(read_sheet(text).lines, deck)[0]
