import time

import pytest

from pseudo.errors import StaticError
from pseudo.frontend.parser import lex
from pseudo.frontend.phrases import SCREEN_PHRASES, PhraseTable, Slot, parse_pattern
from pseudo.frontend.source import Source, Span

SPAN = Span(Source(""), 1, 1, 1, 2)


def tokens(text):
    return [t for t in lex(Source(text))[0] if t.type != "_NL"]


def test_pattern_words_and_slots():
    p = parse_pattern("«место (k), (i) свободно»", SPAN)
    assert p.elements == ("место", Slot("k", False), ",", Slot("i", False), "свободно")
    assert p.shape == "«место …, … свободно»"
    ref = parse_pattern("«придать (РЕЗ x)»", SPAN)
    assert ref.slots == [Slot("x", True)]


def test_bad_patterns():
    for text in ("«(a) (b)»", "«(a)»", "«x + y»"):
        with pytest.raises(StaticError):
            parse_pattern(text, SPAN)


def test_matching_takes_expressions_between_words():
    table = PhraseTable()
    table.add(parse_pattern("«место (k), (i) свободно»", SPAN))
    toks = tokens("место k + 1, c[k, 2] свободно")
    matches = table.match(toks, lambda i, j: True)
    assert len(matches) == 1
    assert [[t.value for t in toks[a:b]] for a, b in matches[0].slices] == [["k", "+", "1"], ["c", "[", "k", ",", "2", "]"]]


def test_resolution_stays_fast_with_hundreds_of_phrases():
    table = PhraseTable()
    for i in range(500):
        table.add(parse_pattern(f"«сделать шаг{i} с (x) и (y)»", SPAN))
    toks = tokens("сделать шаг377 с 1 и 2")
    start = time.perf_counter()
    for _ in range(200):
        matches = table.match(toks, lambda i, j: True)
    elapsed = time.perf_counter() - start
    assert len(matches) == 1 and matches[0].pattern.words[1] == "шаг377"
    assert elapsed < 1.0  # 200 resolutions among 500 phrases


def test_nearest_phrases_for_a_typo():
    table = PhraseTable()
    for text in ("«занять (k), (i)»", "«освободить (k), (i)»", "«выписать решение»"):
        table.add(parse_pattern(text, SPAN))
    assert table.nearest(tokens("занят 1, 2"))[0] == "«занять (k), (i)»"


def test_builtin_phrases_are_offered_only_for_a_word_that_begins_alike():
    empty = PhraseTable()
    assert empty.nearest(tokens("занят 1"), also=SCREEN_PHRASES) == []
    assert empty.nearest(tokens("пауса 5"), also=SCREEN_PHRASES) == ["«пауза (миллисекунды)»"]
    assert empty.nearest(tokens("курсор 1, 2"), also=SCREEN_PHRASES)[0].startswith("«курсор в строку")
