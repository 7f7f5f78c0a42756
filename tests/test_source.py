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


def test_line_breaks_of_windows_and_of_the_old_mac_os_are_line_breaks():
    """A file saved with \\r alone (the old Mac OS) was one line: «неожиданное СООБЩИТЬ»."""
    from conftest import run_text
    for text in ("x := 1\r\nСООБЩИТЬ x\r\n", "x := 1\rСООБЩИТЬ x\r", "x := 1\nСООБЩИТЬ x\n"):
        assert Source(text).lines == ["x := 1", "СООБЩИТЬ x", ""]
        assert run_text(text).stdout == "1\n"
