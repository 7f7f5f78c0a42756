"""`pseudo py`: the program as one Python file that runs with python3 alone.

The file reads program first: its definitions and главная, the fast code, at the top. Then,
kept as the text of a string (ОСТАЛЬНОЕ) and compiled only when it is needed — when the fast
code hands over, or an error is to be reported —, the same program in its exact form and the
runtime modules the start does not need; then the runtime modules it does need, each copied
whole under a marker line into the string СРЕДА, whose code `runtime.bytecode.код_среды`
compiles at the first run and keeps in __pycache__ beside the file. Then what the error reports
need — the program's text, the program's place of each Python position, the definitions — and
the start. (Python compiles a script at every run, and compiling the runtime took longer than a
short program's run.)
With `--import-runtime` the file imports the installed runtime instead, and the exact code
follows the fast code as plain code.

Everything taken from the program or its file name reaches the file through a form that
cannot leave its place: string literals written by `repr`, comments split at every line break
and stripped of control characters, the docstring written by `ast.unparse`; the kept text is
code written by the generator, in a raw string where it holds no triple quote, else with its
backslashes and triple quotes escaped.
"""
from __future__ import annotations

import ast
import os

from ..runtime import API, MODULES
from ..runtime.report import CompiledProgram, Definition, encode_positions
from .generate import COMMENT, SOURCE_FILE, Generator, comment, is_comment
from .names import MAIN, runtime_names_of

RUNTIME_MARK = "# ==== среда выполнения pseudo"
PROGRAM_MARK = "# ==== программа ===="
REST_MARK = "# ==== остальное"
TABLE_MARK = "# ==== для сообщений об ошибках"
CHECKED = "главная_с_проверками"
CHECKED_NOTE = (
    "==== та же программа, точная: каждое значение проверяется, каждый шаг и вызов считаются ====\n"
    "Код выше быстрее: значение ПРОЧЕСТЬ он считает числом (или строкой — смотря по тому, как\n"
    "используется переменная), шаги считает сразу пачками, сверху, а глубину рекурсии оставляет\n"
    "пределу Python. Если ввод окажется другого вида или счёт дойдёт до предела, программа начнётся\n"
    "заново с этого кода: тот же ввод прочитается снова, а напечатанное не напечатается второй раз.")
REST_NOTE = (
    f"{REST_MARK}: точная программа и среда выполнения для ошибок ====\n"
    "# Это тоже код Python, но он хранится строкой и переводится, только когда понадобится: когда\n"
    "# быстрый код передаёт работу точному или когда нужно сообщение об ошибке (см. выполнить).\n"
    "# Так файл запускается быстрее: Python не переводит при каждом запуске то, что редко нужно.\n")
RUNTIME_NOTE = (
    f"{RUNTIME_MARK}: модули, нужные при каждом запуске ====\n"
    "# Они тоже хранятся строкой: Python переводит сценарий в байт-код при каждом запуске, а перевод\n"
    "# среды занимал больше, чем вся работа короткой программы. код_среды (выше) переводит её один раз\n"
    "# и хранит байт-код, как Python хранит модули, в __pycache__ рядом с файлом. В конце строки —\n"
    "# таблица ПРОГРАММА для сообщений об ошибках: текст программы и места её инструкций в коде.\n")
AT_START = ("messages", "values", "limits", "io", "runner")  # the runtime modules every start needs


def python_source(loaded, title: str, limits: bool = True, import_runtime: bool = False) -> str:
    gen = Generator(loaded.program, loaded.facts, loaded.main_file, limits)
    fast = [(filename, s) for filename, part in gen.parts().items() for s in part]
    # The exact code the fast one hands over to: a value read of another kind, a power taken to
    # be an integer, a limit, an element its arrays lack, an error in a call written out in place.
    checked = Generator(loaded.program, loaded.facts, loaded.main_file, limits, fast=False, names=gen.names)
    exact = [(loaded.main_file, comment(CHECKED_NOTE)), (loaded.main_file, checked.checked_main(CHECKED))]
    fast_text, fast_positions = _code(fast)
    exact_text, exact_positions = _code(exact)
    text = _head(title, import_runtime, fast + exact) + f"\n{PROGRAM_MARK}\n\n"
    positions = _shifted(fast_positions, text.count("\n"))
    text += fast_text + "\n\n\n"
    if import_runtime:  # a short file: the exact code as plain code, the runtime imported
        positions |= _shifted(exact_positions, text.count("\n"))
        text += exact_text
        code_lines, rest = text.count("\n") + 2, None
    else:
        text += REST_NOTE + "ОСТАЛЬНОЕ = "
        rest = text.count("\n") + 1  # the line the kept text starts on (its first line is empty)
        positions |= _shifted(exact_positions, rest)
        code_lines = rest + exact_text.count("\n") + 2
    program = describe(gen, loaded, positions=positions, code_lines=code_lines)
    table = f"{TABLE_MARK}: текст программы, места, определения ====\n\nПРОГРАММА = {_literal(program, rest)}\n"
    if import_runtime:
        text += "\n\n\n" + table
    else:  # the table is read only for an error's report: it rides with the kept runtime
        eager, lazy = _runtime_parts(fast)
        text += _kept(exact_text + "\n\n\n" + lazy) + "\n\n\n"
        text += _runtime_at_start(eager + "\n\n\n" + table, text.count("\n"))
    start = f"выполнить({MAIN}, ПРОГРАММА" + (", ОСТАЛЬНОЕ)" if rest else ")")
    return text + f'\n\nif __name__ == "__main__":\n    {start}\n'


def _head(title: str, import_runtime: bool, placed) -> str:
    layout = ("Среда выполнения импортируется из установленного pseudo (pip install arsac-pseudo).\n"
              if import_runtime else "Сначала — сама программа, за ней — среда выполнения pseudo и запуск.\n")
    head = docstring(f"{title} — программа на языке книги Ж. Арсака, переведённая pseudo на Python.\n\n"
                     f"Запуск: python3 {os.path.splitext(os.path.basename(title))[0]}.py (стандартный ввод — для ПРОЧЕСТЬ).\n" + layout)
    if import_runtime:
        used = sorted({x.id for _, s in placed for x in ast.walk(s) if isinstance(x, ast.Name)} & set(API)
                      | {"выполнить"})
        head += ("\ntry:\n    from pseudo.runtime import (\n" + "".join(f"        {x},\n" for x in used) + "    )\n"
                 "except ImportError:  # written with pseudo py --import-runtime, run where pseudo is not installed\n"
                 "    import sys\n"
                 "    sys.exit('ошибка: этому файлу нужен установленный pseudo: pip install arsac-pseudo "
                 "(или запишите его без --import-runtime)')\n")
    return head


def _code(placed) -> tuple[str, dict]:
    """Statements as Python text with their comments written out, and the program's place of
    each position in that text (its first line is line 1)."""
    if not placed:
        return "", {}
    module = ast.fix_missing_locations(ast.Module(body=[s for _, s in placed], type_ignores=[]))
    text = ast.unparse(module)
    positions = _positions([f for f, _ in placed], module, text)
    text, moved = _expand_comments(text)
    return text, {(moved(a), b, moved(c), d): v for (a, b, c, d), v in positions.items()}


def _shifted(positions: dict, lines: int) -> dict:
    return {(a + lines, b, c + lines, d): v for (a, b, c, d), v in positions.items()}


def _kept(code: str) -> str:
    """A string literal in triple quotes whose value is a line break, then the code, line for
    line: raw where it can be (Python reads a long string with escapes several times slower),
    else with its backslashes and triple quotes escaped."""
    if "'''" not in code:
        return f"r'''\n{code}\n'''"
    return "'''\n" + code.replace("\\", "\\\\").replace("'''", "''\\'") + "\n'''"


def _runtime_parts(fast) -> tuple[str, str]:
    """The runtime's modules the start needs — those of running and printing, and any whose
    names the fast code calls —, and the rest."""
    named = {x.id for _, s in fast for x in ast.walk(s) if isinstance(x, ast.Name)}
    eager, lazy = [], []
    for module in MODULES:
        needed = module in AT_START or named & runtime_names_of(module)
        (eager if needed else lazy).append(runtime_module_text(module))
    return "\n\n".join(eager), "\n\n".join(lazy)


def _runtime_at_start(eager: str, lines_before: int) -> str:
    """The runtime modules every start needs, kept as the text of a string whose code
    `bytecode.код_среды` compiles once and keeps beside the file; `lines_before`: the lines of
    the file above."""
    head = runtime_module_text("bytecode") + "\n\n" + RUNTIME_NOTE + "СРЕДА = "
    first = lines_before + head.count("\n") + 1  # the line of the file the kept text starts on
    return head + _kept(eager) + f"\nexec(код_среды(СРЕДА, __file__, {first}), globals())\n"


def program_part(source: str) -> str:
    """The program's own code in an emitted file, fast and exact: what golden files compare."""
    start = source.index(PROGRAM_MARK)
    end = source.find(RUNTIME_MARK)
    end = source.index(TABLE_MARK) if end < 0 else end
    return source[start:end].rstrip() + "\n"


def describe(gen: Generator, loaded, **more) -> CompiledProgram:
    """What the compiled program's error reports need (report.CompiledProgram)."""
    definitions = {}
    for key, d in loaded.program.definitions.items():
        holders = tuple(gen.cells.get((key, p.name), gen.names.var(p.name)) for p in d.params)
        definitions[gen.names.defs[key]] = Definition(
            d.name, tuple(p.name for p in d.params), holders, tuple(d.words) if d.is_phrase else (),
            tuple(gen.names.var(p.name) for p in d.params if (key, p.name) not in gen.cells))
    names = {py: name for py, name in gen.names.program_names().items() if py != name}
    texts = {filename: source.text for filename, source in loaded.sources.items()}
    return CompiledProgram(texts, definitions, names, frames_per_call=gen.frames_per_call, inlined=gen.inlined,
                           watchable=loaded.facts.watchable, **more)


def _literal(program: CompiledProgram, rest: int | None) -> str:
    """The fields of the CompiledProgram as Python source (every string through repr); the
    positions one line of text each (a table of thousands of entries compiles at once as one
    string; as a dict literal it took longer than the rest of the file)."""
    definitions = ", ".join(f"{k!r}: {d.as_tuple()!r}" for k, d in program.definitions.items())
    lines = encode_positions(program.positions, list(program.texts)).split("\n")
    positions = "(\n" + "".join(f"        {line + chr(10) if i < len(lines) - 1 else line!r}\n"
                                for i, line in enumerate(lines)) + "    )"
    return (f"{{\n    'texts': {program.texts!r},\n    'definitions': {{{definitions}}},\n"
            f"    'names': {program.names!r},\n    'positions': {positions},\n"
            f"    'code_file': __file__, 'code_lines': {program.code_lines}, "
            f"'frames_per_call': {program.frames_per_call}, 'rest_line': {rest},\n"
            f"    'inlined': {program.inlined!r}, 'watchable': {program.watchable!r},\n}}")


def runtime_text() -> str:
    """The runtime's modules, whole, in order."""
    return "\n\n".join(runtime_module_text(m) for m in MODULES)


def runtime_module_text(module: str) -> str:
    """A runtime module, whole; only its imports of the others are left out (in one file they
    share one namespace)."""
    from importlib import resources  # only for a file written out: `run` compiles without it
    text = resources.files("pseudo.runtime").joinpath(f"{module}.py").read_text(encoding="utf-8")
    lines = text.split("\n")
    for node in ast.parse(text).body:
        if isinstance(node, ast.ImportFrom) and node.level > 0:
            for i in range(node.lineno - 1, node.end_lineno):
                lines[i] = None
    body = "\n".join(line for line in lines if line is not None).strip("\n")
    return f"{RUNTIME_MARK}: модуль pseudo/runtime/{module}.py ====\n\n{body}\n"


def docstring(text: str) -> str:
    """A module docstring holding any text (a file name with quotes, backslashes, line breaks)."""
    return ast.unparse(ast.Module(body=[ast.Expr(ast.Constant(text))], type_ignores=[])) + "\n"


# ---- positions ----

def _positions(files: list[str], module: ast.Module, text: str) -> dict:
    """Each position of the unparsed text → the program's (file, line, col, end line, end col),
    found by walking the generated tree and the text's tree side by side, statement by
    statement (each top-level statement comes from one file)."""
    out = {}
    again = ast.parse(text)
    for filename, top, top_again in zip(files, module.body, again.body, strict=True):
        for (old, file_), (new, _) in zip(_code_nodes(top, filename), _code_nodes(top_again), strict=True):
            if type(old) is not type(new):
                raise AssertionError(f"unparse changed the tree: {type(old).__name__} → {type(new).__name__}")
            if getattr(old, "lineno", None) and hasattr(new, "lineno"):
                key = (new.lineno, new.col_offset, new.end_lineno, new.end_col_offset)
                out.setdefault(key, (file_, old.lineno, old.col_offset, old.end_lineno, old.end_col_offset))
    return out


def _code_nodes(node, filename=None):
    """The nodes of a tree, breadth first, leaving out comment markers, each with the file it
    comes from: the statement's, or the one a definition nested in the exact code names
    (generate.SOURCE_FILE)."""
    todo = [(node, filename)]
    while todo:
        node, filename = todo.pop(0)
        if not is_comment(node):
            filename = getattr(node, SOURCE_FILE, filename)
            yield node, filename
            todo.extend((child, filename) for child in ast.iter_child_nodes(node))


def _expand_comments(text: str):
    """Comment markers become `#` lines; returns the text and the map of old line numbers to new."""
    out, shift_at = [], []  # shift_at: (first old line after a marker, lines added)
    added = 0
    marker = COMMENT + "("
    for number, line in enumerate(text.split("\n"), start=1):
        stripped = line.strip()
        if not stripped.startswith(marker):
            out.append(line)
            continue
        indent = line[:len(line) - len(line.lstrip())]
        lines = [f"{indent}# {x}".rstrip() for x in comment_lines(ast.literal_eval(stripped[len(marker):-1]))]
        if not indent and out and out[-1].strip() and not out[-1].startswith("#"):
            lines.insert(0, "")  # a comment of the program's text stands apart from the code above
        out.extend(lines)
        added += len(lines) - 1
        shift_at.append((number + 1, added))

    def moved(line: int) -> int:
        shift = 0
        for first, total in shift_at:
            if line >= first:
                shift = total
        return line + shift
    return "\n".join(out), moved


def comment_lines(text: str) -> list[str]:
    """A program's comment as lines that stay comments in Python: split at every line break
    Python's tokenizer (or any reader) honours, other control characters shown escaped."""
    return [comment_text(line).strip() for line in text.strip().splitlines()] or [""]


def comment_text(text: str) -> str:
    """One line of text for a `#` comment: nothing in it can end the line or upset a reader."""
    return "".join(ch if ch.isprintable() or ch == "\t" else ascii(ch)[1:-1] for ch in text)
