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


def _hints(text: str) -> list[tuple[str, str]]:
    import pseudo
    from pseudo.errors import StaticError
    try:
        pseudo.load(Source(text, "h.pseudo"))
    except StaticError as e:
        return [(d.text, d.hint or "") for d in e.diagnostics]
    return []


def test_a_call_of_a_variable_says_so_and_never_offers_the_same_name():
    """`ЦЕЛ := 5` then `ЦЕЛ(7/2)`: the hint said «может быть, ЦЕЛ?». A hint never offers the
    name written; a call of the program's variable or array says what the name is."""
    [(text, tip)] = _hints("ЦЕЛ := 5\nСООБЩИТЬ ЦЕЛ(7/2)\n")
    assert "скрывает встроенную функцию ЦЕЛ" in text and "может быть" not in tip
    [(_, tip)] = _hints("м[1] := 2\nСООБЩИТЬ м(1)\n")
    assert "м[…]" in tip
    [(_, tip)] = _hints("f (x) = x(1)\nСООБЩИТЬ f(2)\n")
    assert "x — переменная" in tip
    [(_, tip)] = _hints("длина_пути (x) = x\nСООБЩИТЬ длина_пут(1)\n")
    assert tip == "может быть, длина_пути?"
    for text in ("ДЛИНА := 1\nСООБЩИТЬ ДЛИНА('а')\n", "СЛУЧАЙНОЕ := 1\nСЛУЧАЙНОЕ(3)\n", "x := у\nСООБЩИТЬ x\n"):
        for message, tip in _hints(text):
            name = message.split()[-1]
            assert f"может быть, {name}?" not in tip, (text, tip)
