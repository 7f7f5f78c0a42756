"""The command line as a user meets it: exit codes, messages, help, Ctrl-C."""
import contextlib
import os
import re
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import ROOT, cli


def write(tmp_path, text, name="п.pseudo"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_run_ok_prints_program_output(tmp_path):
    result = cli("run", write(tmp_path, "СООБЩИТЬ 'привет', 2 + 2\n"))
    assert (result.returncode, result.stdout, result.stderr) == (0, "привет 4\n", "")


def test_run_reads_standard_input(tmp_path):
    result = cli("run", write(tmp_path, "ПРОЧЕСТЬ a, b\nСООБЩИТЬ a * b\n"), stdin="6\n7\n")
    assert result.stdout == "42\n"


def test_help_is_russian():
    for args in (["--help"], ["run", "--help"], ["check", "--help"]):
        result = cli(*args)
        assert result.returncode == 0
        assert "использование: pseudo" in result.stdout
        assert "usage" not in result.stdout and "show this help" not in result.stdout


@pytest.mark.parametrize("limits", [[], ["--limits"]], ids=["readable", "limits"])
def test_an_emitted_files_options_are_russian_and_a_misused_one_exits_64(tmp_path, limits):
    """`python3 f.py -h` and its usage errors speak as pseudo's own options do: in Russian,
    every option with its help, a misused one told with a hint and exit code 64."""
    path = tmp_path / "f.py"
    assert cli("py", *limits, write(tmp_path, "СООБЩИТЬ СЛУЧАЙНОЕ(6)"), "-o", str(path)).returncode == 0

    def run(*argv):
        return subprocess.run([sys.executable, str(path), *argv], capture_output=True, text=True, encoding="utf-8",
                              timeout=60, check=False)
    shown = run("-h")
    assert shown.returncode == 0 and shown.stdout.startswith("использование: f.py [-h]")
    assert "show this help" not in shown.stdout and "options" not in shown.stdout
    for option in ["--max-depth", "--seed"] + (["--max-steps", "--time-limit"] if limits else []):
        assert re.search(rf"\n  {option} \S+ +\w", shown.stdout), (option, shown.stdout)  # with its help
    for argv, told in [(["--seed", "x"], "аргумент --seed: неверное значение 'x'"),
                       (["--max-depth", "0"], "пределы — положительные числа"),
                       (["--frob"], "неизвестные аргументы: --frob")]:
        misused = run(*argv)
        assert misused.returncode == 64 and misused.stdout == "", argv
        error, hint = misused.stderr.splitlines()[-2:]
        assert misused.stderr.startswith("использование: f.py [-h]") and error.startswith("f.py: ошибка: ") \
            and told in error, misused.stderr
        assert hint == "подсказка: параметры файла показывает python3 f.py --help"


def test_usage_errors_exit_64(tmp_path):
    assert cli().returncode == 64
    assert cli("run").returncode == 64
    assert cli("frob").returncode == 64
    assert cli("run", "--max-steps", "ноль", write(tmp_path, "x := 1")).returncode == 64
    missing = cli("run", "нет-такого.pseudo")
    assert missing.returncode == 64 and "не найден" in missing.stderr


@pytest.mark.parametrize(("args", "said", "hint"), [
    (["rnu", "p.pseudo"], "недопустимое значение 'rnu'", "может быть, run?"),
    (["run", "--interpert", "p.pseudo"], "pseudo run: ошибка: неизвестные аргументы: --interpert",
     "может быть, --interpret?"),
    (["trace", "p.pseudo", "--formt=jsonl"], "pseudo trace: ошибка", "может быть, --format?"),
    (["py", "p.pseudo", "--max-steps", "5"], "pseudo py: ошибка: неизвестные аргументы: --max-steps 5",
     "у pseudo py нет --max-steps: пределы есть у файла, записанного с --limits"),
    (["run", "--seed", "abc", "p.pseudo"], "аргумент --seed: нужно целое число, а не 'abc'", None),
])
def test_a_usage_error_is_told_by_the_command_with_the_likely_fix(tmp_path, args, said, hint):
    write(tmp_path, "x := 1", "p.pseudo")
    result = cli(*[str(tmp_path / a) if a == "p.pseudo" else a for a in args])
    assert result.returncode == 64 and said in result.stderr, result.stderr
    assert (f"  подсказка: {hint}" in result.stderr) if hint else "подсказка" not in result.stderr
    assert "usage" not in result.stderr and "invalid" not in result.stderr
    if args[0] != "rnu":  # the command's own usage, not the top level's
        assert f"использование: pseudo {args[0]} " in result.stderr


def test_syntax_error_exit_65_with_caret_under_cyrillic(tmp_path):
    path = write(tmp_path, "x := 1\nЕСЛИ x = 1 ТО СООБЩИТЬ 'ж' КОНЕЦ_ЕСЛИ КОНЕЦ_ЕСЛИ\n")
    result = cli("run", path)
    assert result.returncode == 65
    lines = result.stderr.splitlines()
    assert lines[0] == f"{path}:2:39: ошибка: неожиданное КОНЕЦ_ЕСЛИ"
    source_line, caret_line = lines[1], lines[2]
    assert source_line.endswith("ЕСЛИ x = 1 ТО СООБЩИТЬ 'ж' КОНЕЦ_ЕСЛИ КОНЕЦ_ЕСЛИ")
    offset = source_line.index("|") + 2
    assert caret_line.index("^") - offset == 38
    assert "подсказка" in result.stderr
    assert "Traceback" not in result.stderr


def test_runtime_error_exit_70_with_call_stack(tmp_path):
    path = write(tmp_path, "f (x) = 10 / x\nСООБЩИТЬ f(2)\nСООБЩИТЬ f(0)\n")
    result = cli("run", path)
    assert result.returncode == 70
    assert result.stdout == "5\n"
    assert f"{path}:1:9: ошибка: деление на ноль" in result.stderr
    assert "f(0)  — вызов в" in result.stderr


def test_check_reports_everything_without_running(tmp_path):
    path = write(tmp_path, "СООБЩИТЬ 'не выполняется'\nx := 5 − 1\nзанят 1\nf(1, 2)\nf (a) = a\n")
    result = cli("check", path)
    assert result.returncode == 65
    assert result.stdout == ""
    assert ":3:1: ошибка" in result.stderr and ":4:1: ошибка" in result.stderr
    silent = cli("check", write(tmp_path, "x := 5 − 1\n", "ok.pseudo"))
    assert silent.returncode == 0 and silent.stderr == "ошибок нет, предупреждений: 0\n"  # the book's sign
    warned = cli("check", write(tmp_path, "c := 1\nс := c + 1\nСООБЩИТЬ c, с\n", "warn.pseudo"))
    assert warned.returncode == 0 and ":2:1:" in warned.stderr and "предупреждений: 1" in warned.stderr


def test_limits_are_options(tmp_path):
    loop = write(tmp_path, "x := 0\nПОКА ИСТИНА ВЫПОЛНЯТЬ x := x + 1 ВЕРНУТЬСЯ\n")  # never the same state again
    result = cli("run", "--max-steps", "5000", loop)
    assert result.returncode == 70 and "предел шагов (5000)" in result.stderr
    result = cli("run", "--time-limit", "0.3", loop)
    assert result.returncode == 70 and "предел времени" in result.stderr
    deep = write(tmp_path, "f (n) = ЕСЛИ n = 0 ТО 0 ИНАЧЕ f(n - 1) КОНЕЦ_ЕСЛИ\nСООБЩИТЬ f(1000)\n", "d.pseudo")
    result = cli("run", "--max-depth", "100", deep)
    assert result.returncode == 70 and "глубина рекурсии (100" in result.stderr
    assert "RecursionError" not in result.stderr


def test_deep_recursion_of_ten_thousand_calls_works(tmp_path):
    deep = write(tmp_path, "f (n) = ЕСЛИ n = 0 ТО 0 ИНАЧЕ 1 + f(n - 1) КОНЕЦ_ЕСЛИ\nСООБЩИТЬ f(10000)\n")
    result = cli("run", deep)
    assert (result.returncode, result.stdout) == (0, "10000\n")


@contextlib.contextmanager
def child(argv, **kw):
    """A child process that Ctrl-C reaches as it reaches one started from a terminal — even when
    the tests run with SIGINT ignored (started in the background by a shell, under nohup), which
    a child would inherit and Python would keep — and that never outlives its test."""
    # a signal with a handler here starts with its default disposition in the child; an ignored one stays ignored
    inherited = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        proc = subprocess.Popen(argv, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                encoding="utf-8", env=dict(os.environ, PYTHONIOENCODING="utf-8"), **kw)
    finally:
        signal.signal(signal.SIGINT, inherited)
    try:
        yield proc
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.communicate()


@pytest.mark.parametrize("mode", [[], ["--compiled"]])
def test_ctrl_c_prints_where_the_program_was(tmp_path, mode):
    path = write(tmp_path, "крутить (n) =\n    ПОКА ИСТИНА ВЫПОЛНЯТЬ n := n + 1 ВЕРНУТЬСЯ\nСООБЩИТЬ 1\nкрутить(1)\n")
    with child([sys.executable, "-m", "pseudo", "run", *mode, path]) as proc:
        _started(proc)
        time.sleep(0.5)
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=10)
    assert proc.returncode == 130
    assert "прервано (Ctrl-C)" in err
    assert ":2:5:" in err and "крутить(" in err


def _argv(tmp_path, text: str, mode: list[str], *options: str) -> list[str]:
    """The command that runs the program in a mode, or as an emitted file."""
    path = write(tmp_path, text)
    if mode[:1] == ["emitted"]:  # the readable file, or ["emitted", "--limits"]
        cli("py", "-q", *mode[1:], path, "-o", str(tmp_path / "p.py"))
        return [sys.executable, str(tmp_path / "p.py"), *options]
    return [sys.executable, "-m", "pseudo", "run", *mode, *options, path]


def _started(proc):
    """Wait (on a busy machine, long) for the child's first line of output: it is running its program."""
    ready, _, _ = select.select([proc.stdout], [], [], 60)
    assert ready and proc.stdout.readline(), "the program did not start"


def _interrupted(tmp_path, text: str, mode: list[str], wait: float, started: bool = False):
    """Run the program in a mode (or as an emitted file), send Ctrl-C after `wait` seconds (after
    its first line of output, if `started`): its exit code, output, errors, and the seconds it
    took to stop."""
    with child(_argv(tmp_path, text, mode)) as proc:
        if started:
            _started(proc)
        time.sleep(wait)
        sent = time.monotonic()
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=10)
    return proc.returncode, out, err, time.monotonic() - sent


def test_a_ctrl_c_just_before_the_work_ends_is_not_lost():
    """Ctrl-C while the work on the deep stack (compiling the program, say) is ending: the
    runner waits a moment for it, and when it ends on its own in that moment, the Ctrl-C still
    stops what was to follow (it was lost, and the program then ran on)."""
    import _thread

    from pseudo.runtime.runner import on_deep_stack

    def work():
        _thread.interrupt_main()  # as if Ctrl-C came now; the runner sees it within 0.1 s
        time.sleep(0.15)  # and ends within the 0.2 s the runner then waits for it

    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        with pytest.raises(KeyboardInterrupt):
            on_deep_stack(work, lambda: None)
    finally:
        signal.signal(signal.SIGINT, previous)


def test_a_child_gets_ctrl_c_though_the_tests_ignore_it(tmp_path):
    """The helper above, checked: with SIGINT ignored here, its child still stops on Ctrl-C."""
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        code, _, err, _ = _interrupted(tmp_path, "i := 0\nПОКА ИСТИНА ВЫПОЛНЯТЬ i := i + 1 ВЕРНУТЬСЯ\n", [], 1.0)
    finally:
        signal.signal(signal.SIGINT, previous)
    assert code == 130 and "прервано (Ctrl-C)" in err


@pytest.mark.parametrize("mode", [[], ["--interpret"], ["emitted", "--limits"]])
@pytest.mark.parametrize("text", [
    "x := 3 ^ 300000\nПОКА ИСТИНА ВЫПОЛНЯТЬ\n  y := x * x\n  q := y ДЕЛ (x + 1)\nВЕРНУТЬСЯ\n",  # slow steps
    "s := 0\nДЛЯ i := 1 ДО 5000 ВЫПОЛНЯТЬ\n  x := 7 ^ 350000\n  s := s + x ОСТ 10\nВЕРНУТЬСЯ\n",  # no step for long
], ids=["slow steps", "no steps"])
def test_the_time_limit_stops_slow_steps_within_a_second_or_so(tmp_path, mode, text):
    """The time limit is watched, not only looked at every 16,384 steps: a program whose steps
    take a second (or whose short loop of constant bounds counts no step for minutes) stops
    soon after its limit, in every mode (the readable file has no limits: `pseudo py --limits`)."""
    with child(_argv(tmp_path, text, mode, "--time-limit", "1")) as proc:
        started = time.monotonic()
        _, err = proc.communicate(timeout=60)
    assert proc.returncode == 70 and "превышен предел времени (1 с)" in err, err
    assert time.monotonic() - started < 15  # the whole run is minutes, and was hours at each check


@pytest.mark.parametrize("mode", [[], ["--interpret"], ["emitted"], ["emitted", "--limits"]])
def test_ctrl_c_stops_a_loop_that_counts_no_steps_for_long(tmp_path, mode):
    """A short ДЛЯ of constant bounds counts its steps with the run around it, and each of its
    turns here takes milliseconds: Ctrl-C still stops it at once, where it is."""
    code, out, err, seconds = _interrupted(tmp_path, "СООБЩИТЬ 'пошла'\ns := 0\nДЛЯ i := 1 ДО 5000 ВЫПОЛНЯТЬ\n"
                                                     "  x := 7 ^ 40000\n  s := s + x ОСТ 10\nВЕРНУТЬСЯ\n"
                                                     "СООБЩИТЬ 'готово', s\n", mode, 0.5, started=True)
    assert (code, out) == (130, "")
    assert "прервано (Ctrl-C)" in err and "п.pseudo:" in err
    assert seconds < 1.5


@pytest.mark.parametrize("mode", [[], ["--interpret"], ["emitted"], ["emitted", "--limits"]])
def test_ctrl_c_stops_a_loop_of_slow_turns_at_its_next_step(tmp_path, mode):
    """The fast code counts this loop's steps in a local; its boundary is still the one Ctrl-C
    moves, so it stops at the head of the loop, as the interpreter does, not wherever Python is.
    The readable file counts no steps: it stops where it is, in the loop."""
    code, _, err, _ = _interrupted(tmp_path, "x := 7 ^ 170000\ns := 0\nСООБЩИТЬ 'пуск'\n"
                                             "ДЛЯ i := 1 ДО 100000000 ВЫПОЛНЯТЬ\n"
                                             "  y := x * x\n  s := s + y ОСТ 10\nВЕРНУТЬСЯ\n", mode, 0.5, started=True)
    assert code == 130
    assert "прервано (Ctrl-C)" in err
    if mode == ["emitted"]:
        assert re.search(r"п\.pseudo:[456]:\d+:", err), err
    else:
        assert "п.pseudo:4:1:" in err, err


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full here")
@pytest.mark.parametrize("command", [["run"], ["run", "--interpret"], ["emitted"], ["py"], ["trace"], ["--help"]])
def test_a_full_disk_under_standard_output_is_one_clean_error(tmp_path, command):
    """Standard output buffered, as in an ordinary shell (PYTHONUNBUFFERED unset): what fails at
    the last flush is reported once, with exit code 70 (64 for a file `pseudo py` writes, as for
    -o), and what the buffer held is dropped, not flushed again by Python at exit (exit 120)."""
    one = write(tmp_path, "СООБЩИТЬ 1\n")
    if command == ["emitted"]:
        cli("py", "-q", one, "-o", str(tmp_path / "p.py"))
        argv = [sys.executable, str(tmp_path / "p.py")]
    else:
        argv = [sys.executable, "-m", "pseudo", *command] + ([one] if command != ["--help"] else [])
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"} | {"PYTHONIOENCODING": "utf-8"}
    with open("/dev/full", "w") as full:
        result = subprocess.run(argv, stdout=full, stderr=subprocess.PIPE, text=True, encoding="utf-8", cwd=ROOT,
                                env=env, check=False, timeout=60)
    assert result.returncode == (64 if command == ["py"] else 70), result.stderr
    assert "на устройстве нет места" in result.stderr and result.stderr.count("ошибка:") == 1, result.stderr
    assert "Exception ignored" not in result.stderr and "Traceback" not in result.stderr


@pytest.mark.parametrize("case", ["stdin closed", "stdout closed", "ascii"])
def test_an_emitted_file_meets_closed_and_narrow_streams_as_pseudo_run_does(tmp_path, case):
    """`python3 p.py <&-`, `>&-`, PYTHONIOENCODING=ascii: the emitted file once ended in an
    internal error (sys.stdin None, an encoding error) where pseudo run gives the program's
    own error or its output; both now start their streams alike (runner.standard_streams)."""
    text = {"stdin closed": "ПРОЧЕСТЬ x\nСООБЩИТЬ x\n", "stdout closed": "СООБЩИТЬ 'привет'\n",
            "ascii": "СООБЩИТЬ 'привет'\n"}[case]
    program = write(tmp_path, text)
    outcomes = []
    for limits in ([], ["--limits"]):
        out = tmp_path / f"p{len(limits)}.py"
        assert cli("py", "-q", *limits, program, "-o", str(out)).returncode == 0
        outcomes.append([sys.executable, str(out)])
    outcomes.append([sys.executable, "-m", "pseudo", "run", "-q", program])
    env = dict(os.environ, PYTHONIOENCODING="ascii" if case == "ascii" else "utf-8")
    shell = {"stdin closed": '"$@" <&-', "stdout closed": '"$@" >&-', "ascii": '"$@"'}[case]
    results = []
    for argv in outcomes:
        result = subprocess.run(["sh", "-c", shell, "sh", *argv], capture_output=True, env=env, cwd=ROOT, timeout=60,
                                check=False)
        results.append((result.returncode, result.stdout, result.stderr.decode("utf-8")))
        assert "внутренняя ошибка" not in results[-1][2], results[-1]
    assert results[0] == results[1] == results[2]
    assert results[0][0] == (0 if case == "ascii" else 70)


def test_broken_pipe_is_not_an_error(tmp_path):
    path = write(tmp_path, "ДЛЯ i := 1 ДО 100000 ВЫПОЛНЯТЬ СООБЩИТЬ i ВЕРНУТЬСЯ\n")
    result = subprocess.run(f"{sys.executable} -m pseudo run {path} | head -1", shell=True, cwd=ROOT,
                            capture_output=True, text=True, encoding="utf-8", check=False)
    assert result.stdout == "1\n"
    assert "ошибка" not in result.stderr


def test_internal_errors_are_reported_as_such(monkeypatch, capsys, tmp_path):
    from pseudo import cli as cli_module
    from pseudo.commands import running

    def broken(args):
        raise ValueError("bug")
    monkeypatch.setattr(running, "cmd_run", broken)
    code = cli_module.main(["run", write(tmp_path, "x := 1")])
    err = capsys.readouterr().err
    assert code == 70
    assert "внутренняя ошибка pseudo" in err and "сообщите" in err and "Traceback" not in err


def test_a_file_the_system_refuses_where_no_message_names_it_is_told_in_russian(monkeypatch, capsys, tmp_path):
    """`pseudo site build` into a folder it may not write, say: the system's reason in Russian,
    with the file, exit 64 — not an internal error, not the system's English."""
    from pseudo import cli as cli_module
    from pseudo.commands import running

    def refused(args):
        raise PermissionError(13, "Permission denied", "/srv/сайт/index.html")
    monkeypatch.setattr(running, "cmd_run", refused)
    code = cli_module.main(["run", write(tmp_path, "x := 1")])
    err = capsys.readouterr().err
    assert code == 64
    assert err == "pseudo: ошибка: не удалось прочесть или записать /srv/сайт/index.html: нет прав доступа\n"


def test_every_command_of_the_parser_has_its_body_and_every_body_its_command():
    from pseudo import cli as cli_module
    from pseudo.commands.arguments import build_parser
    assert set(build_parser().commands) == set(cli_module.COMMANDS)
    for command in cli_module.COMMANDS:
        assert callable(cli_module.body(command)), command


def test_misused_limits_and_streams_are_clean_errors(tmp_path):
    """The command-line misuse the attack found: each a message and its exit code, no traceback."""
    one = write(tmp_path, "СООБЩИТЬ 1\n")
    for args in (["--time-limit", "nan"], ["--time-limit", "inf"], ["--max-depth", "100000000"]):
        result = cli("run", *args, one)
        assert result.returncode == 64 and "ошибка: аргумент" in result.stderr, args
    if Path("/dev/full").exists():
        with open("/dev/full", "w") as full:
            result = subprocess.run([sys.executable, "-m", "pseudo", "run", one], stdout=full, stderr=subprocess.PIPE,
                                    text=True, encoding="utf-8", cwd=ROOT, check=False,
                                    env=dict(os.environ, PYTHONUNBUFFERED="1"))
        assert result.returncode == 70 and ":1:1: ошибка: ошибка ввода или вывода" in result.stderr
        for more in ([], ["--max-events", "3"]):  # the trace fails during the run, or only at its end
            with open("/dev/full", "w") as full:
                result = subprocess.run([sys.executable, "-m", "pseudo", "trace", "--format", "jsonl", *more, one],
                                        stdout=full, stderr=subprocess.PIPE, text=True, encoding="utf-8", cwd=ROOT,
                                        check=False)
            assert result.returncode in (64, 70) and "на устройстве нет места" in result.stderr, more
            assert "внутренняя ошибка" not in result.stderr and "Traceback" not in result.stderr
    bad = tmp_path / "ввод.txt"
    bad.write_bytes(b"\xff\xfe")
    for path, words in ((tmp_path / "нет.txt", "не найден"),
                        (bad, (f"файл ввода {bad} не в кодировке UTF-8 (строка 1, столбец 1) — похоже, файл сохранён "
                               "в UTF-16 («Юникод» в Блокноте): сохраните файл ввода в UTF-8")),
                        ("/dev/zero", "файл ввода /dev/zero длиннее 10 000 000 знаков")):  # once read until memory ran out
        result = cli("step", "--input", str(path), one)
        assert result.returncode == 64 and words in result.stderr
    for result in (cli("run", one), cli("step", "--input", str(bad), one)):
        assert "Traceback" not in result.stderr


def _capped_memory():
    import resource
    resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))


def test_a_device_or_a_huge_file_is_refused_as_a_program_not_read(tmp_path):
    """A program file is read up to 10 MB: `pseudo run /dev/zero` and `ИСПОЛЬЗОВАТЬ '/dev/zero'`
    once read until memory ran out; a file a program uses must be a file, not a device or a
    named pipe (opening a pipe waits for a writer, a terminal for typing). Memory is capped
    here, so that a return of the fault fails the test, not the machine."""
    fifo = tmp_path / "канал.pseudo"
    os.mkfifo(fifo)
    cases = [(["/dev/zero"], 64, "pseudo: ошибка: не удалось прочесть /dev/zero: файл больше 10 МБ — это не программа")]
    for i, device in enumerate(("/dev/zero", "/dev/stdin", str(fifo))):
        used = write(tmp_path, f"ИСПОЛЬЗОВАТЬ '{device}'\nСООБЩИТЬ 1\n", f"п{i}.pseudo")
        cases.append(([used], 65, f"не удалось прочесть файл {device}: это не файл, а устройство или канал"))
    big = tmp_path / "большой.pseudo"
    big.write_bytes(b"x := 1\n" + b" " * (10 << 20))
    cases.append(([str(big)], 64, "файл больше 10 МБ — это не программа"))
    for args, code, said in cases:
        result = subprocess.run([sys.executable, "-m", "pseudo", "run", *args], capture_output=True, text=True,
                                encoding="utf-8", cwd=ROOT, timeout=60, check=False, preexec_fn=_capped_memory)
        assert result.returncode == code and said in result.stderr, (args, result.stderr)
        assert "внутренняя ошибка" not in result.stderr
        if code == 65:
            assert "подсказка: ИСПОЛЬЗОВАТЬ подключает файл с определениями на языке книги" in result.stderr


def test_check_names_every_broken_part_then_the_count_and_run_refuses_with_the_same(tmp_path):
    """docs/language.md §13: every chunk's syntax error, the others' errors, then the count."""
    path = write(tmp_path, "п1 (x) =\n    y := x +\nп2 (x) =\n    ЕСЛИ x > 1 ТО СООБЩИТЬ 1\nп3 =\n"
                           "    СООБЩИТЬ неизвестная фраза\nСООБЩИТЬ 1 2\nп1(1); п2(2); п3\nСООБЩИТЬ кв(2)\n")
    checked = cli("check", path)
    places = re.findall(r"^.*п\.pseudo:(\d+:\d+): ошибка", checked.stderr, re.MULTILINE)
    assert places == ["2:12", "4:5", "6:14", "7:12", "9:10"], checked.stderr
    assert checked.stderr.endswith("ошибок: 5\n") and checked.returncode == 65
    ran = cli("run", path)
    assert ran.returncode == 65 and re.findall(r"^.*п\.pseudo:(\d+:\d+): ошибка", ran.stderr, re.MULTILINE) == places


@pytest.mark.parametrize("mode", [[], ["--interpret"], ["emitted"], ["emitted", "--limits"]])
def test_ctrl_c_while_the_program_waits_for_input_stops_it_at_once(tmp_path, mode):
    """A pupil's program waits for a number nobody types: Ctrl-C stopped it only two seconds
    later (its thread, blocked reading, takes no step); now at once, at its ПРОЧЕСТЬ."""
    with child(_argv(tmp_path, "СООБЩИТЬ 'число:'\nПРОЧЕСТЬ n\nСООБЩИТЬ n\n", mode), stdin=subprocess.PIPE) as proc:
        _started(proc)
        time.sleep(0.3)
        sent = time.monotonic()
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=10)  # its input still open: no end of input comes to end it
        seconds = time.monotonic() - sent
        _, err = proc.communicate(timeout=10)
    assert proc.returncode == 130 and "п.pseudo:2:1: ошибка: выполнение прервано (Ctrl-C)" in err, err
    assert seconds < 1.0, seconds


def test_an_emitted_file_says_to_run_it_by_its_own_name_and_runs_from_a_string(tmp_path):
    """Its docstring names the file `-o` wrote, quoted for the shell; `exec(open(…).read())`,
    which sets no __file__, runs it too, keeping no bytecode beside it."""
    program = write(tmp_path, "ПРОЧЕСТЬ имя\nСООБЩИТЬ 'привет,', имя\n")
    for name, shown in [("другое имя.py", "'другое имя.py'"), ("f.py", "f.py")]:
        path = tmp_path / "out" / name
        path.parent.mkdir(exist_ok=True)
        assert cli("py", program, "-o", str(path)).returncode == 0
        head = path.read_text(encoding="utf-8").split('"""')[1]
        assert f"Запуск: python3 {shown} (стандартный ввод" in head, head
        result = subprocess.run([sys.executable, "-c", f"exec(open({name!r}, encoding='utf-8').read())"], input="Аня\n",
                                capture_output=True, text=True, encoding="utf-8", cwd=path.parent, timeout=60,
                                check=False)
        assert (result.returncode, result.stdout, result.stderr) == (0, "привет, Аня\n", "")
        assert not (path.parent / "__pycache__").exists()
    assert "Запуск: python3 п.py (" in cli("py", program).stdout
