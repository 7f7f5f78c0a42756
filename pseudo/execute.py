"""Running a loaded program — compiled to Python (the default) or interpreted — and turning
what stops it into the language's error, with its place and the pseudo call stack."""
from __future__ import annotations

import gc
import itertools
import sys
import time

from .errors import PseudoRuntimeError, StaticError, diagnostic
from .runtime import Limits, load_code
from .runtime import io as streams
from .runtime.limits import Watch
from .runtime.messages import RUNTIME_HINTS, RUNTIME_MESSAGES
from .runtime.names import BOUNDARY, STEPS
from .runtime.report import Place, as_failure, explain, fill_in, in_exact_place, render
from .runtime.runner import FrameReader, on_deep_stack, run_program
from .runtime.values import Failure

NOTICE_AFTER = 5.0  # seconds a run goes without reading, printing or pausing before its Notice tells
RUN_MODES = ("compiled", "exact", "interpret", "reference")
INTERPRETER_FRAMES = 60  # Python frames one pseudo call may take in the interpreter, nesting included


def run(loaded, stdin=None, stdout=None, limits: Limits | None = None, mode: str = "compiled",
        stats=None, tracer=None, notices=None) -> None:
    """Run the program; raises PseudoRuntimeError when it fails. `mode`: "compiled",
    "exact", "interpret" (closures.py) or "reference" (interpreter.py). Statistics and tracing
    need an interpreter. `notices`: where to tell that a run goes on quietly (Notice), or None."""
    if mode not in RUN_MODES:
        raise ValueError(f"mode {mode!r}: one of {', '.join(RUN_MODES)}")
    limits = limits or Limits()
    stdin, stdout = stdin or sys.stdin, stdout or sys.stdout
    if mode in ("compiled", "exact") and stats is None and tracer is None:
        _run_compiled(loaded, stdin, stdout, limits, mode, notices)
    else:
        _run_interpreted(loaded, stdin, stdout, limits, stats, tracer, reference=mode == "reference",
                         notices=notices)


def _run_compiled(loaded, stdin, stdout, limits: Limits, mode: str, notices=None) -> None:
    from .pygen.compiled import compile_code
    code = deep_call(lambda: compile_code(loaded, "fast" if mode == "compiled" else "exact"))
    run_code(code.codes, code.program, stdin, stdout, limits, exact_of(loaded) if mode == "compiled" else None,
             notices=notices)


def exact_of(loaded):
    """What gives главная of the exact code, compiled only if the fast code hands over."""
    from .pygen.compiled import compile_main
    return lambda: deep_call(lambda: compile_main(loaded, "exact"))


def run_code(codes, program, stdin, stdout, limits: Limits, exact=None, lines: bool = True, notices=None) -> None:
    """Run compiled code (runtime.report.CompiledProgram: what its reports need; `exact`: see
    runner.run_program; `lines`: register the program's lines for Python tracebacks, --debug;
    `notices`: see run); raises PseudoRuntimeError when it fails."""
    main = load_code(codes, program, lines)
    hands_over = (lambda exc: in_exact_place(exc, program)) if program.exact_places else None
    counters = tuple(program.machine.get(word, word) for word in (STEPS, BOUNDARY)) if exact is not None else None
    before = frozenset(main.__globals__)
    try:
        run_program(main, stdin, stdout, limits, program.frames_per_call, exact, hands_over, counters,
                    lambda fast: Watch(FrameReader(before, fast, machine=program.machine), program.watchable, fast),
                    notices and Notice(notices, _line_of_instruction, program.line, limits))
    except BaseException as exc:
        if as_failure(exc, program.names) is None:
            raise
        raise _compiled_error(exc, program) from None


# The two errors below are made by functions of their own, not in the handlers: a local of the
# handler's frame, which the exception's traceback holds, would make a cycle, and the frames of
# a recursion 100,000 calls deep would wait for the cyclic collector rather than go with the report.

def _compiled_error(exc, program) -> PseudoRuntimeError:
    failure = explain(exc, program)
    error = _error(failure, _span(failure.place, program.texts))
    error.python_error = exc  # for --debug
    return error


def _span(place, texts: dict):
    if place is None:
        return None
    from .frontend.source import Source, Span
    return Span(Source(texts[place.filename], place.filename), place.line, place.column, place.end_line,
                place.end_column)


def _line_of_instruction(site):
    """The program's file and line of a compiled code's instruction (FrameReader.site): the
    line of the last instruction up to it that has one."""
    code, offset = site
    lines = [line for line, *_ in itertools.islice(code.co_positions(), offset // 2 + 1) if line is not None]
    return code.co_filename, lines[-1] if lines else code.co_firstlineno


def _run_interpreted(loaded, stdin, stdout, limits: Limits, stats, tracer, reference: bool = False,
                     notices=None) -> None:
    if reference:
        from .interpreter import Interpreter, StateReader
    else:
        from .closures import ClosureInterpreter as Interpreter
        from .closures import ClosureStateReader as StateReader
    interpreter = Interpreter(loaded.program, loaded.facts, tracer, stats)

    def main():
        if tracer is not None:
            tracer.attach()
        interpreter.run()
    try:
        run_program(main, stdin, stdout, limits, INTERPRETER_FRAMES,
                    watch=lambda fast: Watch(StateReader(interpreter), loaded.facts.watchable,
                                             traced=tracer is not None),
                    notice=notices and Notice(notices, lambda span: (span.filename, span.line),
                                              lambda filename, number: loaded.sources[filename].line(number), limits))
    except BaseException as exc:
        if not isinstance(exc, Failure) and as_failure(exc, {}) is None:
            raise
        raise _interpreted_error(exc, interpreter, loaded) from None


def _interpreted_error(exc, interpreter, loaded) -> PseudoRuntimeError:
    failure = exc if isinstance(exc, Failure) else as_failure(exc, {})
    if failure.place is None:  # output closed, too deep a nesting, Ctrl-C while waiting for input
        interpreter.placed(failure, interpreter.where)
    fill_in(failure, lambda span: span, lambda filename, number: loaded.sources[filename].line(number))
    return _error(failure, failure.place)


class Notice:
    """`pseudo run`'s word about a run that has gone on NOTICE_AFTER seconds without reading,
    printing or pausing (runtime/limits.py): where it is now and how to stop it, written once
    to `stream`. `line_of(site)`: the file and line of a site of the mode's Watch reader;
    `line_text(filename, number)`: a line of the program."""

    def __init__(self, stream, line_of, line_text, limits: Limits):
        self.stream, self.line_of, self.line_text, self.limits = stream, line_of, line_text, limits
        self.seen, self.since = None, time.monotonic()

    def due(self, now) -> bool:
        seen = streams.ВВОД.count, streams.ВЫВОД.written, streams.ВЫВОД.pauses
        if seen != self.seen:
            self.seen, self.since = seen, now
        return now - self.since >= NOTICE_AFTER

    def tell(self, site) -> None:
        filename, number = self.line_of(site)
        text = self.line_text(filename, number) if number else ""
        start = len(text) - len(text.lstrip())
        place = Place(filename, number, start + 1, number, len(text.rstrip()) + 1)
        steps = f"{self.limits.max_steps:_}".replace("_", " ")
        hint = RUNTIME_HINTS["still-running"].format(time=f"{self.limits.time_limit:g}", steps=steps)
        message = RUNTIME_MESSAGES["still-running"].format(seconds=f"{NOTICE_AFTER:g}")
        try:
            self.stream.write(render("notice", message, place, text, hint) + "\n")
            self.stream.flush()
        except (OSError, ValueError):  # a closed stream: nobody to tell
            pass


def _error(failure: Failure, span) -> PseudoRuntimeError:
    return PseudoRuntimeError(failure.code, span, failure.hint(), failure.text(), failure.stack)


BROWSER = sys.platform == "emscripten"  # Pyodide: Python's stack is the browser's, much smaller
STATIC_RECURSION = 200_000 if not BROWSER else sys.getrecursionlimit()  # Pyodide's own, calibrated


def deep_call(fn):
    """fn() on a deep stack: parsing, resolving and generating code recurse as deep as the
    program's expressions nest. A nesting too deep even for that is a clean static error.
    The cyclic garbage collector waits meanwhile: this work makes many objects and almost no
    cycles, and its passes over them took a third of the time of a long file."""
    result = []

    def target():
        old, collecting = sys.getrecursionlimit(), gc.isenabled()
        sys.setrecursionlimit(STATIC_RECURSION)
        gc.disable()
        try:
            result.append(fn())
        except RecursionError:
            raise StaticError([diagnostic("error", "nesting-limit", None, RUNTIME_HINTS["nesting-limit"])]) from None
        finally:
            sys.setrecursionlimit(old)
            if collecting:
                gc.enable()
    on_deep_stack(target, lambda: None)
    return result[0]


def format_stats(stats, program) -> str:
    """The table `run --stats` prints: entries into states, calls of definitions, steps."""
    from .runtime.limits import steps_taken
    from .tools.trace import definition_name
    lines = ["статистика выполнения:"]
    if stats.states:
        lines.append("  входов в состояния:")
        lines += [f"    {v:>10}  {name if owner is None else f'{owner}: {name}'}"
                  for (owner, name), v in stats.states.items()]
    if stats.calls:
        lines.append("  вызовов:")
        lines += [f"    {v:>10}  {definition_name(program.definitions[k])}" for k, v in stats.calls.items()]
    lines.append(f"  шагов: {steps_taken()}")
    return "\n".join(lines)


__all__ = ["deep_call", "format_stats", "run"]
