"""Reporting errors the same way in every mode.

`render` writes every message pseudo prints — syntax, static and runtime errors, warnings —
as `file:line:column: ошибка: text`, the line with a caret under the place, and a hint.

A compiled program (run in memory, or an emitted file run by python3) fails with a Python
exception; `explain` turns it into the language's error: the message code, the place in the
program (from the position of the Python instruction that raised, through `CompiledProgram`),
and the pseudo call stack, read from the traceback's frames.
"""
import errno
import sys

from .io import ended_on_open_line
from .messages import SEVERITY_WORDS
from .values import Failure, brief, fail

WINDOW = 100  # characters of a long line shown around the caret
EXIT_RUNTIME, EXIT_INTERRUPTED = 70, 130


class Place(tuple):
    """Where in the program: (filename, line, column, end_line, end_column); lines and columns
    count from 1, columns in characters, the end column exclusive."""
    __slots__ = ()

    def __new__(cls, filename, line, column, end_line, end_column):
        return tuple.__new__(cls, (filename, line, column, end_line, end_column))

    filename = property(lambda self: self[0])
    line = property(lambda self: self[1])
    column = property(lambda self: self[2])
    end_line = property(lambda self: self[3])
    end_column = property(lambda self: self[4])

    def __repr__(self):
        return "Place(filename={!r}, line={}, column={}, end_line={}, end_column={})".format(*self)


def render(severity, text, place, line_text=None, hint=None, extra=()):
    """file:line:col: severity: text, then the line with a caret under the place, then a hint."""
    word = SEVERITY_WORDS.get(severity, severity)
    if place is None:
        lines = [f"{word}: {text}"]
    else:
        lines = [f"{printable(place.filename)}:{place.line}:{place.column}: {word}: {text}"]
        if line_text is not None:
            lines += caret_lines(place, line_text)
    lines += list(extra)
    if hint:
        lines.append(f"  подсказка: {hint}")
    return "\n".join(lines)


UNSEEN = ("Cc", "Cf", "Cs", "Zl", "Zp")  # controls, format characters (bidi overrides), lone surrogates, breaks


def printable(text, lines=False):
    """The text as a terminal shows it without acting on it: each control or format character
    (an escape sequence's ESC, a carriage return, a bell, a bidi override) and each byte of a
    file name that is not UTF-8 written as Python writes it, \\x1b, \\r, \\u202e; tabs kept, and
    line breaks with `lines`. For what a program or its file name brings to pseudo's own
    messages: a file name, a pupil's output in a grading table."""
    if text.isprintable():
        return text
    import unicodedata
    return "".join(ch if ch == "\t" or lines and ch == "\n" or unicodedata.category(ch) not in UNSEEN
                   else ascii(ch)[1:-1] for ch in text)


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


def kept_stack(calls, describe):
    """The entries of the pseudo call stack, outermost first, as stack_lines takes them: one
    per call, but of a long recursion only those the report shows (its ends) described — the
    others None —, so that the report of a recursion 100,000 calls deep costs what it shows."""
    keep = STACK_KEEP // 2
    if len(calls) <= STACK_KEEP:
        return [describe(c) for c in calls]
    return [*map(describe, calls[:keep]), *[None] * (len(calls) - 2 * keep), *map(describe, calls[-keep:])]


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
    where = f"{printable(call_place.filename)}:{call_place.line}" if call_place is not None else "?"
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
    return brief(value)


# ---- a compiled program's errors ----

class Definition:
    """What the call stack shows of a definition compiled to a Python function: its name and
    its parameters' pseudo names; the Python names that hold their current values (a parameter,
    or its cell); a phrase's words and parameters, in order; and of the Python names, those that
    are the parameters themselves, not cells."""
    __slots__ = ("name", "params", "plain", "python_params", "words")

    def __init__(self, name, params, python_params, words=(), plain=()):
        self.name, self.params, self.python_params, self.words, self.plain = name, params, python_params, words, plain

    def __eq__(self, other):
        return type(other) is Definition and self.as_tuple() == other.as_tuple()

    def as_tuple(self):
        return (self.name, self.params, self.python_params, self.words, self.plain)


class CompiledProgram:
    """What a compiled program keeps for its error reports.

    `texts`: each file's text, for the carets. `definitions`: Python function name → Definition.
    `names`: Python names of variables mapped back to the program's. `positions`: for an
    emitted file, the position of each Python node (line, column, end line, end column; columns
    in UTF-8 bytes) mapped to the program's own (file, line, column, end line, end column) — as
    a dict, or written compactly as text (`encode_positions`) and read on the first error;
    None when the code carries the program's positions itself (compiled in memory from the
    tree). `code_file`: the emitted file (None: the program's own files), whose program part
    ends before `code_lines`. `frames_per_call`: Python frames one pseudo call may need, for
    the recursion limit. `exact_places`: the program's places (file, line, column, end line, end
    column) whose errors the exact code reports: each node of a function the fast code writes
    out in place of its calls, mapped to that function's Python name (pygen/inline.py), and each
    node evaluated after an element of a list that may have no value, mapped to "" (its error
    would come before the element's: pygen/expressions.py). `machine`: the words of runtime.names the
    code names otherwise, because the program has them (`сообщить` → `сообщить_`). `arrays`:
    for the readable code of an emitted file, each array's Python name → its name and number of
    indices (the exact code made from it has them: runtime/exact.py). `watchable`: may the run be
    watched for a state that comes back (analysis.Facts.watchable)?"""

    def __init__(self, texts, definitions, names, positions=None, code_file=None, code_lines=0,
                 frames_per_call=2, exact_places=None, machine=None, arrays=None,
                 watchable=False):
        self.texts, self.definitions, self.names = texts, definitions, names
        self._positions = positions
        self.code_file, self.code_lines, self.frames_per_call = code_file, code_lines, frames_per_call
        self.exact_places = exact_places or {}
        self.machine = machine or {}
        self.arrays = arrays or {}
        self.watchable = watchable
        self.lines_cache = {}
        self.positions_of = {}  # code object → its instructions' positions, listed once

    @property
    def positions(self):
        if type(self._positions) is str:
            self._positions = decode_positions(self._positions, list(self.texts))
        return self._positions

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
        positions = self.positions_of.get(code)
        if positions is None:
            positions = self.positions_of[code] = list(code.co_positions())
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


def program_of(fields):
    """The CompiledProgram of its fields as plain data: an emitted file's table ПРОГРАММА, a
    cache entry (fields_of)."""
    definitions = {k: Definition(*d) for k, d in fields["definitions"].items()}
    return CompiledProgram(fields["texts"], definitions, fields["names"], fields["positions"], fields["code_file"],
                           fields["code_lines"], fields["frames_per_call"], fields["exact_places"], fields.get("machine"),
                           fields.get("arrays"),
                           fields.get("watchable", False))


def fields_of(program):
    """A CompiledProgram as plain data, as program_of reads it."""
    return {"texts": program.texts, "definitions": {k: d.as_tuple() for k, d in program.definitions.items()},
            "names": program.names, "positions": program._positions, "code_file": program.code_file,
            "code_lines": program.code_lines, "frames_per_call": program.frames_per_call, "exact_places": program.exact_places,
            "machine": program.machine, "arrays": program.arrays,
            "watchable": program.watchable}


def encode_positions(positions, files):
    """The positions as text, a line each: the Python position and the program's, with the
    file as its number in `files`, each line and end line as its step from the line before
    (a table of thousands of entries compiles at once as one string; as a dict literal it took
    longer than the rest of the emitted file, and every byte of the file costs its start)."""
    out, before, source_before = [], 0, 0
    for (a, b, c, d), (f, line, column, end_line, end_column) in positions.items():
        out.append(f"{a - before} {b} {c - a} {d} {files.index(f)} {line - source_before} {column} "
                   f"{end_line - line} {end_column}")
        before, source_before = a, line
    return "\n".join(out)


def decode_positions(text, files):
    out, a, line = {}, 0, 0
    for entry in text.split("\n") if text else ():
        step, b, c, d, f, source_step, column, end_line, end_column = map(int, entry.split())
        a, line = a + step, line + source_step
        out[(a, b, a + c, d)] = (files[f], line, column, line + end_line, end_column)
    return out


def is_entry(place):
    """The entry of a definition (`войти()`, placed at column 1 of its header, zero wide): an
    error there belongs to the call."""
    return place.column == place.end_column == 1 and place.line == place.end_line


def program_frames(exc, program):
    """(frame, instruction offset) of the traceback entries that run the program, outermost
    first; of a Ctrl-C that stopped a program waiting for input, the frames it waits in
    (`waiting`: its innermost frame, runner.on_deep_stack)."""
    out, tb = [], exc.__traceback__
    while tb is not None:
        if program.is_program_code(tb.tb_frame.f_code):
            out.append((tb.tb_frame, tb.tb_lasti))
        tb = tb.tb_next
    waiting, frame = [], getattr(exc, "waiting", None)
    while frame is not None:
        if program.is_program_code(frame.f_code):
            waiting.append((frame, frame.f_lasti))
        frame = frame.f_back
    return waiting[::-1] + out


def innermost_place(frames, program, end=None):
    """The innermost instruction of the program in frames[:end]; an entry counts at the call
    that made it."""
    for k in range((len(frames) if end is None else end) - 1, -1, -1):  # no slice: a deep stack asks often
        frame, offset = frames[k]
        place = program.place(frame.f_code, offset)
        if place is None or is_entry(place):
            continue
        return place
    return None


def explain(exc, program):
    """The language's error for an exception of a compiled program, with its place and call
    stack; None for an exception that is a fault of pseudo itself."""
    failure = as_failure(exc, program.names)
    if failure is None:
        return None
    frames = failing_frames(exc, program)
    failure.place = innermost_place(frames, program)
    failure.stack = _stack(frames, program)
    fill_in(failure, lambda site: program.place(*site), program.line, program.names)
    return failure


def fill_in(failure, place_of, line_text, names=None):
    """What a message can say only at the report, in the program's terms: the line that took
    the most steps (from limits.Watch's sites: `place_of(site)`, a place with .filename and
    .line, or None), the values that came back (`names`: Python names of variables → the
    program's). `line_text(filename, number)`: a line of the program."""
    args = failure.args_
    if failure.code == "step-limit" and args.get("sites"):
        lines = {}
        for site, looks in args["sites"]:
            place = place_of(site)
            if place is not None:
                lines[place.filename, place.line] = lines.get((place.filename, place.line), 0) + looks
        if lines:
            (filename, number), _ = max(lines.items(), key=lambda item: (item[1], -item[0][1]))
            text = " ".join(line_text(filename, number).split())
            args["hot"] = f"; больше всего шагов — в строке {number}: {text[:60]}{'…' if len(text) > 60 else ''}"
            args["where"] = f" в строке {number}"
    elif failure.code == "repeat" and failure.place is not None:
        import re  # on the path of this message only
        place, names = failure.place, names or {}
        repeated = {names.get(k, k): v for k, v in args["repeated"].items()}
        text = "\n".join(line_text(place.filename, k) for k in range(place.line, place.end_line + 1))
        shown = [name for name in dict.fromkeys(re.findall(r"\w+", text)) if name in repeated] or sorted(repeated)
        if shown:
            values = ", ".join(f"{name} = {brief(repeated[name])}" for name in shown[:REPEATED_SHOWN])
            args["values"] = f" ({values}{', …' if len(shown) > REPEATED_SHOWN else ''})"


REPEATED_SHOWN = 8  # values of a state that came back, at most, in its message


def failing_frames(exc, program):
    """The program's frames of an exception, the innermost at the instruction that failed."""
    frames = program_frames(exc, program)
    if frames and _at_entry(frames[-1], program):  # the call did not begin: it is not on the stack
        frames = frames[:-1]
    if frames and isinstance(exc, NameError):
        frame, offset = frames[-1]
        frames[-1] = (frame, _raising_offset(frame.f_code, offset, _name_of(exc)))
    return frames


def in_exact_place(exc, program):
    """Did the exception arise where the exact code reports errors (CompiledProgram.exact_places):
    in a function the fast code wrote out in place of its call (its call is not on Python's
    stack), or after an element of a list that may have no value?"""
    for frame, offset in failing_frames(exc, program):
        place = program.place(frame.f_code, offset)
        owner = program.exact_places.get(tuple(place)) if place is not None else None
        if owner is not None and owner != frame.f_code.co_name:
            return True
    return False


def _name_of(exc: NameError) -> str:
    """The Python name a NameError is about (an UnboundLocalError names it in its text only)."""
    return getattr(exc, "name", None) or (str(exc).split("'")[1] if "'" in str(exc) else "?")


# CPython 3.11 quickens a function's code once it is warm (called or looped eight times or so)
# and runs some pairs of instructions as one: a load or store of a local, or a constant, then a
# load of a local. A local found unbound by the second half raises at the offset of the first
# (tb_lasti), whose position is that of the instruction before: `РЕЗУЛЬТАТ := 1` then `x := j`
# with j unset was placed at the assignment of РЕЗУЛЬТАТ. (3.12 and 3.13 pair only loads of
# locals known to be bound, which cannot fail.)
PAIRS_ENDING_IN_A_LOAD = ("LOAD_FAST__LOAD_FAST", "STORE_FAST__LOAD_FAST", "LOAD_CONST__LOAD_FAST")


def _raising_offset(code, offset, name):
    """The offset of the instruction that raised a NameError about `name`, reported at `offset`:
    the second half of a pair the quickened code ran as one, when the first could not have
    raised it."""
    adaptive = getattr(code, "_co_code_adaptive", None)
    if adaptive is None or offset + 2 >= len(adaptive):
        return offset
    import dis
    if getattr(dis, "_all_opname", dis.opname)[adaptive[offset]] not in PAIRS_ENDING_IN_A_LOAD:
        return offset
    first = next((i for i in dis.get_instructions(code) if i.offset == offset), None)
    return offset if first is None or first.opname == "LOAD_FAST" and first.argval == name else offset + 2


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
        return fail("bad-input", where="")  # a stream that could not keep the byte for Input to place
    if isinstance(exc, BrokenPipeError):  # the reader went away (`| head`): the caller ends quietly
        return None
    if isinstance(exc, OSError):
        return fail("io-error", detail=os_words(exc))
    return None


_OS_WORDS = {  # why the system refused to read or write a file, in Russian: its English never reaches a user
    "ENOENT": "такого файла или папки нет", "EACCES": "нет прав доступа", "EPERM": "операция не разрешена",
    "EISDIR": "это папка, а не файл", "ENOTDIR": "часть пути — не папка",
    "EIO": "сбой устройства (ошибка ввода-вывода)", "ENOSPC": "на устройстве нет места",
    "EDQUOT": "превышена квота на диске", "EROFS": "файловая система только для чтения",
    "ENAMETOOLONG": "слишком длинное имя файла", "ELOOP": "символические ссылки идут по кругу",
    "EMFILE": "открыто слишком много файлов", "ENFILE": "открыто слишком много файлов",
    "ENXIO": "устройство недоступно", "ENODEV": "устройство недоступно", "EBUSY": "устройство или файл заняты",
    "ETXTBSY": "файл занят", "EFBIG": "файл слишком велик", "ENOMEM": "не хватило памяти",
    "EBADF": "поток закрыт", "EAGAIN": "ресурс временно недоступен", "EINTR": "прервано",
    "EINVAL": "недопустимое имя или действие", "EEXIST": "файл уже есть",
    "EPIPE": "читающая сторона канала закрыта", "ETIMEDOUT": "истекло время ожидания",
    "ESTALE": "файл на сетевом диске недоступен", "EADDRINUSE": "адрес уже занят",
    "EADDRNOTAVAIL": "адрес недоступен", "ENOTEMPTY": "папка не пуста", "EXDEV": "это разные диски",
}
OS_ERRORS = {getattr(errno, name): words for name, words in _OS_WORDS.items() if hasattr(errno, name)}


def os_words(e: OSError) -> str:
    """Why reading or writing failed, in Russian: our own words as they are, the system's by
    the table of its error numbers, any other by its number — never the system's English."""
    said = e.strerror or ""
    if any("а" <= c.lower() <= "я" for c in said):  # pseudo's own reason (a device, a file too large)
        return said
    if e.errno in OS_ERRORS:
        return OS_ERRORS[e.errno]
    return f"ошибка операционной системы (код {errno.errorcode.get(e.errno, e.errno)})" if e.errno else \
        "ошибка операционной системы"


def _stack(frames, program):
    """The entries of the call stack: the frames of the program's definitions, each with its
    parameters' values and the place of the call that made it (the caller's instruction)."""
    calls = [i for i, (frame, _) in enumerate(frames) if frame.f_code.co_name in program.definitions]

    def describe(i):
        frame = frames[i][0]
        d = program.definitions[frame.f_code.co_name]
        values = [shown_argument(frame.f_locals.get(p), p not in d.plain) for p in d.python_params]
        return stack_entry(d.name, d.params, d.words, values, innermost_place(frames, program, i) if i else None)
    return kept_stack(calls, describe)


def report_exception(exc, program, stream=None):
    """Print the language's error for an exception of the compiled program; its exit code."""
    stream = stream or sys.stderr
    failure = explain(exc, program)
    if failure is None:
        print(render("error", f"внутренняя ошибка: {exc!r}", None), file=stream)
        return EXIT_RUNTIME
    place = failure.place
    line = program.line(place.filename, place.line) if place is not None else None
    try:
        sys.stdout.flush()
    except (OSError, ValueError, AttributeError):
        pass
    after_ctrl_c(failure.code, stream)
    print(render("error", failure.text(), place, line, failure.hint(), stack_lines(failure.stack)), file=stream)
    return EXIT_INTERRUPTED if failure.code == "interrupted" else EXIT_RUNTIME


def after_ctrl_c(code, stream):
    """A terminal shows ^C where the cursor was: the message of a Ctrl-C begins on a line of its
    own (the line the output left open was ended already)."""
    try:
        if code == "interrupted" and stream.isatty() and not ended_on_open_line():
            stream.write("\n")
    except (AttributeError, OSError, ValueError):
        pass
