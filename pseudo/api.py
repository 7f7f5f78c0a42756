"""Running a program from its file: the one entry the command line, the judge of exercises
and the notebook share. A program run by `pseudo run` is looked for in the cache of compiled
programs first (cache.py); found, nothing of the front end or the generator is imported.
"""
from __future__ import annotations

import os
from contextlib import contextmanager

from . import load
from .errors import Diagnostic, StaticError

_GIVEN: dict[str, bytes] = {}  # file name → the text a caller gives in place of the file's (given_texts)


@contextmanager
def given_texts(texts: dict[str, str]):
    """While it lasts, a program file of one of these names is read from the text given (a
    notebook's cell) rather than from the disk; the files it uses still come from the disk."""
    _GIVEN.update({name: text.encode("utf-8") for name, text in texts.items()})
    try:
        yield
    finally:
        for name in texts:
            _GIVEN.pop(name, None)


def compiled(path: str, data: bytes):
    """What `pseudo run` keeps of a program (cache.py's entry), from the cache or compiled and
    kept; and the loaded program, None when it came from the cache."""
    from . import cache
    entry = cache.load(path, data)
    if entry is not None:
        return entry, None
    entry, loaded = compile_for_cache(path, data)
    cache.store(path, data, entry)
    return entry, loaded


def run_file(path: str, stdin, stdout, limits, warnings=None) -> None:
    """Run a program file as `pseudo run` does: the fast code, from the cache when it is there;
    its warnings, and the notice of a run that goes on quietly (execute.Notice), to `warnings`
    (None: not shown); raises PseudoRuntimeError when it fails."""
    from .execute import exact_of, run_code
    from .runtime.report import program_of
    data = read_bytes(path)
    entry, loaded = compiled(path, data)
    exact = exact_of(loaded) if loaded is not None else exact_later(path, data)
    if warnings is not None:
        for text in entry["warnings"]:
            print(text, file=warnings)
    run_code(entry["codes"], program_of(entry["program"]), stdin, stdout, limits, exact, lines=False,
             notices=warnings)


class UsageError(Exception):
    """The command cannot start (no such file, …): exit 64 with the message."""


def read_bytes(path: str) -> bytes:
    """The bytes of a program file (or the text a caller gave for that name, `given_texts`)."""
    if path in _GIVEN:
        return _GIVEN[path]
    from .files import read_program
    try:
        return read_program(path)
    except FileNotFoundError:
        raise UsageError(f"файл {path} не найден") from None
    except IsADirectoryError:
        raise UsageError(f"{path} — это папка, а не файл программы") from None
    except ValueError:  # a NUL byte in the name
        raise UsageError("в имени файла нулевой байт") from None
    except OSError as e:
        from .files import io_words
        raise UsageError(f"не удалось прочесть {path}: {io_words(e)}") from None


def _source(path: str, data: bytes):
    from .frontend.source import Source
    try:
        return Source(data.decode("utf-8-sig"), path, data)
    except UnicodeDecodeError as e:
        from .messages import encoding_hint, not_utf8  # on the path of the error only
        raise StaticError([Diagnostic("error", "not-utf8", f"файл {path} {not_utf8(e.object, e.start)}",
                                      _byte_span(path, e.object, e.start), encoding_hint(data, "программу"))]) from None


def _byte_span(path: str, data: bytes, start: int):
    """Where a byte that is not UTF-8 stands: its line and column in the text read so far."""
    from .frontend.source import Source, Span
    from .messages import byte_place
    line, column = byte_place(data, start)
    source = Source(data.decode("utf-8", "replace"), path)
    return Span(source, line, column, line, column + 1)


def load_file(path: str, data: bytes | None = None):
    """The program in a file, loaded (pseudo.load), its read and decoding errors in the language's words."""
    from .execute import deep_call
    source = _source(path, read_bytes(path) if data is None else data)
    return deep_call(lambda: load(source))


def compile_for_cache(path: str, data: bytes):
    """`pseudo run` compiles the program: what it keeps between runs (cache.py), as plain data,
    and the loaded program. Each used file is kept with the file its path leads to (a link
    replaced by a copy is another program) and the digest of the bytes that were read."""
    from .cache import digest
    from .execute import deep_call
    from .pygen.compiled import compile_code
    from .runtime.report import fields_of
    loaded = load_file(path, data)
    code = deep_call(lambda: compile_code(loaded))
    read = {os.path.realpath(name): source.data for name, source in loaded.sources.items()}
    uses = []
    for used in dict.fromkeys(loaded.named):
        real = os.path.realpath(used)
        uses.append((used, real, digest(read.get(real) or read_bytes(used))))
    entry = {"codes": code.codes, "program": fields_of(code.program),
             "warnings": [w.render() for w in loaded.warnings], "uses": uses}
    return entry, loaded


def exact_later(path: str, data: bytes):
    """главная of the exact code, made only when the fast code hands over to it."""
    def exact():
        from .execute import exact_of
        return exact_of(load_file(path, data))()
    return exact
