"""Loading: a program's main file and, recursively, every file it names in ИСПОЛЬЗОВАТЬ, parsed."""
from __future__ import annotations

import os

from ..errors import Diagnostic, StaticError, diagnostic
from ..files import NotAProgram, io_words
from ..messages import encoding_hint, hint, nearest, not_utf8
from .parser import ParsedFile, RawUse, parse_file
from .source import Source


class Loaded:
    """The main file and every file it uses, parsed; and every path named by ИСПОЛЬЗОВАТЬ,
    also one that names a file already loaded under another name (a link)."""

    def __init__(self, main: ParsedFile, files: list[ParsedFile], named: list[str]):
        self.main, self.files, self.named = main, files, named


def load(source: Source) -> Loaded:
    """Parse a program and, recursively, the files it names in ИСПОЛЬЗОВАТЬ. A file that cannot
    be read is an error that stops here, with the syntax errors of the others: what it defines
    is not known, so the uses of it cannot be told from mistakes."""
    main = parse_file(source)
    files, seen, named, unread = [main], {_key(source.filename)}, [], []
    _load_uses(main, files, seen, named, unread)
    if unread:
        raise StaticError(sorted(unread + [d for f in files for d in f.errors], key=diagnostic_order))
    return Loaded(main, files, named)


def _key(filename: str) -> str:
    try:
        return os.path.realpath(filename)
    except (OSError, ValueError):  # ValueError: a NUL byte in the name
        return filename


def _load_uses(parsed: ParsedFile, files: list[ParsedFile], seen: set[str], named: list[str],
               unread: list[Diagnostic]) -> None:
    for item in parsed.main:
        if not isinstance(item, RawUse):
            continue
        from pathlib import Path  # only for a program that uses others (6 ms of a start)
        base = Path(parsed.source.filename).parent
        path = base / item.path
        named.append(str(path))
        if _key(str(path)) in seen:
            continue
        seen.add(_key(str(path)))
        try:
            used = parse_file(Source.from_file(path, regular_only=True))
        except (OSError, UnicodeDecodeError, ValueError) as e:
            unread.append(_unreadable(item, e))
            continue
        if any(not isinstance(s, RawUse) for s in used.main):
            first = next(s for s in used.main if not isinstance(s, RawUse))
            used.warnings.append(diagnostic("warning", "use-ignored", first.span, path=item.path))
        files.append(used)
        _load_uses(used, files, seen, named, unread)


def _unreadable(item: RawUse, e: Exception) -> Diagnostic:
    if isinstance(e, FileNotFoundError):
        return diagnostic("error", "use-not-found", item.span, _not_found_hint(item), path=item.path)
    if isinstance(e, UnicodeDecodeError):
        return diagnostic("error", "use-read-error", item.span, encoding_hint(e.object, "файл"), path=item.path,
                          detail=not_utf8(e.object, e.start))
    if isinstance(e, IsADirectoryError):  # '' and '.' name the program's own folder
        return diagnostic("error", "use-read-error", item.span, hint("use-not-a-program"), path=f"'{item.path}'",
                          detail="имя файла пустое" if not item.path else "это папка, а не файл")
    if isinstance(e, OSError):
        tip = hint("use-not-a-program") if isinstance(e, NotAProgram) else \
            hint("use-no-access", path=item.path) if isinstance(e, PermissionError) else None
        return diagnostic("error", "use-read-error", item.span, tip, path=item.path, detail=io_words(e))
    return diagnostic("error", "use-read-error", item.span, path=item.path.replace("\x00", "\\0"),
                      detail="в имени файла нулевой байт")  # ValueError



def _not_found_hint(item: RawUse) -> str:
    """The program file beside the using one whose name is the one written without its
    .pseudo, or is nearest it; or where the path is taken from."""
    from pathlib import Path
    folder = Path(item.span.filename).parent
    written = Path(item.path)
    using = Path(item.span.filename).resolve()
    try:
        files = {f.stem: f.name for f in (folder / written.parent).iterdir()
                 if f.suffix.lower() == ".pseudo" and f.resolve() != using}
    except OSError:
        files = {}
    near = written.stem if written.stem in files else nearest(written.stem, files)  # 'доска' for доска.pseudo
    if near:
        name = files[near]
        return hint("use-not-found", nearest=str(written.parent / name) if written.parent.name else name)
    return hint("use-not-found-folder", folder=f" ({folder})" if str(folder) != "." else "")


def diagnostic_order(d: Diagnostic):
    return (d.span.filename, d.span.line, d.span.column) if d.span else ("", 0, 0)
