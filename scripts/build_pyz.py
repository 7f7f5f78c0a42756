#!/usr/bin/env python3
"""Build pseudo as one file, `pseudo.pyz`, that any Python ≥ 3.11 runs with nothing installed:

    python3 scripts/build_pyz.py [-o dist/pseudo.pyz]
    python3 dist/pseudo.pyz run programs/queens_recursive.pseudo     (or ./dist/pseudo.pyz …)

The archive holds the package `pseudo` from this checkout (the grammar and the book's programs
placed at pseudo/grammar and pseudo/programs, as an install places them) and a `__main__.py`
that calls the command line and exits with its code; pseudo needs nothing else to run (its parser's tables are in the package). The same tree always gives the same bytes: files in sorted order, each dated
SOURCE_DATE_EPOCH (or 1980-01-01). Nothing optional (Pygments, IPython) is bundled.
"""
from __future__ import annotations

import argparse
import os
import stat
import sys
import time
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SHEBANG = b"#!/usr/bin/env python3\n"
# The archive's start, in a Python any python3 reads (no f-strings): an older Python than the
# package needs is told so, before the package's own syntax and library fail on it.
MAIN = '''\
"""pseudo in one file: `python3 pseudo.pyz --help`."""
import sys

NEEDED = __NEEDED__
if sys.version_info < NEEDED:
    sys.stderr.write("pseudo: нужен Python %d.%d или новее, а запущен Python %s (%s); запустите архив так: "
                     "python%d.%d %s ...\\n" % (NEEDED + (sys.version.split()[0], sys.executable) + NEEDED
                                                + (sys.argv[0],)))
    sys.exit(69)

from pseudo.cli import main  # noqa: E402

sys.exit(main())
'''
SKIP_DIRS = {"__pycache__"}
SKIP_SUFFIXES = {".pyc", ".pyo"}


def members(root: Path = ROOT) -> dict[str, bytes]:
    """Archive name → content, for every file of the archive."""
    out: dict[str, bytes] = {"__main__.py": MAIN.replace("__NEEDED__", repr(needed_python(root))).encode("utf-8")}
    out |= _tree(root / "pseudo", "pseudo")
    out |= _tree(root / "grammar", "pseudo/grammar")
    out |= _tree(root / "programs", "pseudo/programs")  # `pseudo examples ПАПКА` copies them
    return out


def needed_python(root: Path = ROOT) -> tuple[int, int]:
    """The oldest Python the package runs on: pyproject.toml's requires-python (">=3.11")."""
    import tomllib
    wanted = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))["project"]["requires-python"]
    major, minor = wanted.removeprefix(">=").split(".")[:2]
    return int(major), int(minor)


def _tree(folder: Path, prefix: str) -> dict[str, bytes]:
    out = {}
    for path in sorted(folder.rglob("*")):
        rel = path.relative_to(folder)
        if path.is_dir() or SKIP_DIRS & set(rel.parts) or path.suffix in SKIP_SUFFIXES:
            continue
        out[f"{prefix}/{rel.as_posix()}"] = path.read_bytes()
    return out


def build(target: Path, root: Path = ROOT) -> Path:
    """Write the archive (atomically, executable) and return its path."""
    epoch = int(os.environ.get("SOURCE_DATE_EPOCH", "315532800"))  # 1980-01-01, the earliest a zip can say
    date = time.gmtime(max(epoch, 315532800))[:6]
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(target.name + ".part")
    with open(partial, "wb") as raw:
        raw.write(SHEBANG)
        with zipfile.ZipFile(raw, "w", compression=zipfile.ZIP_DEFLATED) as archive:
            files = members(root)
            # zipimport finds a package without __init__.py (pseudo/frontend) by its folder's entry
            folders = {name[:i + 1] for name in files for i, ch in enumerate(name) if ch == "/"}
            for name in sorted(folders | set(files)):
                info = zipfile.ZipInfo(name, date_time=date)
                if name in folders:
                    info.external_attr = (0o40755 << 16) | 0x10  # a folder, for Unix and for DOS
                    archive.writestr(info, b"")
                else:
                    info.compress_type = zipfile.ZIP_DEFLATED
                    info.external_attr = 0o644 << 16
                    archive.writestr(info, files[name])
    partial.chmod(partial.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    partial.replace(target)
    return target


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Build pseudo.pyz: pseudo and Lark in one file for python3.")
    parser.add_argument("-o", "--output", default=str(ROOT / "dist" / "pseudo.pyz"), help="the archive to write")
    args = parser.parse_args(argv)
    path = build(Path(args.output))
    print(f"{path}: {path.stat().st_size // 1024} KiB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
