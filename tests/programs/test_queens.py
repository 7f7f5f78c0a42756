"""The book's eight queens programs agree with the reference solver."""
from conftest import PROGRAMS, cli, run_file
from reference import queens


def test_reference_solver_knows_the_puzzle():
    assert len(queens.solutions(8)) == 92
    assert len(queens.solutions(6)) == 4
    assert queens.lines(8)[0] == "1 5 8 6 3 7 2 4"


def test_recursive_queens_prints_the_92_solutions_in_search_order():
    outcome = run_file(PROGRAMS / "queens_recursive.pseudo")
    assert outcome.error is None
    assert outcome.lines == queens.lines(8)


def test_recursive_queens_warns_only_about_the_cyrillic_k():
    outcome = run_file(PROGRAMS / "queens_recursive.pseudo")
    assert [(w.code, w.span.line) for w in outcome.warnings] == [("tol-lookalike", 16)]


def test_recursive_queens_from_the_command_line():
    result = cli("run", "programs/queens_recursive.pseudo")
    assert result.returncode == 0
    assert result.stdout.splitlines() == queens.lines(8)
    assert "HR(к + 1)" in result.stderr  # the warning shows the line


def test_program_keeps_the_books_text():
    text = (PROGRAMS / "queens_recursive.pseudo").read_text(encoding="utf-8")
    book = ["HR (k) =", "  ДЛЯ i := 1 ДО 8 ВЫПОЛНЯТЬ", "    ЕСЛИ место k, i свободно ТО",
            "      занять k, i", "ЕСЛИ k = 8 ТО выписать решение", "    ИНАЧЕ HR(к + 1)",
            "    КОНЕЦ_ЕСЛИ", "    освободить k, i", "  КОНЕЦ_ЕСЛИ", "ВЕРНУТЬСЯ"]
    lines = text.splitlines()
    start = lines.index(book[0])
    assert lines[start:start + len(book)] == book
