"""The code generator: readable Python, golden for the queens programs, lint-clean, positioned;
the emitted file runs alone and reports errors exactly as `pseudo run` does."""
from __future__ import annotations

import ast
import importlib.util
import os
import re
import subprocess
import sys

import pytest
from conftest import PROGRAMS, ROOT, run_emitted_here, run_source

import pseudo
from pseudo import nodes
from pseudo.frontend.source import Source
from pseudo.pygen.body import BodyCode
from pseudo.pygen.emit import program_part, python_source
from pseudo.pygen.generate import Generator
from pseudo.pygen.names import Names

GOLDEN_PY = ROOT / "tests" / "golden_py"
QUEENS = ["queens_recursive", "queens_automaton_1", "queens_automaton_2", "queens_automaton_3"]
BOOK = sorted(p.stem for p in PROGRAMS.glob("*.pseudo"))


def emitted(name: str) -> str:
    path = PROGRAMS / f"{name}.pseudo"
    loaded = pseudo.load(Source.from_file(path))
    return python_source(loaded, path.name)


def test_every_node_class_has_a_translation():
    for cls in nodes.STMT_NODES:
        assert hasattr(BodyCode, "_stmt_" + cls.__name__), cls
    for cls in nodes.EXPR_NODES:
        assert hasattr(BodyCode, "_expr_" + cls.__name__), cls


@pytest.mark.parametrize("name", BOOK)
def test_emitted_python_matches_the_golden_file(name):
    """A change to the code generator shows up here, as a diff a reader can review: the
    program's part of the readable file of each of the book's programs (the runtime after it
    is the package's own modules; tests/programs/test_three_ways.py runs the files).
    Regenerate with PSEUDO_REGOLD=1."""
    text = program_part(emitted(name))
    golden = GOLDEN_PY / f"{name}.py"
    if os.environ.get("PSEUDO_REGOLD"):
        golden.write_text(text, encoding="utf-8")
    assert text == golden.read_text(encoding="utf-8")


@pytest.mark.parametrize("path", [PROGRAMS / f"{name}.pseudo" for name in QUEENS[1:]]
                         + [ROOT / "tests" / "programs" / "bubble_automaton.pseudo"], ids=lambda p: p.stem)
def test_each_state_of_an_automaton_is_written_once(path):
    """No state's code is copied: an automaton that loops only through its own loops is
    structured (the bubble sort: two `while True`, no state variable); where a state is
    reached from several places (the queens automata) it is a function of its own."""
    loaded = pseudo.load(Source.from_file(path))
    part = program_part(python_source(loaded, path.name))
    states = [s.name for a in loaded.facts.top_automata() for s in a.states]
    for state in states:
        written = part.count(f"# состояние {state}\n") + part.count(f"# состояние {state}: цикл\n") \
            + part.count(f"def состояние_{state}():")
        assert written == 1, (state, part)
    structured = path.stem == "bubble_automaton"
    assert ("состояние =" not in part and "while True:" in part) == structured, part


def test_phrases_are_named_by_their_words():
    text = emitted("queens_recursive")
    assert "def место_свободно(k, i):" in text
    assert "if место_свободно(k, i):" in text
    assert "HR(k + 1)" in text


def test_comments_are_carried_where_they_stand():
    text = emitted("queens_recursive")
    assert "# Прозаические операции книги. Поле (k, i) — строка k, столбец i." in text
    assert text.index("# Пуск: ни один ферзь") < text.index("    инициализировать_игру()\n    HR(1)")


def test_the_programs_names_stay_and_the_runtimes_give_way():
    """A program's name changes only where Python must (`if` is a keyword, `list` a variable
    named as a builtin); a name of the runtime or of Python the program also has is the one
    renamed in the code."""
    text = "list := 1\nif := 2\nсообщить := list + if\nграница := 3\nprint (x) = x\nСООБЩИТЬ print(сообщить), граница\n"
    loaded = pseudo.load(Source(text, "t.pseudo"))
    names = Names(loaded.program)
    assert names.var("сообщить") == "сообщить" and names.var("граница") == "граница"
    assert names.var("if") == "if_" and names.defs["print"] == "print"
    assert names.var("list") == "list_"  # a global without a value would be Python's list
    assert names.rt("сообщить") == "сообщить_" and names.rt("range") == "range"
    part = program_part(python_source(loaded, "t.pseudo"))
    assert "сообщить_(print(сообщить), граница)" in part


@pytest.mark.skipif(importlib.util.find_spec("ruff") is None, reason="ruff is not installed")
@pytest.mark.parametrize("name", QUEENS)
def test_emitted_python_passes_ruff(name, tmp_path):
    """The program as a reader sees it, with the runtime imported (the runtime's own modules
    are linted as the package). A variable of the main program that gets its value only
    through a РЕЗ cell (`Ячейка(globals(), …)`) is invisible to a linter: F821 is left out."""
    path = tmp_path / f"{name}.py"
    loaded = pseudo.load(Source.from_file(PROGRAMS / f"{name}.pseudo"))
    path.write_text(python_source(loaded, f"{name}.pseudo", import_runtime=True), encoding="utf-8")
    result = subprocess.run([sys.executable, "-m", "ruff", "check", "--isolated", "--quiet", "--ignore", "F821",
                             str(path)],
                            capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stdout


def test_the_runtime_modules_of_one_file_define_each_name_once():
    """In an emitted file the runtime's modules share one namespace (the later ones executed
    into it when an error is reported): a private helper of one module named like another's
    would replace it there. exact.py's `_integer` once replaced library.py's, and СИМВОЛ's
    error in the emitted file became «внутренняя ошибка»."""
    from pseudo.pygen.emit import runtime_module_text
    from pseudo.runtime import MODULES
    defined: dict[str, str] = {}
    clashes = []
    for module in [*MODULES, "exact", "bytecode"]:
        for node in ast.parse(runtime_module_text(module)).body:
            names = [node.name] if isinstance(node, ast.FunctionDef | ast.ClassDef) else \
                [t.id for t in getattr(node, "targets", []) if isinstance(t, ast.Name)]
            for name in names:
                if name in defined and defined[name] != module:
                    clashes.append((name, defined[name], module))
                defined.setdefault(name, module)
    assert clashes == []


def test_a_start_loads_the_modules_of_running_and_those_whose_words_the_program_names():
    """The runtime's modules a start executes (the text СРЕДА) are those of running and
    printing and those defining a word the program's code names; a word a module only imports
    from another (ops takes ПУСТО from values) does not bring it in."""
    def at_start(source: str) -> list[str]:
        return re.findall(r"модуль pseudo/runtime/(\w+)\.py", source[source.index("\nСРЕДА = "):])
    running = ["names", "messages", "values", "limits", "io", "runner"]
    assert at_start(emitted("queens_recursive")) == running  # it names ПУСТО and сообщить
    added = python_source(pseudo.load(Source("ПРОЧЕСТЬ x\nСООБЩИТЬ x / 3\n", "t.pseudo")), "t.pseudo")
    assert "разделить(x, 3)" in program_part(added) and at_start(added) == running[:3] + ["ops"] + running[3:]


def test_the_emitted_file_declares_its_encoding_as_python_reads_it():
    """CPython 3.11 checks each line's UTF-8 itself unless the file says it is UTF-8 (emit.CODING)."""
    import tokenize
    first = emitted("queens_recursive").split("\n")[0]
    assert (found := tokenize.cookie_re.match(first)) and found.group(1) == "utf-8"


def test_a_builtins_error_in_the_emitted_file_is_reported_as_by_pseudo_run(tmp_path):
    text = "ПРОЧЕСТЬ y\ns := ''\nСООБЩИТЬ СИМВОЛ(s, 0)\n"
    expected = "t.pseudo:3:10: ошибка: СИМВОЛ: в строке «» нет символа номер 0"
    for limits in (False, True):
        path = tmp_path / "t.py"
        path.write_text(python_source(pseudo.load(Source(text, "t.pseudo")), "t.pseudo", limits=limits), encoding="utf-8")
        done = subprocess.run([sys.executable, str(path)], input="да нет\n", capture_output=True, text=True,
                              encoding="utf-8", timeout=60, check=False)
        assert done.returncode == 70 and done.stderr.startswith(expected), done.stderr


def test_positions_point_into_the_pseudo_source_in_utf8_bytes():
    loaded = pseudo.load(Source("кол := 1\nСООБЩИТЬ кол + 2\n", "п.pseudo"))
    part = Generator(loaded.program, loaded.facts, "п.pseudo").parts()["п.pseudo"]
    calls = [x for s in part for x in ast.walk(s) if isinstance(x, ast.Call) and getattr(x.func, "id", "") == "сообщить"]
    (call,) = calls
    assert (call.lineno, call.col_offset) == (2, 0)
    (arg,) = call.args
    assert (arg.lineno, arg.col_offset, arg.end_col_offset) == (2, len("СООБЩИТЬ ".encode()), len("СООБЩИТЬ кол + 2".encode()))


def test_the_emitted_file_runs_without_pseudo_installed(tmp_path):
    """A separate python3 with only the standard library: -I ignores the environment and site."""
    path = tmp_path / "qr.py"
    path.write_text(emitted("queens_recursive"), encoding="utf-8")
    result = subprocess.run([sys.executable, "-I", "-S", str(path)], capture_output=True, text=True, cwd=tmp_path,
                            encoding="utf-8", check=False)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[0] == "1 5 8 6 3 7 2 4" and len(result.stdout.splitlines()) == 92


def test_the_runtime_an_emitted_file_starts_with_is_compiled_once_and_kept_beside_it(tmp_path):
    """Its text is compiled at the first run and its bytecode kept in __pycache__, as Python
    keeps a module's; later runs print the same, the error the same, from the kept code."""
    source = tmp_path / "dz.pseudo"
    source.write_text("f (x) = 10 / x\nСООБЩИТЬ f(2)\nСООБЩИТЬ f(0)\n", encoding="utf-8")
    (tmp_path / "dz.py").write_text(python_source(pseudo.load(Source.from_file(source)), "dz.pseudo"),
                                     encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    runs = [subprocess.run([sys.executable, "-I", "dz.py"], capture_output=True, text=True, cwd=tmp_path,
                           encoding="utf-8", check=False, env=env) for _ in range(2)]
    kept = list((tmp_path / "__pycache__").glob("dz.*.pseudo-runtime.bin"))
    assert len(kept) == 1 and kept[0].stat().st_size > 10_000
    assert [(r.returncode, r.stdout, r.stderr) for r in runs] == [(70, "5\n", runs[0].stderr)] * 2
    assert runs[0].stderr.startswith(f"{source}:1:9: ошибка: деление на ноль\n")


@pytest.fixture
def keeper(tmp_path, monkeypatch):
    """bytecode.код_среды with writing allowed, and a file whose runtime it compiles."""
    from pseudo.runtime import bytecode
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    return bytecode.код_среды, str(tmp_path / "p.py")


def _x_of(code) -> object:
    """The value of x after running `code`: which code ran, the kept or a new one."""
    namespace = {}
    exec(code, namespace)  # noqa: S102 - code the test compiled or planted itself
    return namespace["x"]


def _kept_file(filename: str):
    from pathlib import Path
    (kept,) = (Path(filename).parent / "__pycache__").glob("p.*.pseudo-runtime.bin")
    return kept


def _plant(kept, filename: str, line: int, text: str, code) -> None:
    """Write `code` as the kept code of `text` (whole: with the digest of its bytes)."""
    import marshal

    from pseudo.runtime.bytecode import _source_hash
    data = marshal.dumps(code)
    kept.write_bytes(marshal.dumps((sys.version, filename, line, text, _source_hash(0, data), data)))


def test_kept_bytecode_is_taken_only_for_the_same_text_file_and_line(keeper):
    compiled, filename = keeper
    code = compiled("\nx = 1\n", filename, 7)
    assert code.co_filename == filename and 8 in {line for *_, line in code.co_lines()}  # line 7: the empty first
    kept = _kept_file(filename)
    planted = compile("x = 'из хранимого'", filename, "exec")  # what a later run takes is what is kept
    _plant(kept, filename, 7, "\nx = 1\n", planted)
    assert _x_of(compiled("\nx = 1\n", filename, 7)) == "из хранимого"
    for text, line in (("\nx = 2\n", 7), ("\nx = 1\n", 8)):  # another text, another line: compiled again
        _plant(kept, filename, 7, "\nx = 1\n", planted)
        assert _x_of(compiled(text, filename, line)) == int(text[5])


@pytest.mark.skipif(os.name == "nt" or not hasattr(os, "geteuid"), reason="no owner or mode bits there")
def test_kept_bytecode_others_may_write_to_is_not_taken_a_folder_of_the_group_is_used(keeper):
    """A file others could have written is not taken; a folder its group may write to (umask
    002, where each user has a group of their own) still keeps the code."""
    compiled, filename = keeper
    compiled("\nx = 1\n", filename, 1)
    kept = _kept_file(filename)
    _plant(kept, filename, 1, "\nx = 1\n", compile("x = 666", filename, "exec"))
    kept.chmod(0o666)
    assert _x_of(compiled("\nx = 1\n", filename, 1)) == 1
    kept.parent.chmod(0o775)
    kept.unlink()
    compiled("\nx = 1\n", filename, 1)
    _plant(kept, filename, 1, "\nx = 1\n", compile("x = 'из хранимого'", filename, "exec"))
    assert _x_of(compiled("\nx = 1\n", filename, 1)) == "из хранимого"


def test_the_folder_is_made_for_the_owner_alone_to_write_whatever_the_umask(keeper):
    compiled, filename = keeper
    old = os.umask(0o002)
    try:
        compiled("\nx = 1\n", filename, 1)
    finally:
        os.umask(old)
    kept = _kept_file(filename)
    assert not kept.parent.stat().st_mode & 0o022 and not kept.stat().st_mode & 0o022


@pytest.mark.parametrize("damage", [b"", b"\x00\x01", b"garbage" * 100, "truncated"])
def test_damaged_kept_bytecode_is_compiled_again(keeper, damage):
    compiled, filename = keeper
    compiled("\nx = 1\n", filename, 1)
    kept = _kept_file(filename)
    kept.write_bytes(kept.read_bytes()[:200] if damage == "truncated" else damage)
    assert _x_of(compiled("\nx = 1\n", filename, 1)) == 1
    assert len(kept.read_bytes()) > 200  # written again, whole


def test_no_change_of_one_byte_of_the_kept_bytecode_is_taken_or_fails(keeper):
    """marshal may raise almost anything on damaged bytes (SystemError among them), and damage
    inside the code would run: the digest of the code's bytes is kept and checked."""
    import random
    compiled, filename = keeper
    text = "\ndef f(a, b):\n    return [a + i * b for i in range(3)]\nx = f(1, 2)[2]\n"
    compiled(text, filename, 1)
    kept = _kept_file(filename)
    whole = kept.read_bytes()
    chance = random.Random(20261125)
    for _ in range(400):
        damaged = bytearray(whole)
        at = chance.randrange(len(damaged))
        damaged[at] = (damaged[at] + chance.randrange(1, 256)) % 256
        kept.write_bytes(bytes(damaged))
        assert _x_of(compiled(text, filename, 1)) == 5, at


def test_kept_bytecode_goes_under_pythonpycacheprefix_when_it_is_set(keeper, monkeypatch, tmp_path):
    compiled, filename = keeper
    monkeypatch.setattr(sys, "pycache_prefix", str(tmp_path / "prefix"))
    compiled("\nx = 1\n", filename, 1)
    assert not (tmp_path / "__pycache__").exists()
    assert len(list((tmp_path / "prefix").rglob("p.*.pseudo-runtime.bin"))) == 1


def test_no_bytecode_is_written_when_python_is_told_not_to(keeper, monkeypatch, tmp_path):
    compiled, filename = keeper
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    assert _x_of(compiled("\nx = 1\n", filename, 1)) == 1 and not (tmp_path / "__pycache__").exists()


@pytest.mark.parametrize("limits", [False, True])
@pytest.mark.parametrize("import_runtime", [False, True])
@pytest.mark.parametrize("text, error", [
    ("f (x) = 10 / x\nСООБЩИТЬ f(2)\nСООБЩИТЬ f(0)\n", "dz.pseudo:1:9: ошибка: деление на ноль\n    1 | f (x) = 10 / x\n"),
    # the fast or readable code hands over to the exact code, which reports the element
    ("f (x) = 10 / x\nСООБЩИТЬ f(2)\nа[1] := 1\nСООБЩИТЬ f(а[2])\n",
     "dz.pseudo:4:12: ошибка: элемент а[2] не получил значения\n"),
    # an array of several unbounded indices is a dict of dicts: a missing row (or element) is a
    # KeyError, read directly or through a РЕЗ cell on a row made where it is passed
    (("«положить (РЕЗ x)» = x := 5\nk := 1\nПОКА k < 9 ВЫПОЛНЯТЬ k := k * 3 ВЕРНУТЬСЯ\nположить b[k, 2, 3]\n"
     "СООБЩИТЬ b[k, 2, 3]\nСООБЩИТЬ b[k, 3, 3] + 1\n"),
     "dz.pseudo:6:10: ошибка: элемент b[9, 3, 3] не получил значения\n    6 | СООБЩИТЬ b[k, 3, 3] + 1\n"),
    (("«удвоить (РЕЗ x)» = x := x * 2\nk := 1\nПОКА k < 9 ВЫПОЛНЯТЬ k := k * 3 ВЕРНУТЬСЯ\nb[k, 1] := 5\n"
     "СООБЩИТЬ b[k, 1]\nудвоить b[k, 2]\n"), "dz.pseudo:1:26: ошибка: элемент b[9, 2] не получил значения\n")])
def test_the_emitted_file_reports_errors_as_pseudo_run_does(tmp_path, import_runtime, limits, text, error):
    """The same message, place, caret, call stack and exit code as `pseudo run`: readable or
    with limits, the runtime copied or imported."""
    source = tmp_path / "dz.pseudo"
    source.write_text(text, encoding="utf-8")
    loaded = pseudo.load(Source("".join(source.read_text(encoding="utf-8")), "dz.pseudo"))
    text = python_source(loaded, "dz.pseudo", limits=limits, import_runtime=import_runtime)
    (tmp_path / "dz.py").write_text(text, encoding="utf-8")
    result = subprocess.run([sys.executable, "dz.py"], capture_output=True, text=True, cwd=tmp_path,
                            encoding="utf-8", check=False, env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert (result.returncode, result.stdout) == (70, "5\n")
    assert result.stderr.startswith(error)
    run = subprocess.run([sys.executable, "-m", "pseudo", "run", "dz.pseudo"], capture_output=True, text=True,
                         cwd=tmp_path, encoding="utf-8", check=False, env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert (run.returncode, run.stdout, run.stderr) == (result.returncode, result.stdout, result.stderr)


@pytest.mark.parametrize("args", [[], ["--max-steps", "7"]])
def test_an_error_in_a_definition_of_a_used_file_is_reported_there_by_the_emitted_file(tmp_path, args):
    """The exact code nests the definitions of every file in one function: each still has its
    own file's places (an element never assigned, and the step limit, met in lib/m.pseudo)."""
    (tmp_path / "lib").mkdir()
    (tmp_path / "lib" / "m.pseudo").write_text("взять (i) =\n    ДЛЯ j := 1 ДО 8 ВЫПОЛНЯТЬ x := j ВЕРНУТЬСЯ\n"
                                               "    РЕЗУЛЬТАТ := a[i]\n", encoding="utf-8")
    (tmp_path / "u.pseudo").write_text("ИСПОЛЬЗОВАТЬ 'lib/m.pseudo'\na[1] := 5\nСООБЩИТЬ взять(1)\n"
                                       "СООБЩИТЬ взять(2)\n", encoding="utf-8")
    env = dict(os.environ, PYTHONPATH=str(ROOT), PYTHONIOENCODING="utf-8")
    counting = ["--limits"] if args else []  # the readable file has no step limit
    subprocess.run([sys.executable, "-m", "pseudo", "py", "-q", *counting, "u.pseudo", "-o", "u.py"], cwd=tmp_path,
                   env=env, check=True)
    emitted_run, run = (subprocess.run(argv + args, capture_output=True, text=True, cwd=tmp_path, encoding="utf-8",
                                       env=env, check=False)
                        for argv in ([sys.executable, "u.py"], [sys.executable, "-m", "pseudo", "run", "-q", "u.pseudo"]))
    assert (emitted_run.returncode, emitted_run.stdout, emitted_run.stderr) == (run.returncode, run.stdout, run.stderr)
    assert run.returncode == 70 and run.stderr.startswith("lib/m.pseudo:"), run.stderr


def test_compiled_errors_match_the_interpreter_and_debug_shows_pseudo_frames(tmp_path):
    from conftest import cli
    path = tmp_path / "dz.pseudo"
    path.write_text("f (x) = 10 / x\nСООБЩИТЬ f(2)\nСООБЩИТЬ f(0)\n", encoding="utf-8")
    interpreted, compiled = cli("run", str(path)), cli("run", "--compiled", str(path))
    assert interpreted.returncode == compiled.returncode == 70
    assert interpreted.stderr == compiled.stderr
    debug = cli("run", "--compiled", "--debug", str(path))
    assert f'File "{path}", line 1, in f' in debug.stderr and "f (x) = 10 / x" in debug.stderr


def _nested_on_the_right(depth: int) -> str:
    """A sum nested `depth` deep on its right whose left operands call a procedure that prints,
    and whose innermost operand is an element never assigned: the order of what it prints and
    where it fails are Python's order of evaluation."""
    head = "f (k) =\n    СООБЩИТЬ k\n    РЕЗУЛЬТАТ := k\nДЛЯ i := 1 ДО 3 ВЫПОЛНЯТЬ b[i] := i ВЕРНУТЬСЯ\n"
    chain = "".join(f"(b[{i % 3 + 1}] + f({i}) - " for i in range(depth)) + "a[1]" + ")" * depth
    return head + "x := " + chain + "\nСООБЩИТЬ x\n"


@pytest.mark.parametrize("text", [
    "x := " + "(1 + " * 3000 + "1" + ")" * 3000 + "\nСООБЩИТЬ x\n",
    _nested_on_the_right(250),
    "y := " + "".join(f"({i} + " for i in range(300)) + "1/0" + ")" * 300 + "\n",
], ids=["sum 3000 deep", "calls and an unset element", "division by zero"])
@pytest.mark.parametrize("limits", [False, True], ids=["readable", "limits"])
def test_an_expression_nested_deeper_than_pythons_parser_allows_is_written_in_parts(tmp_path, text, limits):
    """Python's parser takes 200 nested parentheses: a chain nested deeper on its right is
    written as a tuple of named parts, which the file runs as the interpreter runs the program."""
    import io

    from pseudo.errors import PseudoRuntimeError
    from pseudo.execute import deep_call
    source = Source(text, "п.pseudo")
    loaded = deep_call(lambda: pseudo.load(source))
    out = io.StringIO()
    try:
        deep_call(lambda: pseudo.run(loaded, stdin=io.StringIO(), stdout=out, mode="interpret"))
        error = ""
    except PseudoRuntimeError as e:
        error = e.render()
    path = tmp_path / "p.py"
    path.write_text(deep_call(lambda: python_source(loaded, "п.pseudo", limits=limits)), encoding="utf-8")
    result = subprocess.run([sys.executable, "-I", str(path)], capture_output=True, text=True, cwd=tmp_path,
                            encoding="utf-8", check=False)
    assert result.stdout == out.getvalue()
    assert result.stderr.strip() == error.strip() and result.returncode == (70 if error else 0), result.stderr


@pytest.mark.parametrize("limits", [False, True])
def test_a_program_that_takes_pythons_words_still_has_them_in_its_file(tmp_path, limits):
    """A program with variables `range`, `len`, `globals` and `locals`: the code's loops, cells
    and rows call Python's under other names (`range_`), which the file binds to Python's. A
    variable `range` never given a value made every ДЛЯ of the file fail, reported as the
    unset variable range_."""
    text = ("обменять (РЕЗ a, РЕЗ b) =\n  t := a; a := b; b := t\n"
            "range := 1; len := 2; globals := 3; locals := 4\n"
            "ДЛЯ i := 1 ДО 3 ВЫПОЛНЯТЬ m[i] := i * range ВЕРНУТЬСЯ\n"
            "обменять(len, globals)\n"
            "СООБЩИТЬ m[3], len, globals, locals\nСООБЩИТЬ У + range\n")
    source = Source(text, "t.pseudo")
    expected = run_source(source, "", None, mode="compiled")
    emitted = python_source(pseudo.load(source), "t.pseudo", limits=limits)
    out, err, code = run_emitted_here(emitted, tmp_path / "t.py")
    assert out == expected.stdout == "3 3 2 4\n"
    assert (err.rstrip("\n"), code) == (expected.error.render(), 70)
