"""Exercises: a task folder, `pseudo test` (a pupil's check, the teacher's check of the task) and
`pseudo grade` (the class), as a teacher and pupils meet them — right, wrong, runaway, broken,
crashing and hostile programs; every fault of a task folder; the outputs equal to `pseudo run`'s."""
from __future__ import annotations

import csv
import hashlib
import io
import json
import os
import pty
import re
import subprocess
import sys
from itertools import permutations
from pathlib import Path

import pytest
from conftest import ROOT, cli
from hypothesis import given
from hypothesis import strategies as st

from pseudo import judge
from pseudo.tasks import TaskError, difference, for_pupils, read_task

EXAMPLE = ROOT / "examples" / "tasks" / "queens"

DOUBLE = "ПРОЧЕСТЬ n\nСООБЩИТЬ 'ответ:', 2 * n\n"  # the right answer to the task `doubling`


def make_task(folder: Path, tests: dict[str, tuple[str | None, str | None]], toml: str | None = None,
              solution: str | None = None) -> Path:
    """A task folder: tests {name: (input or None, expected output or None)}."""
    (folder / "tests").mkdir(parents=True)
    for name, (given_input, expected) in tests.items():
        if given_input is not None:
            (folder / "tests" / f"{name}.in").write_text(given_input, encoding="utf-8")
        if expected is not None:
            (folder / "tests" / f"{name}.out").write_text(expected, encoding="utf-8")
    if toml is not None:
        (folder / "task.toml").write_text(toml, encoding="utf-8")
    if solution is not None:
        (folder / "solution.pseudo").write_text(solution, encoding="utf-8")
    return folder


def doubling(tmp_path: Path, toml: str = 'hidden = ["04"]\ntime_limit = 3\nmax_steps = 100_000\n') -> Path:
    """A task with three visible tests and a hidden one: print twice the number read."""
    tests = {f"{i:02}": (f"{n}\n", f"ответ: {2 * n}\n") for i, n in enumerate((1, 5, -7, 21), 1)}
    return make_task(tmp_path / "удвоение", tests, toml, DOUBLE)


def program(folder: Path, name: str, text: str) -> str:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.pseudo"
    path.write_text(text, encoding="utf-8")
    return str(path)


def tree_digest(folder: Path) -> str:
    """Names, contents and times of every file under `folder`."""
    h = hashlib.sha256()
    for path in sorted(folder.rglob("*")):
        h.update(str(path).encode())
        if path.is_file():
            h.update(path.read_bytes() + str(path.stat().st_mtime_ns).encode())
    return h.hexdigest()


# ---- 1. pseudo test: a pupil's check ----

def test_a_right_solution_passes_the_visible_tests_only(tmp_path):
    task = doubling(tmp_path)
    done = cli("test", str(task), program(tmp_path, "ученик", DOUBLE))
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.splitlines() == ["Задача «удвоение»: 3 теста", "  01  пройден", "  02  пройден",
                                        "  03  пройден", "Пройдено 3 из 3."]


def test_a_wrong_output_shows_the_first_differing_line(tmp_path):
    task = doubling(tmp_path)
    wrong = program(tmp_path, "ученик", "ПРОЧЕСТЬ n\nЕСЛИ n < 0 ТО n := -n КОНЕЦ_ЕСЛИ\nСООБЩИТЬ 'ответ:', 2 * n\n")
    done = cli("test", str(task), wrong)
    assert done.returncode == 1
    lines = done.stdout.splitlines()
    assert lines[3:7] == ["  03  не пройден — строка 1", "        ввод:      «-7»",
                          "        ожидалось: «ответ: -14»", "        получено:  «ответ: 14»"]
    assert lines[-1] == "Пройдено 2 из 3."


def test_a_runtime_error_is_the_programs_own_message_with_its_place(tmp_path):
    task = doubling(tmp_path)
    path = program(tmp_path, "ученик", "ПРОЧЕСТЬ n\nСООБЩИТЬ 'ответ:', 2 * n / (n - 5)\n")
    done = cli("test", str(task), path)
    assert done.returncode == 1
    expected_error = cli("run", path, stdin="5\n").stderr  # the same words pseudo run prints
    assert f"{path}:2:20: ошибка: деление на ноль" in expected_error
    assert "  02  ошибка выполнения\n        ввод:      «5»\n" in done.stdout
    assert "\n".join("        " + line for line in expected_error.splitlines()) in done.stdout


def test_a_repeated_error_is_shown_once(tmp_path):
    task = doubling(tmp_path)
    done = cli("test", str(task), program(tmp_path, "ученик", "ПРОЧЕСТЬ n, m\nСООБЩИТЬ n + m\n"))
    assert done.stdout.count("ошибка: ввод кончился") == 1  # (its hint names the condition «ввод кончился»)
    assert done.stdout.count("та же ошибка, что в тесте 01") == 2


def test_runaways_get_the_limit_they_hit(tmp_path):
    task = doubling(tmp_path, "time_limit = 1\nmax_steps = 20_000\n")
    steps = cli("test", str(task), program(tmp_path, "цикл", "ПРОЧЕСТЬ n\nПОКА n ≠ 0 ВЫПОЛНЯТЬ n := n + 1 ВЕРНУТЬСЯ\n"))
    assert steps.returncode == 1
    assert "  01  превышен предел шагов (20000) — строка 2" in steps.stdout.replace("20 000", "20000")
    printing = cli("test", str(task), program(tmp_path, "болтун", CLASS["болтун"]))
    assert "  01  превышен предел вывода (100 000 знаков) — строка 3" in printing.stdout
    deep = cli("test", str(task), program(tmp_path, "глубина", "f (x) = f(x + 1)\nПРОЧЕСТЬ n\nf(n)\n"))
    assert "  01  превышен" in deep.stdout  # the depth limit, or the time limit while its report is made


def test_an_automaton_that_comes_back_is_told_so_under_a_tasks_step_limit_as_pseudo_run_tells_it(tmp_path):
    """A task's step limit (1,000,000, below the 2^20 steps after which a run begins to watch)
    stopped a pupil's two states that call each other at the limit, not where they repeat."""
    task = doubling(tmp_path, "max_steps = 1_000_000\n")
    path = program(tmp_path, "круг", "ПРОЧЕСТЬ n\nА: s := 0; Б\nБ: s := 1; А\n")
    done = cli("test", "-q", str(task), path)
    assert done.returncode == 1 and "превышен предел шагов" not in done.stdout, done.stdout
    expected_error = cli("run", "-q", "--max-steps", "1000000", path, stdin="1\n").stderr
    assert "ошибка: программа зациклилась: она снова здесь в том же состоянии" in expected_error
    assert "\n".join("        " + line for line in expected_error.splitlines()) in done.stdout


def test_a_run_that_takes_no_step_is_killed_after_its_time_limit(tmp_path):
    task = doubling(tmp_path, "time_limit = 0.5\n")
    # four reductions of a fraction of 300,000-digit parts in one statement, about 0.8 s each
    heavy = program(tmp_path, "тяжеловес", "ПРОЧЕСТЬ n\np := 3 ^ 630000 + n\nq := 5 ^ 430000 + 2\n"
                    "СООБЩИТЬ p / q * 0 + p / (q + 2) * 0 + p / (q + 4) * 0 + p / (q + 6) * 0\n")
    done = cli("test", str(task), heavy)
    assert done.returncode == 1
    assert done.stdout.count("превышен предел времени (0.5 с): программа не отвечала и была остановлена") == 4


def test_a_program_that_does_not_parse_gets_its_syntax_error(tmp_path):
    task = doubling(tmp_path)
    path = program(tmp_path, "ученик", "ПРОЧЕСТЬ n\nЕСЛИ n > 0 ТО СООБЩИТЬ n\n")
    done = cli("test", str(task), path)
    assert done.returncode == 1
    assert f"{path}:2:1: ошибка: ЕСЛИ не закрыто" in done.stdout
    assert done.stdout.splitlines()[-1] == "Пройдено 0 из 3: программа не выполнялась."


def test_the_teachers_check_runs_the_solution_on_every_test_hidden_too(tmp_path):
    done = cli("test", str(EXAMPLE))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "  05 (скрытый)  пройден" in done.stdout and "Пройдено 6 из 6." in done.stdout
    task = doubling(tmp_path)
    (task / "tests" / "04.out").write_text("ответ: 43\n", encoding="utf-8")  # a wrong answer in the task
    wrong = cli("test", str(task))
    assert wrong.returncode == 1 and "04 (скрытый)  не пройден" in wrong.stdout
    (task / "solution.pseudo").unlink()
    missing = cli("test", str(task))
    assert missing.returncode == 64 and "нет решения учителя solution.pseudo" in missing.stderr


def test_a_missing_program_is_a_usage_error(tmp_path):
    task = doubling(tmp_path)
    assert cli("test", str(task), str(tmp_path / "нет.pseudo")).returncode == 64
    assert cli("test", str(task), str(tmp_path)).returncode == 64


def test_warnings_go_to_standard_error_unless_quiet(tmp_path):
    task = doubling(tmp_path)
    path = program(tmp_path, "ученик", "ПРОЧЕСТЬ n\nк := 2\nСООБЩИТЬ 'ответ:', k * n\nk := 1\n")
    loud, quiet = cli("test", str(task), path), cli("test", "-q", str(task), path)
    assert "предупреждение" in loud.stderr and quiet.stderr == ""
    assert loud.stdout == quiet.stdout


# ---- the outputs are pseudo run's, to the byte ----

PROGRAMS = {
    "open line": "ПРОЧЕСТЬ n\nСООБЩИТЬ 'a',\nСООБЩИТЬ n, 'b',\n",
    "screen": "ПРОЧЕСТЬ n\nСООБЩИТЬ 1\nочистить экран\nкурсор в строку 2, столбец 3\nСООБЩИТЬ n / 3\nпауза 10\n",
    "values": "ПРОЧЕСТЬ n\nСООБЩИТЬ ИСТИНА, 7 / 2, 2 ^ 70, '  пробелы  ', n\n",
    "word read": "ПРОЧЕСТЬ n\nСООБЩИТЬ 'начало'\nСООБЩИТЬ n + 1\n",  # the fast code hands over to the exact
    "steps": "ПРОЧЕСТЬ n\ni := 0\nПОКА ИСТИНА ВЫПОЛНЯТЬ i := i + 1; ЕСЛИ i ОСТ 1000 = 0 ТО СООБЩИТЬ i КОНЕЦ_ЕСЛИ "
             "ВЕРНУТЬСЯ\n",
}


@pytest.mark.parametrize("name", PROGRAMS)
def test_a_run_prints_what_pseudo_run_prints(tmp_path, name):
    path = program(tmp_path / "работы", "п", PROGRAMS[name])
    given_input = "слово\n" if name == "word read" else "12\n"
    task = make_task(tmp_path / "задача", {"01": (given_input, "?\n")}, "max_steps = 20_000\ntime_limit = 5\n")
    run = cli("run", "--max-steps", "20000", path, stdin=given_input)
    found = judge.run_test(judge.Program(path), read_task(str(task)), read_task(str(task)).tests[0])
    assert found["output"] == run.stdout
    if run.returncode == 70:
        assert found["message"] == run.stderr.rstrip("\n")
    (task / "tests" / "01.out").write_text(run.stdout, encoding="utf-8")  # now the expected output
    if run.returncode == 0:
        assert cli("test", str(task), path).returncode == 0


# ---- 2. pseudo grade ----

CLASS = {
    "верно": DOUBLE,
    "неверно": "ПРОЧЕСТЬ n\nСООБЩИТЬ 'ответ:', n + n + 1\n",
    "цикл": "ПРОЧЕСТЬ n\nПОКА ИСТИНА ВЫПОЛНЯТЬ n := n + 1 ВЕРНУТЬСЯ\n",
    "болтун": "s := 'ответ: 2 '\nДЛЯ i := 1 ДО 10 ВЫПОЛНЯТЬ s := s + s ВЕРНУТЬСЯ\nВЫПОЛНЯТЬ СООБЩИТЬ s ВЕРНУТЬСЯ\n",
    "не_разобрана": "ПРОЧЕСТЬ n\nСООБЩИТЬ 'ответ:' 2 * n\n",
    "деление": "ПРОЧЕСТЬ n\nСООБЩИТЬ 'ответ:', 2 * n * (n - 5) / (n - 5)\n",
    "жадный": "ПРОЧЕСТЬ n, m\nСООБЩИТЬ 'ответ:', 2 * n\n",
    "с_библиотекой": "ИСПОЛЬЗОВАТЬ 'библиотека/удвоить.pseudo'\nПРОЧЕСТЬ n\nСООБЩИТЬ 'ответ:', удвоить(n)\n",
    "списал": "ИСПОЛЬЗОВАТЬ '../удвоение/tests/02.out'\nСООБЩИТЬ 1\n",
    "подглядел": "ИСПОЛЬЗОВАТЬ '../удвоение/solution.pseudo'\n",
}


def make_class(folder: Path, name: str = "класс") -> Path:
    works = folder / name
    for pupil, text in CLASS.items():
        program(works, pupil, text)
    program(works / "библиотека", "удвоить", "удвоить (x) = 2 * x\n")
    os.symlink(os.path.join("..", "удвоение", "solution.pseudo"), works / "ссылка.pseudo")  # the teacher's file
    os.link(folder / "удвоение" / "tests" / "03.out", works / "библиотека" / "ответ.pseudo")
    program(works, "по_ссылке", "ИСПОЛЬЗОВАТЬ 'библиотека/ответ.pseudo'\nСООБЩИТЬ 1\n")
    return works


@pytest.fixture(scope="module")
def graded_class(tmp_path_factory):
    """The class graded once, two runs at a time, with its CSV and page."""
    tmp_path = tmp_path_factory.mktemp("класс")
    task = doubling(tmp_path)
    works = make_class(tmp_path)
    before = tree_digest(task), tree_digest(works)
    done = cli("grade", str(task), str(works), "--csv", str(tmp_path / "итог.csv"), "--html",
               str(tmp_path / "итог.html"), "--jobs", "2")
    assert done.returncode == 0, done.stdout + done.stderr
    assert (tree_digest(task), tree_digest(works)) == before  # nothing changed the task or a pupil's file
    return tmp_path, done


def test_the_table_has_every_pupil_with_what_failed_first(graded_class):
    _, done = graded_class
    rows = {line.split()[0]: line for line in done.stdout.split("\n\n")[0].splitlines()[2:]}
    assert rows["верно"].split()[1:5] == ["4", "из", "4", "++++"]
    assert rows["неверно"].split()[4] == "−−−−" and "01: неверный вывод, строка 1" in rows["неверно"]
    assert "∞∞∞∞" in rows["цикл"] and "превышен предел шагов (100000) — строка 2" in rows["цикл"]
    assert "превышен предел вывода (100 000 знаков)" in rows["болтун"]
    assert "····" in rows["не_разобрана"] and "программа не разобрана:" in rows["не_разобрана"]
    assert "+!++" in rows["деление"] and "02: ошибка выполнения: деление на ноль — строка 2" in rows["деление"]
    assert "!!!!" in rows["жадный"] and "ввод кончился: ПРОЧЕСТЬ не получило значения для m" in rows["жадный"]
    assert "++++" in rows["с_библиотекой"]  # ИСПОЛЬЗОВАТЬ is resolved relative to the pupil's file
    for cheat in ("списал", "подглядел", "по_ссылке"):
        assert "программа отклонена: программа подключает через ИСПОЛЬЗОВАТЬ файл задачи" in rows[cheat]
    assert "программа отклонена:" in rows["ссылка"] and "файл самой задачи, а не работа ученика" in rows["ссылка"]
    assert "ответ: 10" not in done.stdout and "ответ: -14" not in done.stdout
    assert "все тесты прошли 2 из 12" in done.stdout
    assert "\r" not in done.stderr  # no progress line: standard error is no terminal


def test_the_csv_is_a_table_for_a_spreadsheet(graded_class):
    tmp_path, _ = graded_class
    data = (tmp_path / "итог.csv").read_bytes()
    assert data.startswith("\ufeff".encode())
    rows = list(csv.reader(io.StringIO(data.decode("utf-8-sig"))))
    assert rows[0] == ["ученик", "файл", "пройдено", "всего", "01", "02", "03", "04", "первая ошибка"]
    by_name = {row[0]: row for row in rows[1:]}
    assert len(by_name) == len(CLASS) + 2
    assert by_name["верно"][2:8] == ["4", "4", "пройден", "пройден", "пройден", "пройден"]
    assert by_name["деление"][4:8] == ["пройден", "ошибка выполнения", "пройден", "пройден"]
    assert by_name["цикл"][4] == "превышен предел" and by_name["не_разобрана"][4] == "не выполнялся"


def test_the_page_shows_each_failure_side_by_side(graded_class):
    tmp_path, _ = graded_class
    page = (tmp_path / "итог.html").read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>") and '<html lang="ru">' in page
    number = re.search(r'<a href="#p(\d+)">неверно</a>', page)[1]
    failure = page.split(f'<h3 id="p{number}-01">')[1].split("<h3")[0]
    assert "ожидалось</h4><pre>" in failure and "получено</h4><pre>" in failure
    assert '<mark><span class="n">1 </span>ответ: 2</mark>' in failure
    assert '<mark><span class="n">1 </span>ответ: 3</mark>' in failure
    assert f'href="#p{number}-01"' in page


def test_what_a_program_prints_and_its_name_reach_the_page_escaped(tmp_path):
    task = make_task(tmp_path / "задача", {"01": (None, "<b>ok</b>\n")})
    works = tmp_path / "класс"
    program(works, "<img src=x onerror=alert(1)>", "СООБЩИТЬ '<script>alert(1)</script> & co'\n")
    done = cli("grade", str(task), str(works), "--html", str(tmp_path / "p.html"))
    assert done.returncode == 0, done.stderr
    page = (tmp_path / "p.html").read_text(encoding="utf-8")
    assert "<script>" not in page and "<img" not in page and "<b>ok" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt; &amp; co" in page and "&lt;img src=x" in page
    assert "&lt;b&gt;ok&lt;/b&gt;" in page


def test_what_a_program_prints_and_its_name_never_drive_the_teachers_terminal(tmp_path):
    """A pupil's escape sequences (clear the screen, ring the bell) and the control characters of a file name or a task's title reach the table and `pseudo test`'s
    lines written as text, \\x1b, never acted on; and a line break in a name does not cut a row."""
    task = make_task(tmp_path / "задача", {"01": (None, "3\n")}, 'title = "Сумма\\u001b[2J"\n')
    works = tmp_path / "класс"
    prank = program(works, "шутник", "СООБЩИТЬ '\x1b[2J\x07' + '3'\n")
    program(works, "имя\x1b]0;взлом\x07", "СООБЩИТЬ 3\n")
    program(works, "две\nстроки", "СООБЩИТЬ 3, '\x1b'\n")
    for done in (cli("grade", str(task), str(works)), cli("test", str(task), prank)):
        assert done.returncode in (0, 1), done.stderr
        text = done.stdout + done.stderr
        assert not any(ch in text for ch in "\x1b\x07\r"), text
    grade = cli("grade", str(task), str(works)).stdout
    assert "Задача «Сумма\\x1b[2J»" in grade and "получено «\\x1b[2J\\x073»" in grade
    assert "имя\\x1b]0;взлом\\x07  " in grade and "две\\nстроки  " in grade and "получено «3 \\x1b»" in grade


def test_a_pupils_use_of_a_device_is_refused_not_read(tmp_path):
    """`ИСПОЛЬЗОВАТЬ '/dev/zero'` once read the device in the grading process until the kernel
    ended it (22 GB), and '/dev/stdin' waited for the teacher's typing."""
    task = make_task(tmp_path / "задача", {"01": (None, "3\n")})
    works = tmp_path / "класс"
    program(works, "ноль", "ИСПОЛЬЗОВАТЬ '/dev/zero'\nСООБЩИТЬ 3\n")
    program(works, "ввод", "ИСПОЛЬЗОВАТЬ '/dev/stdin'\nСООБЩИТЬ 3\n")
    program(works, "верно", "СООБЩИТЬ 3\n")
    done = cli("grade", str(task), str(works), timeout=60)
    assert done.returncode == 0, done.stderr
    rows = table_rows(done, works)
    assert rows["верно"][1:4] == ["1", "из", "1"]
    for pupil, device in (("ноль", "/dev/zero"), ("ввод", "/dev/stdin")):
        assert rows[pupil][1:5] == ["0", "из", "1", "·"], rows[pupil]
        assert f"не удалось прочесть файл {device}: это не файл, а устройство или канал" in " ".join(rows[pupil])


def table_rows(done, folder: Path | None = None) -> dict[str, list[str]]:
    """The table's rows by pupil, but the loop's (a loaded machine may stop it by the time limit,
    not by the step limit), each as its words, the class's `folder` left out of its paths."""
    table = done.stdout.split("\n\n")[0].replace(f"{folder}{os.sep}", "").splitlines()[2:]
    return {line.split()[0]: line.split() for line in table if not line.startswith("цикл")}


def test_one_pupils_runaway_changes_no_other_result(graded_class, tmp_path):
    tmp_path_of_class, two_at_a_time = graded_class
    task = tmp_path_of_class / "удвоение"
    alone = cli("grade", str(task), program(tmp_path, "верно", DOUBLE))
    second = make_class(tmp_path_of_class, "класс_2")
    one_at_a_time = table_rows(cli("grade", str(task), str(second), "--jobs", "1"), second)
    assert table_rows(two_at_a_time)["верно"] == table_rows(alone)["верно"] == ["верно", "4", "из", "4", "++++"]
    assert one_at_a_time == table_rows(two_at_a_time, tmp_path_of_class / "класс")
    assert len(one_at_a_time) == len(CLASS) + 1  # the loop left out, two links in


def test_grading_refuses_an_output_that_is_an_input(tmp_path):
    task = doubling(tmp_path)
    pupil = program(tmp_path / "класс", "верно", DOUBLE)
    expected = task / "tests" / "01.out"
    for args in (["--csv", str(expected)], ["--html", pupil], ["--csv", str(tmp_path / "x"), "--html",
                                                                 str(tmp_path / "x")]):
        before = tree_digest(tmp_path)
        done = cli("grade", str(task), pupil, *args)
        assert done.returncode == 64 and done.stdout == "", done.stderr
        assert tree_digest(tmp_path) == before
    assert "входной файл проверки" in cli("grade", str(task), pupil, "--csv", str(expected)).stderr


def test_grading_writes_nothing_that_would_become_a_test_or_a_program(tmp_path):
    task = doubling(tmp_path)
    pupil = program(tmp_path / "класс", "верно", DOUBLE)
    for args, said in ((["--csv", str(task / "tests" / "new.out")], "в папке тестов задачи"),
                       (["--html", str(task / "tests" / "x.in")], "в папке тестов задачи"),
                       (["--csv", str(tmp_path / "класс" / "итог.pseudo")], "так называются программы")):
        before = tree_digest(tmp_path)
        done = cli("grade", str(task), pupil, *args)
        assert done.returncode == 64 and said in done.stderr and done.stdout == "", done.stderr
        assert tree_digest(tmp_path) == before
    assert cli("test", str(task)).returncode == 0
    done = cli("test", str(task), str(task / "tests" / "01.in"))  # a task's own file: no pupil's work
    assert done.returncode == 64 and "файл самой задачи, а не работа ученика" in done.stderr and done.stdout == ""


def test_grading_names_what_is_missing_before_anything_runs(tmp_path):
    task = doubling(tmp_path)
    (tmp_path / "пусто").mkdir()
    for works, said in ((tmp_path / "нет.pseudo", "не найден"), (tmp_path / "пусто", "нет файлов .pseudo")):
        done = cli("grade", str(task), str(works))
        assert done.returncode == 64 and said in done.stderr and done.stdout == ""


def test_a_folder_s_programs_are_taken_in_any_case_and_the_other_files_named(tmp_path):
    """ИВАНОВ.PSEUDO, as Windows saves it, is graded; a pupil's work saved as .txt, a
    subfolder, are named on standard error in one line, not lost unseen; hidden files are not."""
    task = doubling(tmp_path)
    works = tmp_path / "класс"
    program(works, "петров", DOUBLE)
    (works / "ИВАНОВ.PSEUDO").write_text(DOUBLE, encoding="utf-8")
    (works / "сидоров.txt").write_text(DOUBLE, encoding="utf-8")
    (works / "старое").mkdir()
    (works / ".DS_Store").write_bytes(b"\0")
    os.mkfifo(works / "канал.pseudo")
    done = cli("grade", str(task), str(works))
    assert done.returncode == 0, done.stderr
    rows = [line.split()[:3] for line in done.stdout.splitlines()[2:4]]
    assert rows == [["ИВАНОВ", "4", "из"], ["петров", "4", "из"]]
    assert "учеников: 2" in done.stdout
    assert done.stderr == (f"pseudo: в папке {works} пропущено — не файлы .pseudo: канал.pseudo (не файл), "
                           "сидоров.txt, старое/\n")


def test_a_folder_without_programs_names_what_it_holds(tmp_path):
    task = doubling(tmp_path)
    works = tmp_path / "класс"
    works.mkdir()
    (works / "петров.txt").write_text(DOUBLE, encoding="utf-8")
    done = cli("grade", str(task), str(works))
    assert done.returncode == 64 and f"в папке {works} нет файлов .pseudo (есть: петров.txt)" in done.stderr


def test_the_progress_line_is_shown_on_a_terminal_only(tmp_path):
    task = doubling(tmp_path)
    works = tmp_path / "класс"
    for i in range(3):
        program(works, f"ученик{i}", DOUBLE)
    main, secondary = pty.openpty()
    done = subprocess.run([sys.executable, "-m", "pseudo", "grade", str(task), str(works)], stdout=subprocess.PIPE,
                          stderr=secondary, cwd=ROOT, timeout=60, check=False)
    os.close(secondary)
    shown = b""
    while True:
        try:
            chunk = os.read(main, 4096)
        except OSError:
            break
        if not chunk:
            break
        shown += chunk
    os.close(main)
    assert done.returncode == 0
    assert "проверено программ:" in shown.decode() and shown.endswith(b"\r\x1b[K")


def test_each_program_is_compiled_once_however_many_tests_hand_over(tmp_path, monkeypatch):
    """The parent compiles each program once, the exact code once when a run first needs it; the
    runs (child processes) start from what it compiled."""
    import pseudo.api
    task = doubling(tmp_path, "max_steps = 1000\n")
    paths = [program(tmp_path, f"п{i}", f"ПРОЧЕСТЬ n\ni := {i}\nПОКА ИСТИНА ВЫПОЛНЯТЬ i := i + 1 ВЕРНУТЬСЯ\n")
             for i in range(3)]
    monkeypatch.setenv("PSEUDO_NO_CACHE", "1")
    compiled, exact = [], []
    real_compile, real_exact = pseudo.api.compile_for_cache, judge.Program.exact
    monkeypatch.setattr(pseudo.api, "compile_for_cache", lambda *a: compiled.append(a[0]) or real_compile(*a))
    monkeypatch.setattr(judge.Program, "exact", lambda self: exact.append(self.path) or real_exact(self))
    found = []
    judge.check(read_task(str(task)), paths, read_task(str(task)).tests, 2, lambda i, m: found.append((i, m)))
    assert sorted(compiled) == paths and sorted(exact) == paths
    statuses = [m["status"] for _, m in found if m["kind"] == "test"]
    assert statuses == ["limit"] * 12


# ---- 5. faults of a task folder: exit 64, the file and line, before anything runs ----

def fault(tmp_path, toml=None, tests=None, solution=DOUBLE) -> subprocess.CompletedProcess:
    task = make_task(tmp_path / "задача", tests if tests is not None else {"01": ("1\n", "ответ: 2\n")}, toml,
                     solution)
    done = cli("test", str(task))
    assert done.returncode == 64 and done.stdout == "", done.stdout + done.stderr
    return done


@pytest.mark.parametrize(("toml", "said"), [
    ('title = "Сумма\n', 'task.toml:1:15: ошибка: task.toml не читается как TOML: недопустимый знак'),
    ("max_steps = 10\nmax_steps = 20\n", "task.toml:2:"),
    ('hidden = ["01",\n', "task.toml:1:"),
    ("time = 2\n", ("task.toml:1:1: ошибка: неизвестный ключ «time»\n    1 | time = 2\n      | ^~~~\n"
                    "  подсказка: может быть, «time_limit»?")),
    ("[limits]\nmax_steps = 5\n", "task.toml:1:2: ошибка: неизвестный ключ «limits»"),
    ('max_steps = "много"\n', "task.toml:1:1: ошибка: max_steps: нужно целое положительное число шагов"),
    ("max_steps = 0\n", "max_steps: нужно целое положительное число шагов"),
    ("max_steps = 1.5\n", "max_steps: нужно целое положительное число шагов"),
    ("time_limit = -1\n", "time_limit: нужно положительное число секунд"),
    ("time_limit = inf\n", "time_limit: нужно положительное число секунд"),
    ("time_limit = true\n", "time_limit: нужно положительное число секунд"),
    ("time_limit = 1e308\n", "time_limit: нужно положительное число секунд, не больше 3600"),  # once an internal error
    ('compare = "exakt"\n', "compare: «exakt» — нет такого способа сравнения"),
    ('hidden = "01"\n', "hidden: нужен список имён тестов в кавычках"),
    ("title = 5\n", "title: нужна непустая строка в кавычках"),
    ('title = "x"\n\nhidden = [\n  "01",\n  "1",\n]\n', "task.toml:5:3: ошибка: hidden: теста «1» нет в папке tests/"),
])
def test_a_bad_task_toml_names_its_line(tmp_path, toml, said):
    done = fault(tmp_path, toml)
    assert said in done.stderr.replace(str(tmp_path / "задача") + os.sep, ""), done.stderr


def test_every_fault_of_the_folder_is_told_at_once(tmp_path):
    tests = {"01": ("1\n", "ответ: 2\n"), "02": ("2\n", None), "10": ("3\n", None)}
    done = fault(tmp_path, 'time = 2\ncompare = "numbers"\nmax_steps = -5\n', tests)
    where = tmp_path / "задача"
    assert f"{where}/task.toml:1:1: ошибка: неизвестный ключ «time»" in done.stderr
    assert f"{where}/task.toml:3:1: ошибка: max_steps:" in done.stderr
    assert f"ошибка: у теста {where}/tests/02.in нет ожидаемого вывода 02.out" in done.stderr
    assert done.stderr.index("02.in") < done.stderr.index("10.in")  # in the order of the tests: 2 before 10


def test_an_empty_or_missing_task_is_told(tmp_path):
    (tmp_path / "пустая").mkdir()
    for folder, said in ((tmp_path / "пустая", "нет папки tests/"), (tmp_path / "нет", "папки задачи")):
        done = cli("test", str(folder), program(tmp_path, "п", DOUBLE))
        assert done.returncode == 64 and said in done.stderr and done.stdout == ""
    (tmp_path / "пустая" / "tests").mkdir()
    done = cli("grade", str(tmp_path / "пустая"), program(tmp_path, "п", DOUBLE))
    assert done.returncode == 64 and "нет тестов" in done.stderr


def test_a_test_that_is_a_device_a_pipe_or_a_folder_is_told_not_read(tmp_path):
    """/dev/zero linked as a test's input took memory without end, a fifo waited for ever."""
    task = make_task(tmp_path / "задача", {"01": ("1\n", "ответ: 2\n"), "02": (None, "0\n"), "03": (None, "0\n"),
                                           "04": (None, "0\n")}, solution=DOUBLE)
    (task / "tests" / "02.in").symlink_to("/dev/zero")
    os.mkfifo(task / "tests" / "03.in")
    (task / "tests" / "04.in").mkdir()
    done = cli("test", str(task), timeout=60)
    assert done.returncode == 64 and done.stdout == ""
    assert f"{task}/tests/02.in — это не файл, а устройство или канал" in done.stderr
    assert f"{task}/tests/03.in — это не файл, а устройство или канал" in done.stderr
    assert f"{task}/tests/04.in — это папка, а не файл теста" in done.stderr


@pytest.mark.parametrize(("solution", "given", "expected"), [
    ("ПРОЧЕСТЬ n\nСООБЩИТЬ n + 1\n", "\ufeff5\r\n", "6\n"),  # Notepad's byte-order mark and line ends
    ("ПРОЧЕСТЬ СТРОКУ s\nСООБЩИТЬ ДЛИНА(s)\n", "ab\rcd\n", "5\n"),  # a lone \r is a character of the line
])
def test_a_test_reads_its_input_as_pseudo_run_reads_the_same_file(tmp_path, solution, given, expected):
    """docs/tasks.md: a test prints what `pseudo run ПРОГРАММА < ИМЯ.in` prints."""
    task = make_task(tmp_path / "задача", {"01": (None, expected)}, solution=solution)
    (task / "tests" / "01.in").write_bytes(given.encode("utf-8"))
    assert cli("test", str(task)).returncode == 0
    solved = subprocess.run([sys.executable, "-m", "pseudo", "run", str(task / "solution.pseudo")],
                            input=(task / "tests" / "01.in").read_bytes(), capture_output=True, check=False)
    assert solved.stdout.decode("utf-8") == expected, solved.stderr.decode("utf-8")


def test_a_test_file_not_in_utf8_is_told_with_its_line(tmp_path):
    task = make_task(tmp_path / "задача", {"01": ("1\n", "ответ: 2\n")}, solution=DOUBLE)
    (task / "tests" / "01.out").write_bytes("строка\nответ: ".encode() + b"\xff\n")
    done = cli("test", str(task))
    assert done.returncode == 64
    assert f"{task}/tests/01.out:2:8: ошибка: файл {task}/tests/01.out не в кодировке UTF-8 (строка 2, столбец 8)" in done.stderr


def test_a_file_saved_by_notepad_in_windows_1251_or_utf_16_is_named_so():
    from pseudo.messages import encoding_hint
    assert encoding_hint("ответ: 2\n".encode("cp1251"), "файл") == \
        "похоже, файл сохранён в кодировке Windows-1251: сохраните файл в UTF-8 (в Блокноте — «Сохранить как», " \
        "кодировка UTF-8)"
    assert encoding_hint("ответ: 2\n".encode("utf-16"), "файл").startswith("похоже, файл сохранён в UTF-16")
    assert encoding_hint(b"x := 1\n\xc3(\n", "программу") == "сохраните программу в UTF-8"  # one stray byte


def test_a_program_in_windows_1251_is_told_how_to_save_it_again(tmp_path):
    path = tmp_path / "орлов.pseudo"
    path.write_bytes("СООБЩИТЬ 'сумма:', 6\n".encode("cp1251"))
    done = cli("run", str(path))
    assert done.returncode == 65 and "подсказка: похоже, файл сохранён в кодировке Windows-1251" in done.stderr


def test_a_task_error_stops_grading_before_any_run(tmp_path):
    task = doubling(tmp_path, "time_limit = 0\n")
    done = cli("grade", str(task), program(tmp_path, "болтун", CLASS["болтун"]))
    assert done.returncode == 64 and done.stdout == "" and "time_limit:" in done.stderr


# ---- comparing outputs ----

def test_exact_comparison_names_invisible_differences():
    assert difference("exact", "a\nb\n", "a\nb\n") is None
    assert difference("exact", "a\n", "a").text() == "строка 1: в конце вывода нет перевода строки"
    assert "в ожидаемом выводе нет перевода строки в конце" in difference("exact", "a", "a\n").text()
    assert difference("exact", "a\n", "a \n").text() == \
        "строка 1: ожидалось «a», получено «a » (разница в пробелах в конце строки)"
    assert difference("exact", "a\nb\n", "a\n").text() == "строка 2: ожидалось «b», получено конец вывода"
    assert difference("exact", "a\n", "a\n\n").text() == "строка 2: ожидалось конец вывода, получено «»"


def test_a_difference_in_spaces_inside_a_line_is_named_with_its_place():
    """«сумма:  6» against «сумма: 6» looks the same at a glance, and the same on a page."""
    for mode in ("exact", "lines"):
        assert difference(mode, "сумма: 6\n", "сумма:  6\n").text() == \
            "строка 1: ожидалось «сумма: 6», получено «сумма:  6» (разница только в пробелах, с 8-го знака)"
    assert difference("exact", "a b\n", "ab\n").note == "разница только в пробелах, с 2-го знака"
    assert difference("exact", "a b\n", "a c\n").note == ""


def test_a_short_input_is_shown_line_by_line_and_a_long_one_counted():
    from pseudo.gradebook import test_lines
    from pseudo.tasks import Test
    found = {"status": "failed", "diff": difference("exact", "6\n", "5\n").as_dict()}
    assert test_lines(Test("01", "3\n1 2 3\n", "6\n"), found)[1:3] == [
        "        ввод:      «3»", "                   «1 2 3»"]
    assert test_lines(Test("01", "1\n2\n3\n4\n", "6\n"), found)[1] == "        ввод:      4 строки, 8 знаков"
    assert test_lines(Test("01", "1\n" * 21, "6\n"), found)[1] == "        ввод:      21 строка, 42 знака"


def test_lines_comparison_ignores_trailing_blanks_and_final_newlines():
    assert difference("lines", "a\nb\n", "a  \nb\t\n\n\n") is None
    assert difference("lines", "a\nb", "a\nb\n") is None
    assert difference("lines", "a\n\nb\n", "a\nb\n").text() == "строка 2: ожидалось «», получено «b»"


def test_numbers_comparison_reads_numbers_by_value():
    assert difference("numbers", "2.5 7\n10", "5/2\n7 10\n") is None
    assert difference("numbers", "ответ: 2,5", "ответ: 2.50") is None
    diff = difference("numbers", "1 2\n3\n", "1 2 4\n")
    assert (diff.expected_line, diff.received_line, diff.expected, diff.received) == (2, 1, "3", "4")
    assert difference("numbers", "да 1", "да").text() == "строка 2 (в ожидаемом выводе — 1): ожидалось «1», " \
                                                       "получено конец вывода"


def test_a_long_line_is_shown_around_its_first_difference():
    a = "x" * 200 + "A" + "y" * 200
    diff = difference("exact", a, a.replace("A", "B"))
    assert diff.expected.startswith("…") and diff.expected.endswith("…") and "A" in diff.expected
    assert len(diff.expected) <= 82


lines_text = st.lists(st.text(alphabet=" \tab1,.\n/-", max_size=12), max_size=6).map("\n".join)


@given(lines_text)
def test_an_output_always_equals_itself(text):
    for mode in ("exact", "lines", "numbers"):
        assert difference(mode, text, text) is None


@given(lines_text, lines_text)
def test_exact_comparison_is_equality_and_the_others_are_looser(a, b):
    exact = difference("exact", a, b)
    assert (exact is None) == (a == b)
    if exact is None:
        assert difference("lines", a, b) is None and difference("numbers", a, b) is None
    if difference("lines", a, b) is None:
        assert difference("numbers", a, b) is None


@given(lines_text)
def test_lines_comparison_ignores_blanks_at_line_ends(text):
    padded = "\n".join(line + " \t" for line in text.split("\n")) + "\n\n"
    assert difference("lines", text, padded) is None


# ---- the example task and what a pupil may see ----

def test_the_example_tasks_answers_agree_with_an_independent_solver():
    """The expected outputs of examples/tasks/queens, from the statement by brute force."""
    task = read_task(str(EXAMPLE))
    assert [t.name for t in task.tests] == ["01", "02", "03", "04", "05", "06"]
    for test in task.tests:
        n = int(test.input)
        found = [p for p in permutations(range(1, n + 1))
                 if all(abs(p[a] - p[b]) != b - a for a in range(n) for b in range(a + 1, n))]
        first = f"первое: {' '.join(map(str, found[0]))}\n" if found else ""
        assert test.expected == f"решений: {len(found)}\n{first}"


def test_a_pupil_sees_the_statement_and_the_visible_tests_only():
    data = for_pupils(read_task(str(EXAMPLE)))
    assert data["title"] == "Ферзи на доске n × n" and data["statement"].startswith("# Ферзи на доске n × n")
    assert [t["name"] for t in data["tests"]] == ["01", "02", "03", "04"]
    assert data["tests"][0] == {"name": "01", "input": "4\n", "expected": "решений: 2\nпервое: 2 4 1 3\n"}
    assert "solution" not in str(data) and data["compare"] == "lines"


def test_reading_a_task_raises_task_errors(tmp_path):
    with pytest.raises(TaskError) as caught:
        read_task(str(tmp_path / "нет"))
    assert caught.value.exit_code == 64


def test_without_fork_the_runs_give_the_same_results_in_this_process(tmp_path, monkeypatch):
    """Where there is no fork (Windows), each run goes in this process, under the runtime's limits."""
    task = read_task(str(doubling(tmp_path)))
    works = make_class(tmp_path)
    paths = sorted(str(p) for p in works.glob("*.pseudo") if p.stem != "цикл")

    def results():
        found = {}
        judge.check(task, paths, task.tests, 2, lambda i, m: found.setdefault(i, []).append(
            (m.get("test"), m.get("status"), m.get("detail"), m.get("error"))))
        return {i: sorted(v, key=str) for i, v in found.items()}
    forked = results()
    monkeypatch.setattr(judge, "FORKS", False)
    assert results() == forked


# ---- the playground's link to a task ----

def test_the_link_holds_what_a_pupil_sees_and_no_hidden_test():
    from pseudo.site.task import unpack
    done = cli("site", "link", "examples/tasks/queens", "--site", "https://school.example/pseudo/")
    assert done.returncode == 0 and done.stderr == ""
    address, packed = done.stdout.strip().split("#task=")
    assert address == "https://school.example/pseudo/"
    data = unpack(packed)
    task = read_task(str(ROOT / "examples" / "tasks" / "queens"))
    assert data == for_pupils(task) and [t["name"] for t in data["tests"]] == ["01", "02", "03", "04"]
    shown = json.dumps(data, ensure_ascii=False)
    assert not any(t.expected in shown for t in task.tests if t.hidden) and "HR (k) =" not in shown  # nor the solution


def test_a_link_to_a_bad_task_folder_says_why(tmp_path):
    (tmp_path / "tests").mkdir()
    (tmp_path / "task.toml").write_text("compare = 'exactly'\n", encoding="utf-8")
    done = cli("site", "link", str(tmp_path))
    assert done.returncode == 64 and done.stdout == "" and "Traceback" not in done.stderr
    assert f"{tmp_path}/task.toml:1:" in done.stderr and f"в папке {tmp_path}/tests нет тестов" in done.stderr


def test_the_pages_check_is_pseudo_tests_own(tmp_path):
    """«Проверить» in the page (site/task.py, run here as Pyodide runs it): pseudo test's lines."""
    from pseudo.site.task import check
    task = read_task(str(ROOT / "examples" / "tasks" / "queens"))
    wrong = tmp_path / "wrong.pseudo"
    wrong.write_text("ПРОЧЕСТЬ n\nСООБЩИТЬ 'решений:', n\n", encoding="utf-8")
    told = []
    assert check(for_pupils(task), str(wrong), 2000, told.append) == {"passed": 0, "tests": 4}
    assert [t["status"] for t in told] == ["failed"] * 4
    printed = cli("test", "examples/tasks/queens", str(wrong)).stdout.splitlines()
    assert [line for t in told for line in t["lines"]] == printed[1:-1]
    broken = tmp_path / "broken.pseudo"
    broken.write_text("СООБЩИТЬ (\n", encoding="utf-8")
    assert check(for_pupils(task), str(broken), 2000, told.append)["error"].startswith(f"{broken}:1:10: ошибка")
