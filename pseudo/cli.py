"""The command line: `pseudo КОМАНДА …` parsed (commands/arguments.py), the command's body run
(commands/running.py, commands/viewing.py, grade.py, site/build.py, examples.py), and whatever
stops it told in Russian with its exit code (sysexits: 0 ok, 64 usage, 65 syntax or static
error, 69 no external program, 70 runtime error, 130 Ctrl-C)."""
from __future__ import annotations

import importlib
import os
import sys

from .api import UsageError
from .commands import flush
from .commands.arguments import build_parser, unknown_arguments
from .errors import EXIT_OK, EXIT_RUNTIME, EXIT_USAGE, PseudoError, render
from .files import OutputRefused, io_words
from .runtime.report import after_ctrl_c, printable
from .runtime.runner import final_flush, standard_streams

# Each command's body: the module that holds it (in this package) and its name. A body returns
# the exit code of its success, or raises what run_command tells. Its module is imported only
# when it runs: `pseudo run` of a program in the cache (pseudo/cache.py) starts without the front
# end, the generator or pathlib, and no command pays for another's imports.
COMMANDS = {
    "run": (".commands.running", "cmd_run"),
    "check": (".commands.running", "cmd_check"),
    "py": (".commands.running", "cmd_py"),
    "trace": (".commands.viewing", "cmd_trace"),
    "step": (".commands.viewing", "cmd_step"),
    "graph": (".commands.viewing", "cmd_graph"),
    "test": (".grade", "cmd_test"),
    "grade": (".grade", "cmd_grade"),
    "site": (".site.build", "command"),
    "examples": (".examples", "command"),
}


def body(command: str):
    """The function that does `command` (a key of COMMANDS), its module imported now."""
    module, name = COMMANDS[command]
    return getattr(importlib.import_module(module, __package__), name)


def main(argv: list[str] | None = None) -> int:
    standard_streams()
    try:
        code = _main(argv)
    except SystemExit as e:  # --help, --version, a misused option: argparse ends the run itself
        code = e.code or EXIT_OK
    return final_flush(code)


def _main(argv: list[str] | None) -> int:
    parser = build_parser()
    args, extras = parser.parse_known_args(argv)
    if extras:
        unknown_arguments(parser, args, extras)
    if args.command is None:
        parser.print_help(sys.stderr)
        return EXIT_USAGE
    return run_command(args)


def run_command(args, interrupted: str = "прервано (Ctrl-C)") -> int:
    """The command of parsed arguments, whatever stops it reported in Russian with its exit code
    (the command line, and the notebook's %%pseudo, whose Ctrl-C is a button: `interrupted`)."""
    try:
        return body(args.command)(args)
    except (UsageError, OutputRefused) as e:  # they name files: a name's control characters are not acted on
        print(f"pseudo: ошибка: {printable(str(e))}", file=sys.stderr)
        return EXIT_USAGE
    except PseudoError as e:
        flush()
        after_ctrl_c(getattr(e, "code", None), sys.stderr)
        print(e.render(), file=sys.stderr)
        return e.exit_code
    except KeyboardInterrupt:
        flush()
        print(f"\npseudo: {interrupted}", file=sys.stderr)
        return 130
    except BrokenPipeError:  # the reader of our output went away (`| head`): not an error
        try:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        except (OSError, ValueError):
            pass
        return EXIT_OK
    except OSError as e:  # a file the system would not read or write, met where no message names it
        flush()
        where = f" {printable(str(e.filename))}" if e.filename else ""
        print(f"pseudo: ошибка: не удалось прочесть или записать{where}: {io_words(e)}", file=sys.stderr)
        return EXIT_USAGE
    except Exception:  # noqa: BLE001 - the last line of defence: never a bare traceback
        flush()
        print(render("error", "внутренняя ошибка pseudo — это не ошибка вашей программы. "
                     "Пожалуйста, сообщите о ней разработчикам, приложив программу и команду.", None),
              file=sys.stderr)
        if getattr(args, "debug", False):
            import traceback  # only on this path: not at start-up
            traceback.print_exc()
        else:
            print("  (подробности: запустите ещё раз с --debug)", file=sys.stderr)
        return EXIT_RUNTIME
