"""Running a program: standard streams, limits, a deep stack, and the pseudo call stack on errors."""
from __future__ import annotations

import sys
import threading

from . import nodes as n
from .errors import InternalError, Interrupted, PseudoRuntimeError, StaticError, diagnostic
from .interpreter import Interpreter, Stats, definition_name
from .runtime import Input, Limits, Machine, Output, roomy_call, show

THREAD_STACK = 512 * 1024 * 1024
PY_FRAMES_PER_CALL = 40  # generous: nested blocks and expressions inside one pseudo call


def run(program: n.Program, stdin=None, stdout=None, limits: Limits | None = None,
        machine: Machine | None = None, stats: Stats | None = None, tracer=None) -> Machine:
    """Interpret a resolved program; raises PseudoRuntimeError with the pseudo call stack."""
    limits = limits or Limits()
    machine = machine or Machine(limits)
    output = Output(stdout or sys.stdout)

    def interpret():
        old = sys.getrecursionlimit()
        sys.setrecursionlimit(max(old, machine.limits.max_depth * PY_FRAMES_PER_CALL + 10_000))
        try:
            Interpreter(program, machine, output, Input(stdin or sys.stdin, output), stats, tracer).run()
        except PseudoRuntimeError as e:
            e.stack = format_stack(machine)
            raise
        except RecursionError:
            err = PseudoRuntimeError("nesting-limit", machine.where)
            err.stack = format_stack(machine)
            raise err from None
        finally:
            sys.setrecursionlimit(old)
    try:
        in_deep_thread(interpret, machine.limits.max_depth, machine.interrupt)
    except KeyboardInterrupt:  # blocked in input: report where the last step was
        err = Interrupted("interrupted", machine.where)
        err.stack = format_stack(machine)
        raise err from None
    return machine


STATIC_RECURSION = 200_000


def deep_call(fn):
    """fn() on a deep stack: parsing, resolving and compiling recurse as deep as the program's
    expressions nest. A nesting too deep even for that is a clean static error."""
    result = []

    def target():
        old = sys.getrecursionlimit()
        sys.setrecursionlimit(STATIC_RECURSION)
        try:
            result.append(fn())
        except RecursionError:
            raise StaticError([diagnostic("error", "nesting-limit", None)]) from None
        finally:
            sys.setrecursionlimit(old)
    in_deep_thread(target, 0, lambda: None)
    return result[0]


def in_deep_thread(fn, max_depth: int, interrupt) -> None:
    """Run fn in a thread with a large stack so that deep pseudo recursion fits; re-raise
    what it raises. Ctrl-C in the main thread calls `interrupt` (the program stops at its
    next step); if the program does not stop (blocked in input), KeyboardInterrupt."""
    outcome: list[BaseException] = []
    done = threading.Event()  # not Thread.join: a join interrupted by Ctrl-C can misreport the thread

    def target():
        try:
            roomy_call(fn)
        except BaseException as e:  # noqa: BLE001 - handed to the caller's thread
            outcome.append(e)
        finally:
            done.set()

    old_size = threading.stack_size()
    threading.stack_size(THREAD_STACK)
    try:
        worker = threading.Thread(target=target, name="pseudo", daemon=True)
        worker.start()
    finally:
        threading.stack_size(old_size)
    try:
        while not done.wait(0.1):
            pass
    except KeyboardInterrupt:
        interrupt()
        if not done.wait(2.0):  # blocked (in input, or in one long operation): report what we know
            raise
    if outcome:
        raise outcome[0]


def format_stats(stats: Stats, machine: Machine, program: n.Program) -> str:
    """The table `run --stats` prints: entries into states, calls of definitions, steps."""
    lines = ["статистика выполнения:"]
    if stats.states:
        lines.append("  входов в состояния:")
        lines += [f"    {v:>10}  {_state_name(k)}" for k, v in stats.states.items()]
    if stats.calls:
        lines.append("  вызовов:")
        names = {k: _definition_name(program.definitions[k]) for k in stats.calls}
        lines += [f"    {v:>10}  {names[k]}" for k, v in stats.calls.items()]
    lines.append(f"  шагов: {machine.steps}")
    return "\n".join(lines)


def _state_name(key) -> str:
    owner, name = key
    return name if owner is None else f"{owner}: {name}"


def _definition_name(d: n.Definition) -> str:
    return definition_name(d)


def format_stack(machine: Machine, limit: int = 12) -> list[str]:
    """The pseudo call stack, outermost first; long recursions keep both ends."""
    entries = [_describe(d, span, frame) for d, span, frame in machine.stack]
    if len(entries) > limit:
        skipped = len(entries) - limit
        entries = entries[:limit // 2] + [f"… ещё {skipped} вызовов …"] + entries[-limit // 2:]
    return entries


def _describe(d: n.Definition, span, frame) -> str:
    values = [show(v) if not hasattr(v, "get") else "РЕЗ" for v in frame[:len(d.params)]]
    where = f"{span.filename}:{span.line}" if span is not None else "?"
    return f"{definition_label(d, values)}  — вызов в {where}"


def definition_label(d: n.Definition, values: list[str]) -> str:
    """HR(3), or a phrase with its arguments in place: занять 1, 5."""
    if d.is_phrase:
        it = iter(values)
        return " ".join(next(it) if w in {p.name for p in d.params} else w for w in d.words).replace(" ,", ",")
    return f"{d.name}({', '.join(values)})"


__all__ = ["InternalError", "format_stack", "in_deep_thread", "run"]
