"""The command line's commands: their arguments (arguments.py), their bodies by theme (running.py:
run, check, py; viewing.py: trace, step, graph), and here what the bodies share — the program
loaded with its warnings told, the limits of its run, an output written where it may be.

cli.py runs a command and turns whatever stops it into a message and an exit code; a body
returns the exit code of its success or raises. Each imports what it needs where it needs it:
`pseudo run` of a program in the cache (pseudo/cache.py) starts without the front end, the
generator or pathlib.
"""
from __future__ import annotations

import sys

from ..api import load_file
from ..files import OutputRefused, check_output, io_words, write_file
from ..runtime import Limits


def load(args):
    """The program of `args.file`, loaded, its warnings told (unless -q)."""
    loaded = load_file(args.file)
    warn(loaded, args)
    return loaded


def warn(loaded, args) -> None:
    if not args.quiet:
        for w in loaded.warnings:
            print(w.render(), file=sys.stderr)


def run_limits(args) -> Limits:
    """The limits of a run that the arguments ask for (--max-steps, --max-depth, --time-limit, --seed)."""
    return Limits(max_steps=args.max_steps, max_depth=args.max_depth, time_limit=args.time_limit, seed=args.seed)


def flush() -> None:
    """Standard output written out before a message on the error stream, whatever became of it."""
    try:
        sys.stdout.flush()
    except (OSError, ValueError):
        pass


def inputs(loaded) -> list[str]:
    """The files an output must not replace: the program and every file it uses."""
    return list(loaded.sources)


def refuse_output(path: str | None, loaded) -> None:
    """Refuse a bad output path before the program runs (and before anything is written)."""
    if path and path != "-":
        check_output(path, inputs(loaded))


def write_output(path: str, data: str | bytes, loaded) -> None:
    """Write the output file (never one of the program's files), or standard output for `-`."""
    if path == "-":
        try:
            if isinstance(data, bytes):
                sys.stdout.buffer.write(data)
            else:
                sys.stdout.write(data)
            sys.stdout.flush()
        except BrokenPipeError:
            raise
        except OSError as e:  # as a file given with -o that cannot be written
            raise OutputRefused(f"не удалось записать стандартный вывод: {io_words(e)}") from None
        return
    write_file(path, data, inputs=inputs(loaded))
