from pseudo.errors import render
from pseudo.frontend.source import Source, Span


def test_caret_sits_under_the_character_on_a_cyrillic_line():
    src = Source("ЕСЛИ место k, i свободно ТО", "f.pseudo")
    text = render("error", "пример", Span(src, 1, 6, 1, 11), "совет")
    lines = text.splitlines()
    assert lines[0] == "f.pseudo:1:6: ошибка: пример"
    bar = lines[1].index("|")
    assert lines[1][bar + 2:] == "ЕСЛИ место k, i свободно ТО"
    assert lines[2][bar + 2:] == "     ^~~~~"
    assert lines[3] == "  подсказка: совет"


def test_tabs_keep_the_caret_aligned():
    src = Source("\tx := y", "f")
    caret = render("error", "e", Span(src, 1, 7, 1, 8)).splitlines()[2]
    assert caret.split("| ", 1)[1] == "\t     ^"
