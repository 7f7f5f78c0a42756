"""Shell completion (bash, zsh) and the man page, generated from the command line's own parser.

    python3 -m pseudo.tools.shell completion bash > ~/.local/share/bash-completion/completions/pseudo
    python3 -m pseudo.tools.shell completion zsh > ~/.zfunc/_pseudo      (with fpath+=(~/.zfunc))
    python3 -m pseudo.tools.shell man > ~/.local/share/man/man1/pseudo.1

Completion is written by shtab, the man page by argparse-manpage (`pip install 'arsac-pseudo[shell]'`):
both read `pseudo.commands.arguments.build_parser()`, so every subcommand and option appears as
`pseudo --help` shows it, with its Russian help. The program argument completes to *.pseudo files
and folders; -o, --output and --input complete to any file.
"""
from __future__ import annotations

import argparse
import sys

SHELLS = ("bash", "zsh")

# the program argument: *.pseudo files (and folders, to walk into)
PSEUDO_FILES = {
    "bash": "_shtab_pseudo_compgen_programs",
    "zsh": "_files -g '*.pseudo(-.)'",
}
BASH_PREAMBLE = """
# pseudo: the program argument completes to *.pseudo files and to folders
_shtab_pseudo_compgen_programs() {
  compgen -d -- "$1"
  compgen -f -X '!*.pseudo' -- "$1"
}
"""
FILE_OPTIONS = {"output", "input"}


class MissingLibrary(Exception):
    """The optional library is not installed: say which extra brings it."""


def annotated_parser() -> argparse.ArgumentParser:
    """The command line's parser, its file arguments marked for shtab."""
    import shtab

    from ..commands.arguments import build_parser
    parser = build_parser()
    for action in _all_actions(parser):
        if action.dest == "file":
            action.complete = PSEUDO_FILES
        elif action.dest in FILE_OPTIONS:
            action.complete = shtab.FILE
    return parser


def _all_actions(parser: argparse.ArgumentParser):
    for action in parser._actions:
        yield action
        if isinstance(action, argparse._SubParsersAction):
            for sub in dict.fromkeys(action.choices.values()):  # aliases share a parser
                yield from _all_actions(sub)


def completion(shell: str) -> str:
    """The completion script for bash or zsh."""
    if shell not in SHELLS:
        raise ValueError(f"нет дополнения для оболочки {shell}; есть: {', '.join(SHELLS)}")
    try:
        import shtab
    except ImportError:
        raise MissingLibrary("для дополнения команд нужен shtab: pip install 'arsac-pseudo[shell]'") from None
    preamble = {"bash": BASH_PREAMBLE} if shell == "bash" else None
    return shtab.complete(annotated_parser(), shell=shell, preamble=preamble)


def man_page() -> str:
    """The man page pseudo(1), in roff."""
    try:
        from argparse_manpage.manpage import Manpage
    except ImportError:
        raise MissingLibrary("для страницы man нужен argparse-manpage: pip install 'arsac-pseudo[shell]'") from None
    from .. import __version__
    from ..commands.arguments import build_parser
    data = {"project_name": "pseudo", "version": __version__, "manual_title": "Команды пользователя",
            "description": "исполняет псевдокод книги Ж. Арсака «Программирование игр и головоломок»"}
    return str(Manpage(build_parser(), _data=data))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python3 -m pseudo.tools.shell",
                                     description="Дополнение команд для bash и zsh и страница man для pseudo.")
    sub = parser.add_subparsers(dest="what", required=True, metavar="ЧТО")
    p_completion = sub.add_parser("completion", help="сценарий дополнения команд для оболочки")
    p_completion.add_argument("shell", choices=SHELLS, help="оболочка")
    sub.add_parser("man", help="страница man pseudo(1) в формате roff")
    args = parser.parse_args(argv)
    try:
        text = completion(args.shell) if args.what == "completion" else man_page()
    except MissingLibrary as e:
        print(f"pseudo: ошибка: {e}", file=sys.stderr)
        return 69
    sys.stdout.write(text if text.endswith("\n") else text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
