from pseudo.frontend.layout import split_chunks
from pseudo.frontend.parser import lex
from pseudo.frontend.source import Source


def chunks_of(text):
    src = Source(text)
    chunks, errors = split_chunks(lex(src)[0], src)
    return [[t.value for t in c if t.type != "_NL"] for c in chunks], errors


def test_body_ends_at_first_column_one_line_with_blocks_closed():
    text = "HR (k) =\n  ДЛЯ i := 1 ДО 8 ВЫПОЛНЯТЬ\nЕСЛИ k = 8 ТО x := 1\n  КОНЕЦ_ЕСЛИ\nВЕРНУТЬСЯ\nHR(1)\n"
    chunks, errors = chunks_of(text)
    assert not errors
    assert len(chunks) == 2
    assert chunks[0][0] == "HR" and chunks[0][-1] == "ВЕРНУТЬСЯ"
    assert chunks[1] == ["HR", "(", "1", ")"]


def test_headers_are_marked():
    src = Source("f (x, РЕЗ y) =\n  y := x\n«занять (k)» = c[k] := 1\nn = 5\n")
    chunks, _ = split_chunks(lex(src)[0], src)
    assert [c[0].type for c in chunks] == ["DEF_NAME", "PATTERN", "DEF_NAME"]
    assert all(any(t.type == "DEF_EQ" for t in c) for c in chunks)


def test_missing_paren_in_header_is_reported():
    _, errors = chunks_of("HR (k =\n  x := 1\n")
    assert [e.code for e in errors] == ["header-missing-paren"]
    assert (errors[0].span.line, errors[0].span.column) == (1, 7)


def test_a_label_is_followed_by_a_virtual_separator():
    src = Source("С: x := 1")
    chunks, _ = split_chunks(lex(src)[0], src)
    assert [t.type for t in chunks[0]][:2] == ["LABEL", "SEMI"]
