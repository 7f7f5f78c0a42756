"""The command line's parser: every command's arguments and their help, and argparse's own
words, in Russian. cli.py parses with it; so do the notebook's %%pseudo (the arguments of `run`
and `trace`), shell completion and the man page (tools/shell.py)."""
from __future__ import annotations

import argparse
import os
import sys

from .. import __version__
from ..errors import EXIT_USAGE
from ..runtime import Limits
from ..runtime.messages import ARGPARSE_WORDS
from ..runtime.runner import MAX_DEPTH

DESCRIPTION = """\
Исполняет псевдокод книги Ж. Арсака «Программирование игр и головоломок» (1990)
так, как он напечатан: ЕСЛИ … ТО … КОНЕЦ_ЕСЛИ, ДЛЯ … ВЫПОЛНЯТЬ … ВЕРНУТЬСЯ,
автоматы с метками, рекурсивные процедуры и фразы вроде «место k, i свободно»."""

EPILOG = """\
коды выхода: 0 — успех, 64 — неверный вызов, 65 — синтаксическая или статическая
ошибка, 69 — нет внешней программы (dot), 70 — ошибка выполнения, 130 — прервано (Ctrl-C).
пример: pseudo run programs/queens_recursive.pseudo"""

MAX_EVENTS = 1_000_000
MAX_EVENTS_KEPT = 200_000
SITE_ADDRESS = "http://127.0.0.1:8000/"  # where `pseudo site serve` shows a built site

def _russian(text: str) -> str:
    return ARGPARSE_WORDS.get(text, text)


argparse._ = _russian  # argparse looks its words up through gettext's `_` at call time


def _columns() -> int:
    """The terminal's width, as shutil.get_terminal_size finds it (shutil itself is not imported
    at start: argparse would import it for every argument it checks)."""
    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        columns = 0
    if columns > 0:
        return columns
    try:
        return os.get_terminal_size(sys.__stdout__.fileno()).columns
    except (AttributeError, ValueError, OSError):
        return 80


class _Formatter(argparse.HelpFormatter):
    def __init__(self, prog, indent_increment=2, max_help_position=24, width=None):
        super().__init__(prog, indent_increment, max_help_position, width or _columns() - 2)


class _RawFormatter(_Formatter, argparse.RawDescriptionHelpFormatter): pass


class _Parser(argparse.ArgumentParser):
    def __init__(self, *args, formatter_class=_Formatter, **kwargs):
        super().__init__(*args, formatter_class=formatter_class, **kwargs)
        self.hint: str | None = None  # the likely fix of the error about to be told

    def _check_value(self, action, value):
        if action.choices is not None and value not in action.choices:
            self.hint = _nearest(value, list(action.choices))
        super()._check_value(action, value)

    def error(self, message: str, hint: str | None = None):
        self.print_usage(sys.stderr)
        hint = hint or self.hint
        self.exit(EXIT_USAGE, f"{self.prog}: ошибка: {message}\n" + (f"  подсказка: {hint}\n" if hint else ""))


def _nearest(word: str, choices: list[str]) -> str | None:
    import difflib  # only on this path: not at start-up
    found = difflib.get_close_matches(word, choices, n=1, cutoff=0.6)
    return f"может быть, {found[0]}?" if found else None


# what `pseudo run` takes and `pseudo py` does not: the file written with --limits takes them when it runs
LIMIT_OPTIONS = ("--max-steps", "--max-depth", "--time-limit", "--seed")


def unknown_arguments(parser: _Parser, args, extras: list[str]):
    """Arguments the command does not take: told by the command's own parser (its usage), with
    the option meant where one is near, or where pseudo py's limits go."""
    command = next((a.choices.get(args.command) for a in parser._actions
                    if isinstance(a, argparse._SubParsersAction)), None) if args.command else None
    told = command or parser
    options = [o for a in told._actions for o in a.option_strings if o.startswith("--")]
    hint = None
    for extra in extras:
        word = extra.split("=")[0]
        if args.command == "py" and word in LIMIT_OPTIONS:
            hint = (f"у pseudo py нет {word}: пределы есть у файла, записанного с --limits, и задаются при его "
                    f"запуске — pseudo py --limits ФАЙЛ -o ФАЙЛ.py, затем python3 ФАЙЛ.py {word} …")
        elif word.startswith("-"):
            hint = _nearest(word, options)
        if hint:
            break
    told.error(_russian("unrecognized arguments: %s") % " ".join(extras), hint)


def _integer(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"нужно целое число, а не {text!r}") from None


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"нужно целое число, а не {text!r}") from None
    if value <= 0:
        raise argparse.ArgumentTypeError("нужно положительное число")
    return value


def _depth(text: str) -> int:
    value = _positive(text)
    if value > MAX_DEPTH:
        raise argparse.ArgumentTypeError(f"глубина больше {MAX_DEPTH:_} не поместится в память".replace("_", " "))
    return value


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"нужно число секунд, а не {text!r}") from None
    if not 0 < value < float("inf"):  # nan is no number of seconds either
        raise argparse.ArgumentTypeError("нужно конечное положительное число секунд")
    return value


def build_parser(cell: str | None = None) -> argparse.ArgumentParser:
    """The command line's parser; `cell`: the help of the program argument of `run` and `trace`
    made optional, for a notebook cell (notebook.py), whose text is the program."""
    parser = _Parser(prog="pseudo", description=DESCRIPTION, epilog=EPILOG, formatter_class=_RawFormatter)
    parser.add_argument("--version", action="version", version=f"pseudo {__version__}",
                        help="показать версию и выйти")
    sub = parser.add_subparsers(dest="command", metavar="КОМАНДА", title="команды", parser_class=_Parser)

    p_run = sub.add_parser("run", help="выполнить программу", description="Выполнить программу. "
                           "ПРОЧЕСТЬ читает стандартный ввод, СООБЩИТЬ пишет в стандартный вывод; "
                           "предупреждения и ошибки идут в стандартный поток ошибок.")
    _add_file(p_run, cell)
    _add_limits(p_run)
    p_run.add_argument("--stats", action="store_true",
                       help="после выполнения показать в потоке ошибок, сколько раз вошли в каждое "
                            "состояние и вызвали каждую процедуру")
    mode = p_run.add_mutually_exclusive_group()
    mode.add_argument("--interpret", action="store_true",
                      help="выполнить интерпретатором, не переводя в Python (медленнее; те же вывод и ошибки); "
                           "по умолчанию программа переводится в Python в памяти и выполняется")
    mode.add_argument("--compiled", action="store_true", help="перевести в Python и выполнить (так и по умолчанию)")
    p_run.add_argument("--no-cache", action="store_true",
                       help="перевести программу заново, не заглядывая в кэш переведённых программ "
                            "и ничего в него не записывая (то же — PSEUDO_NO_CACHE=1); папка кэша — "
                            "programs в $PSEUDO_CACHE_DIR, иначе в $XDG_CACHE_HOME/pseudo или "
                            "~/.cache/pseudo")
    p_run.add_argument("--debug", action="store_true",
                       help="показать трассировку Python: при внутренней ошибке, а при ошибке программы — "
                            "кадры переведённой программы (они называют файл .pseudo и его строки)")

    p_check = sub.add_parser("check", help="проверить программу, не выполняя её",
                             description="Показать все синтаксические и статические ошибки и все "
                                         "предупреждения, не выполняя программу.")
    _add_file(p_check)

    p_graph = sub.add_parser("graph", help="нарисовать диаграмму состояний (Graphviz DOT)",
                             description="Записать диаграмму состояний автомата на языке DOT (Graphviz): "
                                         "узел — состояние (вход и Я отмечены), стрелка — переход с условием. "
                                         "В программе без меток рисуется граф вызовов процедур.")
    _add_file(p_graph)
    p_graph.add_argument("-o", "--output", metavar="ФАЙЛ", help="куда записать (по умолчанию — стандартный вывод)")
    p_graph.add_argument("--format", choices=["dot", "svg", "png"], default="dot",
                         help="dot — текст DOT (по умолчанию); svg и png рисует программа dot из Graphviz")
    p_graph.add_argument("--flowchart", action="store_true",
                         help="блок-схема (ГОСТ 19.701) основной программы: начало и конец, действия, "
                              "условия с ветвями ДА и НЕТ, ввод и вывод, циклы, вызовы, переходы")
    p_graph.add_argument("--proc", metavar="ИМЯ", help="блок-схема этой процедуры, функции или фразы (с ним "
                                                       "--flowchart можно не писать)")

    p_trace = sub.add_parser("trace", help="выполнить программу и показать её работу шаг за шагом",
                             description="Выполнить программу, показывая каждый шаг: инструкцию, изменения "
                                         "переменных, вызовы и возвраты (с отступом по глубине), переходы "
                                         "автомата. Трассировка идёт в стандартный вывод: её можно сохранить "
                                         "(pseudo trace p.pseudo > trace.txt) или листать (pseudo trace p.pseudo "
                                         "| less). Вывод программы в ней уже есть, строками «вывод: …», и "
                                         "отдельно не печатается, чтобы не смешиваться с ней. С -o ФАЙЛ (и с "
                                         "--html) трассировка пишется в файл, а вывод программы идёт в "
                                         "стандартный вывод, как у pseudo run. Предупреждения и сообщения "
                                         "pseudo — в поток ошибок.")
    _add_file(p_trace, cell)
    view = p_trace.add_mutually_exclusive_group()
    view.add_argument("--format", choices=["text", "jsonl", "table"], default="text",
                      help="text — по строке на событие (по умолчанию); jsonl — событие JSON в строке; "
                           "table — таблица значений переменных по шагам, с глубиной и текущим вызовом")
    view.add_argument("--margin", action="store_true",
                      help="текст программы, справа у каждой строки — последние присвоенные на ней значения, "
                           "у заголовка процедуры — аргументы её вызовов; ниже — вывод программы")
    view.add_argument("--explain", action="store_true", help="рассказывать каждый шаг словами")
    view.add_argument("--html", action="store_true",
                      help="страница для браузера: текст программы, переменные по вызовам, массивы клетками, "
                           "дерево вызовов, вывод; проигрывание, шаг через вызов и из вызова, переход к строке, "
                           "состоянию или выводу, крупный шрифт для проектора")
    p_trace.add_argument("-o", "--output", metavar="ФАЙЛ",
                         help="записать трассировку в файл, а не в стандартный вывод; вывод программы тогда идёт "
                              "в стандартный вывод (для --html по умолчанию — ФАЙЛ.html рядом с программой)")
    p_trace.add_argument("--only", metavar="ВИДЫ",
                         help="только эти события, через запятую: stmts, states, calls, assign, output")
    p_trace.add_argument("--vars", metavar="ИМЕНА", help="только эти переменные, через запятую: k,c")
    p_trace.add_argument("--from", dest="first", type=_positive, metavar="N", help="начиная с события N")
    p_trace.add_argument("--to", dest="last", type=_positive, metavar="M", help="до события M")
    p_trace.add_argument("--depth", type=_integer, metavar="D", help="только события на глубине вызовов не больше D")
    p_trace.add_argument("--max-events", type=_positive, metavar="N",
                         help=f"остановиться после N событий (по умолчанию {MAX_EVENTS:_}; для table и margin, "
                              f"которые держат всё в памяти, — {MAX_EVENTS_KEPT:_})".replace("_", " "))
    _add_limits(p_trace)

    p_step = sub.add_parser("step", help="пошаговое выполнение в терминале",
                            description="Выполнить программу и пройти её по шагам: следующая инструкция, "
                                        "вход в вызов и выход из него, до строки, состояния или вызова "
                                        "процедуры, шаг назад, значение выражения; на каждой остановке видно, "
                                        "что изменил последний шаг и что программа напечатала. Функция из "
                                        "одного выражения — тоже шаги: её тело, выбранная ветвь, значение. "
                                        "Ввод для ПРОЧЕСТЬ берётся из файла --input, а без него в терминале "
                                        "спрашивается, когда программа читает.")
    _add_file(p_step)
    p_step.add_argument("--input", metavar="ФАЙЛ", help="стандартный ввод программы (по умолчанию в терминале — "
                                                        "с клавиатуры, когда программа читает; иначе пустой)")
    p_step.add_argument("--max-events", type=_positive, default=MAX_EVENTS_KEPT, metavar="N",
                        help=f"записать не больше N событий (по умолчанию {MAX_EVENTS_KEPT:_})".replace("_", " "))
    _add_limits(p_step)

    p_py = sub.add_parser("py", help="перевести программу в читаемый Python",
                          description="Записать программу как самостоятельный модуль Python 3.11: он "
                                      "выполняется командой python3 без pseudo и печатает то же, что pseudo run.")
    _add_file(p_py)
    p_py.add_argument("-o", "--output", metavar="ФАЙЛ.py", help="куда записать (по умолчанию — стандартный вывод)")
    counting = p_py.add_mutually_exclusive_group()
    counting.add_argument("--limits", action="store_true",
                          help="со счётом шагов: те же пределы шагов, глубины рекурсии и времени, что у pseudo run "
                               "(по умолчанию программа записывается так, как её написал бы человек, без счёта шагов)")
    counting.add_argument("--no-limits", action="store_true",
                          help="без счёта шагов — так файл пишется и по умолчанию (ключ оставлен для прежних команд)")
    p_py.add_argument("--import-runtime", action="store_true",
                      help="не копировать среду выполнения pseudo в файл, а импортировать установленную "
                           "(файл короче, но без pseudo не запустится)")
    _add_site(sub)
    _add_grading(sub)
    parser.commands = sub.choices  # the command's name → its parser
    return parser


def _add_grading(sub) -> None:
    """The arguments of `pseudo test` and `pseudo grade` (grade.py)."""
    p_test = sub.add_parser("test", help="проверить решение задачи на её тестах",
                            description="Выполнить программу на открытых тестах задачи: по строке на тест — "
                                        "пройден или нет, для непройденного — первая несовпавшая строка "
                                        "(ожидалось и получено), ошибка программы с её местом или превышенный "
                                        "предел. Код выхода 0, если пройдены все, иначе 1. Без программы — "
                                        "решение учителя solution.pseudo на всех тестах, скрытых тоже.")
    p_test.add_argument("task", metavar="ЗАДАЧА", help="папка задачи (tests/, task.toml, README.md)")
    p_test.add_argument("file", metavar="РЕШЕНИЕ", nargs="?", help="программа (.pseudo); без неё — solution.pseudo "
                                                                    "задачи")
    p_test.add_argument("-q", "--quiet", action="store_true", help="не показывать предупреждения о программе")
    _debug(p_test)
    p_grade = sub.add_parser("grade", help="проверить работы всего класса",
                             description="Выполнить программу каждого ученика на каждом тесте задачи, скрытые "
                                         "тоже, параллельно, каждый запуск в своём процессе под пределами "
                                         "задачи; показать таблицу и записать её в CSV и на страницу HTML.")
    p_grade.add_argument("task", metavar="ЗАДАЧА", help="папка задачи")
    p_grade.add_argument("works", metavar="РАБОТЫ", nargs="+",
                         help="файлы .pseudo или папки с ними; ученик назван по имени файла")
    p_grade.add_argument("--jobs", "-j", type=_jobs, metavar="N",
                         help="сколько запусков выполнять одновременно (по умолчанию — по числу ядер)")
    p_grade.add_argument("--csv", metavar="ФАЙЛ", help="записать таблицу в CSV для электронной таблицы")
    p_grade.add_argument("--html", metavar="ФАЙЛ", help="записать страницу: таблица и для каждой ошибки "
                                                       "ожидаемый и полученный вывод рядом")
    _debug(p_grade)


def _debug(p) -> None:
    p.add_argument("--debug", action="store_true", help="при внутренней ошибке показать трассировку Python")


def _jobs(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"нужно целое положительное число, а не {text!r}")
    return int(text)


def _add_site(sub) -> None:
    p_site = sub.add_parser("site", help="песочница в браузере: собрать и показать",
                            description="Песочница: статический сайт, где программы книги выполняются, "
                                        "трассируются и рисуются в браузере без установки (Pyodide).")
    site = p_site.add_subparsers(dest="site_command", metavar="ДЕЙСТВИЕ", required=True, parser_class=_Parser)
    p_build = site.add_parser("build", help="собрать сайт в папку",
                              description="Собрать сайт в папку: Pyodide, Graphviz и CodeMirror из npm (скачиваются "
                                          "один раз в ~/.cache/pseudo), этот pseudo, программы книги как примеры.")
    p_build.add_argument("folder", metavar="ПАПКА")
    p_build.add_argument("--programs", metavar="ПАПКА",
                         help="откуда взять примеры (по умолчанию — программы книги, что ставятся с pseudo)")
    p_serve = site.add_parser("serve", help="показать собранный сайт на этом компьютере",
                              description="Веб-сервер для собранной папки с заголовками COOP и COEP "
                                          "(без них кнопка «Стоп» перезапускает среду выполнения).")
    p_serve.add_argument("folder", metavar="ПАПКА")
    p_serve.add_argument("--port", type=_integer, default=8000, help="порт (по умолчанию 8000)")
    p_link = site.add_parser("link", help="ссылка на задачу для учеников",
                             description="Напечатать ссылку, которая открывает задачу в песочнице: условие рядом "
                                         "с редактором и кнопка «Проверить» (открытые тесты). В ссылку "
                                         "записаны условие и открытые тесты, скрытых тестов и решения в ней нет.")
    p_link.add_argument("folder", metavar="ЗАДАЧА", help="папка задачи (tests/, task.toml, README.md)")
    p_link.add_argument("--site", metavar="АДРЕС", default=SITE_ADDRESS,
                        help=f"адрес собранной песочницы (по умолчанию {SITE_ADDRESS}, pseudo site serve)")
    # the site's examples, for a pupil's own folder
    p_examples = sub.add_parser("examples", help="скопировать программы книги в папку",
                                description="Скопировать программы книги, что ставятся вместе с pseudo, в папку "
                                            "(с lib/ и файлами ввода); файлы, что там уже есть, не меняются.")
    p_examples.add_argument("folder", metavar="ПАПКА")


def _add_limits(p: argparse.ArgumentParser) -> None:
    limits = p.add_argument_group("пределы")
    defaults = Limits()
    limits.add_argument("--max-steps", type=_positive, default=defaults.max_steps, metavar="N",
                        help=f"наибольшее число шагов: повторений циклов, вызовов и переходов "
                             f"(по умолчанию {defaults.max_steps:_})".replace("_", " "))
    limits.add_argument("--max-depth", type=_depth, default=defaults.max_depth, metavar="N",
                        help=f"наибольшая глубина рекурсии (по умолчанию {defaults.max_depth:_})".replace("_", " "))
    limits.add_argument("--time-limit", type=_seconds, default=defaults.time_limit, metavar="СЕК",
                        help=f"наибольшее время выполнения в секундах (по умолчанию {defaults.time_limit:g})")
    p.add_argument("--seed", type=_integer, metavar="N",
                   help="начало последовательности СЛУЧАЙНОЕ: с одним и тем же N — те же числа при каждом запуске, "
                        "в любом режиме и в файле pseudo py (по умолчанию — каждый раз другие)")


def _add_file(p: argparse.ArgumentParser, cell: str | None = None) -> None:
    """The program argument, -q and --debug, which every command has."""
    if cell is None:
        p.add_argument("file", metavar="ФАЙЛ", help="программа на языке книги (обычно .pseudo)")
    else:
        p.add_argument("file", metavar="ФАЙЛ", nargs="?", default=None, help=cell)
    p.add_argument("-q", "--quiet", action="store_true", help="не показывать предупреждения")
    if p.prog.split()[-1] != "run":  # `run` explains --debug its own way (with --compiled)
        _debug(p)
