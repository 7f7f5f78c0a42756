from pseudo.frontend.source import Source, Span, fold_lookalikes


def test_text_is_normalised_to_nfc_and_lines_are_kept():
    src = Source("и\u0306\r\nb", "f.pseudo")  # и + combining breve → й
    assert src.text == "й\nb"
    assert src.line(1) == "й" and src.line(2) == "b" and src.line(3) == ""


def test_lookalike_letters_fold_to_latin():
    assert fold_lookalikes("к") == fold_lookalikes("k")
    assert fold_lookalikes("С8") == "C8"
    assert fold_lookalikes("д") == "д"


def test_utf8_columns_count_bytes():
    src = Source("ЕСЛИ x", "f")
    span = Span(src, 1, 6, 1, 7)
    assert span.utf8_columns() == (9, 10)
    assert span.text() == "x"
