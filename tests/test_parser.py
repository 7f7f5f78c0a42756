"""Syntax errors: each names the place and, where the cause is clear, gives the hint that fits
it — and no hint that does not."""
import pytest
from conftest import PROGRAMS, ROOT

import pseudo
from pseudo.errors import StaticError
from pseudo.frontend.source import Source
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
])
def test_the_hint_fits_the_mistake(text, line, column, code):
    d = first_error(text)
    assert d.hint is not None and d.hint.startswith(starts(code)), d.render()
    if code != "keyword-typo":  # reported where the text ends, not at the misspelt word
        assert (d.span.line, d.span.column) == (line, column), d.render()


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
