"""The card race's order lines: typed values, and a linear-time reader with plain-word errors.

The language is written down once, in `GRAMMAR` (RULES-CARD-RACE.md, "Orders"): the reader
follows its rules one method a rule, and takes from it the words a line starts with (`LINE_FORMS`,
its dispatch) and every word it knows (`KEYWORDS`, the vocabulary of "did you mean").

A line is split into tokens by one scan, and read by recursive descent with no backtracking;
nesting and length are bounded, so no line costs more than linear time.
"""

from __future__ import annotations

from dataclasses import dataclass

from pbem.games.card_race.cards import ANIMAL_WORDS, ANIMALS, APPRENTICE, HOWL, LETTERS, WOLF, counts
from pbem.orders import (
    SIGNS,
    And,
    Cmp,
    ErrorKind,
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
    did_you_mean,
    holds,
    known_mistake,
    tokenize,
)

MAX_LINE = 600  # characters of one order line
MAX_DEPTH = 12  # nesting of NOT and brackets
MAX_NUMBER = 999_999_999  # nine digits: any count a player may write, and bounded
COMPARISONS = SIGNS

#: the card race's order language; keywords in any case, a colon may follow a line's first word
GRAMMAR = Grammar((
    Rule("line", "bet | play | default | race"),
    Rule("bet", '"BET" [":"] kind'),
    Rule("play", "chain"),
    Rule("default", '"DEFAULT" [":"] chain'),
    Rule("race", '"RACE" [":"] animal { [","] animal }', "apprentice only"),
    Rule("chain", 'alternative { "ELSE" alternative }'),
    Rule("alternative", '[ "IF" condition "THEN" ] action'),
    Rule("action", '"PLAY" n animal [ "WITH" [ n ] "HOWL" ]', "1 to 4 cards; WITH after WOLF only"),
    Rule("condition", 'term { "OR" term }'),
    Rule("term", 'factor { "AND" factor }'),
    Rule("factor", '"NOT" factor | "(" condition ")" | atom'),
    Rule("atom", '"HAND" kind cmp n | "TABLE" kind cmp n | "TABLE" cmp n'),
    Rule("kind", 'animal | "HOWL"'),
    Rule("animal", " | ".join(f'"{word}"' for word in ANIMAL_WORDS)),
    Rule("cmp", " | ".join(f'"{sign}"' for sign in SIGNS)),
    Rule("n", "digits", "a whole number of at most 9 digits"),
))
KEYWORDS = GRAMMAR.keywords()
#: each word a line may start with, and the rule it starts: what the sheet reader dispatches on
LINE_FORMS = {word: form for form in GRAMMAR.alternatives("line") for word in GRAMMAR.first_words(form)}
LINE_WORDS = tuple(LINE_FORMS)
KIND_HOWL = 5  # a <kind> is an animal index, or this for HOWL


# --- values --------------------------------------------------------------------------------------


def kind_word(kind: int) -> str:
    return "HOWL" if kind == KIND_HOWL else ANIMALS[kind].upper()


@dataclass(frozen=True)
class Count:
    """HAND <kind> <cmp> <n>, TABLE <kind> <cmp> <n>, or TABLE <cmp> <n> (kind None)."""

    where: str  # "HAND" or "TABLE"
    kind: int | None
    cmp: Cmp
    n: int

    def value(self, hand: tuple[str, ...], table: tuple[str, ...]) -> int:
        cards = hand if self.where == "HAND" else table
        if self.kind is None:
            return len(cards)
        if self.kind == KIND_HOWL:
            return sum(1 for c in cards if c == HOWL)
        return counts(cards)[self.kind]

    def holds(self, hand: tuple[str, ...], table: tuple[str, ...]) -> bool:
        return self.cmp.holds(self.value(hand, table), self.n)

    def text(self) -> str:
        kind = "" if self.kind is None else f" {kind_word(self.kind)}"
        return f"{self.where}{kind} {self.cmp.value} {self.n}"


#: HAND and TABLE counts under NOT, AND and OR (the toolkit's tree)
Condition = Count | Not[Count] | And[Count] | Or[Count]


def condition_holds(condition: Condition, hand: tuple[str, ...], table: tuple[str, ...]) -> bool:
    """Whether the condition holds for this hand and table."""
    return holds(condition, lambda count: count.holds(hand, table))


def condition_words(condition: Condition) -> str:
    return condition_text(condition, Count.text)



@dataclass(frozen=True)
class Play:
    """PLAY <n> <animal> [WITH <k> HOWL]: n cards of the animal, k of them howl cards."""

    n: int
    animal: int
    howls: int = 0

    def cards(self) -> tuple[str, ...]:
        if self.animal == WOLF:
            return ("W",) * (self.n - self.howls) + (HOWL,) * self.howls
        return ("HTWFL"[self.animal],) * self.n

    def text(self) -> str:
        tail = "" if not self.howls else " WITH HOWL" if self.howls == 1 else f" WITH {self.howls} HOWL"
        return f"PLAY {self.n} {ANIMALS[self.animal].upper()}{tail}"


def played_line(cards: tuple[str, ...]) -> str:
    """The PLAY line that plays exactly `cards` (one animal's, or wolves with howls)."""
    howls = sum(1 for c in cards if c == HOWL)
    animal = WOLF if howls else LETTERS.index(cards[0])
    return Play(len(cards), animal, howls).text()


@dataclass(frozen=True)
class Alternative:
    condition: Condition | None
    play: Play

    def text(self) -> str:
        if self.condition is None:
            return self.play.text()
        return f"IF {condition_words(self.condition)} THEN {self.play.text()}"


@dataclass(frozen=True)
class Chain:
    alternatives: tuple[Alternative, ...]

    def text(self) -> str:
        return " ELSE ".join(a.text() for a in self.alternatives)


@dataclass(frozen=True)
class PlayLine:
    """One play line of a sheet: its chain, or None when the line was rejected (the card turn it
    takes gets the default play)."""

    line: int
    chain: Chain | None


@dataclass(frozen=True)
class Orders:
    """One sheet's orders: the second bet, the play lines in order, DEFAULT and RACE."""

    bet: int | None = None  # an animal, or KIND_HOWL
    plays: tuple[PlayLine, ...] = ()
    default: Chain | None = None
    race: tuple[int, ...] | None = None
    bet_line: int = 0
    default_line: int = 0


# --- tokens --------------------------------------------------------------------------------------


LEXICON = Lexicon(word_chars="_-'")  # '==' is read as '='; any other character is a token of its own


def tokens(text: str) -> list[Token]:
    """The words, numbers, comparisons, brackets, commas and colons of a line, in one scan."""
    return tokenize(text, LEXICON)


_VOCABULARY = tuple(sorted(KEYWORDS))


def _unknown(t: Token, expected: tuple[str, ...]) -> str:
    """' — did you mean X?' for a word the language does not know: the expected words first."""
    if t.kind is not TokenKind.WORD or t.text in KEYWORDS:
        return ""
    return did_you_mean(t.text, (*expected, *_VOCABULARY))


_ANIMAL_WORDS = tuple(ANIMAL_WORDS)
#: typical mistakes, spotted by their words side by side (`#`: any number); the hint replaces the
#: reader's "expected ..." when a line with one of them is not understood
MISTAKES = (
    *(Mistake(("PLAY", animal), f"PLAY takes the number of cards first: PLAY 1 {animal}") for animal in _ANIMAL_WORDS),
    *(Mistake((word, animal), f"a condition counts cards in your HAND or on the TABLE: HAND {animal} >= 1")
      for word in ("IF", "AND", "OR", "NOT") for animal in _ANIMAL_WORDS),
    Mistake(("OR", "PLAY"), "between alternatives write ELSE; OR joins conditions"),
    Mistake(("AND", "PLAY"), "one line plays once; between alternatives write ELSE"),
    *(Mistake(("PLAY", "#", animal, "AND"), "a card turn plays cards of one animal: give the other its own PLAY line")
      for animal in _ANIMAL_WORDS),
    *(Mistake(("PLAY", word), "write the number of cards in digits: PLAY 2 FOX")
      for word in ("ONE", "TWO", "THREE", "FOUR", "A", "AN")),
    Mistake(("THEN", "#"), "THEN is followed by PLAY: IF TABLE FOX >= 2 THEN PLAY 1 LAMB"),
    Mistake(("ELSE", "#"), "ELSE is followed by PLAY or IF: PLAY 2 FOX ELSE PLAY 1 LAMB"),
)


_ANIMAL_CHOICES = tuple(ANIMAL_WORDS)


# --- reading -------------------------------------------------------------------------------------


class _Reader:
    def __init__(self, toks: list[Token], end: int, apprentice: bool) -> None:
        self.toks = toks
        self.i = 0
        self.end = end  # the column just past the line
        self.apprentice = apprentice

    def peek(self) -> Token | None:
        return self.toks[self.i] if self.i < len(self.toks) else None

    def word(self) -> str:
        t = self.peek()
        return t.text if t is not None else ""

    def column(self) -> int:
        t = self.peek()
        return t.column if t is not None else self.end

    def take(self) -> Token:
        t = self.peek()
        if t is None:
            raise OrderError(self.end, "the line ends too soon")
        self.i += 1
        return t

    def expect(self, word: str, what: str) -> None:
        t = self.peek()
        if t is None:
            raise OrderError(self.end, f"the line ends where {what} should come")
        if t.text != word:
            if t.text == ":":
                raise OrderError(t.column, "a colon may only follow the first word of a line")
            raise OrderError(t.column, f"expected {what}, not {t.text!r}{_unknown(t, (word,))}")
        self.i += 1

    def number(self, what: str) -> int:
        t = self.peek()
        if t is None:
            raise OrderError(self.end, f"the line ends where {what} (a whole number) should come")
        if not t.text.isdigit():
            raise OrderError(t.column, f"expected {what} (a whole number), not {t.text!r}{_unknown(t, ())}")
        self.i += 1
        if len(t.text) > 9:
            raise OrderError(t.column, f"{t.text} is too large for {what}")
        return int(t.text)

    def animal(self, *, or_howl: bool = False) -> int:
        t = self.peek()
        if t is None:
            raise OrderError(self.end, "the line ends where an animal (HARE, TORTOISE, WOLF, FOX or LAMB) should come")
        found = ANIMAL_WORDS.get(t.text)
        if found is None:
            if t.text == "HOWL":
                raise OrderError(t.column, "HOWL is not an animal here; write PLAY 2 WOLF WITH HOWL for a howl card")
            raise OrderError(t.column, f"{t.text!r} is not an animal: write HARE, TORTOISE, WOLF, FOX or LAMB"
                             + did_you_mean(t.text, (*_ANIMAL_CHOICES, "HOWL") if or_howl else _ANIMAL_CHOICES))
        self.i += 1
        return found

    def kind(self) -> int:
        t = self.peek()
        if t is not None and t.text == "HOWL":
            self.no_howl_in_apprentice(t)
            self.i += 1
            return KIND_HOWL
        return self.animal(or_howl=True)

    def no_howl_in_apprentice(self, t: Token) -> None:
        if self.apprentice:
            raise OrderError(t.column, "the apprentice race has no howl cards", ErrorKind.ILLEGAL)

    def chain(self) -> Chain:
        alternatives = [self.alternative()]
        while self.word() == "ELSE":
            self.take()
            alternatives.append(self.alternative())
        t = self.peek()
        if t is not None:
            if t.text == ":":
                raise OrderError(t.column, "a colon may only follow the first word of a line")
            raise OrderError(t.column, f"expected ELSE or the end of the line, not {t.text!r}{_unknown(t, ('ELSE',))}")
        return Chain(tuple(alternatives))

    def alternative(self) -> Alternative:
        condition: Condition | None = None
        if self.word() == "IF":
            self.take()
            condition = self.condition(0)
            self.expect("THEN", "THEN")
        return Alternative(condition, self.play())

    def play(self) -> Play:
        self.expect("PLAY", "PLAY")
        at = self.column()
        n = self.number("the number of cards")
        if not 1 <= n <= 4:
            raise OrderError(at, f"a card turn plays 1 to 4 cards, not {n}")
        animal = self.animal()
        howls = 0
        if self.word() == "WITH":
            with_at = self.column()
            self.take()
            if animal != WOLF:
                raise OrderError(with_at, "WITH HOWL goes only with WOLF: howl cards are wolf cards")
            howls = 1
            if self.word().isdigit():
                k_at = self.column()
                howls = self.number("the number of howl cards")
                if not 1 <= howls <= n:
                    raise OrderError(k_at, f"the howl cards must number 1 to {n}, the cards played, not {howls}")
            t = self.peek()
            if t is None or t.text != "HOWL":
                self.expect("HOWL", "HOWL")
            else:
                self.no_howl_in_apprentice(t)
                self.take()
        return Play(n, animal, howls)

    def condition(self, depth: int) -> Condition:
        parts = [self.term(depth)]
        while self.word() == "OR":
            self.take()
            parts.append(self.term(depth))
        return any_of(parts)

    def term(self, depth: int) -> Condition:
        parts = [self.factor(depth)]
        while self.word() == "AND":
            self.take()
            parts.append(self.factor(depth))
        return all_of(parts)

    def factor(self, depth: int) -> Condition:
        if depth > MAX_DEPTH:
            raise OrderError(self.column(), f"conditions may nest at most {MAX_DEPTH} deep")
        word = self.word()
        if word == "NOT":
            self.take()
            return Not[Count](self.factor(depth + 1))
        if word == "(":
            self.take()
            inner = self.condition(depth + 1)
            self.expect(")", "a closing bracket")
            return inner
        return self.atom()

    def atom(self) -> Count:
        t = self.peek()
        if t is None:
            raise OrderError(self.end, "the line ends where a condition (HAND or TABLE) should come")
        if t.text not in ("HAND", "TABLE"):
            raise OrderError(t.column, f"a condition starts with HAND or TABLE, not {t.text!r}"
                             + did_you_mean(t.text, ("HAND", "TABLE", "NOT")))
        self.take()
        kind: int | None = None
        if self.word() not in COMPARISONS:
            if self.peek() is None:
                raise OrderError(self.end, f"the line ends after {t.text}")
            kind = self.kind()
        elif t.text == "HAND":
            raise OrderError(self.column(), "HAND needs a kind: HAND FOX >= 2, HAND HOWL = 1")
        cmp_tok = self.peek()
        if cmp_tok is None or cmp_tok.text not in COMPARISONS:
            where = self.end if cmp_tok is None else cmp_tok.column
            shown = "the end of the line" if cmp_tok is None else repr(cmp_tok.text)
            raise OrderError(where, f"expected a comparison (=, !=, <, <=, >, >=), not {shown}")
        self.take()
        n = self.number("the number to compare with")
        return Count(t.text, kind, Cmp(cmp_tok.text), n)


def _after_first_word(toks: list[Token]) -> list[Token]:
    """The tokens after the line's first word, and its optional colon; any other colon is an error."""
    rest = toks[1:]
    if rest and rest[0].text == ":":
        rest = rest[1:]
    _no_colon(rest)
    return rest


def _no_colon(toks: list[Token]) -> None:
    colon = next((t for t in toks if t.text == ":"), None)
    if colon is not None:
        raise OrderError(colon.column, "a colon may only follow the first word of a line")


def first_word(text: str) -> str:
    """The first word of a line, in upper case ('' when it starts with no word)."""
    toks = tokens(text[:40])
    return toks[0].text if toks else ""


def read_chain(text: str, *, apprentice: bool, skip_first: bool) -> Chain:
    """A chain from a line; `skip_first` drops a leading keyword (DEFAULT) and its colon."""
    toks = tokens(text)
    if skip_first:
        toks = _after_first_word(toks)
    elif len(toks) > 1 and toks[1].text == ":":
        toks = [toks[0], *toks[2:]]  # PLAY: 2 FOX, IF: TABLE = 5 ...
    _no_colon(toks)
    if not toks:
        raise OrderError(len(text) + 1, "the line holds no play: write e.g. DEFAULT PLAY 1 TORTOISE")
    try:
        return _Reader(toks, len(text) + 1, apprentice).chain()
    except OrderError as err:
        words = [t.text for t in toks if t.kind is not TokenKind.PUNCT]
        hint = known_mistake(words, MISTAKES) if err.kind is ErrorKind.INVALID else None
        if hint is None:
            raise
        raise OrderError(err.column, hint) from None


def read_bet(text: str, *, apprentice: bool) -> int:
    toks = _after_first_word(tokens(text))
    r = _Reader(toks, len(text) + 1, apprentice)
    if not toks:
        raise OrderError(len(text) + 1, "BET names an animal or HOWL: BET FOX")
    kind = r.kind()
    if r.peek() is not None:
        raise OrderError(r.column(), "BET names one animal (or HOWL) and nothing more")
    return kind


def read_race(text: str) -> tuple[int, ...]:
    toks = [t for t in _after_first_word(tokens(text)) if t.text != ","]
    r = _Reader(toks, len(text) + 1, True)
    found: list[int] = []
    while r.peek() is not None:
        t = r.peek()
        assert t is not None
        if t.text == ":":
            raise OrderError(t.column, "a colon may only follow the first word of a line")
        animal = r.animal()
        if animal in found:
            raise OrderError(t.column, f"{ANIMALS[animal].upper()} is named twice")
        found.append(animal)
    if not found:
        raise OrderError(len(text) + 1, "RACE names the animals in the order you pick them: RACE FOX LAMB")
    return tuple(found)


def race_text(race: tuple[int, ...]) -> str:
    return "RACE " + " ".join(ANIMALS[a].upper() for a in race)


def bet_text(kind: int) -> str:
    return f"BET {kind_word(kind)}"


def check_apprentice(kind: str) -> bool:
    return kind == APPRENTICE
