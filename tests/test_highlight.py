"""Highlighting: the pure-Python tokens agree with the grammar's lexer on every program, cover any
text, and the Pygments lexer built from the same rules is found by name and by file name."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from conftest import PROGRAMS, ROOT
from hypothesis import given
from hypothesis import strategies as st

from pseudo.frontend.lark_standalone import UnexpectedInput
from pseudo.frontend.layout import split_chunks
from pseudo.frontend.parser import lark_parser
from pseudo.frontend.source import Source
from pseudo.messages import KEYWORDS as MESSAGE_KEYWORDS
from pseudo.tools import highlight
from pseudo.tools.highlight import BUILTINS, CONSTANTS, KEYWORDS, KINDS, TOKEN_RULES, to_html, tokens

FILES = sorted(PROGRAMS.glob("**/*.pseudo")) + sorted((ROOT / "tests" / "golden").glob("**/*.pseudo"))
IDS = [str(p.relative_to(ROOT)) for p in FILES]

# the grammar's terminals, by the kind they are highlighted as
KIND_OF_TERMINAL = {
    "LABEL": {"label"}, "NAME": {"name", "definition", "builtin"}, "NUMBER": {"number"}, "STRING": {"string"},
    "PATTERN": {"phrase"}, "TRUE": {"constant"}, "FALSE": {"constant"},
    **{t: {"keyword"} for t in ("IF", "THEN", "ELSE", "END_IF", "WHILE", "FOR", "STEP", "TO", "DO", "LOOP_END",
                                "EXIT", "PRINT", "READ", "STOP", "USE", "GOTO", "AND", "OR", "NOT", "DIV", "MOD",
                                "RESULT", "REZ")},
    **{t: {"operator"} for t in ("ASSIGN", "NE", "LE", "GE", "EQ", "LT", "GT", "PLUS", "MINUS", "STAR", "SLASH",
                                 "CARET")},
    **{t: {"punctuation"} for t in ("COMMA", "SEMI", "LPAR", "RPAR", "LSQB", "RSQB")},
}


def placed(text: str) -> list[tuple[int, str, str]]:
    """(offset, kind, piece) of every token that is neither whitespace nor a comment."""
    out, pos = [], 0
    for kind, piece in tokens(text):
        if kind not in ("whitespace", "comment"):
            out.append((pos, kind, piece))
        pos += len(piece)
    return out


def test_the_files_exist():
    assert len(FILES) > 50


@pytest.mark.parametrize("path", FILES, ids=IDS)
def test_tokens_agree_with_the_grammar(path: Path):
    text = path.read_text(encoding="utf-8")
    assert "".join(piece for _, piece in tokens(text)) == text
    grammar, failed = [], False
    try:
        for tok in lark_parser().lex(text):
            if tok.type != "_NL":
                grammar.append(tok)
    except UnexpectedInput:  # a golden file about a lexical error: the part before it agrees
        failed = True
    ours = placed(text)
    if not failed:
        assert len(ours) == len(grammar)
    for (pos, kind, piece), tok in zip(ours, grammar):
        assert (pos, piece) == (tok.start_pos, tok.value), f"{path.name}:{tok.line}:{tok.column}"
        assert kind in KIND_OF_TERMINAL[tok.type], f"{path.name}:{tok.line}:{tok.column}: {piece!r} is {kind}"


@pytest.mark.parametrize("path", [p for p in FILES if "{ ошибка " not in p.read_text(encoding="utf-8")],
                         ids=lambda p: str(p.relative_to(ROOT)))
def test_definitions_are_the_layouts_headers(path: Path):
    """A "definition" is where the layout pass finds a header (`NAME (…) =`, `NAME =`)."""
    text = path.read_text(encoding="utf-8")
    chunks, _ = split_chunks(list(lark_parser().lex(text)), Source(text, str(path)))
    headers = {t.start_pos for chunk in chunks for t in chunk if t.type == "DEF_NAME"}
    assert {pos for pos, kind, _ in placed(text) if kind == "definition"} == headers


def test_the_keywords_are_the_grammars():
    words = {t.pattern.value for t in lark_parser().terminals
             if t.pattern.type == "str" and t.pattern.value.isalpha() and t.pattern.value.isupper()}
    assert words == set(KEYWORDS) | set(CONSTANTS)
    assert set(KEYWORDS) | set(CONSTANTS) | {"КОНЕЦ_ЕСЛИ", "КОНЕЦ_РАБОТЫ"} == MESSAGE_KEYWORDS


def test_the_builtins_are_the_runtimes():
    """Every built-in function of the runtime that a program calls by one word is highlighted
    (ВИД was missing), and the analysis knows the kind of each one's result."""
    from pseudo.analysis.kinds import BUILTIN_KINDS
    from pseudo.runtime.library import BUILTINS as RUNTIME_BUILTINS
    words = {name for name in RUNTIME_BUILTINS if " " not in name}  # «ввод кончился» is a phrase
    assert set(BUILTINS) == words
    assert set(BUILTIN_KINDS) | {"АБС", "МИН", "МАКС"} == set(RUNTIME_BUILTINS)  # these three: their arguments' kind
    assert ("builtin", "ВИД") in tokens("x := ВИД(1)")


@pytest.mark.parametrize(("text", "expected"), [
    ("ЕСЛИ x ТО y КОНЕЦ_ЕСЛИ", [("keyword", "ЕСЛИ"), ("name", "x"), ("keyword", "ТО"), ("name", "y"),
                                ("keyword", "КОНЕЦ_ЕСЛИ")]),
    ("КОНЕЦ ЕСЛИ; КОНЕЦ  РАБОТЫ", [("keyword", "КОНЕЦ ЕСЛИ"), ("punctuation", ";"),
                                   ("keyword", "КОНЕЦ  РАБОТЫ")]),
    ("ПЕРЕЙТИ К СБ", [("keyword", "ПЕРЕЙТИ К"), ("name", "СБ")]),
    ("СОК: k := k − 1", [("label", "СОК:"), ("name", "k"), ("operator", ":="), ("name", "k"), ("operator", "−"),
                         ("number", "1")]),
    ("ДОСКА ИЛИ ТОЧКА И НЕ ИСТИНА", [("name", "ДОСКА"), ("keyword", "ИЛИ"), ("name", "ТОЧКА"), ("keyword", "И"),
                                     ("keyword", "НЕ"), ("constant", "ИСТИНА")]),
    ("если x", [("name", "если"), ("name", "x")]),
    ("a ≠ b ≤ c ≥ d <> e <= f >= g – h", [
        ("name", "a"), ("operator", "≠"), ("name", "b"), ("operator", "≤"), ("name", "c"), ("operator", "≥"),
        ("name", "d"), ("operator", "<>"), ("name", "e"), ("operator", "<="), ("name", "f"), ("operator", ">="),
        ("name", "g"), ("operator", "–"), ("name", "h")]),
    ("«место (k), (i) свободно» = кол[i]", [("phrase", "«место (k), (i) свободно»"), ("operator", "="),
                                            ("name", "кол"), ("punctuation", "["), ("name", "i"),
                                            ("punctuation", "]")]),
    ("HR (k) =\n  HR(k + 1)", [("definition", "HR"), ("punctuation", "("), ("name", "k"), ("punctuation", ")"),
                               ("operator", "="), ("name", "HR"), ("punctuation", "("), ("name", "k"),
                               ("operator", "+"), ("number", "1"), ("punctuation", ")")]),
    ("обменять (РЕЗ x, РЕЗ y) =", [("definition", "обменять"), ("punctuation", "("), ("keyword", "РЕЗ"),
                                   ("name", "x"), ("punctuation", ","), ("keyword", "РЕЗ"), ("name", "y"),
                                   ("punctuation", ")"), ("operator", "=")]),
    ("HR (1)", [("name", "HR"), ("punctuation", "("), ("number", "1"), ("punctuation", ")")]),
    ("СООБЩИТЬ 'да', \"нет\", ДЛИНА(s)", [("keyword", "СООБЩИТЬ"), ("string", "'да'"), ("punctuation", ","),
                                          ("string", '"нет"'), ("punctuation", ","), ("builtin", "ДЛИНА"),
                                          ("punctuation", "("), ("name", "s"), ("punctuation", ")")]),
    ("x := 1 { один\nдва } y", [("name", "x"), ("operator", ":="), ("number", "1"), ("comment", "{ один\nдва }"),
                                ("name", "y")]),
])
def test_tokens(text, expected):
    assert [t for t in tokens(text) if t[0] != "whitespace"] == expected


@pytest.mark.parametrize(("text", "kinds"), [
    ("{ не закрыт\nи дальше", ["comment"]),
    ("'не закрыта\nx", ["string", "whitespace", "name"]),
    ("«не закрыт\nx", ["phrase", "whitespace", "name"]),
    ("x @ # _y", ["name", "whitespace", "text", "whitespace", "text", "whitespace", "text", "name"]),
    ("", []),
])
def test_anything_is_cut_without_failing(text, kinds):
    assert [k for k, _ in tokens(text)] == kinds
    assert "".join(p for _, p in tokens(text)) == text


@given(st.text())
def test_any_text_is_covered(text):
    pieces = tokens(text)
    assert "".join(p for _, p in pieces) == text
    assert all(kind in KINDS and piece for kind, piece in pieces)


def test_every_rule_has_a_known_kind():
    assert {kind for _, kind in TOKEN_RULES} == set(KINDS)
    assert set(highlight.PYGMENTS_TOKENS) == set(KINDS)


def test_html():
    assert to_html("ЕСЛИ a < 'b&c' ТО") == ('<span class="hl-keyword">ЕСЛИ</span> <span class="hl-name">a</span> '
                                          '<span class="hl-operator">&lt;</span> '
                                          '<span class="hl-string">\'b&amp;c\'</span> '
                                          '<span class="hl-keyword">ТО</span>')


# ---- Pygments ----

pygments = pytest.importorskip("pygments", reason="Pygments is not installed (pip install '.[test]')")


def test_every_kind_has_a_standard_pygments_type():
    from pygments.token import STANDARD_TYPES
    for kind, name in highlight.PYGMENTS_TOKENS.items():
        assert pygments.token.string_to_tokentype(name) in STANDARD_TYPES, kind


def test_pygments_finds_the_lexer_by_its_entry_point():
    from pygments.lexers import find_lexer_class_for_filename, get_lexer_by_name
    assert get_lexer_by_name("pseudo").__class__ is highlight.PseudoLexer
    assert find_lexer_class_for_filename("ферзи.pseudo") is highlight.PseudoLexer


@pytest.mark.parametrize("path", FILES, ids=IDS)
def test_pygments_has_no_error_token(path: Path):
    from pygments.token import Error
    text = path.read_text(encoding="utf-8")
    lexer = highlight.PseudoLexer(stripnl=False, ensurenl=False)
    found = list(lexer.get_tokens(text))
    assert [v for t, v in found if t in Error] == []
    assert "".join(v for _, v in found) == text


def test_pygmentize_command():
    script = Path(sys.executable).with_name("pygmentize")
    command = [str(script)] if script.exists() else [sys.executable, "-m", "pygments"]
    done = subprocess.run([*command, "-l", "pseudo", "-f", "html", str(PROGRAMS / "queens_recursive.pseudo")],
                          capture_output=True, text=True, encoding="utf-8", check=False)
    assert done.returncode == 0, done.stderr
    assert '<span class="k">КОНЕЦ_ЕСЛИ</span>' in done.stdout
    assert '<span class="nf">«место (k), (i) свободно»</span>' in done.stdout
    assert 'class="err"' not in done.stdout and 'class=" -' not in done.stdout  # no class made up for a type


DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


@pytest.mark.parametrize("path", DOCS, ids=[p.name for p in DOCS])
def test_the_docs_pseudo_blocks_highlight_without_errors(path: Path):
    """Every ```pseudo block of the docs is the language as the lexer reads it: kinds from the
    table, never Pygments' Error (which renderers show in red)."""
    import re

    from pygments.token import Error
    blocks = re.findall(r"```pseudo\n(.*?)```", path.read_text(encoding="utf-8"), re.DOTALL)
    for block in blocks:
        found = list(highlight.PseudoLexer(stripnl=False, ensurenl=False).get_tokens(block))
        assert [v for t, v in found if t in Error] == [], block
    if path.name in ("README.md", "language.md"):
        assert blocks, "the language's examples are marked ```pseudo"
