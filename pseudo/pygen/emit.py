"""`pseudo py`: the program as one Python file that runs with python3 alone.

The file reads program first: its definitions and главная, as a reader writes them in Python
(the readable code, pygen/generate.py) — or, with `--limits`, the fast code that counts its
steps for the limits of `pseudo run`. Then the runtime: the modules a start needs, copied whole
under a marker line into the string СРЕДА, whose code `runtime.bytecode.код_среды` compiles at
the first run and keeps in __pycache__ beside the file, in a namespace of its own (`среда`); the
modules only an error or a hand-over needs, kept as the text СРЕДА_ПОТОМ, compiled only then
(Python compiles a script at every run, and compiling the runtime took longer than a short
program's run); the table ПРОГРАММА for the error reports — the program's text, the program's
place of each Python position, the definitions —; the names the program takes from the
runtime; the start.

Where the readable code meets what it does not handle (a value read of another kind, an
element never assigned, Python's recursion limit), the program begins again with its exact
code, which the runtime makes from the program part of the file itself (runtime/exact.py): the
program is in the file once. A file with limits keeps its exact code as the text ОСТАЛЬНОЕ,
which counts every step where the interpreter does. With `--import-runtime` the file imports
the installed runtime instead.

Everything taken from the program or its file name reaches the file through a form that
cannot leave its place: string literals written by `repr`, comments split at every line break
and stripped of control characters, the docstring written by `ast.unparse`; the kept text is
code written by the generator, in a raw string where it holds no triple quote, else with its
backslashes and triple quotes escaped.
"""
from __future__ import annotations

import ast
import os
import re
import shlex

from ..errors import Diagnostic, StaticError, diagnostic
from ..frontend.source import Span
from ..messages import hint
from ..runtime import MODULES
from ..runtime.names import (
    API,
    BOUNDARY,
    EXACT_MAIN,
    KEPT,
    MAIN,
    PYTHON_WORDS,
    RUNTIME,
    RUNTIME_CODE,
    RUNTIME_LATER,
    RUNTIME_TEXT,
    STEPS,
    TABLE,
)
from ..runtime.report import CompiledProgram, Definition, encode_positions
from .generate import Generator
from .names import runtime_names_of
from .syntax import COMMENT, SOURCE_FILE, comment, is_comment

RUNTIME_MARK = "# ==== среда выполнения pseudo"
PROGRAM_MARK = "# ==== программа ===="
EXACT_NOTE = (
    "==== та же программа, точная: каждое значение проверяется, каждый шаг и вызов считаются ====\n"
    "Код выше быстрее: значение ПРОЧЕСТЬ он считает числом (или строкой — смотря по тому, как\n"
    "используется переменная), шаги считает сразу пачками, сверху, а глубину рекурсии оставляет\n"
    "пределу Python. Если ввод окажется другого вида или счёт дойдёт до предела, программа начнётся\n"
    "заново с этого кода: тот же ввод прочитается снова, а напечатанное не напечатается второй раз.")
RUNTIME_NOTE = (
    f"{RUNTIME_MARK} ====\n"
    "# Модули среды хранятся строками: Python переводит сценарий в байт-код при каждом запуске, а\n"
    "# перевод среды занимал больше, чем вся работа короткой программы. код_среды переводит строку\n"
    "# СРЕДА один раз и хранит байт-код, как Python хранит модули, в __pycache__ рядом с файлом;\n"
    "# СРЕДА_ПОТОМ переводится, только когда нужна: для сообщения об ошибке или когда программа\n"
    "# начинается заново в точном виде. В конце СРЕДА — таблица ПРОГРАММА для сообщений об ошибках.\n")
# Said, though Python reads UTF-8 without it (so ruff's UP009 would remove it): CPython 3.11
# then leaves out its own check of each line's UTF-8, about 8 instructions a byte of the file
# at every start.
CODING = "# -*- coding: utf-8 -*-  # noqa: UP009\n"
AT_START = ("names", "messages", "values", "limits", "io", "runner")  # the runtime modules every start needs
WITHOUT_LIMITS = (
    "Программа выполняется без пределов pseudo на число шагов и время работы: она работает,\n"
    "пока не кончится; Ctrl-C останавливает её и показывает, где она была. Файл с пределами,\n"
    "как у pseudo run, пишет pseudo py --limits.\n")


def python_source(loaded, title: str, limits: bool = False, import_runtime: bool = False,
                  output: str | None = None) -> str:
    """The emitted file: the readable program, or with `limits` the fast code that counts.
    `output`: the file it is written to, which its docstring tells to run (by default, the
    program's name with .py)."""
    gen = Generator(loaded.program, loaded.facts, loaded.main_file, "fast" if limits else "readable")
    placed = [(filename, s) for filename, part in gen.parts().items() for s in part]
    fast_text, positions = _code(placed, loaded)
    exact = []
    if limits:  # the exact code the fast one hands over to
        checked = Generator(loaded.program, loaded.facts, loaded.main_file, "exact", names=gen.names)
        exact = [(loaded.main_file, comment(EXACT_NOTE)), (loaded.main_file, checked.checked_main(gen.names.rt(EXACT_MAIN)))]
        exact_text, exact_positions = _code(exact, loaded)
    text = _head(title, output, gen, limits, import_runtime, placed + exact) + f"\n{PROGRAM_MARK}\n\n"
    first = text.count("\n") + 1
    positions = _shifted(positions, first - 1)
    text += fast_text + "\n\n\n"
    fields = {"part": None, "rest_line": None, "later_line": None,
              "counters": [gen.names.rt(STEPS), gen.names.rt(BOUNDARY)] if limits else None}
    if not limits:
        positions |= _entries(placed, fast_text, gen, first - 1)
        fields["part"] = [first, first + fast_text.count("\n")]
    rt = gen.names.rt
    if import_runtime:  # a short file: the exact code as plain code, the runtime imported
        if limits:
            positions |= _shifted(exact_positions, text.count("\n"))
            text += exact_text + "\n\n\n"
        code_lines = text.count("\n") + 1
        program = describe(gen, loaded, positions=positions, code_lines=code_lines)
        table = _literal(program, fields)
        return text + f"{rt(TABLE)} = {table}\n\nif __name__ == \"__main__\":\n    {rt('выполнить')}({rt(MAIN)}, {rt(TABLE)})\n"
    text += RUNTIME_NOTE
    if limits:
        text += f"{rt(KEPT)} = "
        fields["rest_line"] = text.count("\n") + 1  # the line the kept text starts on (its first line is empty)
        positions |= _shifted(exact_positions, fields["rest_line"])
        text += _kept(exact_text) + "\n\n"
    code_lines = text.count("\n") + 1
    eager, later = _runtime_parts(_words_used(placed, gen))
    text += _bytecode_module(rt(RUNTIME_CODE)) + "\n\n"
    fields["later_line"] = text.count("\n") + 2
    text += f"{rt(RUNTIME_LATER)} = " + _kept(later) + "\n"
    program = describe(gen, loaded, positions=positions, code_lines=code_lines)
    at_start = eager + f"\n\n{TABLE} = {_literal(program, fields)}\n"
    head = f"{rt(RUNTIME_TEXT)} = "
    start_line = text.count("\n") + 2
    text += head + _kept(at_start) + "\n"
    runtime = rt(RUNTIME)
    used = sorted(_words_used(placed, gen) - {"выполнить"})
    # the file as Python names it: its path, or "<string>" for exec(open(…).read()), which sets no __file__
    start = (f"{runtime} = {{}}\nexec({rt(RUNTIME_CODE)}({rt(RUNTIME_TEXT)}, {rt(MAIN)}.__code__.co_filename, "
             f"{start_line}), {runtime})\n"
             + "".join(f"{rt(word)} = {runtime}[{word!r}]\n" for word in used) + _python_words(placed, gen))
    # a Ctrl-C while the runtime is compiled and loaded, told as a run tells it (runtime/bytecode.py)
    text += "try:\n" + "".join(f"    {line}\n" for line in start.splitlines()) + "except KeyboardInterrupt:\n    _прервано()\n"
    rest = rt(KEPT) if limits else "None"
    return text + (f'\nif __name__ == "__main__":\n    {runtime}["выполнить"]({rt(MAIN)}, {runtime}[{TABLE!r}], '
                   f"{rest}, {rt(RUNTIME_LATER)})\n")


def _head(title: str, output: str | None, gen: Generator, limits: bool, import_runtime: bool, placed) -> str:
    layout = ("Среда выполнения импортируется из установленного pseudo (pip install arsac-pseudo).\n"
              if import_runtime else "Сначала — сама программа, за ней — среда выполнения pseudo и запуск.\n")
    name = os.path.basename(output) if output else f"{os.path.splitext(os.path.basename(title))[0]}.py"
    shown = name if re.fullmatch(r"[\w@%+=:,./-]+", name) else shlex.quote(name)  # letters of any script are safe
    run = f"Запуск: python3 {shown} (стандартный ввод — для ПРОЧЕСТЬ).\n"
    head = CODING + docstring(f"{title} — программа на языке книги Ж. Арсака, переведённая pseudo на Python.\n\n"
                     + run + ("" if limits else WITHOUT_LIMITS) + layout)
    if import_runtime:
        rt = gen.names.rt
        used = sorted(_words_used(placed, gen) | {"выполнить"})
        imports = "".join(f"        {w},\n" if rt(w) == w else f"        {w} as {rt(w)},\n" for w in used)
        head += ("\ntry:\n    from pseudo.runtime import (\n" + imports + "    )\n"
                 "except ImportError:  # written with pseudo py --import-runtime, run where pseudo is not installed\n"
                 "    import sys\n"
                 "    sys.exit('ошибка: этому файлу нужен установленный pseudo: pip install arsac-pseudo "
                 "(или запишите его без --import-runtime)')\n") + _python_words(placed, gen)
    return head


def _python_words(placed, gen: Generator) -> str:
    """Python's own words the code uses under another name, where the program took theirs (a
    variable `range`: the loops call `range_`), bound to Python's."""
    named = _names_in(placed)
    renamed = [(w, gen.names.rt(w)) for w in PYTHON_WORDS if gen.names.rt(w) != w and gen.names.rt(w) in named]
    return "".join(f"from builtins import {word} as {name}\n" for word, name in renamed)


def _words_used(placed, gen: Generator) -> set[str]:
    """The runtime's words the code names (under the names it gives them)."""
    named = _names_in(placed)
    return {word for word in API if gen.names.rt(word) in named}


def _names_in(placed) -> set[str]:
    return {x.id for _, s in placed for x in ast.walk(s) if isinstance(x, ast.Name)}


def _entries(placed, text: str, gen: Generator, lines: int) -> dict:
    """The entry of each definition of the readable code, at column 0 of its `def` line, zero
    wide: where the exact code made from it counts the call (runtime/exact.py), reported at the
    call (report.is_entry). `lines`: the lines of the file above the code's text."""
    definitions = set(gen.names.defs.values())
    out = {}
    written = [s for s in ast.parse(text).body if isinstance(s, ast.FunctionDef)]
    generated = [(f, s) for f, s in placed if isinstance(s, ast.FunctionDef)]
    for new, (filename, old) in zip(written, generated, strict=True):
        if old.name in definitions:
            line = new.lineno + lines
            out[(line, 0, line, 0)] = (filename, old.lineno, 0, old.lineno, 0)
    return out


def _code(placed, loaded) -> tuple[str, dict]:
    """Statements as Python text with their comments written out, and the program's place of
    each position in that text (its first line is line 1)."""
    if not placed:
        return "", {}
    module = ast.fix_missing_locations(ast.Module(body=[s for _, s in placed], type_ignores=[]))
    text = unparse(module)
    try:
        positions = _positions([f for f, _ in placed], module, text)
    except SyntaxError as e:  # pseudo run compiles the tree, which has no such limit
        if e.msg != "too many nested parentheses":
            raise
        raise StaticError([_too_deep(placed, loaded)]) from None
    text, moved = _expand_comments(text)
    return text, {(moved(a), b, moved(c), d): v for (a, b, c, d), v in positions.items()}


def _too_deep(placed, loaded) -> Diagnostic:
    """The error of an expression nested deeper than Python reads in a text (200 parentheses:
    f(f(f(…))), ЕСЛИ … ТО ЕСЛИ …), placed at the innermost statement whose text Python refuses."""
    def refused(statement) -> bool:
        try:
            ast.parse(unparse(statement))
            return False
        except SyntaxError:
            return True
    filename, node = next((f, s) for f, s in placed if refused(s))
    while True:
        inner = next((s for s in ast.walk(node) if isinstance(s, ast.stmt) and s is not node and refused(s)), None)
        if inner is None:
            break
        filename, node = getattr(inner, SOURCE_FILE, filename), inner
    source = loaded.sources[filename]

    def column(line: int, offset: int) -> int:  # a byte offset of the line → its column in characters
        return len(source.line(line).encode("utf-8")[:offset].decode("utf-8", "ignore")) + 1
    span = Span(source, node.lineno, column(node.lineno, node.col_offset), node.end_lineno,
                column(node.end_lineno, node.end_col_offset))
    return diagnostic("error", "too-deep-for-python", span, hint("too-deep-for-python"))


class _Unparser(getattr(ast, "_Unparser", object)):
    """Python's own unparser, but `a and b and c < d` without parentheses around the third
    operand on: it raises the precedence for each operand of `and` and `or` in turn."""

    def visit_BoolOp(self, node):
        operator = self.boolops[node.op.__class__.__name__]
        precedence = self.boolop_precedence[operator]

        def operand(value):
            self.set_precedence(precedence.next(), value)
            self.traverse(value)
        with self.require_parens(precedence, node):
            self.interleave(lambda: self.write(f" {operator} "), operand, node.values)


def unparse(node: ast.AST) -> str:
    """Python text of generated code (its meaning is checked: emit._positions parses it again)."""
    if not hasattr(ast, "_Unparser"):  # pragma: no cover - a Python without it: parentheses to spare
        return ast.unparse(node)
    return _Unparser().visit(node)


def _shifted(positions: dict, lines: int) -> dict:
    return {(a + lines, b, c + lines, d): v for (a, b, c, d), v in positions.items()}


def _kept(code: str) -> str:
    """A string literal in triple quotes whose value is a line break, then the code, line for
    line: raw where it can be (Python reads a long string with escapes several times slower),
    else with its backslashes and triple quotes escaped."""
    if "'''" not in code:
        return f"r'''\n{code}\n'''"
    return "'''\n" + code.replace("\\", "\\\\").replace("'''", "''\\'") + "\n'''"


def _runtime_parts(named: set[str]) -> tuple[str, str]:
    """The runtime's modules the start needs — those of running and printing, and any whose
    words the program's code names (`named`) —, and the rest."""
    eager, later = [], []
    for module in MODULES:
        needed = module in AT_START or named & runtime_names_of(module)
        (eager if needed else later).append(runtime_module_text(module))
    later.append(runtime_module_text("exact"))
    return "\n\n".join(eager), "\n\n".join(later)


def _bytecode_module(name: str) -> str:
    """The module that compiles the runtime once and keeps its code (runtime/bytecode.py),
    its function under the name the file gives it."""
    text = runtime_module_text("bytecode")
    return text if name == RUNTIME_CODE else text.replace(f"def {RUNTIME_CODE}(", f"def {name}(")


def program_part(source: str) -> str:
    """The program's own code in an emitted file: what golden files compare."""
    start = source.index(PROGRAM_MARK)
    end = source.find(RUNTIME_MARK)
    end = source.index(f"\n{TABLE} = ") if end < 0 else end
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
    arrays = {gen.names.var(a): (a, loaded.facts.index_counts.get(a, 0)) for a in loaded.facts.arrays} \
        if gen.readable else None
    return CompiledProgram(texts, definitions, names, frames_per_call=gen.frames_per_call, exact_places=gen.exact_places,
                           machine=gen.names.renamed_machine(), arrays=arrays,
                           watchable=loaded.facts.watchable, **more)


def _literal(program: CompiledProgram, fields: dict) -> str:
    """The fields of the CompiledProgram, and `fields` (where the file's parts are), as Python
    source (every string through repr but the positions: one string of numbers, a line each,
    report.encode_positions)."""
    definitions = ", ".join(f"{k!r}: {d.as_tuple()!r}" for k, d in program.definitions.items())
    positions = f'"""\n{encode_positions(program.positions, list(program.texts))}\n"""[1:-1]'
    more = "".join(f"    {k!r}: {v!r},\n" for k, v in fields.items() if v is not None)
    return (f"{{\n    'texts': {program.texts!r},\n    'definitions': {{{definitions}}},\n"
            f"    'names': {program.names!r},\n    'positions': {positions},\n"
            f"    'code_lines': {program.code_lines}, 'frames_per_call': {program.frames_per_call},\n"
            f"    'exact_places': {program.exact_places!r}, 'machine': {program.machine!r},\n"
            f"    'arrays': {program.arrays!r}, 'watchable': {program.watchable!r},\n{more}}}")


def runtime_module_text(module: str) -> str:
    """A runtime module's code, without its docstrings and comments (the package has them: an
    emitted file is read by Python at every start, and each of its bytes costs time) and
    without its imports of the others (in one file they share one namespace)."""
    from importlib import resources  # only for a file written out: `run` compiles without it
    text = resources.files("pseudo.runtime").joinpath(f"{module}.py").read_text(encoding="utf-8")
    tree = ast.parse(text)
    tree.body = [node for node in tree.body if not (isinstance(node, ast.ImportFrom) and node.level > 0)]
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef) and body and isinstance(body[0], ast.Expr) \
                and isinstance(body[0].value, ast.Constant) and isinstance(body[0].value.value, str):
            node.body = body[1:] or [ast.Pass()]
    return f"{RUNTIME_MARK}: модуль pseudo/runtime/{module}.py ====\n{unparse(tree)}\n"


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
    (syntax.SOURCE_FILE)."""
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
