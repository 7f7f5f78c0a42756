"""`pseudo py`: the program as one Python file that runs with python3 alone.

The file reads program first: its definitions and главная at the top; then the runtime —
each of its modules copied whole, in order, under a marker line (or, with `--import-runtime`,
one import of the installed package instead); then what its error reports need — the program's
text, the program's place of each Python position, the definitions — and the start.

Everything taken from the program or its file name reaches the file through a form that
cannot leave its place: string literals written by `repr`, comments split at every line break
and stripped of control characters, the docstring written by `ast.unparse`.
"""
from __future__ import annotations

import ast
from importlib import resources
from pathlib import Path

from ..runtime import API, MODULES
from ..runtime.report import CompiledProgram, Definition
from .generate import COMMENT, Generator, comment, is_comment
from .names import MAIN

RUNTIME_MARK = "# ==== среда выполнения pseudo"
PROGRAM_MARK = "# ==== программа ===="
CHECKED = "главная_с_проверками"
CHECKED_NOTE = (
    "==== та же программа, точная: каждое значение проверяется, каждый шаг и вызов считаются ====\n"
    "Код выше быстрее: значение ПРОЧЕСТЬ он считает числом (или строкой — смотря по тому, как\n"
    "используется переменная), шаги считает сразу пачками, сверху, а глубину рекурсии оставляет\n"
    "пределу Python. Если ввод окажется другого вида или счёт дойдёт до предела, программа начнётся\n"
    "заново с этого кода: тот же ввод прочитается снова, а напечатанное не напечатается второй раз.")


def python_source(loaded, title: str, limits: bool = True, import_runtime: bool = False) -> str:
    gen = Generator(loaded.program, loaded.facts, loaded.main_file, limits)
    placed = [(filename, s) for filename, part in gen.parts().items() for s in part]
    checked = gen.needs_exact()
    if checked:  # the exact code the fast one hands over to
        exact = Generator(loaded.program, loaded.facts, loaded.main_file, limits, fast=False, names=gen.names)
        placed += [(loaded.main_file, comment(CHECKED_NOTE)), (loaded.main_file, exact.checked_main(CHECKED))]
    module = ast.fix_missing_locations(ast.Module(body=[s for _, s in placed], type_ignores=[]))
    text = ast.unparse(module)
    positions = _positions([f for f, _ in placed], module, text)
    text, moved = _expand_comments(text)
    layout = ("Среда выполнения импортируется из установленного pseudo (pip install arsac-pseudo).\n"
              if import_runtime else "Сначала — сама программа, за ней — среда выполнения pseudo и запуск.\n")
    head = docstring(f"{title} — программа на языке книги Ж. Арсака, переведённая pseudo на Python.\n\n"
                     f"Запуск: python3 {Path(title).stem}.py (стандартный ввод — для ПРОЧЕСТЬ).\n" + layout)
    if import_runtime:
        used = sorted({x.id for _, s in placed for x in ast.walk(s) if isinstance(x, ast.Name)} & set(API)
                      | {"выполнить", "CompiledProgram", "Definition"})
        head += ("\ntry:\n    from pseudo.runtime import (\n" + "".join(f"        {x},\n" for x in used) + "    )\n"
                 "except ImportError:  # written with pseudo py --import-runtime, run where pseudo is not installed\n"
                 "    import sys\n"
                 "    sys.exit('ошибка: этому файлу нужен установленный pseudo: pip install arsac-pseudo "
                 "(или запишите его без --import-runtime)')\n")
    head += f"\n{PROGRAM_MARK}\n\n"
    offset = head.count("\n")
    positions = {(moved(a) + offset, b, moved(c) + offset, d): v for (a, b, c, d), v in positions.items()}
    runtime = "" if import_runtime else runtime_text()
    code_lines = offset + text.count("\n") + 3
    program = describe(gen, loaded, positions=positions, code_lines=code_lines)
    tail = (f"\n\n\n# ==== для сообщений об ошибках: текст программы, места, определения ====\n\n"
            f"ПРОГРАММА = {_literal(program)}\n\n"
            f'if __name__ == "__main__":\n    выполнить({MAIN}, ПРОГРАММА{", " + CHECKED if checked else ""})\n')
    return head + text + "\n\n\n" + runtime + tail


def program_part(source: str) -> str:
    """The program's own code in an emitted file: what golden files compare."""
    start = source.index(PROGRAM_MARK)
    end = source.find(RUNTIME_MARK)
    end = source.index("# ==== для сообщений об ошибках") if end < 0 else end
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
    return CompiledProgram(texts, definitions, names, frames_per_call=gen.frames_per_call, **more)


def _literal(program: CompiledProgram) -> str:
    """The CompiledProgram as Python source (every string through repr)."""
    definitions = ", ".join(f"{k!r}: Definition({d.name!r}, {d.params!r}, {d.python_params!r}, {d.words!r}, "
                            f"{d.plain!r})" for k, d in program.definitions.items())
    return (f"CompiledProgram(\n    texts={program.texts!r},\n    definitions={{{definitions}}},\n"
            f"    names={program.names!r},\n    positions={program.positions!r},\n"
            f"    code_file=__file__, code_lines={program.code_lines}, frames_per_call={program.frames_per_call})")


def runtime_text() -> str:
    """The runtime's modules, whole, in order; only their imports of each other are left out
    (in one file they share one namespace)."""
    out = []
    for module in MODULES:
        text = resources.files("pseudo.runtime").joinpath(f"{module}.py").read_text(encoding="utf-8")
        lines = text.split("\n")
        for node in ast.parse(text).body:
            if isinstance(node, ast.ImportFrom) and node.level > 0:
                for i in range(node.lineno - 1, node.end_lineno):
                    lines[i] = None
        body = "\n".join(line for line in lines if line is not None).strip("\n")
        out.append(f"{RUNTIME_MARK}: модуль pseudo/runtime/{module}.py ====\n\n{body}\n")
    return "\n\n".join(out)


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
        for old, new in zip(_code_nodes(top), _code_nodes(top_again), strict=True):
            if type(old) is not type(new):
                raise AssertionError(f"unparse changed the tree: {type(old).__name__} → {type(new).__name__}")
            if getattr(old, "lineno", None) and hasattr(new, "lineno"):
                key = (new.lineno, new.col_offset, new.end_lineno, new.end_col_offset)
                out.setdefault(key, (filename, old.lineno, old.col_offset, old.end_lineno, old.end_col_offset))
    return out


def _code_nodes(node):
    """The nodes of a tree, breadth first, leaving out comment markers."""
    todo = [node]
    while todo:
        node = todo.pop(0)
        if not is_comment(node):
            yield node
            todo.extend(ast.iter_child_nodes(node))


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
