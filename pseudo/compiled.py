"""`pseudo run --compiled`: the transpiled program compiled to code objects in memory and run.

The program's statements are compiled per source file with that file's name (the support code
under "<pseudo>"), so a Python traceback points into the .pseudo files; their texts are
registered in `linecache`. Errors are mapped back to the interpreter's: the same message
code, the span of the pseudo construct whose code raised (from the code object's positions),
and the pseudo call stack read from the traceback's frames.
"""
from __future__ import annotations

import ast
import linecache
import sys

from . import nodes as n
from .errors import Interrupted, LimitError, PseudoRuntimeError
from .execute import deep_call, in_deep_thread
from .runtime import Limits, show
from .source import Span
from .transpile import MAIN, Emitted, StripComments, emit

SUPPORT_FILE = "<pseudo>"
PYTHON_DEFAULT_RECURSION = 1000
LIMIT_CODES = {"step-limit", "time-limit", "depth-limit"}


def compile_program(program: n.Program, main_file: str, sources: dict, limits: bool = True) -> tuple[dict, Emitted]:
    """Code objects for every part, executed into one namespace; returns it."""
    e = emit(program, main_file, limits)
    namespace: dict = {"__name__": "pseudo_program", "__file__": main_file}
    exec(compile(e.support, SUPPORT_FILE, "exec"), namespace)  # noqa: S102 - running the program is the point
    for filename, stmts in e.parts.items():
        module = StripComments().visit(ast.Module(body=list(stmts), type_ignores=[]))
        module = ast.fix_missing_locations(module)
        source = sources.get(filename)
        if source is not None:
            linecache.cache[filename] = (len(source.text), None, [x + "\n" for x in source.lines], filename)
        exec(compile(module, filename, "exec"), namespace)  # noqa: S102
    return namespace, e


def run_compiled(program: n.Program, main_file: str, sources: dict, stdin=None, stdout=None,
                 limits: Limits | None = None) -> None:
    compiled = deep_call(lambda: compile_program(program, main_file, sources))
    execute_compiled(compiled, program, stdin, stdout, limits)


def execute_compiled(compiled: tuple[dict, Emitted], program: n.Program, stdin=None, stdout=None,
                     limits: Limits | None = None) -> None:
    """Run главная of a compiled program with fresh limits and streams."""
    limits = limits or Limits()
    ns, emitted = compiled
    ns["шаги"], ns["прервано"] = 0, False
    output = ns["Output"](stdout or sys.stdout)  # the program's own copies of the classes
    ns["ВЫВОД"], ns["ВВОД"] = output, ns["Input"](stdin or sys.stdin, output)
    ns["ПРЕДЕЛ_ШАГОВ"], ns["ПРЕДЕЛ_ГЛУБИНЫ"], ns["ПРЕДЕЛ_ВРЕМЕНИ"] = limits.max_steps, limits.max_depth, limits.time_limit
    ns["граница"] = min(ns["СЛЕДИТЬ_КАЖДЫЕ"], limits.max_steps)
    error: list[BaseException] = []

    def main():
        import time
        ns["срок"] = time.monotonic() + limits.time_limit
        base = _depth()
        old = sys.getrecursionlimit()
        # the limit is the whole process's: never below Python's default, or another thread
        # (the one waiting for this one) could overflow
        sys.setrecursionlimit(max(base + limits.max_depth + 3, PYTHON_DEFAULT_RECURSION))
        try:
            try:
                ns[MAIN]()
            finally:
                sys.setrecursionlimit(old)
                output.finish()
        except ns["КонецРаботы"]:
            pass
        except BaseException as exc:  # noqa: BLE001 - mapped to the interpreter's errors below
            error.append(exc)

    def interrupt():
        ns["прервано"], ns["граница"] = True, -1

    in_deep_thread(main, limits.max_depth, interrupt)
    if error:
        raise _map_error(error[0], ns, emitted, program, limits) from None


def _depth() -> int:
    frame, depth = sys._getframe(), 0
    while frame is not None:
        depth, frame = depth + 1, frame.f_back
    return depth


def _map_error(exc: BaseException, ns: dict, emitted: Emitted, program: n.Program, limits: Limits) -> BaseException:
    frames = _program_frames(exc, program)
    span = _position(frames)
    if isinstance(exc, ns["ОшибкаВыполнения"]):
        code, args = exc.code, exc.args_
        if "arg" in args:  # a screen phrase's argument: the caret under it, as in the interpreter
            span = _argument_span(program, span, args["arg"])
    elif isinstance(exc, ZeroDivisionError):
        code, args = "div-zero", {}
    elif isinstance(exc, RecursionError):
        code, args = "depth-limit", {"limit": limits.max_depth}
        span = _call_site(frames)
    elif isinstance(exc, NameError):
        name = getattr(exc, "name", None) or str(exc).split("'")[1]
        code, args = "unset-var", {"name": emitted.names.pseudo_name(name)}
    else:
        return exc  # a bug of pseudo: reported as an internal error by the caller
    cls = Interrupted if code == "interrupted" else LimitError if code in LIMIT_CODES else PseudoRuntimeError
    err = cls(code, span, **args)
    err.stack = _stack(frames, emitted, program)
    err.python_error = exc  # for --debug
    return err


def _argument_span(program: n.Program, span: Span | None, arg: int) -> Span | None:
    """The span of argument `arg` of the screen phrase that starts at `span`."""
    if span is None:
        return None
    for root in n.bodies(program):
        for node in n.walk(root):
            if (isinstance(node, n.Screen) and (node.span.filename, node.span.line, node.span.column)
                    == (span.filename, span.line, span.column)):
                return node.args[arg].span
    return span


def _program_frames(exc: BaseException, program: n.Program) -> list:
    """(frame, instruction offset) of the traceback entries that run pseudo code, outermost first."""
    out, tb = [], exc.__traceback__
    while tb is not None:
        if tb.tb_frame.f_code.co_filename != SUPPORT_FILE and not tb.tb_frame.f_code.co_filename.endswith(".py"):
            out.append((tb.tb_frame, tb.tb_lasti))
        tb = tb.tb_next
    return out


def _span_of(frame, lasti) -> Span | None:
    from .source import Source
    positions = list(frame.f_code.co_positions())
    if lasti // 2 >= len(positions):
        return None
    line, end_line, col, end_col = positions[lasti // 2]
    if line is None or col is None:
        return None
    filename = frame.f_code.co_filename
    cached = linecache.getlines(filename)
    source = Source("".join(cached), filename)
    text = source.line(line).encode("utf-8")
    end_text = source.line(end_line).encode("utf-8")
    column = len(text[:col].decode("utf-8", "replace")) + 1
    end_column = len(end_text[:end_col].decode("utf-8", "replace")) + 1
    return Span(source, line, column, end_line, end_column)


def _position(frames) -> Span | None:
    """Where the error is: the innermost pseudo instruction; a definition's entry step
    (positioned at column 0 of its header) counts at its call site, as in the interpreter."""
    for frame, lasti in reversed(frames):
        span = _span_of(frame, lasti)
        if span is None:
            continue
        if span.column == span.end_column == 1 and span.line == frame.f_code.co_firstlineno:
            continue
        return span
    return None


def _call_site(frames) -> Span | None:
    """For a too deep recursion: the innermost call that was being made."""
    return _position(frames[:-1] if len(frames) > 1 else frames)


def _stack(frames, emitted: Emitted, program: n.Program) -> list[str]:
    from .execute import definition_label
    by_python = {py: key for key, py in emitted.names.defs.items()}
    out = []
    for i, (frame, _) in enumerate(frames):
        key = by_python.get(frame.f_code.co_name)
        if key is None:
            continue
        d = program.definitions[key]
        values = [_show(frame.f_locals.get(emitted.names.var(p.name))) for p in d.params]
        call = _position(frames[:i]) if i else None
        where = f"{call.filename}:{call.line}" if call is not None else "?"
        out.append(f"{definition_label(d, values)}  — вызов в {where}")
    if len(out) > 12:
        out = out[:6] + [f"… ещё {len(out) - 12} вызовов …"] + out[-6:]
    return out


def _show(value) -> str:
    if value is None:
        return "?"
    if hasattr(value, "ключ"):
        return "РЕЗ"
    return show(value)
