"""The book's programs: programs/ of the repository, shipped inside the package as
`pseudo.programs` (pyproject.toml maps the folder there, as it maps grammar/). They are the
playground's examples, the notebook's `%pseudo --example`, and what `pseudo examples ПАПКА`
copies for a pupil: every program with its lib/ and its input files.
"""
from __future__ import annotations

import sys
from importlib import resources
from pathlib import Path

PACKAGE = "pseudo.programs"
KINDS = (".pseudo", ".txt", ".md")  # programs, their input files, the table of what each one shows


def shipped():
    """The shipped programs' folder (a Traversable: a Path when pseudo is installed as files);
    run from a checkout's source tree (as its tests are), the checkout's programs/ — as
    frontend/parser.py finds grammar/."""
    try:
        return resources.files(PACKAGE)
    except ModuleNotFoundError:
        return Path(__file__).resolve().parents[1] / "programs"


def folder() -> Path | None:
    """The shipped programs as a folder of files, or None (pseudo run from a zip archive)."""
    root = shipped()
    return root if isinstance(root, Path) and root.is_dir() else None


def files(root=None) -> dict[str, bytes]:
    """Relative path → bytes of every program, input file and table under `root` (by default
    the shipped programs), lib/ included; in sorted order."""
    out: dict[str, bytes] = {}

    def walk(node, prefix: str) -> None:
        for child in sorted(node.iterdir(), key=lambda c: c.name):
            if child.is_dir() and child.name != "__pycache__":
                walk(child, f"{prefix}{child.name}/")
            elif child.is_file() and child.name.endswith(KINDS):
                out[prefix + child.name] = child.read_bytes()
    walk(shipped() if root is None else root, "")
    return out


def copy(target: Path) -> tuple[list[str], list[str]]:
    """Copy the shipped programs into `target` (created if missing). A file already there is
    kept as it is — a pupil's changes are never overwritten. Gives (written, kept)."""
    written, kept = [], []
    for name, data in files().items():
        path = target / name
        if path.exists():
            kept.append(name)
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        written.append(name)
    return written, kept


def command(args) -> int:
    """`pseudo examples ПАПКА`: the files written, one a line; those kept, in a message."""
    from .api import UsageError
    from .files import io_words
    folder = Path(args.folder)
    if folder.exists() and not folder.is_dir():
        raise UsageError(f"{folder} — это файл, а не папка")
    try:
        written, kept = copy(folder)
    except OSError as e:
        raise UsageError(f"не удалось записать в {folder}: {io_words(e)}") from None
    for name in written:
        print(folder / name)
    if kept:
        print(f"pseudo: эти файлы уже были в {folder} и оставлены как есть: {', '.join(kept)}", file=sys.stderr)
    return 0
