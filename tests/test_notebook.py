"""The IPython extension: the magic's work with explicit streams, then the example notebook
docs/pseudo.ipynb executed in a real kernel, its outputs compared with the stored ones
(`PSEUDO_REGOLD=1` stores what the kernel printed)."""
from __future__ import annotations

import argparse
import html
import io
import os
import re

import pytest
from conftest import PROGRAMS, ROOT

from pseudo.commands.arguments import build_parser
from pseudo.notebook import parser, run_magic

NOTEBOOK = ROOT / "docs" / "pseudo.ipynb"


def magic(line: str, cell: str | None):
    out, err, shown = io.StringIO(), io.StringIO(), []
    code = run_magic(line, cell, out, err, shown.append)
    return code, out.getvalue(), err.getvalue(), shown


def options(command: str) -> set[str]:
    commands = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    return {s for a in commands.choices[command]._actions for s in a.option_strings}


def test_a_cell_runs_compiled_and_interpreted_alike():
    cell = "ДЛЯ i := 1 ДО 3 ВЫПОЛНЯТЬ СООБЩИТЬ i * i, ВЕРНУТЬСЯ\nСООБЩИТЬ"
    for line in ("", "--compiled", "--interpret"):
        assert magic(line, cell) == (0, "1 4 9\n", "", [])


def test_input_from_the_cells_comments_or_the_option():
    cell = "{ ввод: 2 3 }\n{ ввод: 4 }\nПРОЧЕСТЬ a, b\nПРОЧЕСТЬ c\nСООБЩИТЬ a * b * c"
    assert magic("", cell)[:2] == (0, "24\n")
    assert magic("--input '5 6 7'", cell)[:2] == (0, "210\n")


def test_hints_say_the_notebooks_ways_not_the_terminals(monkeypatch):
    """A cell that reads more than it is given is told of `{ ввод: … }`; one that runs on, of
    the notebook's ■ (Ctrl-C does not reach a kernel). After the cell, the command line's own."""
    from pseudo import execute
    from pseudo.runtime.messages import RUNTIME_HINTS
    before = dict(RUNTIME_HINTS)
    code, _, err, _ = magic("", "ПРОЧЕСТЬ x\nСООБЩИТЬ x * 2")
    assert code == 70 and "ввод был пуст" in err
    assert "подсказка: каждое чтение берёт из ввода новое значение: в ячейке ввод — комментарии { ввод: … }" in err
    monkeypatch.setattr(execute, "NOTICE_AFTER", 0.2)
    code, _, err, _ = magic("--time-limit 1", "x := 1\nПОКА x > 0 ВЫПОЛНЯТЬ x := x + 1 ВЕРНУТЬСЯ")
    assert code == 70 and "замечание: программа уже 0.2 с ничего не читает" in err
    assert "остановите её кнопкой ■ блокнота" in err and "Ctrl-C" not in err
    assert RUNTIME_HINTS == before


def test_a_static_error_shows_the_caret():
    code, out, err, _ = magic("", "«занять (k), (i)» = c[k] := i\n\nзанят 1, 5")
    assert (code, out) == (65, "")
    assert err.splitlines()[:3] == [("ячейка.pseudo:3:1: ошибка: не понимаю «занят 1, 5»: это не присваивание, "
                                     "не вызов и не известная фраза"),
                                    "    3 | занят 1, 5",
                                    "      | ^~~~~~~~~~"]
    assert "подсказка: может быть, «занять (k), (i)»?" in err


def test_a_runtime_error_after_the_output_and_the_cells_name():
    code, out, err, _ = magic("-q деление.pseudo", "СООБЩИТЬ 1\nx := 0\nСООБЩИТЬ 1 / x")
    assert (code, out) == (70, "1\n")
    assert err.startswith("деление.pseudo:3:")
    assert "^" in err


def test_warnings_unless_quiet():
    cell = "x := 1\nСООБЩИТЬ x − 1"
    assert magic("", cell)[1] == "0\n"
    assert magic("-q", cell)[2] == ""


def test_a_file_by_the_line_magic_or_an_empty_cell():
    path = str(PROGRAMS / "queens_recursive.pseudo")
    for cell in (None, "\n"):
        code, out, err, _ = magic(f"-q {path}", cell)
        assert (code, out.splitlines()[0], len(out.splitlines()), err) == (0, "1 5 8 6 3 7 2 4", 92, "")
    assert magic("нет_такого.pseudo", None)[:3] == (64, "", "pseudo: ошибка: файл нет_такого.pseudo не найден\n")
    assert magic("", "  \n")[0] == 64


def test_a_book_program_shipped_with_pseudo_by_its_name():
    code, out, err, _ = magic("-q --example queens_automaton_1", None)  # its lib/ is found beside it
    assert (code, len(out.splitlines()), err) == (0, 92, "")
    assert magic("--example nim.pseudo --input '1 1 1 2 0'", None)[1].startswith("Сколько спичек")
    code, out, err, _ = magic("--example ферзи", None)
    assert code == 64 and "программы книги «ферзи» нет; есть: fox_capture, knight_tour," in err
    assert magic("--example nim", "СООБЩИТЬ 1\n")[0] == 64  # a program already: the cell is not another


def test_options_are_the_command_lines():
    assert options("run") <= {s for a in parser(False)._actions for s in a.option_strings}
    assert options("trace") <= {s for a in parser(True)._actions for s in a.option_strings}
    code, _, err, _ = magic("--max-steps 0", "СООБЩИТЬ 1")
    assert code == 64 and "%%pseudo: ошибка: аргумент --max-steps: нужно положительное число" in err
    code, out, _, _ = magic("--help", "")
    assert code == 0 and "--interpret" in out and "{ ввод: … }" in out
    code, _, err, _ = magic("--max-steps 10", "ПОКА ИСТИНА ВЫПОЛНЯТЬ ВЕРНУТЬСЯ")
    assert code == 70 and "шаг" in err


def test_stats():
    code, out, err, _ = magic("--stats", "f (x) = x + 1\nСООБЩИТЬ f(f(1))")
    assert (code, out) == (0, "3\n")
    assert "статистика выполнения" in err


def test_the_trace_page_in_a_frame():
    code, out, err, shown = magic("--trace", "ДЛЯ i := 1 ДО 2 ВЫПОЛНЯТЬ СООБЩИТЬ i ВЕРНУТЬСЯ")
    assert (code, out, err, len(shown)) == (0, "1\n2\n", "", 1)
    frame = re.fullmatch(r'<div class="pseudo-trace"><iframe title="Трассировка: ячейка.pseudo" style="[^"]*" '
                         r'srcdoc="([^"]*)"></iframe></div>', shown[0])
    page = html.unescape(frame.group(1))
    assert page.startswith("<!DOCTYPE html>") and "<title>Трассировка: ячейка.pseudo</title>" in page


def test_a_trace_that_stops_with_an_error_is_shown_whole():
    code, out, err, shown = magic("--trace", "СООБЩИТЬ 1\nСООБЩИТЬ y")
    assert (code, out, len(shown)) == (70, "1\n", 1)
    assert "переменная y не получила значения" in err
    assert "страница трассировки" not in err  # the page is in the cell, not in a temporary file to name


def test_the_trace_as_text():
    code, out, err, shown = magic("--trace --explain --only assign", "x := 1; x := x + 1")
    assert (code, shown) == (0, [])
    assert "x получает значение 2 (было 1)" in out + err  # where `pseudo trace` writes its text
    code, _, err, _ = magic("--trace --only нечто", "x := 1")
    assert code == 64 and "неизвестный вид событий «нечто»" in err


def test_seed_reaches_the_run():
    cell = "ДЛЯ i := 1 ДО 20 ВЫПОЛНЯТЬ СООБЩИТЬ СЛУЧАЙНОЕ(1000), ВЕРНУТЬСЯ\nСООБЩИТЬ"
    first, again, other = (magic(f"--seed {n}", cell) for n in (7, 7, 8))
    assert first[0] == 0 and first == again and first[1] != other[1]
    assert magic("--seed 7 --interpret", cell)[1] == first[1]


def test_the_extension_registers_the_magic():
    import pseudo
    seen = []

    class Shell:
        def register_magic_function(self, func, magic_kind, magic_name):
            seen.append((func.__name__, magic_kind, magic_name))

    pseudo.load_ipython_extension(Shell())
    assert seen == [("pseudo_magic", "line_cell", "pseudo")]


# ---- the example notebook, in a kernel ----

def streams(cell) -> list[tuple[str, str]]:
    return [(o["name"], o["text"]) for o in cell.get("outputs", []) if o["output_type"] == "stream"]


def printed(cell) -> str:
    """What a cell printed, on either stream (a trace's text goes where `pseudo trace` writes it)."""
    return "".join(text for _, text in streams(cell))


def test_the_example_notebook_runs_in_a_kernel():
    nbformat = pytest.importorskip("nbformat", reason="nbformat is not installed (pip install '.[test]')")
    nbclient = pytest.importorskip("nbclient", reason="nbclient is not installed (pip install '.[test]')")
    pytest.importorskip("ipykernel", reason="ipykernel is not installed (pip install '.[test]')")
    stored = nbformat.read(NOTEBOOK, as_version=4)
    nb = nbformat.read(NOTEBOOK, as_version=4)
    nbclient.NotebookClient(nb, kernel_name="python3", timeout=120, record_timing=False,
                            resources={"metadata": {"path": str(NOTEBOOK.parent)}}).execute()
    code = [c for c in nb.cells if c.cell_type == "code"]
    sources = [c.source.split("\n", 1)[0] for c in code]
    assert sources[0] == "%load_ext pseudo"
    for cell in code:
        assert not [o for o in cell.outputs if o["output_type"] == "error"], cell.source
    traced = [c for c in code if c.source.startswith("%%pseudo --trace\n")]
    assert traced, "the notebook shows a trace page"
    for cell in traced:
        frames = [o for o in cell.outputs if o["output_type"] == "display_data"]
        assert len(frames) == 1 and "<iframe" in frames[0]["data"]["text/html"]
        assert "Трассировка" in frames[0]["data"]["text/html"]
    errors = [text for c in code for name, text in streams(c) if name == "stderr" and "ошибка:" in text]
    assert any("^~~~" in text for text in errors), "the notebook shows an error with its caret"
    if os.environ.get("PSEUDO_REGOLD"):
        for cell in nb.cells:  # the stored example keeps what it printed; the trace page is shown when run
            if cell.cell_type == "code":
                cell.outputs = [o for o in cell.outputs if o["output_type"] != "display_data"]
        nb.metadata = stored.metadata
        nbformat.write(nb, NOTEBOOK)
        return
    assert [printed(c) for c in code] == [printed(c) for c in stored.cells if c.cell_type == "code"], \
        "docs/pseudo.ipynb is not what the kernel prints now: PSEUDO_REGOLD=1 pytest tests/test_notebook.py"
