"""Reporting errors the same way in every mode.

`render` writes every message pseudo prints — syntax, static and runtime errors, warnings —
as `file:line:column: ошибка: text`, the line with a caret under the place, and a hint.

A compiled program (run in memory, or an emitted file run by python3) fails with a Python
exception; `explain` turns it into the language's error: the message code, the place in the
program (from the position of the Python instruction that raised, through `CompiledProgram`),
and the pseudo call stack, read from the traceback's frames.
"""
import errno
from dataclasses import dataclass, field
from typing import NamedTuple

from .messages import SEVERITY_WORDS
from .values import Failure, fail, show

WINDOW = 100  # characters of a long line shown around the caret


class Place(NamedTuple):
    """Where in the program: lines and columns count from 1, columns in characters, the end
    column exclusive."""
    filename: str
    line: int
    column: int
    end_line: int
    end_column: int


def render(severity, text, place, line_text=None, hint=None, extra=()):
    """file:line:col: severity: text, then the line with a caret under the place, then a hint."""
    word = SEVERITY_WORDS.get(severity, severity)
    if place is None:
        lines = [f"{word}: {text}"]
    else:
        lines = [f"{place.filename}:{place.line}:{place.column}: {word}: {text}"]
        if line_text is not None:
            lines += caret_lines(place, line_text)
    lines += list(extra)
    if hint:
        lines.append(f"  подсказка: {hint}")
    return "\n".join(lines)


def caret_lines(place, line_text):
    src = "".join(ch if ch == "\t" or ch.isprintable() else "�" for ch in line_text)
    column = place.column
    end = place.end_column if place.end_line == place.line else len(src) + 1
    if len(src) > WINDOW:  # keep a window around the caret
        start = max(0, min(column - 1 - WINDOW // 2, len(src) - WINDOW))
        src = ("…" if start else "") + src[start:start + WINDOW] + ("…" if start + WINDOW < len(src) else "")
        shift = start - (1 if start else 0)
        column, end = column - shift, min(end - shift, len(src) + 1)
    gutter = f"{place.line:5} | "
    prefix = "".join("\t" if ch == "\t" else " " for ch in src[:column - 1])
    width = max(1, min(end, len(src) + 1) - column)
    return [gutter + src, " " * (len(gutter) - 2) + "| " + prefix + "^" + "~" * (width - 1)]


STACK_HEAD = "  стек вызовов (последний вызов внизу; в скобках — текущие значения параметров):"
STACK_KEEP = 12


def stack_lines(entries):
    """The pseudo call stack under an error, outermost first; long recursions keep both ends."""
    if not entries:
        return []
    if len(entries) > STACK_KEEP:
        skipped = len(entries) - STACK_KEEP
        entries = entries[:STACK_KEEP // 2] + [f"… ещё {skipped} вызовов …"] + entries[-STACK_KEEP // 2:]
    return [STACK_HEAD] + [f"    {e}" for e in entries]


def call_label(name, params, words, values):
    """HR(3), or a phrase with its arguments in place: занять 1, 5 (words: the phrase's words
    and parameter names in order; empty for a procedure)."""
    if words:
        it = iter(values)
        return " ".join(next(it) if w in params else w for w in words).replace(" ,", ",")
    return f"{name}({', '.join(values)})"


def stack_entry(name, params, words, values, call_place):
    where = f"{call_place.filename}:{call_place.line}" if call_place is not None else "?"
    return f"{call_label(name, params, words, values)}  — вызов в {where}"


def shown_argument(value, cell=False):
    """A parameter's value in the call stack; a РЕЗ parameter is shown as such, a parameter
    the code keeps in a cell by the value in it."""
    if cell and value is not None:
        value = value.или_ничего()
    if value is None:
        return "?"
    if hasattr(value, "ключ"):
        return "РЕЗ"
    return show(value)


# ---- a compiled program's errors ----

@dataclass
class Definition:
    """What the call stack shows of a definition compiled to the Python function `function`."""
    name: str
    params: tuple  # the parameters' pseudo names
    python_params: tuple  # the Python names that hold their current values (a parameter, or its cell)
    words: tuple = ()  # a phrase's words and parameters, in order
    plain: tuple = ()  # of python_params, those that are the parameters themselves, not cells


@dataclass
class CompiledProgram:
    """What a compiled program keeps for its error reports.

    `texts`: each file's text, for the carets. `positions`: for an emitted file, the position of
    each Python node (line, column, end line, end column; columns in UTF-8 bytes) mapped to the
    program's own (file, line, column, end line, end column); None when the code carries the
    program's positions itself (compiled in memory from the tree). `code`: tells whether a code
    object is the program's. `names`: Python names of variables mapped back to the program's."""
    texts: dict
    definitions: dict  # Python function name → Definition
    names: dict
    positions: dict | None = None
    code_file: str | None = None  # the emitted file; None: the program's own files
    code_lines: int = 0  # the emitted file's program part ends before this line
    frames_per_call: int = 2  # Python frames one pseudo call may need, for the recursion limit
    lines_cache: dict = field(default_factory=dict)

    def is_program_code(self, code):
        if self.code_file is None:
            return code.co_filename in self.texts
        return code.co_filename == self.code_file and code.co_firstlineno < self.code_lines

    def line(self, filename, number):
        if filename not in self.lines_cache:
            self.lines_cache[filename] = self.texts.get(filename, "").split("\n")
        lines = self.lines_cache[filename]
        return lines[number - 1] if 1 <= number <= len(lines) else ""

    def place(self, code, offset):
        """The program's place of the instruction at `offset` of `code`, or None."""
        positions = list(code.co_positions())
        if offset // 2 >= len(positions):
            return None
        line, end_line, column, end_column = positions[offset // 2]
        if line is None or column is None:
            return None
        filename = code.co_filename
        if self.positions is not None:
            mapped = self.positions.get((line, column, end_line, end_column))
            if mapped is None:
                return None
            filename, line, column, end_line, end_column = mapped
        return self._in_characters(filename, line, column, end_line, end_column)

    def _in_characters(self, filename, line, column, end_line, end_column):
        def chars(number, byte_column):
            text = self.line(filename, number).encode("utf-8")
            return len(text[:byte_column].decode("utf-8", "replace")) + 1
        return Place(filename, line, chars(line, column), end_line, chars(end_line, end_column))


def is_entry(place):
    """The entry of a definition (`войти()`, placed at column 1 of its header, zero wide): an
    error there belongs to the call."""
    return place.column == place.end_column == 1 and place.line == place.end_line


def program_frames(exc, program):
    """(frame, instruction offset) of the traceback entries that run the program, outermost first."""
    out, tb = [], exc.__traceback__
    while tb is not None:
        if program.is_program_code(tb.tb_frame.f_code):
            out.append((tb.tb_frame, tb.tb_lasti))
        tb = tb.tb_next
    return out


def innermost_place(frames, program):
    """The innermost instruction of the program; an entry counts at the call that made it."""
    for frame, offset in reversed(frames):
        place = program.place(frame.f_code, offset)
        if place is None or is_entry(place):
            continue
        return place
    return None


def explain(exc, program):
    """The language's error for an exception of a compiled program, with its place and call
    stack; None for an exception that is a fault of pseudo itself."""
    frames = program_frames(exc, program)
    failure = as_failure(exc, program.names)
    if failure is None:
        return None
    if frames and _at_entry(frames[-1], program):  # the call did not begin: it is not on the stack
        frames = frames[:-1]
    if frames and isinstance(exc, NameError):
        frame, offset = frames[-1]
        frames[-1] = (frame, _load_of(frame.f_code, offset, _name_of(exc)))
    failure.place = innermost_place(frames, program)
    failure.stack = _stack(frames, program)
    return failure


def _name_of(exc: NameError) -> str:
    """The Python name a NameError is about (an UnboundLocalError names it in its text only)."""
    return getattr(exc, "name", None) or (str(exc).split("'")[1] if "'" in str(exc) else "?")


def _load_of(code, offset, name):
    """The offset of the load of `name` that failed. Python 3.11 joins two loads of locals into
    one instruction once a function is warm, and a failure in the second is reported at the
    first (`f(r, c)` with c unset points at r)."""
    import dis
    loads = [i for i in dis.get_instructions(code) if i.offset in (offset, offset + 2)]
    if len(loads) == 2 and loads[0].opname == loads[1].opname == "LOAD_FAST" \
            and loads[0].argval != name and loads[1].argval == name:
        return offset + 2
    return offset


def _at_entry(frame_offset, program):
    place = program.place(frame_offset[0].f_code, frame_offset[1])
    return place is not None and is_entry(place)


def as_failure(exc, names):
    """The language's error for a Python exception (`names`: Python names of variables mapped
    to the program's); None for a fault of pseudo itself."""
    if isinstance(exc, Failure):
        return exc
    if isinstance(exc, ZeroDivisionError):
        return fail("div-zero")
    if isinstance(exc, NameError):
        name = _name_of(exc)
        return fail("unset-var", name=names.get(name, name))
    if isinstance(exc, RecursionError):
        return fail("nesting-limit")
    if isinstance(exc, KeyboardInterrupt):
        return fail("interrupted")
    if isinstance(exc, MemoryError):
        return fail("too-big", detail="не хватило памяти")
    if isinstance(exc, UnicodeDecodeError):
        return fail("bad-input", byte=exc.start)
    if isinstance(exc, BrokenPipeError):  # the reader went away (`| head`): the caller ends quietly
        return None
    if isinstance(exc, OSError):
        return fail("io-error", detail=IO_ERRORS.get(exc.errno) or exc.strerror or str(exc))
    return None


IO_ERRORS = {  # what a full disk or a closed stream is called in Russian
    errno.ENOSPC: "на устройстве нет места", errno.EIO: "сбой устройства", errno.EBADF: "поток закрыт",
    errno.EACCES: "нет доступа", getattr(errno, "EDQUOT", -1): "превышена квота на диске",
}


def _stack(frames, program):
    out = []
    for i, (frame, _) in enumerate(frames):
        d = program.definitions.get(frame.f_code.co_name)
        if d is None:
            continue
        values = [shown_argument(frame.f_locals.get(p), p not in d.plain) for p in d.python_params]
        call = innermost_place(frames[:i], program) if i else None
        out.append(stack_entry(d.name, d.params, d.words, values, call))
    return out
