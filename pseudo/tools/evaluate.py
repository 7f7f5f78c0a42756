"""The stepper's `p`: an expression evaluated at a point of a recorded run, as the program would
evaluate it there — with the built-ins, its phrases, procedures, functions and arrays — or the
error the program would meet, in its words.

The expression is read as the body of a function added after the program's text (`печать_ (k,
i) = …`), whose parameters are the locals of the call the point is in: the resolver reads it
exactly as it reads the program (phrases, built-ins, look-alike letters), and the program's
checks say what is wrong with it. The interpreter evaluates it on the values the program had
at the point, in a run of its own: the streams, limits and random numbers of the run are the
evaluation's, and those of the program — which may be waiting for input — are put back after.
"""
from __future__ import annotations

import io
from contextlib import contextmanager
from types import ModuleType

from .. import nodes as n
from ..analysis import RESULT
from ..errors import PseudoError
from ..frontend.source import Source
from ..runtime import Limits
from ..runtime import io as runtime_io
from ..runtime import limits as runtime_limits
from ..runtime.report import as_failure
from ..runtime.runner import run_program
from ..runtime.values import Failure, Массив
from .trace import shown

NAME = "печать_"  # the function that holds the expression (a longer name if the program has it)
LIMITS = Limits(max_steps=10_000_000, max_depth=10_000, time_limit=5.0)
ELEMENTS = 100  # elements of an array shown by `p NAME`


class Point:
    """The values the program had at a point: its globals, its arrays (name → {key: value}),
    the locals of the call in progress and that call's definition (None: the main program)."""

    def __init__(self, globals_: dict, arrays: dict, locals_: dict, definition: str | None):
        self.globals, self.arrays, self.locals, self.definition = globals_, arrays, locals_, definition


def evaluate(loaded, text: str, point: Point) -> tuple[str, str]:
    """What `p TEXT` shows: what a call in the expression printed, and the value (a string in
    quotes) or «не вычислить: …» and why."""
    text = text.strip()
    if not text:
        return "", "напишите выражение: p k + 1"
    elements = array_elements(text, point)
    if elements is not None:
        return "", "; ".join(elements)
    try:
        added, name = _read(loaded, text, point.definition)
    except PseudoError as e:
        return "", "не вычислить: " + _said(e.first)
    program, facts = added.program, added.facts
    d = program.definitions[name]
    if not d.is_function:
        return "", f"не вычислить: {text} — не выражение, а инструкция; p показывает значение выражения"
    unknown = _unknown(added, d)
    if unknown:
        return "", "не вычислить: " + unknown
    from ..execute import INTERPRETER_FRAMES
    from ..interpreter import Frame, Interpreter
    interpreter = Interpreter(program, facts)
    interpreter.globals = dict(point.globals)
    for array, elements in point.arrays.items():
        interpreter.arrays.setdefault(array, Массив(array)).update(elements)
    frame = Frame(facts.bodies[name], {p.name: point.locals[p.name] for p in d.params if p.name in point.locals},
                  None)
    result, printed = [], io.StringIO()

    def main():
        if isinstance(d.body, n.Call):  # a procedure may be called: what it prints is shown
            result.append(interpreter.call(d.body, frame, want_value=False))
        else:
            result.append(interpreter.eval(d.body, frame))
    with _runtime_of_its_own():
        try:
            run_program(main, io.StringIO(""), printed, LIMITS, INTERPRETER_FRAMES)
        except BaseException as exc:
            failure = exc if isinstance(exc, Failure) else as_failure(exc, {})
            if failure is None:
                raise
            return printed.getvalue(), "не вычислить: " + failure.text()
    value = result[0] if result else None
    return printed.getvalue(), "(значения нет)" if value is None else shown(value)


def array_elements(name: str, point: Point) -> list[str] | None:
    """`p c` of an array: its elements given so far, by index («c[1] = 1», «c[2] = 3»), at most
    ELEMENTS of them — the board a class wants to see, which the language itself cannot name
    whole. None if the name is not an array with elements here."""
    elements = point.arrays.get(name)
    if not elements or name in point.locals or name in point.globals:
        return None
    try:
        keys = sorted(elements)
    except TypeError:  # indices of several kinds: in the order they were given
        keys = list(elements)
    parts = [f"{name}[{', '.join(map(shown, k)) if isinstance(k, tuple) else shown(k)}] = {shown(elements[k])}"
             for k in keys[:ELEMENTS]]
    if len(keys) > ELEMENTS:
        parts.append(f"… и ещё {len(keys) - ELEMENTS}")
    return parts


def _read(loaded, text: str, definition: str | None):
    """The program loaded again with the function that holds the expression after its text,
    and the function's name. Its parameters are the locals of `definition`, so that its names
    mean what they mean there."""
    import pseudo
    source = loaded.sources[loaded.main_file]
    body = loaded.facts.bodies.get(definition)
    params = [x for x in (body.locals if body is not None else ()) if x != RESULT]
    name = NAME
    while name in loaded.program.definitions:
        name += "_"
    header = name + (f" ({', '.join(params)}) =" if params else " =")
    base = source.text if source.text.endswith("\n") else source.text + "\n"
    return pseudo.load(Source(f"{base}{header} {text}\n", source.filename)), name


def _unknown(added, d) -> str | None:
    """A name in the expression that nothing in the program gives a value: the program has no
    such variable or array (a warning of the checks when loading, an error here)."""
    unknown = {w.span: w for w in added.warnings if w.code == "never-assigned"}
    for x in n.walk(d.body):
        w = unknown.get(x.span) if isinstance(x, n.Var | n.Index) else None
        if w is not None:
            what = "массива" if isinstance(x, n.Index) else "переменной"
            return f"в программе нет {what} {x.name}" + (f"; {w.hint}" if w.hint else "")
    return None


def _said(d) -> str:
    return d.text + (f"; {d.hint}" if d.hint else "")


@contextmanager
def _runtime_of_its_own():
    """The run's state in the runtime's modules (streams, counters, the random generator) put
    back as it was: the program's run may not be over."""
    saved = [(module, {k: v for k, v in vars(module).items()
                       if not k.startswith("__") and not callable(v) and not isinstance(v, ModuleType)})
             for module in (runtime_io, runtime_limits)]
    try:
        yield
    finally:
        for module, values in saved:
            vars(module).update(values)

