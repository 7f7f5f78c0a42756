import os

import pytest

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


# ---- a file or an input not in UTF-8: the place a person finds in an editor ----

def _child(args: list[str], stdin: bytes = b"", cwd=None):
    import os
    import subprocess
    import sys
    env = dict(os.environ, PYTHONIOENCODING="utf-8")
    done = subprocess.run([sys.executable, *args], input=stdin, capture_output=True, env=env, cwd=cwd, timeout=60,
                          check=False)
    return done.returncode, done.stdout.decode(), done.stderr.decode()


def test_a_program_not_in_utf8_names_the_line_and_column_of_the_byte(tmp_path):
    path = tmp_path / "п.pseudo"
    path.write_bytes("СООБЩИТЬ 1\nСООБЩИТЬ 'ц".encode() + b"\xe5\xed'\n")  # «ен» in Windows-1251 after «ц»
    code, _, err = _child(["-m", "pseudo", "run", str(path)])
    assert code == 65
    assert err.startswith(f"{path}:2:12: ошибка: файл {path} не в кодировке UTF-8 (строка 2, столбец 12)\n")


def test_a_used_file_not_in_utf8_names_the_line_and_column_and_how_to_save_it(tmp_path):
    (tmp_path / "доска.pseudo").write_bytes("F (n) =\n    РЕЗУЛЬТАТ := 'Сумма цифр'\n".encode("cp1251"))
    (tmp_path / "п.pseudo").write_text("ИСПОЛЬЗОВАТЬ 'доска.pseudo'\nСООБЩИТЬ F(1)\n", encoding="utf-8")
    code, _, err = _child(["-m", "pseudo", "run", "п.pseudo"], cwd=tmp_path)
    assert code == 65
    assert "не удалось прочесть файл доска.pseudo: не в кодировке UTF-8 (строка 2, столбец 5)" in err
    assert "подсказка: похоже, файл сохранён в кодировке Windows-1251: сохраните файл в UTF-8" in err


def test_a_used_file_named_without_its_extension_is_suggested_with_it(tmp_path):
    """'доска' for доска.pseudo: the file itself, not another one near its name (доски.pseudo)."""
    for name in ("доска.pseudo", "доски.pseudo"):
        (tmp_path / name).write_text("F (n) =\n    РЕЗУЛЬТАТ := n\n", encoding="utf-8")
    (tmp_path / "п.pseudo").write_text("ИСПОЛЬЗОВАТЬ 'доска'\nСООБЩИТЬ F(1)\n", encoding="utf-8")
    code, _, err = _child(["-m", "pseudo", "check", "п.pseudo"], cwd=tmp_path)
    assert code == 65 and "файл доска не найден" in err
    assert "подсказка: может быть, ИСПОЛЬЗОВАТЬ 'доска.pseudo'?" in err


def test_a_use_of_a_folder_or_of_no_name_says_so_in_russian(tmp_path):
    for written, said in (("", "не удалось прочесть файл '': имя файла пустое"),
                          (".", "не удалось прочесть файл '.': это папка, а не файл")):
        (tmp_path / "п.pseudo").write_text(f"ИСПОЛЬЗОВАТЬ '{written}'\n", encoding="utf-8")
        code, _, err = _child(["-m", "pseudo", "check", "п.pseudo"], cwd=tmp_path)
        assert code == 65 and said in err, err
        assert "подсказка: ИСПОЛЬЗОВАТЬ подключает файл с определениями на языке книги" in err


def test_an_input_not_in_utf8_names_its_line_and_column_in_every_mode(tmp_path):
    """The good lines before it are read; the read that meets the byte fails, with the line of
    the input and the column of the byte, in the same words in every mode and emitted file."""
    program = tmp_path / "п.pseudo"
    program.write_text("ПРОЧЕСТЬ СТРОКУ a\nСООБЩИТЬ a\nПРОЧЕСТЬ СТРОКУ b\nСООБЩИТЬ b\n", encoding="utf-8")
    stdin = "привет\n".encode() + "ми".encode() + b"\xf0\n"  # «мир», its р in Windows-1251
    runs = {}
    for mode in ([], ["--interpret"]):
        runs[" ".join(["run", *mode])] = _child(["-m", "pseudo", "run", *mode, str(program)], stdin)
    for limits in ([], ["--limits"]):
        emitted = tmp_path / f"п{len(limits)}.py"
        assert _child(["-m", "pseudo", "py", *limits, str(program), "-o", str(emitted)])[0] == 0
        runs[" ".join(["py", *limits])] = _child([str(emitted)], stdin)
    first = runs["run"]
    assert first[:2] == (70, "привет\n")
    assert first[2].splitlines()[0] == f"{program}:3:1: ошибка: ввод не в кодировке UTF-8 (строка 2, столбец 3)"
    assert "подсказка: сохраните файл ввода в кодировке UTF-8" in first[2]
    assert all(run == first for run in runs.values()), runs


def test_a_stepped_input_file_not_in_utf8_names_its_line_and_column_as_a_run_does(tmp_path):
    program = tmp_path / "п.pseudo"
    program.write_text("ПРОЧЕСТЬ СТРОКУ a\nСООБЩИТЬ a\n", encoding="utf-8")
    typed = tmp_path / "ввод.txt"
    typed.write_bytes("привет\n".encode() + "ми".encode() + b"\xf0\n")  # «мир», its р in Windows-1251
    code, _, err = _child(["-m", "pseudo", "step", "--input", str(typed), str(program)])
    assert code == 64
    assert err == f"pseudo: ошибка: файл ввода {typed} не в кодировке UTF-8 (строка 2, столбец 3) — сохраните файл ввода в UTF-8\n"


# ---- a file the system will not read or write: its reason in Russian, never its English ----

SYSTEM_REFUSALS = [  # what open or os.replace raises, and what the user reads (the tests run as root)
    (PermissionError(13, "Permission denied"), "нет прав доступа"),
    (IsADirectoryError(21, "Is a directory"), "это папка, а не файл"),
    (OSError(5, "Input/output error"), "сбой устройства (ошибка ввода-вывода)"),
    (OSError(130, "Owner died"), "ошибка операционной системы (код EOWNERDEAD)"),  # no words of its own
]


def _refusing(real, name: str, error: OSError):
    """`real` (open, os.replace, …), raising `error` for a path that ends with `name`."""
    def refusing(*args, **kwargs):
        for path in args[:2]:
            if isinstance(path, str | os.PathLike) and str(path).endswith(name):
                raise type(error)(error.errno, error.strerror, str(path))
        return real(*args, **kwargs)
    return refusing


def _refused(monkeypatch, capsys, where, name: str, error: OSError, *args: str) -> tuple[int, str]:
    """`pseudo ARGS` with `where` (a module and its open, or os and its replace) refusing the
    file `name`: the exit code and what was said, in which no word is the system's English."""
    from pseudo import cli
    module, attribute = where
    monkeypatch.setattr(module, attribute, _refusing(getattr(module, attribute, open), name, error), raising=False)
    code = cli.main(list(args))
    err = capsys.readouterr().err
    assert not _english(err, *(a for a in args if "/" in a)), err
    return code, err


def _english(text: str, *names: str) -> list[str]:
    """The words of Latin letters in `text`, besides the file names, the commands named (pseudo,
    chmod) and a system's error code."""
    import re
    for name in names:
        text = text.replace(name, "")
    return [w for w in re.findall(r"[A-Za-z]{2,}", text)
            if w not in ("pseudo", "chmod") and not (w.startswith("E") and w.isupper())]


@pytest.mark.parametrize("error, said", SYSTEM_REFUSALS, ids=lambda x: getattr(x, "strerror", ""))
def test_a_program_the_system_will_not_read_is_told_in_russian(monkeypatch, capsys, tmp_path, error, said):
    import pseudo.files
    program = tmp_path / "п.pseudo"
    program.write_text("СООБЩИТЬ 1\n", encoding="utf-8")
    code, err = _refused(monkeypatch, capsys, (pseudo.files, "open"), "п.pseudo", error, "run", str(program))
    assert code == 64
    assert f"{program}" in err and (said in err or "это папка, а не файл программы" in err), err


@pytest.mark.parametrize("error, said", SYSTEM_REFUSALS, ids=lambda x: getattr(x, "strerror", ""))
def test_a_used_file_the_system_will_not_read_is_told_in_russian_at_its_line(monkeypatch, capsys, tmp_path, error,
                                                                             said):
    import pseudo.files
    (tmp_path / "доска.pseudo").write_text("F (n) = n\n", encoding="utf-8")
    program = tmp_path / "п.pseudo"
    program.write_text("ИСПОЛЬЗОВАТЬ 'доска.pseudo'\nСООБЩИТЬ F(1)\n", encoding="utf-8")
    code, err = _refused(monkeypatch, capsys, (pseudo.files, "open"), "доска.pseudo", error, "check", str(program))
    assert code == 65
    assert f"{program}:1:1: ошибка: не удалось прочесть файл" in err and "доска.pseudo" in err and said in err, err
    assert "1 | ИСПОЛЬЗОВАТЬ 'доска.pseudo'" in err and "^" in err
    if isinstance(error, PermissionError):
        assert "подсказка: у pseudo нет права читать доска.pseudo: разрешите чтение (chmod a+r доска.pseudo)" in err


@pytest.mark.parametrize("error, said", SYSTEM_REFUSALS, ids=lambda x: getattr(x, "strerror", ""))
def test_an_input_file_the_system_will_not_read_is_told_in_russian(monkeypatch, capsys, tmp_path, error, said):
    from pseudo.commands import viewing
    program = tmp_path / "п.pseudo"
    program.write_text("ПРОЧЕСТЬ x\nСООБЩИТЬ x\n", encoding="utf-8")
    given = tmp_path / "ввод.txt"
    given.write_text("5\n", encoding="utf-8")
    code, err = _refused(monkeypatch, capsys, (viewing, "open"), "ввод.txt", error,
                         "step", "--input", str(given), str(program))
    assert code == 64
    assert f"файл ввода {given}" in err and said in err, err


@pytest.mark.parametrize("error, said", SYSTEM_REFUSALS, ids=lambda x: getattr(x, "strerror", ""))
def test_an_output_the_system_will_not_write_is_told_in_russian(monkeypatch, capsys, tmp_path, error, said):
    program = tmp_path / "п.pseudo"
    program.write_text("СООБЩИТЬ 1\n", encoding="utf-8")
    out = tmp_path / "п.py"
    code, err = _refused(monkeypatch, capsys, (os, "replace"), "п.py", error,  # the file put in place at the end
                         "py", str(program), "-o", str(out))
    assert code == 64 and not out.exists()
    assert f"не удалось записать {out}: {said}" in err, err


def test_a_line_read_whole_and_used_as_a_number_is_told_to_go_through_число_in_every_mode(tmp_path):
    """ПРОЧЕСТЬ СТРОКУ gives a string even when the line holds digits: a ДЛЯ bound, a product or a
    sum with it names the read and hints ЧИСЛО — not «СТРОКА(n)» for printing, nor no hint."""
    program = tmp_path / "п.pseudo"
    cases = {"ДЛЯ i := 1 ДО n ВЫПОЛНЯТЬ СООБЩИТЬ i ВЕРНУТЬСЯ": "2:1: ошибка: границы и шаг цикла ДЛЯ",
             "СООБЩИТЬ n + 1": "2:10: ошибка: операция «+» не применима к строке и целому числу",
             "ЕСЛИ n > 2 ТО СООБЩИТЬ n КОНЕЦ_ЕСЛИ": "2:6: ошибка: нельзя сравнивать строку «3» и целое число 2"}
    for line, error in cases.items():
        program.write_text(f"ПРОЧЕСТЬ СТРОКУ n\n{line}\n", encoding="utf-8")
        runs = {}
        for mode in ([], ["--interpret"]):
            runs[" ".join(["run", *mode])] = _child(["-m", "pseudo", "run", *mode, str(program)], b"3\n")
        for limits in ([], ["--limits"]):
            emitted = tmp_path / f"п{len(limits)}.py"
            assert _child(["-m", "pseudo", "py", *limits, str(program), "-o", str(emitted)])[0] == 0
            runs[" ".join(["py", *limits])] = _child([str(emitted)], b"3\n")
        code, _, err = runs["run"]
        assert code == 70 and err.startswith(f"{program}:{error}")
        assert err.splitlines()[0].endswith(": строку «3» дало ПРОЧЕСТЬ СТРОКУ n — это строка, даже если в ней цифры")
        assert "подсказка: число из прочитанной строки даёт ЧИСЛО: n := ЧИСЛО(n)" in err
        assert all(run == runs["run"] for run in runs.values()), runs
