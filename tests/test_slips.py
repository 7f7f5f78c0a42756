"""A pupil's first-week slips: each is told at its place, and the hint is the fix — or, where
no one fix is sure, says what is known. (The messages are also golden programs in
tests/golden/messages/.)"""
import pytest
from conftest import PROGRAMS

import pseudo
from pseudo.errors import StaticError
from pseudo.frontend.source import Source


def only_error(text: str):
    with pytest.raises(StaticError) as caught:
        pseudo.load(Source(text, "t.pseudo"))
    assert len(caught.value.diagnostics) == 1, caught.value.render()
    return caught.value.diagnostics[0]


NO_THEN = "«место свободно» = ИСТИНА\n«занять место» = СООБЩИТЬ 1\nx := 1\nЕСЛИ место свободно\n  занять место\n"  # ЕСЛИ without ТО, then its body

SLIPS = [
    ("СООБЩИТЬ «Привет»\n", (1, 10), "«Привет» в кавычках-ёлочках — это образец фразы, а не строка",
     "«…» пишутся только в заголовке фразы («…» =); строка пишется в прямых кавычках: 'Привет'"),
    ("x := «да»\n", (1, 6), "«да» в кавычках-ёлочках", "строка пишется в прямых кавычках: 'да'"),
    ("СООБЩИТЬ ‘Привет’\n", (1, 10), "кавычка ‘ — типографская",
     "строку пишите в прямых кавычках: 'Привет' (или \"…\")"),
    ("СООБЩИТЬ 1, “да”\n", (1, 13), "кавычка “ — типографская", "строку пишите в прямых кавычках: 'да'"),
    ("x := 5\nЕСЛИ x := 5 ТО СООБЩИТЬ 1 КОНЕЦ_ЕСЛИ\n", (2, 8), "в условии ЕСЛИ стоит «:=»",
     "сравнение пишется «=»: ЕСЛИ x = 5 ТО"),
    ("x := 1\nПОКА x := 2 ВЫПОЛНЯТЬ x := 2 ВЕРНУТЬСЯ\n", (2, 8), "в условии ПОКА стоит «:=»",
     "сравнение пишется «=»: ПОКА x = 2 ВЫПОЛНЯТЬ"),
    ("s := 5\nСООБЩИТЬ 'Сумма:' s\n", (2, 19), "между 'Сумма:' и s не хватает запятой",
     "значения разделяются запятыми: 'Сумма:', s"),
    ("s := 5\nСООБЩИТЬ s 'руб.'\n", (2, 12), "между s и 'руб.' не хватает запятой",
     "значения разделяются запятыми: s, 'руб.'"),
    (("Ф (n) =\n    ЕСЛИ n = 0 ТО\n        РЕЗУЛЬТАТ := 1\n        ВЕРНУТЬСЯ\n    КОНЕЦ_ЕСЛИ\n"
     "    РЕЗУЛЬТАТ := n * Ф(n - 1)\nСООБЩИТЬ Ф(5)\n"), (4, 9), "неожиданное ВЕРНУТЬСЯ",
     ("ВЕРНУТЬСЯ не выходит из определения: он закрывает цикл ВЫПОЛНЯТЬ … ВЕРНУТЬСЯ; определение кончается "
     "после своей последней строки — то, что не должно выполняться, поставьте в ИНАЧЕ: "
     "ЕСЛИ … ТО … ИНАЧЕ … КОНЕЦ_ЕСЛИ")),
    ("x := 0\nЕСЛИ x = 0 ТО\n    ВЕРНУТЬСЯ\nКОНЕЦ_ЕСЛИ\nСООБЩИТЬ x\n", (3, 5), "неожиданное ВЕРНУТЬСЯ",
     ("ВЕРНУТЬСЯ не выходит из программы: он закрывает цикл ВЫПОЛНЯТЬ … ВЕРНУТЬСЯ; чтобы закончить "
     "программу, пишите КОНЕЦ_РАБОТЫ")),
    ("МАКС := 0\nДЛЯ i := 1 ДО 3 ВЫПОЛНЯТЬ\n    МАКС := МАКС(МАКС, i)\nВЕРНУТЬСЯ\n", (3, 13),
     "МАКС — переменная этой программы: это имя скрывает встроенную функцию МАКС",
     "переименуйте переменную (строка 1: МАКС := 0), и МАКС(…) снова будет встроенной функцией"),
    ("ЦЕЛ := 5\nСООБЩИТЬ ЦЕЛ(7/2)\n", (2, 10), "ЦЕЛ — переменная этой программы",
     "переименуйте переменную (строка 1: ЦЕЛ := 5), и ЦЕЛ(…) снова будет встроенной функцией"),
    ("x := 1\nEСЛИ x = 1 ТО СООБЩИТЬ 1 КОНЕЦ_ЕСЛИ\n", (2, 12), "неожиданное ТО",
     "в «EСЛИ» латинская буква E (1-я); ключевое слово ЕСЛИ пишется целиком кириллицей"),
    ("COОБЩИТЬ 1\n", (1, 1), "не понимаю",
     "в «COОБЩИТЬ» латинские буквы C (1-я), O (2-я); ключевое слово СООБЩИТЬ пишется целиком кириллицей"),
    ("x := 1\nЕСЛИ x = 1 ТО СООБЩИТЬ 1 KОНЕЦ_ЕСЛИ\n", (2, 26), "ЕСЛИ не закрыто",
     "в «KОНЕЦ_ЕСЛИ» латинская буква K (1-я); ключевое слово КОНЕЦ_ЕСЛИ пишется целиком кириллицей"),
    ("КВ (n) = n * n\nx := КВ 5\n", (2, 6), "КВ — функция, вызывается со скобками: КВ(5)",
     "КВ определена в строке 1: КВ (n) ="),
    ("ДЛЯ i := 1 ДО 3 ВЫПОЛНЯТЬ\n    СООБЩИТЬ i\nf (x) = x + 1\nВЕРНУТЬСЯ\n", (3, 1),
     "не может быть инструкцией", ("строка 3 начинается как определение f, но ДЛЯ со строки 1 ещё не закрыто: "
     "определения пишутся вне блоков — поставьте ВЕРНУТЬСЯ перед строкой 3")),
    ("ДЛЯ i := 1 ДО 3 ВЫПОЛНЯТЬ\n    СООБЩИТЬ i\nк = 5\nВЕРНУТЬСЯ\n", (3, 1), "не может быть инструкцией",
     ("если строка 3 — определение к, то ДЛЯ со строки 1 ещё не закрыто: определения пишутся вне блоков — "
     "поставьте ВЕРНУТЬСЯ перед строкой 3; если присваивание — пишите к := …")),
    # ЕСЛИ without ТО: the condition runs on through the body, past the ТО of an inner ЕСЛИ
    (NO_THEN + "  ЕСЛИ x = 2 ТО СООБЩИТЬ 2 КОНЕЦ_ЕСЛИ\nКОНЕЦ_ЕСЛИ\n", (6, 17), "неожиданное СООБЩИТЬ",
     "после условия ЕСЛИ (строка 4) пишется ТО"),
    (NO_THEN + "  ЕСЛИ x = 2 ТО СООБЩИТЬ 2 ИНАЧЕ СООБЩИТЬ 3 КОНЕЦ_ЕСЛИ\nКОНЕЦ_ЕСЛИ\n", (6, 17), "неожиданное СООБЩИТЬ",
     "после условия ЕСЛИ (строка 4) пишется ТО"),
    # … and the lower-case «и» of a phrase on the next line is the phrase's word, not a slip
    ("«найти (x) и (y)» = СООБЩИТЬ x, y\nk := 9\nЕСЛИ k = 9 k\n  ИНАЧЕ найти 1 и 2\nКОНЕЦ_ЕСЛИ\n", (4, 3),
     "неожиданное ИНАЧЕ; ожидалось: ТО", "после условия ЕСЛИ (строка 3) пишется ТО"),
    # a phrase called with other words: the nearest phrase, not «И» in capitals
    ("«найти (x) и (y)» = СООБЩИТЬ x, y\nнайди 1 и 2\n", (2, 1), "не понимаю «найди 1 и 2»",
     "может быть, «найти (x) и (y)»?"),
    # a call with too few or too many arguments: the header, as the hint
    ("ФАКТ (n) = n\nСООБЩИТЬ ФАКТ(5, 2)\n", (2, 10), "ФАКТ ожидает 1 аргумент, а передано 2",
     "ФАКТ определена в строке 1: ФАКТ (n) ="),
    ("ОБМЕН (РЕЗ a, РЕЗ b) =\n  t := a; a := b; b := t\nx := 1\nОБМЕН(x)\n", (4, 1),
     "ОБМЕН ожидает 2 аргумента, а передано 1", "ОБМЕН определена в строке 1: ОБМЕН (РЕЗ a, РЕЗ b) ="),
    # operators and closers as other languages write them
    ("x := 1\nЕСЛИ x == 1 ТО СООБЩИТЬ 1 КОНЕЦ_ЕСЛИ\n", (2, 9), "неожиданное «=»",
     "сравнение на равенство пишется одним «=»: x = 1"),
    ("x := 1\nЕСЛИ x != 1 ТО СООБЩИТЬ 1 КОНЕЦ_ЕСЛИ\n", (2, 8), "непонятный символ '!'",
     "в языке книги «!=» пишется ≠ (или <>)"),
    ("x := 7 mod 2\n", (1, 8), "не понимаю «7 mod 2»", "может быть, ОСТ вместо «mod»?"),
    ("x := 1\nЕСЛИ x > 0 and x < 3 ТО СООБЩИТЬ x КОНЕЦ_ЕСЛИ\n", (2, 12), "не понимаю «x > 0 and x < 3»",
     "может быть, И вместо «and»?"),
    ("ДЛЯ i := 1 ДО 3 ВЫПОЛНЯТЬ\n  СООБЩИТЬ i\nКОНЕЦ\n", (3, 1), "ДЛЯ не закрыто",
     "может быть, ВЕРНУТЬСЯ вместо «КОНЕЦ»?"),
    ("x := 1\nЕСЛИ x = 1 ТО\n  СООБЩИТЬ 1\nвсе\n", (4, 1), "ЕСЛИ не закрыто", "может быть, КОНЕЦ_ЕСЛИ вместо «все»?"),
    ("x : 5\nСООБЩИТЬ x\n", (1, 5), "выражение «5» не может быть инструкцией",
     "«:» после имени делает его меткой; присваивание пишется «:=»: x := 5"),
    ("ДЛЯ i := 1 ДО 3 ВЫПОЛНЯТЬ\n  СООБЩИТЬ i\nКОНЕЦ_ЕСЛИ\n", (3, 1), "неожиданное КОНЕЦ_ЕСЛИ; ожидалось: ВЕРНУТЬСЯ",
     "цикл ДЛЯ со строки 1 закрывается словом ВЕРНУТЬСЯ, а не КОНЕЦ_ЕСЛИ"),
    ("ДЛЯ i := 1 ДО 3 ВЫПОЛНЯТЬ\n  ЕСЛИ i > 1 ТО СООБЩИТЬ i КОНЕЦ_ЕСЛИ\n  КОНЕЦ_ЕСЛИ\nВЕРНУТЬСЯ\n", (3, 3),
     "неожиданное КОНЕЦ_ЕСЛИ", "лишний КОНЕЦ_ЕСЛИ?"),
    ("x := 3,5\n", (1, 7), "неожиданная запятая", "дробное число пишется через «/»: 3,5 — это 7/2; запятая разделяет значения"),
    # a bracket left open: told at the bracket, not where the layout, taking the following
    # lines into it, ran into the next definition
    (("ИСКАТЬ (i, t) =\n    ЕСЛИ i > 2 ТО СООБЩИТЬ t\n    ИНАЧЕ ИСКАТЬ(i + 1, t + a[i]\n    КОНЕЦ_ЕСЛИ\n"
      "«начать» = ИСКАТЬ(1, 0)\nначать\n"), (3, 17), "«(» не закрыта: «)» нет, а дальше уже КОНЕЦ_ЕСЛИ в строке 4",
     "допишите «)» там, где кончается выражение"),
    ("ЕСЛИ МАКС(1, 2 = 2 ТО СООБЩИТЬ 1 КОНЕЦ_ЕСЛИ\n", (1, 10), "«(» не закрыта: выражение кончилось, а «)» нет",
     "допишите «)» там, где кончается выражение"),
    ("ИСКАТЬ (i, t) = СООБЩИТЬ i\nИСКАТЬ(1 + 1), 2)\n", (2, 14), "неожиданная запятая",
     "«)» перед запятой закрыла скобку раньше времени, и в конце лишняя «)»: ИСКАТЬ(1 + 1, 2)"),
    ("a := 1; b := 2; c := 3\nx := МАКС(a, b), c)\n", (2, 16), "неожиданная запятая",
     "«)» перед запятой закрыла скобку раньше времени, и в конце лишняя «)»: x := МАКС(a, b, c)"),
    ("a[1] := 5\nСООБЩИТЬ a(1]\n", (2, 13), "«(» из строки 2, столбца 11 закрыта «]»",
     "элемент массива — a[i], вызов — f(x)"),
    # a comma for the «;» between statements, as a list is written in prose
    ("x := 0; y := 0\nx := 1, y := 2\n", (2, 7), "неожиданная запятая",
     "инструкции разделяются «;» или переводом строки, а не запятой: x := 1; y := 2"),
    ("x := 0; y := 0\nЕСЛИ 1 < 2 ТО x := 1, y := 2 КОНЕЦ_ЕСЛИ\n", (2, 21), "неожиданная запятая",
     "инструкции разделяются «;» или переводом строки, а не запятой: x := 1; y := 2"),
    ("a[1] := 0; b := 0\na[1, 2] := 1, b := 2\n", (2, 13), "неожиданная запятая",
     "инструкции разделяются «;» или переводом строки, а не запятой: a[1, 2] := 1; b := 2"),
    ("x := 1\nЕСЛИ x = 1 ТО x := 2, СООБЩИТЬ x КОНЕЦ_ЕСЛИ\n", (2, 23), "неожиданное СООБЩИТЬ",
     "инструкции разделяются «;» или переводом строки, а не запятой: x := 2; СООБЩИТЬ x"),
    ("«занять (k)» = СООБЩИТЬ k\nk := 1\nзанять k, k := k + 1\n", (3, 9), "неожиданная запятая",
     "инструкции разделяются «;» или переводом строки, а не запятой: занять k; k := k + 1"),
    # a word of a phrase typed with a look-alike Latin letter, in the use or in the header, or
    # with е for ё: the letter is named
    ("«занять (k)» = СООБЩИТЬ k\nзaнять 1\n", (2, 1), "не понимаю «зaнять 1»",
     "в «зaнять» латинская буква a (2-я); во фразе «занять (k)» (строка 1) слово «занять» написано кириллицей"),
    ("«оcвободить (k)» = СООБЩИТЬ k\nосвободить 1\n", (2, 1), "не понимаю «освободить 1»",
     "в образце «оcвободить (k)» (строка 1) в слове «оcвободить» латинская буква c (2-я); исправьте образец"),
    ("«(n) чётно» = n ОСТ 2 = 0\nЕСЛИ 4 четно ТО СООБЩИТЬ 1 КОНЕЦ_ЕСЛИ\n", (2, 6), "не понимаю «4 четно»",
     "во фразе «(n) чётно» (строка 1) — «чётно», а здесь «четно»: е и ё — разные буквы"),
    # an abstract operation of the book the program does not define: the header that defines it
    ("k := 1; i := 2\nЕСЛИ место k, i свободно ТО СООБЩИТЬ 1 КОНЕЦ_ЕСЛИ\n", (2, 6),
     "не понимаю «место k, i свободно»", "определите её фразой: «место (k), (i) свободно» = …"),
    # … whose lower-case «и» is the phrase's own word, not the keyword И in the wrong case
    ("k := 1\nискать поле на строке k после c[k] и придать значение величине c[k]\n", (2, 1), "не понимаю",
     "определите её фразой: «искать поле на строке (k) после (x) и придать значение величине (y)» = …"),
    # reading and printing as other school languages write them
    ("ПРОЧИТАТЬ n\n", (1, 1), "не понимаю «ПРОЧИТАТЬ n»", "может быть, ПРОЧЕСТЬ вместо «ПРОЧИТАТЬ»?"),
    ("вывод 'да'\n", (1, 1), "не понимаю «вывод 'да'»", "может быть, СООБЩИТЬ вместо «вывод»?"),
    ("x := 1\nЕСЛИ x > 0 и x < 2 ТО СООБЩИТЬ x КОНЕЦ_ЕСЛИ\n", (2, 12), "не понимаю «x > 0 и x < 2»",
     "ключевые слова пишутся прописными буквами: И"),
    # … also between two long names, which alone would read as words of prose
    ("цвет := 1; размер := 3\nЕСЛИ цвет = 1 и размер > 2 ТО СООБЩИТЬ 1 КОНЕЦ_ЕСЛИ\n", (2, 15),
     "не понимаю «цвет = 1 и размер > 2»", "ключевые слова пишутся прописными буквами: И"),
    ("готово := ЛОЖЬ\nЕСЛИ не готово ТО СООБЩИТЬ 1 КОНЕЦ_ЕСЛИ\n", (2, 6), "не понимаю «не готово»",
     "ключевые слова пишутся прописными буквами: НЕ"),
    # a transfer to a label that is nowhere, and far from every label there is
    ("ПРОГРАММА: k := 1; С\nС: ЕСЛИ k = 3 ТО Я ИНАЧЕ СОК КОНЕЦ_ЕСЛИ\nСБ: k := k + 1; С\n", (2, 26),
     "переход к неизвестной метке СОК", "начинается своей меткой в начале строки: СОК: …; метки здесь: ПРОГРАММА, С, СБ"),
    ("ПРОГРАММА: k := 1; СБК\nСБ: k := k + 1; Я\n", (1, 20), "неизвестной метке СБК", "может быть, СБ?"),
]


@pytest.mark.parametrize("text,place,message,tip", SLIPS, ids=[s[2][:30] for s in SLIPS])
def test_the_slip_is_told_with_its_fix(text, place, message, tip):
    d = only_error(text)
    assert ((d.span.line, d.span.column), message in d.text) == (place, True), d.render()
    assert d.hint is not None and tip in d.hint, d.render()


def test_a_procedure_of_the_program_is_no_keyword_of_another_language():
    d = only_error("ПЕЧАТЬ (x) = СООБЩИТЬ x\nПЕЧАТЬ 5\n")
    assert d.hint == "ПЕЧАТЬ определена в строке 1: ПЕЧАТЬ (x) =", d.render()


def test_a_word_of_a_phrase_is_no_closer_of_another_language():
    d = only_error("«все поля заняты» = ИСТИНА\nЕСЛИ все поля заняты ТО\n  СООБЩИТЬ 1\n")
    assert d.text.startswith("ЕСЛИ не закрыто") and "«все»" not in (d.hint or ""), d.render()


def test_a_hint_never_proposes_the_name_that_was_written():
    x = only_error("кот := 1\nСООБЩИТЬ кот(2)\n")
    assert "кот?" not in (x.hint or "")
    w = only_error("СООБЩИТЬ ДЛИНА2(1)\nДЛИНА2 := 3\n")
    assert "ДЛИНА2?" not in (w.hint or ""), w.render()


def test_an_assignment_typed_with_equals_keeps_its_hint():
    d = only_error("ДЛЯ i := 1 ДО 3 ВЫПОЛНЯТЬ\n    к = i * 2\nВЕРНУТЬСЯ\n")
    assert d.hint == "для присваивания пишется «:=», а не «=»"


def test_the_book_queens_without_a_then_are_told_of_the_then_not_of_an_extra_end_if():
    text = (PROGRAMS / "queens_recursive.pseudo").read_text(encoding="utf-8")
    d = only_error(text.replace("ЕСЛИ место k, i свободно ТО", "ЕСЛИ место k, i свободно"))
    assert (d.span.line, d.text) == (19, "неожиданное КОНЕЦ_ЕСЛИ; ожидалось: ТО"), d.render()
    assert d.hint == "после условия ЕСЛИ (строка 13) пишется ТО", d.render()


def test_a_name_written_in_other_capitals_is_offered_as_written_where_it_is_defined():
    """difflib rates «Факт» and «ФАКТ» far apart: a name that differs only in capitals comes first."""
    assert only_error("ФАКТ (n) = n\nСООБЩИТЬ Факт(5)\n").hint == "может быть, ФАКТ?"
    warned = pseudo.load(Source("s := 1\nСООБЩИТЬ S\n", "t.pseudo")).warnings
    assert [(w.code, w.hint) for w in warned] == [("never-assigned", "может быть, s?")]


@pytest.mark.parametrize("text, column", [("x := 1,, y := 2\n", 8), ("x := , y := 2\n", 6)])
def test_a_comma_with_nothing_before_it_is_offered_no_semicolon(text, column):
    d = only_error("x := 0; y := 0\n" + text)
    assert (d.span.line, d.span.column, d.hint) == (2, column, None), d


def test_a_grouping_bracket_closed_before_a_comma_is_offered_no_call():
    d = only_error("a := 1; b := 2; c := 3\nx := (a + b), c)\n")
    assert (d.span.line, d.span.column, d.hint) == (2, 13, None), d


@pytest.mark.parametrize("text, tip", [
    ("ДЛЯ i := 1 ДО 9\n  ШАГ 2 ВЫПОЛНЯТЬ\n  СООБЩИТЬ i\nВЕРНУТЬСЯ\n",
     "ШАГ пишется перед ДО: ДЛЯ i := 1 ШАГ 2 ДО 9 ВЫПОЛНЯТЬ"),
    ("ДЛЯ i := 1 ДО 9 ШАГ ВЫПОЛНЯТЬ СООБЩИТЬ i ВЕРНУТЬСЯ\n", "ШАГ пишется перед ДО: ДЛЯ i := 1 ШАГ … ДО 9 ВЫПОЛНЯТЬ"),
    ("ДЛЯ i := 1 ДО 9 ШАГ 2 ШАГ 3 ВЫПОЛНЯТЬ СООБЩИТЬ i ВЕРНУТЬСЯ\n", None),
], ids=["step on the next line", "no step", "two steps"])
def test_a_step_after_to_is_offered_the_header_in_the_book_order_on_one_line(text, tip):
    assert only_error(text).hint == tip


def test_a_label_typed_twice_is_offered_the_label_a_transfer_misses():
    """The book's second automaton with «СБ:» typed for «С8:»: the transfer to С8 finds no
    label, and the second СБ is told that С8 is the one wanted."""
    with pytest.raises(StaticError) as caught:
        pseudo.load(Source("ПРОГРАММА: k := 1; С\nС: ЕСЛИ k = 9 ТО С8 ИНАЧЕ k := k + 1; СБ КОНЕЦ_ЕСЛИ\n"
                           "СБ: С\nСБ: СООБЩИТЬ k; Я\n", "t.pseudo"))
    twice = [d for d in caught.value.diagnostics if d.code == "duplicate-label"]
    assert [(d.span.line, d.text, d.hint) for d in twice] == [
        (4, "метка СБ уже определена в строке 3", "к С8 есть переход (строка 2), а метки С8 нет: может быть, здесь С8:?")]
    d = only_error("ПРОГРАММА: k := 1; С\nС: k := 2; С\nС: Я\n")
    assert d.hint == "у каждого состояния своя метка: переименуйте одну из двух", d.render()


@pytest.mark.parametrize("use", [
    "место k, i свободно", "занять k, c[k]", "освободить k, k", "n четно", "найти место i ферзя 8",
    "искать первое свободное поле на строке k после c[k] и придать значение этого поля величине c[k]",
    "инициализировать игру", "делать 1 и 2 и 3 и 4 и 5 и 6 и 7 и 8"])
def test_the_header_offered_for_an_undefined_operation_defines_it(use):
    """The hint's header, written as the program's definition, makes the use a phrase of it."""
    start = "k := 1; i := 2; n := 4; c[1] := 0\n"
    hint_text = only_error(f"{start}ЕСЛИ {use} ТО СООБЩИТЬ 1 КОНЕЦ_ЕСЛИ\n").hint
    header = hint_text.split("фразой: ", 1)[1].removesuffix(" = …")
    pseudo.load(Source(f"{header} = ИСТИНА\n{start}ЕСЛИ {use} ТО СООБЩИТЬ 1 КОНЕЦ_ЕСЛИ\n", "t.pseudo"))


def test_a_header_that_cannot_be_read_does_not_hide_the_errors_of_its_blocks():
    """HR typed from the book before its operations are defined: each is told at once, not one
    per run as the pupil defines the one before (the ЕСЛИ whose condition failed was dropped
    with its blocks)."""
    hr = ("HR (k) =\n  ДЛЯ i := 1 ДО 8 ВЫПОЛНЯТЬ\n    ЕСЛИ место k, i свободно ТО\n      занять k, i\n"
          "      ЕСЛИ k = 8 ТО выписать решение ИНАЧЕ HR(k + 1) КОНЕЦ_ЕСЛИ\n      освободить k, i\n"
          "    КОНЕЦ_ЕСЛИ\n  ВЕРНУТЬСЯ\nHR(1)\n")
    loop = "ДЛЯ i := 1 ДО конец ряда ВЫПОЛНЯТЬ\n  отметить i\nВЕРНУТЬСЯ\nПОКА фигура x не на месте ВЫПОЛНЯТЬ\n  сдвинуть x\nВЕРНУТЬСЯ\n"
    for text, lines in ((hr, [3, 4, 5, 6]), (loop, [1, 2, 4, 5])):
        with pytest.raises(StaticError) as caught:
            pseudo.load(Source(text, "t.pseudo"))
        assert [d.span.line for d in caught.value.diagnostics] == lines, caught.value.render()
