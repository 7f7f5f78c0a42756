"""The fast path of the parser (frontend/lexer.py, frontend/fast_parser.py) against the
grammar's own parser (Lark's, frontend/grammar_parser.py): the same tokens on any text; for
every chunk and every expression, the same raw tree — nodes, spans, tokens, the names of the
rules used — or a refusal where Lark reports an error.

Inputs: every program of the repository and every fuzz case, with every slice of tokens the
resolver tries as an expression; random expressions, conditions and programs from the
generators of test_agreement.py, test_properties.py and fuzz.py (mutations of the programs,
token soups, grammar-shaped and deeply nested programs); token soups of expression words; and
random text for the lexer. The default profile runs a hundred or a few hundred examples of each
property (25 generated programs); `PSEUDO_LONG=1` runs 5,000 to 50,000.
"""
from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from contextlib import contextmanager
from pathlib import Path
from unittest import mock

import fuzz
import pytest
import test_agreement
import test_properties
from conftest import LONG, ROOT
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pseudo import nodes as n
from pseudo.errors import StaticError
from pseudo.execute import deep_call
from pseudo.frontend import grammar_parser, parser, resolver
from pseudo.frontend.fast_parser import parse_chunk, parse_expr
from pseudo.frontend.lark_standalone import Token as LarkToken
from pseudo.frontend.lark_standalone import UnexpectedCharacters, VisitError
from pseudo.frontend.layout import split_chunks
from pseudo.frontend.lexer import Token, scan
from pseudo.frontend.raw import RawDef, RawUse, Run
from pseudo.frontend.source import Source, Span


def examples(default: int, long: int):
    return settings(max_examples=long if LONG else default, deadline=None, derandomize=not LONG,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                           HealthCheck.filter_too_much])


# ---- comparing the two readings ----

def dump(x):
    """Everything a reading holds, as plain tuples: classes, spans, the tokens' every attribute."""
    if isinstance(x, Token | LarkToken):
        return ("token", x.type, x.value, x.start_pos, x.line, x.column, x.end_line, x.end_column, x.end_pos)
    if isinstance(x, Span):
        return ("span", x.line, x.column, x.end_line, x.end_column)
    if isinstance(x, n.Node):
        return (type(x).__name__, dump(x.span), *(dump(getattr(x, f)) for f in x.fields))
    if isinstance(x, Run | RawDef | RawUse):
        return (type(x).__name__, *(dump(v) for v in vars(x).values()))
    if isinstance(x, list | tuple):
        return (type(x).__name__, *(dump(v) for v in x))
    return (type(x).__name__, x)  # 1 and ИСТИНА are equal in Python, not here


def fast_reading(tokens: list[Token], start: str, source: Source):
    result = parse_chunk(tokens, source) if start == "chunk" else parse_expr(tokens, source)
    return None if result is None else (dump(result[0]), sorted(result[1]))


def lark_reading(tokens: list[Token], start: str, source: Source):
    """The grammar's reading, or its error; "crash" where Lark accepts what its tree builder
    cannot build (a condition of line breaks only)."""
    try:
        item, rules = grammar_parser.parse(tokens, start, source)
    except StaticError as e:
        return e
    except VisitError:
        return "crash"
    return dump(item), sorted(rules)


def assert_agree(tokens: list[Token], start: str, source: Source) -> bool:
    """The fast path gives Lark's reading, or refuses what Lark does not read; True if read."""
    if not tokens:
        return False
    mine, theirs = fast_reading(tokens, start, source), lark_reading(tokens, start, source)
    text = source.text[tokens[0].start_pos:tokens[-1].end_pos]
    if mine is None:
        assert not isinstance(theirs, tuple), f"the fast path refused what the grammar reads ({start}): {text!r}"
        return False
    assert not isinstance(theirs, StaticError), f"the fast path read what the grammar refuses ({start}): {text!r}"
    assert mine == theirs, f"two readings of {text!r} ({start})"
    return True


def lark_tokens(text: str):
    try:
        return [dump(t) for t in grammar_parser.lark_parser().lex(text, dont_ignore=True)]
    except UnexpectedCharacters:
        return None


def assert_same_tokens(text: str) -> None:
    mine = scan(text, keep_whitespace=True)
    assert (None if mine is None else [dump(t) for t in mine]) == lark_tokens(text), repr(text)


@contextmanager
def recording_expressions():
    """Every slice of tokens the resolver asks to read as an expression."""
    seen: list[list[Token]] = []
    real = parser.read_expression

    def spy(tokens, source, rules_seen=None):
        seen.append([t for t in tokens if t.type != "_NL"])
        return real(tokens, source, rules_seen)
    with mock.patch.object(resolver, "read_expression", spy):
        yield seen


def assert_file_agrees(text: str, filename: str = "t.pseudo") -> int:
    """The tokens, every chunk and every expression the resolver tries; how many were read."""
    source = Source(text, filename)
    assert_same_tokens(source.text)
    if scan(source.text) is None:
        return 0
    tokens, _ = parser.lex(source)
    chunks, _ = split_chunks(tokens, source)
    read = sum(assert_agree(chunk, "chunk", source) for chunk in chunks)
    with recording_expressions() as slices:
        try:
            resolver.resolve_program(source)
        except (StaticError, RecursionError):
            pass
    return read + sum(assert_agree(s, "expr", source) for s in slices)


# ---- every program of the repository ----

FILES = sorted(p for folder in (ROOT / "programs", ROOT / "tests") for p in folder.rglob("*.pseudo"))
CASES = sorted((ROOT / "tests" / "fuzz_cases").glob("*.json"))


@pytest.mark.parametrize("path", FILES, ids=[str(p.relative_to(ROOT)) for p in FILES])
def test_every_program_reads_the_same_both_ways(path: Path):
    source = Source.from_file(path)
    read = assert_file_agrees(source.text, str(path))
    assert read > 0 or path.parent.name == "errors"


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_every_fuzz_case_reads_the_same_both_ways(path: Path):
    assert_file_agrees(json.loads(path.read_text(encoding="utf-8"))["text"])


def test_valid_programs_do_not_import_lark():
    """Lark's tables are for errors: loading every program of the repository (whose resolver
    tries and drops many slices that are not expressions) never imports them."""
    programs = [str(p) for p in sorted((ROOT / "programs").glob("*.pseudo"))]
    code = ("import sys, pseudo\nfrom pseudo.frontend.source import Source\n"
            "for p in sys.argv[1:]: pseudo.load(Source.from_file(p))\n"
            "assert 'pseudo.frontend.lark_standalone' not in sys.modules\n"
            "pseudo.load(Source('x := 1 +\\n'))\n")
    result = subprocess.run([sys.executable, "-c", code, *programs], capture_output=True, text=True,
                            env=dict(os.environ, PYTHONPATH=str(ROOT)), check=False)
    assert "AssertionError" not in result.stderr, result.stderr
    assert "StaticError" in result.stderr, "an error still goes to the grammar's parser"


def test_a_slice_that_is_not_an_expression_costs_nothing_until_read():
    source = Source("x := (1 + ) * 2\n")
    tokens = [t for t in parser.lex(source)[0] if t.type != "_NL"][2:]
    with mock.patch.object(grammar_parser, "parse", side_effect=AssertionError("Lark was asked")), \
            pytest.raises(StaticError) as caught:
        parser.parse_expression(tokens, source)
    late = caught.value
    assert late.diagnostics == lark_reading(tokens, "expr", source).diagnostics
    assert late.first.render().startswith("<строка>:1:11: ошибка: неожиданное «)»")


# ---- random text, expressions and programs ----

CHARS = st.sampled_from(list("абвгкорсхАВЕКМНОРСТХЯakcxyzABC_019٣²½ \t\r\n\x0c\xa0\x00{}'\"«»()[],;:=<>≤≥≠+-−–*/^.!?@"))
PIECES = st.sampled_from(["ЕСЛИ", "ТО", "ИНАЧЕ", "КОНЕЦ_ЕСЛИ", "КОНЕЦ  ЕСЛИ", "КОНЕЦ_ЕСЛИx", "КОНЕЦ_РАБОТЫ",
                          "ПЕРЕЙТИ К", "ПЕРЕЙТИ\tК:", "С:", "С :=", "x:y", "РЕЗ", "РЕЗУЛЬТАТ", "И", "ИЛИ", "НЕ",
                          ":=", "<=", "<>", ">=", "\r\n", "\x00DEF_NAME", "\x00DEF_EQ", "{ a\nb }", "«фр\nаза (x)»",
                          "'s'", '"т"', "12", "ВЫПОЛНЯТЬ", "ВЕРНУТЬСЯ"])


@examples(300, 20_000)
@given(st.lists(st.one_of(CHARS, PIECES), max_size=40))
def test_the_lexer_gives_larks_tokens_on_any_text(pieces):
    assert_same_tokens("".join(pieces))


def expr_tokens(text: str) -> tuple[list[Token], Source]:
    source = Source(text)
    tokens = scan(source.text)
    return [t for t in tokens or [] if t.type != "_NL"], source


@examples(150, 20_000)
@given(test_properties.trees(), st.data())
def test_expressions_with_the_parentheses_precedence_needs(tree, data):
    tokens, source = expr_tokens(test_properties.render(tree, 0, data))
    assert assert_agree(tokens, "expr", source)


@examples(150, 20_000)
@given(st.one_of(test_agreement.int_expr(), test_agreement.cond()))
def test_expressions_and_conditions_of_the_agreement_tests(text):
    tokens, source = expr_tokens(text)
    assert_agree(tokens, "expr", source)


EXPR_WORDS = ["x", "f", "РЕЗУЛЬТАТ", "1", "'s'", "ИСТИНА", "ЛОЖЬ", "(", ")", "[", "]", ",", "+", "-", "*", "/",
              "ДЕЛ", "ОСТ", "^", "=", "<", "≥", "<>", "И", "ИЛИ", "НЕ", "ЕСЛИ", "ТО", "ИНАЧЕ", "КОНЕЦ_ЕСЛИ",
              ":=", "\n", "f(", "x[", "РЕЗ", "С:"]


@examples(300, 50_000)
@given(st.lists(st.sampled_from(EXPR_WORDS), min_size=1, max_size=14))
def test_token_soups_as_expressions(words):
    tokens, source = expr_tokens(" ".join(words))
    assert_agree(tokens, "expr", source)


@examples(25, 5_000)
@given(test_agreement.programs())
def test_programs_of_the_agreement_tests(text):
    assert assert_file_agrees(text) > 0


@examples(120, 20_000)
@given(st.integers(0, 2**32 - 1), st.sampled_from(["mutate", "soup", "shaped", "deep"]))
def test_programs_of_the_fuzz_harness(seed, kind):
    rng = random.Random(seed)
    if kind == "mutate":
        text = fuzz.mutate(rng.choice(CORPUS), rng)
    else:
        text = {"soup": fuzz.token_soup, "shaped": fuzz.shaped, "deep": fuzz.deep}[kind](rng)
    deep_call(lambda: assert_file_agrees(text))  # nested a hundred deep: as pseudo reads it


CORPUS = fuzz.corpus()
