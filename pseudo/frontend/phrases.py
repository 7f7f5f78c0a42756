"""Phrase patterns («место (k), (i) свободно») and their resolution against token runs.

A pattern is a sequence of words, commas and parameter slots. A use is matched against
every pattern whose words all occur in it: the index by first word and the word-set test
keep this cheap with hundreds of phrases. Each slot takes a slice of the run, balanced in
brackets, that parses as an expression.
"""
from __future__ import annotations

import functools
import itertools
import re

from ..errors import static_error
from ..messages import hint
from ..runtime.library import INPUT_ENDED
from .raw import Token
from .source import Span, fold_lookalikes

WORD_TYPES = {"NAME", "AND", "OR", "NOT", "TRUE", "FALSE", "DIV", "MOD", "RESULT", "REZ"}
OPEN = {"LPAR", "LSQB", "IF"}
CLOSE = {"RPAR", "RSQB", "END_IF"}

_PIECE = re.compile(r"\s*(?:\(\s*(?P<ref>РЕЗ\s+)?(?P<slot>[^\W\d_]\w*)\s*\)|(?P<word>[^\W\d_][\w-]*)|(?P<punct>,))")


class Slot:
    """A parameter's place in a phrase (a plain class: see raw.py)."""
    __slots__ = ("by_ref", "name")

    def __init__(self, name: str, by_ref: bool):
        self.name, self.by_ref = name, by_ref

    def __eq__(self, other):
        return isinstance(other, Slot) and (self.name, self.by_ref) == (other.name, other.by_ref)

    def __hash__(self):
        return hash((self.name, self.by_ref))


class Pattern:
    """`key`: «…» as written, whitespace collapsed (the definition's name); `elements`: words in
    lower case, "," or slots; `written`: the words as written in the definition."""

    def __init__(self, key: str, elements: tuple[str | Slot, ...], written: tuple[str, ...], span: Span):
        self.key, self.elements, self.written, self.span = key, elements, written, span

    @property
    def slots(self) -> list[Slot]:
        return [e for e in self.elements if isinstance(e, Slot)]

    @functools.cached_property
    def words(self) -> tuple[str, ...]:
        return tuple(e for e in self.elements if isinstance(e, str) and e != ",")

    @functools.cached_property
    def shape(self) -> str:
        """«место …, … свободно»: how the phrase reads, parameters elided."""
        parts = ["…" if isinstance(e, Slot) else e for e in self.elements]
        return "«" + " ".join(parts).replace(" ,", ",") + "»"


def parse_pattern(text: str, span: Span) -> Pattern:
    inner, pos, elements, written = text[1:-1], 0, [], []
    inner = inner.rstrip()
    while pos < len(inner):
        m = _PIECE.match(inner, pos)
        if not m or m.end() == pos:
            raise static_error("bad-pattern", span, hint("bad-pattern"), detail=f"непонятно «{inner[pos:].strip()[:20]}»")
        pos = m.end()
        if m["slot"]:
            if elements and isinstance(elements[-1], Slot):
                raise static_error("pattern-adjacent-slots", span, hint("pattern-adjacent-slots"))
            elements.append(Slot(m["slot"], bool(m["ref"])))
        elif m["word"]:
            elements.append(m["word"].lower())
            written.append(m["word"])
        else:
            elements.append(",")
    if not written:
        raise static_error("pattern-no-word", span, hint("pattern-no-word"))
    key = "«" + " ".join(inner.split()) + "»"
    return Pattern(key, tuple(elements), tuple(written), span)


class Match:
    """`slices`: the token ranges of the arguments; `case_differs`: words written in another
    case than defined."""

    def __init__(self, pattern: Pattern, slices: list[tuple[int, int]], case_differs: list[tuple[Token, str]]):
        self.pattern, self.slices, self.case_differs = pattern, slices, case_differs


def words_of(tokens: list[Token]) -> list[str]:
    """The words of a run, in lower case, as phrases are compared."""
    return [t.value.lower() for t in tokens if t.type in WORD_TYPES]


def depths(tokens: list[Token]) -> list[int]:
    """Bracket depth before each token (and after the last)."""
    out, d = [], 0
    for tok in tokens:
        out.append(d)
        if tok.type in OPEN:
            d += 1
        elif tok.type in CLOSE:
            d -= 1
    out.append(d)
    return out


class PhraseTable:
    """The phrases of a program. Each is indexed under the rarest of its words, so that a run
    is compared only with the few phrases whose rarest word it has, however many phrases
    share a common word."""

    def __init__(self):
        self.patterns: list[Pattern] = []
        self.order: dict[Pattern, int] = {}  # the order of definition, which decides ties
        self.by_shape: dict[str, Pattern] = {}
        self._by_word: dict[str, list[Pattern]] | None = None  # built on first use
        self.shortest = 0  # the fewest tokens a use can have: a token for each element
        self.most_commas = 0  # of any phrase

    def add(self, pattern: Pattern) -> None:
        self.order[pattern] = len(self.patterns)
        self.patterns.append(pattern)
        self.by_shape[pattern.shape] = pattern
        self._by_word = None
        self.shortest = min(self.shortest or len(pattern.elements), len(pattern.elements))
        self.most_commas = max(self.most_commas, pattern.elements.count(","))

    def _index(self) -> dict[str, list[Pattern]]:
        if self._by_word is None:
            frequency: dict[str, int] = {}
            for p in self.patterns:
                for w in set(p.words):
                    frequency[w] = frequency.get(w, 0) + 1
            self._by_word = {}
            for p in self.patterns:
                rarest = min(p.words, key=lambda w: (frequency[w], w))
                self._by_word.setdefault(rarest, []).append(p)
        return self._by_word

    def candidates(self, tokens: list[Token]) -> list[Pattern]:
        """The phrases all of whose words the run has, in the order of definition."""
        return self.candidates_of(words_of(tokens))

    def candidates_of(self, words: list[str]) -> list[Pattern]:
        """The same, from the run's words (`words_of`)."""
        index = self._index()
        indexed = [p for w in words for p in index.get(w, ())]
        if not indexed:
            return indexed
        present = set(words)
        found = [p for p in dict.fromkeys(indexed) if all(x in present for x in p.words)]
        return sorted(found, key=self.order.__getitem__) if len(found) > 1 else found

    def match(self, tokens: list[Token], parses, candidates: list[Pattern] | None = None) -> list[Match]:
        """All ways the run reads as a phrase; `parses(i, j)` tells if tokens[i:j] is an
        expression. `candidates`: the run's, if the caller has them already."""
        found: list[Match] = []
        if len(tokens) < self.shortest:
            return found
        if candidates is None:
            candidates = self.candidates(tokens)
        candidates = [p for p in candidates if _ends_fit(p.elements, tokens)]
        if not candidates:
            return found
        depth = depths(tokens)
        for pattern in candidates:
            for slices in _match(pattern.elements, tokens, depth, parses):
                found.append(Match(pattern, slices, _case_differences(pattern, tokens, slices)))
                if len(found) > 1:
                    return found
        return found

    def nearest(self, tokens: list[Token], limit: int = 3, also: PhraseTable | None = None) -> list[str]:
        """The phrases spelt most like the run, best first; `also` adds another table's."""
        import difflib  # for a message only: not part of every start
        words = " ".join(t.value.lower() for t in tokens if t.type in WORD_TYPES)
        stems = {w[:3] for w in words.split()}
        scored = []
        for p in self.patterns + (also.patterns if also else []):
            if also and p in also.patterns and not stems & {w[:3] for w in p.words}:
                continue  # a phrase the program did not define: offered only when a word begins alike
            ratio = difflib.SequenceMatcher(None, words, " ".join(p.words)).ratio()
            if ratio >= 0.4:
                scored.append((-ratio, p.key))
        return [key for _, key in sorted(scored)[:limit]]

    def near_hint(self, tokens: list[Token], near: list[str]) -> str | None:
        """The hint for a run that matches no phrase, `near` the nearest phrases: where a word of
        the run and a word of one of them differ only in look-alike Latin letters or in ё and е,
        those letters (`зaнять` with a Latin a); otherwise the nearest phrases."""
        patterns = {p.key: p for p in self.patterns}
        for key in near:
            p = patterns.get(key)
            for tok in (t for t in tokens if t.type in WORD_TYPES) if p else ():
                for word in p.written:
                    tip = _spelt_alike(tok.value, word, p)
                    if tip:
                        return tip
        for p in (patterns.get(key) for key in near):
            if p is not None and _comma_left_out(tokens, p):  # `занять 1 2` for «занять (k), (i)»
                return hint("phrase-comma", shape=p.shape, line=p.span.line)
        if near:
            return hint("no-phrase", nearest=" или ".join(near))
        pattern = _pattern_of(tokens)
        return hint("phrase-undefined", pattern=pattern) if pattern else None


def _comma_left_out(tokens: list[Token], p: Pattern) -> bool:
    """Does the run hold the words of the pattern `p` in their order, with fewer commas
    between its arguments than `p` has?"""
    d = depths(tokens)
    words = iter(t.value.lower() for t in tokens if t.type in WORD_TYPES)
    commas = sum(t.type == "COMMA" and d[i] == 0 for i, t in enumerate(tokens))
    return all(word in words for word in p.words) and commas < p.elements.count(",")


def _spelt_alike(used: str, word: str, p: Pattern) -> str | None:
    """The hint for a word of a use that is a word of the pattern `p` but for look-alike Latin
    letters (in the one or the other) or ё for е; None if they differ otherwise or not at all."""
    used_l, word_l = used.lower(), word.lower()
    if used_l == word_l or len(used) != len(word) or _folded(used_l) != _folded(word_l):
        return None
    differ = [(i, a, b) for i, (a, b) in enumerate(zip(used, word)) if a.lower() != b.lower()]
    latin_here = [f"{a} ({i + 1}-я)" for i, a, _ in differ if a.isascii()]
    latin_there = [f"{b} ({i + 1}-я)" for i, _, b in differ if b.isascii()]
    where = {"key": p.key, "line": p.span.line, "word": word, "written": used}
    if latin_here:
        return hint("phrase-word-latin", **where, letters=", ".join(latin_here),
                    which="латинская буква" if len(latin_here) == 1 else "латинские буквы")
    if latin_there:
        return hint("phrase-pattern-latin", **where, letters=", ".join(latin_there),
                    which="латинская буква" if len(latin_there) == 1 else "латинские буквы")
    return hint("phrase-word-yo", **where)


def _pattern_of(tokens: list[Token]) -> str | None:
    """The header of a phrase that a use would match, for a use of an abstract operation the
    program does not define (`место k, i свободно` → «место (k), (i) свободно»): a word of prose
    is the phrase's, anything else between two such words or commas an argument (its parameter
    named as the argument when that is a name); None without such a word."""
    parts: list[str] = []
    argument: list[Token] = []
    spare = itertools.chain("xyzuvw", (f"x{i}" for i in itertools.count(1)))
    depth = 0
    for tok in [*tokens, None]:  # None: the end, which closes the last argument
        outside = tok is None or depth == 0 and (_prose_word(tok) or tok.type == "COMMA")
        if outside and argument:
            name = argument[0].value if len(argument) == 1 and argument[0].type == "NAME" else None
            parts.append(f"({name if name and f'({name})' not in parts else next(spare)})")
            argument = []
        if outside:
            parts += [tok.value] if tok is not None else []
            continue
        depth += (tok.type in OPEN) - (tok.type in CLOSE)
        argument.append(tok)
    if not any(p[0] != "(" and p != "," for p in parts):
        return None
    return "«" + " ".join(parts).replace(" ,", ",") + "»"


SMALL_WORDS = {"и", "в", "во", "с", "со", "к", "ко", "на", "из", "до", "по", "от", "за", "не", "о", "об", "у"}


def _prose_word(tok: Token) -> bool:
    """A lower-case word of three letters or more, or a small word of Russian prose (на, и, до)."""
    return tok.type == "NAME" and tok.value.islower() and (len(tok.value) > 2 or tok.value in SMALL_WORDS)


def reads_as_prose(tokens: list[Token]) -> bool:
    """Two words of prose or more: a use of an abstract operation, whose lower-case «и» is its own word."""
    return sum(map(_prose_word, tokens)) >= 2


def _folded(word: str) -> str:
    return fold_lookalikes(word.replace("ё", "е"))


def _ends_fit(elements, tokens: list[Token]) -> bool:
    """A pattern that begins or ends with a word (or a comma) is matched only by a run that
    begins or ends with it: a quick test before the search."""
    first, last = elements[0], elements[-1]
    return (isinstance(first, Slot) or _literal_matches(first, tokens[0])) and \
        (isinstance(last, Slot) or _literal_matches(last, tokens[-1]))


def _literal_matches(element: str, tok: Token) -> bool:
    if element == ",":
        return tok.type == "COMMA"
    return tok.type in WORD_TYPES and tok.value.lower() == element


def _match(elements, tokens, depth, parses) -> list[list[tuple[int, int]]]:
    """The ways (at most two) the pattern's elements cover the tokens: each slot's token range."""
    matcher = _Matcher(elements, tokens, depth, parses)
    matcher.go(0, 0)
    return matcher.results


class _Matcher:
    """A search over the slots' ends. A class, not a function nested in _match: a nested function
    that calls itself is a reference cycle, which keeps the whole resolver alive until the
    garbage collector runs."""

    def __init__(self, elements, tokens, depth, parses):
        self.elements, self.tokens, self.depth, self.parses = elements, tokens, depth, parses
        self.results: list[list[tuple[int, int]]] = []
        self.slices: list[tuple[int, int]] = []

    def go(self, ei: int, ti: int) -> None:
        elements, tokens, depth = self.elements, self.tokens, self.depth
        if len(self.results) > 1:
            return
        if ei == len(elements):
            if ti == len(tokens):
                self.results.append(list(self.slices))
            return
        element = elements[ei]
        if not isinstance(element, Slot):
            if ti < len(tokens) and depth[ti] == depth[0] and _literal_matches(element, tokens[ti]):
                self.go(ei + 1, ti + 1)
            return
        following = elements[ei + 1] if ei + 1 < len(elements) else None
        if following is None:
            ends = [len(tokens)]
        else:
            ends = [j for j in range(ti + 1, len(tokens))
                    if depth[j] == depth[ti] and _literal_matches(following, tokens[j])]
        for end in ends:
            if depth[end] == depth[ti] and self.parses(ti, end):
                self.slices.append((ti, end))
                self.go(ei + 1, end)
                self.slices.pop()


def _case_differences(pattern: Pattern, tokens: list[Token], slices) -> list[tuple[Token, str]]:
    inside = {i for a, b in slices for i in range(a, b)}
    written = iter(pattern.written)
    out = []
    for i, tok in enumerate(tokens):
        if i in inside or tok.type == "COMMA":
            continue
        defined = next(written, tok.value)
        if tok.value != defined:
            out.append((tok, defined))
    return out



# The screen phrases every program knows (docs/language.md § 9). A program's own phrase or
# procedure spelt the same takes precedence.
SCREEN_OPS = {
    "«очистить экран»": "clear",
    "«курсор в строку (строка), столбец (столбец)»": "cursor",
    "«пауза (миллисекунды)»": "pause",
}
SCREEN_PHRASES = PhraseTable()
for _text in SCREEN_OPS:
    SCREEN_PHRASES.add(parse_pattern(_text, None))

# The built-in condition (DIALECT.md, «Built-in functions»): the name the runtime knows it by.
BUILTIN_PHRASE_NAMES = {f"«{INPUT_ENDED}»": INPUT_ENDED}
BUILTIN_PHRASES = PhraseTable()
for _text in BUILTIN_PHRASE_NAMES:
    BUILTIN_PHRASES.add(parse_pattern(_text, None))
