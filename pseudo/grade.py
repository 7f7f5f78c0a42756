"""The commands `pseudo test` (a pupil checks a solution against a task's tests; with no
program, the teacher checks the task's own solution on all of them) and `pseudo grade` (every
pupil's program on every test, a table, CSV and a page).

The command line defines their arguments (commands/arguments.py) and imports this module only to run them.
"""
from __future__ import annotations

import os
import sys

from .runtime.report import printable


def cmd_test(args) -> int:
    from .api import UsageError
    from .judge import check, not_a_pupils_work
    from .tasks import SOLUTION, read_task
    task = read_task(args.task)
    if args.file is None:
        if task.solution is None:
            raise UsageError(f"в задаче {args.task} нет решения учителя {SOLUTION}; укажите программу: "
                             f"pseudo test {args.task} РЕШЕНИЕ.pseudo")
        path, tests, pupil = task.solution, task.tests, False
    else:
        path, tests, pupil = args.file, task.visible, True
        _must_be_program(path)
        if task.is_answer(path):
            raise UsageError(not_a_pupils_work(path, task.folder))
    hidden = sum(t.hidden for t in tests)
    print(f"Задача «{printable(task.title)}»: {_tests_word(len(tests))}" + (f", из них скрытых: {hidden}" if hidden else ""))
    report = _TestReport(tests, args)
    check(task, [path], tests, _cores(), lambda _, message: report.take(message), pupil)
    if report.error is not None:
        print(printable(report.error, lines=True))
        print(f"Пройдено 0 из {len(tests)}: программа не выполнялась.")
        return 1
    print(f"Пройдено {report.passed} из {len(tests)}.")
    return 0 if report.passed == len(tests) else 1


class _TestReport:
    """`pseudo test`'s lines, printed in the order of the tests as their runs end."""

    def __init__(self, tests: list, args):
        from .gradebook import test_label
        self.tests, self.args = tests, args
        self.width = max((len(test_label(t)) for t in tests), default=0)
        self.results: dict[str, dict] = {}
        self.shown, self.passed, self.error = 0, 0, None
        self.errors: dict[str, str] = {}  # an error's message → the first test it stopped

    def take(self, message: dict) -> None:
        from .gradebook import test_lines
        if message["kind"] == "compiled":
            self.error = message["error"]
            if not self.args.quiet:
                for text in message["warnings"]:
                    print(text, file=sys.stderr)
            return
        self.results[message["test"]] = message
        while self.shown < len(self.tests) and self.tests[self.shown].name in self.results:
            test = self.tests[self.shown]
            found = self.results[test.name]
            same_as = self.errors.setdefault(found["message"], test.name) if found["status"] == "error" else None
            print("\n".join(test_lines(test, found, self.width, same_as if same_as != test.name else None)), flush=True)
            self.passed += found["status"] == "passed"
            self.shown += 1


def _cores() -> int:
    """The cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def _tests_word(n: int) -> str:
    last = n % 10 if n % 100 not in range(11, 15) else 0
    return f"{n} " + ("тест" if last == 1 else "теста" if last in (2, 3, 4) else "тестов")


def _must_be_program(path: str) -> None:
    from .api import UsageError
    if not os.path.exists(path):
        raise UsageError(f"файл {path} не найден")
    if os.path.isdir(path):
        raise UsageError(f"{path} — это папка, а не файл программы")


def cmd_grade(args) -> int:
    from .gradebook import Pupil, csv_text, page, pupil_names, table
    from .judge import check
    from .tasks import TESTS, read_task
    task = read_task(args.task)
    paths = _works(args.works)
    _check_outputs(args, task.files() + paths, os.path.join(task.folder, TESTS))
    pupils = [Pupil(name, path) for name, path in zip(pupil_names(paths), paths)]
    order = sorted(range(len(pupils)), key=lambda i: pupils[i].name.casefold())
    progress = _Progress(pupils, len(task.tests)) if sys.stderr.isatty() else None

    def take(index: int, message: dict) -> None:
        pupils[index].take(message)
        if progress is not None:
            progress.update()
    try:
        check(task, paths, task.tests, args.jobs or _cores(), take)
    finally:
        if progress is not None:
            progress.clear()
    pupils = [pupils[i] for i in order]
    shown = table(task, pupils, _width() if sys.stdout.isatty() else None)
    for name, text in (("csv", lambda: csv_text(task, pupils)), ("html", lambda: page(task, pupils))):
        path = getattr(args, name)
        if path:
            _write(path, text(), task.files() + paths)
    (sys.stderr if "-" in (args.csv, args.html) else sys.stdout).write(
        f"Задача «{printable(task.title)}»: {_tests_word(len(task.tests))}, учеников: {len(pupils)}\n{shown}")
    for path in (args.csv, args.html):
        if path and path != "-":
            print(f"pseudo: записано в {path}", file=sys.stderr)
    return 0


def _works(arguments: list[str]) -> list[str]:
    """The pupils' programs: each argument a .pseudo file, or a folder whose .pseudo files are
    (the extension in any case: Windows saves ИВАНОВ.PSEUDO). What else a folder holds is named
    on standard error, so that a pupil's work saved under another name is not lost unseen."""
    from .api import UsageError
    paths = []
    for argument in arguments:
        if os.path.isdir(argument):
            found, skipped = _programs_in(argument)
            if not found:
                raise UsageError(f"в папке {argument} нет файлов .pseudo" + (f" (есть: {skipped})" if skipped else ""))
            if skipped:
                print(f"pseudo: в папке {printable(argument)} пропущено — не файлы .pseudo: {skipped}", file=sys.stderr)
            paths += found
        elif os.path.isfile(argument):
            paths.append(argument)
        else:
            raise UsageError(f"файл {argument} не найден")
    return list(dict.fromkeys(paths))


def _programs_in(folder: str, shown: int = 10) -> tuple[list[str], str]:
    """The program files of a folder, in order, and the other entries in words (at most
    `shown` names; hidden ones, as .DS_Store, left out): «заметки.txt, старое/, канал.pseudo
    (не файл), и ещё 3»."""
    found, others = [], []
    for name in sorted(os.listdir(folder)):
        path = os.path.join(folder, name)
        program = name.lower().endswith(".pseudo")
        if program and os.path.isfile(path):
            found.append(path)
        elif not name.startswith("."):
            folder_mark = "/" if os.path.isdir(path) else ""
            others.append(printable(name) + (folder_mark or (" (не файл)" if program else "")))
    more = f", и ещё {len(others) - shown}" if len(others) > shown else ""
    return found, ", ".join(others[:shown]) + more


def _check_outputs(args, inputs: list[str], tests: str) -> None:
    """Refuse, before anything runs, an output that is an input (a task's file or a pupil's),
    or that would become one: a file in the task's `tests` folder is a test of every later
    check (and a .pseudo file, which files.check_output refuses, a pupil's program)."""
    from .files import OutputRefused, check_output, same_file
    chosen = [(name, getattr(args, name)) for name in ("csv", "html") if getattr(args, name)]
    if len(chosen) == 2 and (args.csv == args.html or same_file(args.csv, args.html)):
        raise OutputRefused(f"--csv и --html называют один файл {args.csv}; укажите разные")
    for name, path in chosen:
        if path == "-":
            continue
        for used in inputs:
            if same_file(path, used):
                raise OutputRefused(f"{path} — это {used}, входной файл проверки; он не будет перезаписан. "
                                    f"Укажите другой файл в --{name}")
        if _inside(path, tests):
            raise OutputRefused(f"{path} — в папке тестов задачи: файл там стал бы тестом. "
                                f"Укажите файл вне {tests} в --{name}")
        check_output(path, [])


def _inside(path: str, folder: str) -> bool:
    where, folder = os.path.realpath(os.path.dirname(os.path.abspath(path))), os.path.realpath(folder)
    return where == folder or where.startswith(folder + os.sep)


def _write(path: str, text: str, inputs: list[str]) -> None:
    from .files import write_file
    if path == "-":
        sys.stdout.write(text.lstrip("\ufeff"))  # the byte-order mark is for a file a spreadsheet opens
        sys.stdout.flush()
        return
    write_file(path, text, inputs)


def _width() -> int:
    try:
        return os.get_terminal_size(sys.stdout.fileno()).columns
    except (OSError, ValueError):
        return 80


class _Progress:
    """The line on the terminal (standard error) that counts what is done while grading goes on."""

    def __init__(self, pupils: list, tests: int):
        import time
        self.clock, self.shown = time.monotonic, 0.0
        self.pupils, self.tests = pupils, tests

    def update(self) -> None:
        if self.clock() - self.shown < 0.1:
            return
        self.shown = self.clock()
        done = sum(p.error is not None or len(p.results) == self.tests for p in self.pupils)
        runs = sum(len(p.results) for p in self.pupils)
        sys.stderr.write(f"\rпроверено программ: {done} из {len(self.pupils)}, запусков: {runs}\x1b[K")
        sys.stderr.flush()

    def clear(self) -> None:
        sys.stderr.write("\r\x1b[K")
        sys.stderr.flush()
