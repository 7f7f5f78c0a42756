"""`pseudo run`, `pseudo check` and `pseudo py`: a program run, checked without running, or
written as a Python file."""
from __future__ import annotations

import sys

from ..api import load_file, run_file
from ..errors import EXIT_OK, EXIT_STATIC, PseudoError
from . import flush, load, refuse_output, run_limits, warn, write_output


def cmd_run(args) -> int:
    if args.stats or args.interpret or args.debug or args.no_cache:
        return _run_without_cache(args)
    run_file(args.file, sys.stdin, sys.stdout, run_limits(args), None if args.quiet else sys.stderr)
    return EXIT_OK


def _run_without_cache(args) -> int:
    """`pseudo run` without the cache: --interpret, --stats, --debug, --no-cache."""
    from ..execute import format_stats, run
    loaded = load(args)
    if args.stats:
        from ..interpreter import Stats
    stats = Stats() if args.stats else None
    mode = "interpret" if args.interpret or stats is not None else "compiled"
    try:
        run(loaded, limits=run_limits(args), mode=mode, stats=stats, notices=None if args.quiet else sys.stderr)
    except PseudoError as e:
        if args.debug and getattr(e, "python_error", None) is not None:
            _python_traceback(e.python_error)
        raise
    finally:
        if stats is not None:
            flush()
            print(format_stats(stats, loaded.program), file=sys.stderr)
    return EXIT_OK


def _python_traceback(error: BaseException) -> None:
    """--debug: the Python frames of the program's error, those of the program named by its file."""
    flush()
    print("трассировка Python (кадры программы названы её файлом .pseudo):", file=sys.stderr)
    import traceback  # only on this path: not at start-up
    traceback.print_exception(error, file=sys.stderr)


def cmd_check(args) -> int:
    try:
        loaded = load_file(args.file)
    except PseudoError as e:
        print(e.render(), file=sys.stderr)
        print(f"ошибок: {len(e.diagnostics)}", file=sys.stderr)
        return EXIT_STATIC
    warn(loaded, args)
    print(f"ошибок нет, предупреждений: {len(loaded.warnings)}", file=sys.stderr)
    return EXIT_OK


def cmd_py(args) -> int:
    from pathlib import Path

    from ..execute import deep_call
    from ..pygen.emit import python_source
    loaded = load(args)
    refuse_output(args.output, loaded)
    path = Path(args.output or "-")  # a file's name, not standard output or a stream (/dev/stdout, /dev/fd/3)
    named = path.name != "-" and not path.absolute().as_posix().startswith(("/dev/", "/proc/"))
    text = deep_call(lambda: python_source(loaded, Path(args.file).name, limits=args.limits,
                                           import_runtime=args.import_runtime, output=args.output if named else None))
    write_output(args.output or "-", text, loaded)
    return EXIT_OK
