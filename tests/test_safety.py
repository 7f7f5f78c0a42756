"""What the tool writes is safe: an output never replaces an input, a file is never left
half-written, and nothing from a program's text or name runs as code in the emitted Python."""
from __future__ import annotations

import os
import subprocess
import sys

import pytest
from conftest import cli
from hypothesis import given, settings
from hypothesis import strategies as st

PROGRAM = "СООБЩИТЬ 'привет'\nЕСЛИ 1 = 1 ТО СООБЩИТЬ 2 КОНЕЦ_ЕСЛИ\n"
USING = "ИСПОЛЬЗОВАТЬ 'доска.pseudo'\nСООБЩИТЬ размер\n"
BOARD = "размер = 8\n"


@pytest.fixture
def folder(tmp_path):
    (tmp_path / "p.pseudo").write_text(PROGRAM, encoding="utf-8")
    (tmp_path / "u.pseudo").write_text(USING, encoding="utf-8")
    (tmp_path / "доска.pseudo").write_text(BOARD, encoding="utf-8")
    (tmp_path / "link.pseudo").symlink_to("p.pseudo")
    os.link(tmp_path / "p.pseudo", tmp_path / "hard.pseudo")
    return tmp_path


def contents(folder) -> dict:
    return {p.name: p.read_bytes() for p in folder.iterdir() if not p.is_symlink()}


@pytest.mark.parametrize("args", [
    ["py", "p.pseudo", "-o", "p.pseudo"],
    ["py", "p.pseudo", "-o", "./p.pseudo"],
    ["py", "p.pseudo", "-o", "link.pseudo"],
    ["py", "p.pseudo", "-o", "hard.pseudo"],
    ["py", "link.pseudo", "-o", "p.pseudo"],
    ["graph", "p.pseudo", "-o", "p.pseudo"],
    ["trace", "p.pseudo", "-o", "p.pseudo"],
    ["trace", "--html", "p.pseudo", "-o", "p.pseudo"],
    ["trace", "--format", "jsonl", "p.pseudo", "-o", "hard.pseudo"],
    ["py", "u.pseudo", "-o", "доска.pseudo"],
    ["trace", "u.pseudo", "-o", "доска.pseudo"],
])
def test_an_output_never_replaces_an_input(folder, args):
    before = contents(folder)
    result = cli(*[str(folder / a) if a.endswith(".pseudo") else a for a in args])
    assert result.returncode == 64, result.stderr
    assert "не будет перезаписан" in result.stderr
    assert contents(folder) == before
    assert not result.stdout


@pytest.mark.parametrize("args", [
    ["py", "p.pseudo", "-o", "другой.pseudo"],
    ["py", "p.pseudo", "-o", "НОВЫЙ.PSEUDO"],
    ["trace", "p.pseudo", "-o", "u.pseudo"],
    ["graph", "p.pseudo", "-o", "доска.pseudo"],
])
def test_an_output_is_never_a_program_file(folder, args):
    """`pseudo py a.pseudo -o b.pseudo` would replace another pupil's program with Python."""
    (folder / "другой.pseudo").write_text(PROGRAM, encoding="utf-8")
    before = contents(folder)
    result = cli(*[str(folder / a) if a.endswith((".pseudo", ".PSEUDO")) else a for a in args])
    assert result.returncode == 64 and "так называются программы" in result.stderr, result.stderr
    assert contents(folder) == before and not result.stdout


def test_the_default_page_of_a_program_named_html_is_refused(folder):
    (folder / "p.html").write_text(PROGRAM, encoding="utf-8")
    before = contents(folder)
    result = cli("trace", "--html", str(folder / "p.html"))
    assert result.returncode == 64 and "сама программа" in result.stderr
    assert contents(folder) == before


def test_outputs_are_written_whole_or_not_at_all(folder):
    """A program that fails at run time still gets its whole trace; a page that cannot be made
    (an unknown event filter) leaves the old file as it was, and no temporary file behind."""
    old = folder / "old.html"
    old.write_text("старая страница", encoding="utf-8")
    result = cli("trace", "--html", "--only", "нечто", str(folder / "p.pseudo"), "-o", str(old))
    assert result.returncode == 64
    assert old.read_text(encoding="utf-8") == "старая страница"
    bad = folder / "bad.pseudo"
    bad.write_text("СООБЩИТЬ 1\nСООБЩИТЬ 1 / 0\n", encoding="utf-8")
    trace = folder / "trace.jsonl"
    result = cli("trace", "--format", "jsonl", str(bad), "-o", str(trace))
    assert result.returncode == 70
    assert '"outcome": "error"' in trace.read_text(encoding="utf-8").splitlines()[-1]
    assert not [p for p in folder.iterdir() if p.name.startswith(".pseudo-")]


def test_an_output_through_a_link_replaces_the_file_it_names(folder):
    target = folder / "out.py"
    target.write_text("old", encoding="utf-8")
    (folder / "out-link.py").symlink_to("out.py")
    assert cli("py", str(folder / "p.pseudo"), "-o", str(folder / "out-link.py")).returncode == 0
    assert (folder / "out-link.py").is_symlink()
    assert "def главная" in target.read_text(encoding="utf-8")


HOSTILE_COMMENTS = [
    "{ безопасно\rimport os; os.system('touch CANARY') }",
    "{ безопасно\x0bimport os; os.system('touch CANARY') }",
    "{ безопасно\x0cimport os; os.system('touch CANARY') }",
    "{ безопасно\x1cimport os; os.system('touch CANARY') }",
    "{ безопасно\x85import os; os.system('touch CANARY') }",
    "{ безопасно\u2028import os; os.system('touch CANARY') }",
    "{ безопасно\u2029import os; os.system('touch CANARY') }",
    "{ нулевой\x00байт }",
    "{ безопасно\\\nimport os; os.system('touch CANARY') }",
    "{ x'''; import os; os.system('touch CANARY'); ''' }",
    "{ косая в конце \\ }",
]
HOSTILE_NAMES = ['x"""; import os; os.system("touch CANARY"); """.pseudo',
                 "x'''; import os; os.system('touch CANARY'); '''.pseudo",
                 "x\\\"\"\"; import os; os.system('touch CANARY') #.pseudo"]


@pytest.mark.parametrize("comment", HOSTILE_COMMENTS, ids=range(len(HOSTILE_COMMENTS)))
def test_a_comment_cannot_leave_its_comment_in_the_emitted_python(tmp_path, comment):
    program = tmp_path / "p.pseudo"
    program.write_text(f"{comment}\nСООБЩИТЬ 'ок' {comment}\nx := 1 {comment}\n", encoding="utf-8")
    _emitted_runs_only_the_program(tmp_path, program)


@pytest.mark.parametrize("name", HOSTILE_NAMES, ids=range(len(HOSTILE_NAMES)))
def test_a_file_name_cannot_run_as_code(tmp_path, name):
    program = tmp_path / name
    program.write_text("СООБЩИТЬ 'ок'\n", encoding="utf-8")
    _emitted_runs_only_the_program(tmp_path, program)


def _emitted_runs_only_the_program(folder, program):
    out = folder / "out.py"
    result = cli("py", str(program), "-o", str(out))
    assert result.returncode == 0, result.stderr
    compile(out.read_bytes(), str(out), "exec")  # the emitted file always compiles
    run = subprocess.run([sys.executable, "-I", str(out)], capture_output=True, text=True, encoding="utf-8",
                         cwd=folder, timeout=60, check=False)
    assert (run.returncode, run.stdout) == (0, "ок\n"), run.stderr
    assert not (folder / "CANARY").exists()


NAMES_PROGRAM = """\
ﬁ := 1; fi := 2
ｘ := 3; x := 4
ｓｙｓ := 5; ｐｒｉｎｔ := 6
print := 7; print_ := 8; print__ := 9
x² := 10; ½ := 11; x2_ := 12
сообщить := 13; Массив := 14; шаг := 15; главная := 16; рубеж := 17
f (x) = x + print
g (print) = print * 100 + x
СООБЩИТЬ ﬁ, fi, ｘ, x, ｓｙｓ, ｐｒｉｎｔ, print, print_, print__, x², ½, x2_
СООБЩИТЬ сообщить, Массив, шаг, главная, рубеж, f(1), g(2)
"""
NAMES_OUTPUT = "1 2 3 4 5 6 7 8 9 10 11 12\n13 14 15 16 17 8 204\n"


def test_names_that_python_would_merge_or_take_stay_apart_in_every_mode(tmp_path):
    """Python reads identifiers after NFKC (ﬁ is fi, ｘ is x) and has names of its own (print,
    sys) and of the runtime (сообщить, Массив, шаг): the program's names keep their meaning."""
    program = tmp_path / "имена.pseudo"
    program.write_text(NAMES_PROGRAM, encoding="utf-8")
    for mode in ([], ["--interpret"]):
        result = cli("run", "-q", *mode, str(program))
        assert (result.returncode, result.stdout) == (0, NAMES_OUTPUT), result.stderr
    out = tmp_path / "имена.py"
    assert cli("py", "-q", str(program), "-o", str(out)).returncode == 0
    run = subprocess.run([sys.executable, "-I", str(out)], capture_output=True, text=True, encoding="utf-8",
                         check=False)
    assert (run.returncode, run.stdout) == (0, NAMES_OUTPUT), run.stderr


def test_the_naming_scheme_is_injective_over_nfkc():
    import unicodedata

    import pseudo
    from pseudo.frontend.source import Source
    from pseudo.pygen.names import Names, reserved
    names = Names(pseudo.load(Source(NAMES_PROGRAM, "имена.pseudo")).program)
    python = list(names.vars.values()) + list(names.defs.values())
    folded = [unicodedata.normalize("NFKC", x) for x in python]
    assert len(set(folded)) == len(python)
    assert not set(folded) & reserved()
    assert all(x.isidentifier() for x in python)


def test_a_device_or_a_pipe_is_written_to_never_replaced(tmp_path):
    """`-o /dev/null` (or a named pipe) takes the output; the device stays a device."""
    import stat
    for args in (["py", "-q"], ["graph", "-q"], ["trace", "-q", "--format", "jsonl"]):
        result = cli(*args, "programs/queens_recursive.pseudo", "-o", os.devnull)
        assert result.returncode == 0, result.stderr
        assert stat.S_ISCHR(os.stat(os.devnull).st_mode)
    fifo = tmp_path / "труба"
    os.mkfifo(fifo)
    reader = subprocess.Popen(["cat", str(fifo)], stdout=subprocess.PIPE)
    assert cli("py", "-q", "programs/queens_recursive.pseudo", "-o", str(fifo)).returncode == 0
    assert b"def HR" in reader.communicate(timeout=30)[0]
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)


@pytest.mark.skipif(not os.path.exists("/dev/stdout") or sys.platform == "win32", reason="no /dev/stdout here")
@pytest.mark.parametrize("args", [["py", "-q"], ["graph", "-q"], ["trace", "-q", "--html"],
                                  ["trace", "-q", "--format", "jsonl"]], ids=lambda a: " ".join(a[:1] + a[2:]))
def test_standard_output_named_as_a_file_is_written_where_it_stands(folder, args):
    """`-o /dev/stdout | cat` (a pipe: no file to replace), `-o /dev/stdout >> log` (appended
    to, not replaced), `-o /dev/fd/3 3>file`: each gets exactly what `-o file` gets; and
    /dev/stdout opened on the program itself is still refused."""
    command = [sys.executable, "-m", "pseudo", *args, "p.pseudo"]
    env = dict(os.environ, PYTHONIOENCODING="utf-8", PYTHONPATH=str(os.getcwd()))

    def shell(redirect: str) -> subprocess.CompletedProcess:
        line = " ".join(f"'{a}'" for a in command) + " " + redirect
        return subprocess.run(line, shell=True, cwd=folder, env=env, capture_output=True, check=False, timeout=120)
    target = "p.py" if args[0] == "py" else "whole"  # the file `pseudo py` writes says to run it by the name p.py
    assert shell(f"-o {target}").returncode == 0
    whole = (folder / target).read_bytes()
    for named in ("/dev/stdout", "-"):  # `-`: standard output, as everywhere (a page was once written to a file «-»)
        piped = shell(f"-o {named} | cat")
        assert piped.returncode == 0 and piped.stdout == whole, piped.stderr
    assert not (folder / "-").exists()
    (folder / "log").write_bytes(b"before\n")
    assert shell("-o /dev/stdout >> log").returncode == 0
    assert (folder / "log").read_bytes() == b"before\n" + whole
    assert shell("-o /dev/fd/3 3> fd3").returncode == 0 and (folder / "fd3").read_bytes() == whole
    before = contents(folder)
    refused = shell("-o /dev/stdout >> p.pseudo")
    assert refused.returncode == 64 and "это сама программа" in refused.stderr.decode("utf-8")
    assert contents(folder) == before


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full here")
@pytest.mark.parametrize("args", [["py"], ["py", "--limits"], ["graph"], ["graph", "--flowchart"], ["trace", "--html"],
                                  ["trace"], ["grade", "--csv"], ["grade", "--html"]], ids=" ".join)
def test_an_output_that_cannot_be_written_is_one_clean_error(tmp_path, args):
    """-o /dev/full (what a full disk does to any file): the error names the file and says why
    in Russian, exit 64, no internal error."""
    program = tmp_path / "p.pseudo"
    program.write_text(PROGRAM, encoding="utf-8")
    if args[0] == "grade":
        task = tmp_path / "задача"
        (task / "tests").mkdir(parents=True)
        (task / "tests" / "01.out").write_text("привет\n", encoding="utf-8")
        result = cli("grade", str(task), str(program), args[1], "/dev/full")
    else:
        result = cli(*args, "-q", str(program), "-o", "/dev/full")
    assert result.returncode == 64, result.stderr
    assert "не удалось записать" in result.stderr and "на устройстве нет места" in result.stderr, result.stderr
    assert "внутренняя ошибка" not in result.stderr


@given(st.text())
def test_printable_text_holds_nothing_a_terminal_acts_on(text):
    import unicodedata

    from pseudo.runtime.report import UNSEEN, printable
    shown = printable(text)
    assert all(ch == "\t" or unicodedata.category(ch) not in UNSEEN for ch in shown)
    assert printable(text, lines=True) == "\n".join(printable(line) for line in text.split("\n"))
    if text.isprintable():
        assert shown == text


def test_a_file_names_control_characters_are_shown_not_acted_on(tmp_path):
    """A message names the file as text: an escape sequence in a file's name does not reach the
    terminal (the program's own lines were already shown so)."""
    program = tmp_path / "цвет\x1b[31m\u202e.pseudo"
    program.write_text("x := 1\nСООБЩИТЬ y\n", encoding="utf-8")
    for args in (["run", str(program)], ["run", "--interpret", str(program)], ["check", str(program)],
                 ["run", str(tmp_path / "нет\x1b[2J.pseudo")]):
        result = cli(*args)
        assert "\x1b" not in result.stderr and "\u202e" not in result.stderr, result.stderr
        assert "\\x1b" in result.stderr, result.stderr


NESTED = {  # a program whose expression nests `n` deep, in the forms that write parentheses in Python
    "calls": lambda n: "f (x) = x + 1\nСООБЩИТЬ " + "f(" * n + "1" + ")" * n + "\n",
    "conditionals": lambda n: "x := " + "ЕСЛИ ИСТИНА ТО " * n + "1" + " ИНАЧЕ 2 КОНЕЦ_ЕСЛИ" * n + "\nСООБЩИТЬ x\n",
    "in a definition": lambda n: "g (y) =\n    РЕЗУЛЬТАТ := " + "МАКС(" * n + "y" + ", 1)" * n + "\nСООБЩИТЬ g(3)\n",
}


@given(st.sampled_from(sorted(NESTED)), st.integers(1, 260), st.booleans())
@settings(max_examples=30, deadline=None)
def test_pseudo_py_writes_a_file_that_compiles_or_says_where_python_cannot_read_it(kind, depth, limits):
    """Python reads at most 200 nested parentheses in a text; pseudo run compiles the tree and
    has no such limit. pseudo py once ended in an internal error there: it now either writes
    a file that compiles or refuses with the statement's place (exit 65)."""
    import pseudo
    from pseudo.errors import StaticError
    from pseudo.execute import deep_call
    from pseudo.frontend.source import Source
    from pseudo.pygen.emit import python_source
    loaded = pseudo.load(Source(NESTED[kind](depth), "глубоко.pseudo"))
    try:
        text = deep_call(lambda: python_source(loaded, "глубоко.pseudo", limits=limits))
    except StaticError as e:
        assert depth > 190, depth
        said = e.render()
        assert said.startswith(f"глубоко.pseudo:{2 if kind != 'conditionals' else 1}:")
        assert "больше 200 вложенных скобок" in said and "подсказка: вынесите" in said
        return
    compile(text, "глубоко.py", "exec")
