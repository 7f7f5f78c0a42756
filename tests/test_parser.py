"""Syntax errors: each names the place and, where the cause is clear, gives the hint that fits
it — and no hint that does not."""
from unittest import mock

import pytest
from conftest import LONG, PROGRAMS, ROOT
from hypothesis import given, settings
from hypothesis import strategies as st

import pseudo
from pseudo import nodes
from pseudo.errors import StaticError
from pseudo.execute import deep_call
from pseudo.frontend import bodies, parser, resolver
from pseudo.frontend.lark_standalone import (
    ParseConf,
    ParserState,
    ParseTreeBuilder,
    Token,
    Tree,
    UnexpectedToken,
)
from pseudo.frontend.layout import split_chunks
from pseudo.frontend.raw import RawDef, RawUse, Run
from pseudo.frontend.source import Source, Span
from pseudo.messages import HINTS


def first_error(text: str):
    with pytest.raises(StaticError) as caught:
        pseudo.load(Source(text, "t.pseudo"))
    return caught.value.diagnostics[0]


def starts(code: str) -> str:
    return HINTS[code].split("{")[0]


@pytest.mark.parametrize("text,line,column,code", [
    ("ЕСЛИ 1 = 1\n  СООБЩИТЬ 'a'\nКОНЕЦ_ЕСЛИ\n", 2, 3, "missing-then"),
    ("ПОКА ЛОЖЬ\n  СООБЩИТЬ 'a'\nВЕРНУТЬСЯ\n", 2, 3, "missing-do"),
    ("СООБЩИТЬ 'a', КОНЕЦ_РАБОТЫ\n", 1, 15, "print-comma"),
    ("ЕСЛИ 1 = 1 ТО\n  СООБЩИТЬ 'a', КОНЕЦ_РАБОТЫ\nКОНЕЦ_ЕСЛИ\n", 2, 17, "print-comma"),
    ("СООБЩИТЬ 1 < 2 < 3\n", 1, 16, "compare-chain"),
    ("СООБЩИТЬ 1, x := 2\n", 1, 15, "print-comma"),
    ("СООБЩИТЬ 1\nКОНЕЦ_ЕСЛИ\n", 2, 1, "extra-end-if"),
    ("СООБЩИТЬ 1 5\n", 1, 12, "two-numbers"),
    ("y := 2)\n", 1, 7, "unpaired-close"),
    ("ЕСЛИ a > 1 И И b ТО СООБЩИТЬ 1 КОНЕЦ_ЕСЛИ\n", 1, 14, "two-operators"),
    ("x := 1 + * 2\n", 1, 10, "two-operators"),
    ("x := 1 +\n", 1, 8, "operand-missing"),
    ("x := ()\n", 1, 6, "empty-parens"),
    ("x := 1\nДЛИНА(x)\n", 2, 1, "builtin-as-statement"),
    ("x := 1 5\n", 1, 8, "two-numbers"),
    ("ЕСЛИ 1 = 1 ТО СООБЩИТЬ 1 КОНЕЦ_ЕСИЛ\n", 1, 1, "keyword-typo"),
    ("ДЛЯ i := 1 ДО 2 ВЫПОЛНЯТЬ\n  СООБЩИТЬ i\n«фраза (x)» = x + 1\n", 3, 1, "missing-loop-end"),
    ("ЕСЛИ 1 = 1 TO\n  СООБЩИТЬ 1\nКОНЕЦ_ЕСЛИ\n", 2, 3, "keyword-latin"),
    # what a pupil who knows another language types
    ("x := 1\nЕСЛИ x != 1 ТО СООБЩИТЬ 1 КОНЕЦ_ЕСЛИ\n", 2, 8, "sign-of-another-language"),
    ("x := 5 % 2\n", 1, 8, "sign-of-another-language"),
    ("x := ИСТИНА && ЛОЖЬ\n", 1, 13, "sign-of-another-language"),
    ("x := ИСТИНА || ЛОЖЬ\n", 1, 13, "sign-of-another-language"),
    ("x := !ЛОЖЬ\n", 1, 6, "sign-of-another-language"),
    ("x := 1 # единица\n", 1, 8, "comment-braces"),
    ("__init__ := 1\n", 1, 1, "name-underscore"),
    ("x := 1,5\n", 1, 7, "decimal-comma"),
    ("ПРОЧЕСТЬ n, 5\n", 1, 13, "read-target"),
    ("x := 1\nСООБЩИТЬ x\u200b\n", 2, 11, "invisible-char"),
    ("x := 1\x00\n", 1, 7, "invisible-char"),
    # a string indexed as an array
    ("s := 'abc'\nСООБЩИТЬ s[1]\n", 2, 10, "string-as-array"),
    ("ПРОЧЕСТЬ СТРОКУ w\nДЛЯ i := 1 ДО ДЛИНА(w) ВЫПОЛНЯТЬ СООБЩИТЬ w[i] ВЕРНУТЬСЯ\n", 2, 43, "string-as-array"),
    ("x := 1\nСООБЩИТЬ x[1]\n", 2, 10, "scalar-and-array"),
    # typed with the Latin keyboard layout
    ("GHJXTCNM n\n", 1, 1, "keyword-layout"),
    ("CJJ<OBNM 1\n", 1, 1, "keyword-layout"),
    ("n := 3\nLKZ i := 1 ДО n ВЫПОЛНЯТЬ СООБЩИТЬ i ВЕРНУТЬСЯ\n", 2, 12, "keyword-layout"),
    ("ЕСЛИ 1 > 0 NJ СООБЩИТЬ 1 КОНЕЦ_ЕСЛИ\n", 1, 15, "keyword-layout"),
    # a keyword taken for a name: a step, a remainder
    ("ШАГ := 2\n", 1, 1, "keyword-as-name"),
    ("ОСТ := 17 ОСТ 5\n", 1, 1, "keyword-as-name"),
    ("ПРОЧЕСТЬ ДО\n", 1, 10, "keyword-as-name"),
    ("x := 1\nСООБЩИТЬ x, ШАГ\n", 2, 13, "keyword-as-name"),
    ("ДЛЯ ШАГ := 1 ДО 3 ВЫПОЛНЯТЬ СООБЩИТЬ 1 ВЕРНУТЬСЯ\n", 1, 5, "keyword-as-name"),
])
def test_the_hint_fits_the_mistake(text, line, column, code):
    d = first_error(text)
    assert d.hint is not None and d.hint.startswith(starts(code)), d.render()
    if code != "keyword-typo":  # reported where the text ends, not at the misspelt word
        assert (d.span.line, d.span.column) == (line, column), d.render()


def test_the_signs_of_other_languages_are_named_with_their_words():
    said = {text: first_error(text).hint for text in ("x := 1 != 2\n", "x := 1 && 2\n", "x := 5 % 2\n", "_x := 1\n",
                                                      "x := 1,25\n", "x := 0,5\n")}
    assert list(said.values()) == ["в языке книги «!=» пишется ≠ (или <>)", "в языке книги «&&» пишется И",
                                   "в языке книги «%» пишется ОСТ", "имя начинается с буквы: x",
                                   "дробное число пишется через «/»: 1,25 — это 5/4; запятая разделяет значения",
                                   "дробное число пишется через «/»: 0,5 — это 1/2; запятая разделяет значения"]
    assert first_error("ПРОЧЕСТЬ 5\n").text == "ПРОЧЕСТЬ кладёт прочитанное в переменную или элемент массива, а здесь значение"
    assert not (first_error("x := 1, 5\n").hint or "").startswith("дробное")  # spaced: a list, not a fraction


def test_no_then_hint_when_then_is_there():
    d = first_error("ЕСЛИ 1 = 1 ТО\n  СООБЩИТЬ 'a', КОНЕЦ_РАБОТЫ\nКОНЕЦ_ЕСЛИ\n")
    assert "ТО" not in (d.hint or "").split("СООБЩИТЬ")[0]
    assert not d.hint.startswith(starts("missing-then"))


def test_an_unclosed_loop_before_a_phrase_is_named_with_its_line():
    d = first_error("ДЛЯ i := 1 ДО 2 ВЫПОЛНЯТЬ\n  СООБЩИТЬ i\n«фраза (x)» = x + 1\n")
    assert d.text == "неожиданный образец фразы «фраза (x)»"
    assert d.hint == "не закрыт цикл ДЛЯ со строки 1: добавьте ВЕРНУТЬСЯ"


def test_a_keyword_typo_elsewhere_says_on_which_line():
    d = first_error("ЕСЛИ 1 = 1 TO\n  СООБЩИТЬ 1\nКОНЕЦ_ЕСЛИ\n")
    assert d.hint == "«TO» (строка 1) набрано латинскими буквами; ключевое слово ТО пишется кириллицей"


def test_the_standalone_parser_was_written_from_this_grammar():
    """pseudo/frontend/lark_standalone.py holds the tables of grammar/pseudo.lark: after a change
    of the grammar, run scripts/build_parser.py."""
    import hashlib
    import re
    head = (ROOT / "pseudo" / "frontend" / "lark_standalone.py").read_text(encoding="utf-8")[:1000]
    written = re.search(r"# grammar sha256: ([0-9a-f]{64})", head)
    assert written, "the standalone parser names the grammar it was written from"
    grammar = (ROOT / "grammar" / "pseudo.lark").read_bytes()
    assert written.group(1) == hashlib.sha256(grammar).hexdigest(), "run python3 scripts/build_parser.py"


def test_the_standalone_parser_reads_like_lark():
    """The same tokens and tree as Lark itself builds from the grammar."""
    from lark import Lark

    from pseudo.frontend.parser import grammar_text, lark_parser
    lark = Lark(grammar_text(), parser="lalr", lexer="basic", start=["chunk", "expr"],
                propagate_positions=True, maybe_placeholders=False)
    for path in sorted(PROGRAMS.glob("*.pseudo")):
        text = path.read_text(encoding="utf-8")
        ours = [(t.type, t.value, t.line, t.column) for t in lark_parser().lex(text, dont_ignore=True)]
        theirs = [(t.type, t.value, t.line, t.column) for t in lark.lex(text, dont_ignore=True)]
        assert ours == theirs, path.name
    for text in ["1 + 2 * (3 - x[1, 2]) ^ 2", "НЕ a И b ИЛИ c <= 3", "f(1, 2)"]:
        assert lark_parser().parse(text, start="expr") == lark.parse(text, start="expr")


# ---- the parser drives Lark's table as Lark's own parser does ----

def _dump(x):
    """Everything a reading holds, as plain tuples: classes, spans, the tokens' every attribute."""
    if isinstance(x, Token):
        return ("token", x.type, x.value, x.start_pos, x.line, x.column, x.end_line, x.end_column, x.end_pos)
    if isinstance(x, Span):
        return ("span", x.line, x.column, x.end_line, x.end_column)
    if isinstance(x, nodes.Node):
        return (type(x).__name__, _dump(x.span), *(_dump(getattr(x, f)) for f in x.fields))
    if isinstance(x, Run | RawDef | RawUse):
        return (type(x).__name__, *(_dump(v) for v in vars(x).values()))
    if isinstance(x, list | tuple):
        return (type(x).__name__, *(_dump(v) for v in x))
    return (type(x).__name__, x)  # 1 and ИСТИНА are equal in Python, not here


def _reading(tokens, source: Source, feed):
    parser._BUILDER.begin(source, tokens)
    try:
        return _dump(feed())
    except StaticError as e:
        return "error", [d.render() for d in e.diagnostics]
    finally:
        parser._BUILDER.end()


def _ours(tokens, start: str, source: Source):
    try:
        return _reading(tokens, source, lambda: parser._TABLE.parse(tokens, start))
    except parser._Refused as e:
        return "refused", _dump(e.token), sorted(e.expected)


def _larks(tokens, start: str, source: Source):
    """Lark's own loop (ParserState.feed_token) over the same table and the same callbacks."""
    lark = parser.lark_parser()
    callbacks = ParseTreeBuilder(lark.rules, Tree).create_callback(parser._BUILDER)
    state = ParserState(ParseConf(lark.parser.parser._parse_table, callbacks, start), None)

    def feed():
        for tok in tokens:
            state.feed_token(tok)
        return state.feed_token(Token.new_borrow_pos("$END", "", tokens[-1]), True)
    try:
        return _reading(tokens, source, feed)
    except UnexpectedToken as e:
        return "refused", _dump(e.token), sorted(e.expected)


def _assert_driven_alike(source: Source) -> int:
    """Every chunk of the file and every slice the resolver reads as an expression; how many
    of them were read."""
    try:
        tokens, _ = parser.lex(source)
    except StaticError:
        return 0
    pieces = [(chunk, "chunk") for chunk in split_chunks(tokens, source)[0]]
    real = parser.read_expression

    def spy(toks, src):
        pieces.append((toks, "expr"))
        return real(toks, src)
    with mock.patch.object(bodies, "read_expression", spy):
        try:
            deep_call(lambda: resolver.resolve_program(source))  # as pseudo loads a file
        except StaticError:
            pass
    read = 0
    for toks, start in pieces:
        if toks:
            ours = _ours(toks, start, source)
            assert ours == _larks(toks, start, source), source.text[toks[0].start_pos:toks[-1].end_pos]
            read += ours[0] not in ("refused", "error")
    return read


FILES = sorted(p for folder in (ROOT / "programs", ROOT / "tests") for p in folder.rglob("*.pseudo"))


def test_every_program_is_parsed_as_larks_parser_would():
    for path in FILES:
        source = Source.from_file(path)
        assert _assert_driven_alike(source) > 0 or "{ ошибка " in source.text, path  # a static error may read nothing


WORDS = ["x", "f", "РЕЗУЛЬТАТ", "1", "'s'", "ИСТИНА", "(", ")", "[", "]", ",", "+", "-", "*", "ДЕЛ", "^", "=", "<",
         "≥", "И", "ИЛИ", "НЕ", "ЕСЛИ", "ТО", "ИНАЧЕ", "КОНЕЦ_ЕСЛИ", ":=", "\n", ";", "f(", "x[", "РЕЗ", "С:",
         "ПОКА", "ДЛЯ", "ДО", "ШАГ", "ВЫПОЛНЯТЬ", "ВЕРНУТЬСЯ", "СООБЩИТЬ", "ПРОЧЕСТЬ", "КОНЧЕНО", "\nп (a) =",
         "\n«ф (a)» =", "ПЕРЕЙТИ К С", "КОНЕЦ_РАБОТЫ", "ИСПОЛЬЗОВАТЬ 'a'"]


@settings(max_examples=1000 if LONG else 150, deadline=None, derandomize=not LONG)
@given(st.lists(st.sampled_from(WORDS), min_size=1, max_size=24))
def test_token_soups_are_parsed_as_larks_parser_would(words):
    _assert_driven_alike(Source(" ".join(words)))
