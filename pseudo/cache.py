"""Compiled programs kept between runs, as Python keeps `__pycache__`.

`pseudo run FILE` parses, checks and compiles the program at its first run and keeps the
result — the code objects of the fast code, what its error reports need and its warnings — in
a file of the cache folder; the next run of the same text starts from there, without the front
end, the analysis or the code generator (and without importing them). An entry is found by a
digest of everything the compiled code depends on: this pseudo's own modules (their sizes and
times), the Python version, the program's file name as given and its bytes. It also lists
every file the program uses (ИСПОЛЬЗОВАТЬ), the file that path leads to and the digest of the
bytes read from it, and is taken only if they are all unchanged. Any doubt — no folder, a
folder others may write to, a damaged or foreign entry — is a miss: the program is compiled
again, as without a cache.

The folder is `programs` in pseudo's cache — $PSEUDO_CACHE_DIR, else $XDG_CACHE_HOME/pseudo,
else ~/.cache/pseudo (`root`; the playground's downloads live there too). pseudo makes that
folder and marks it as its own with a CACHEDIR.TAG; a folder of that name without the mark is
used only while it holds nothing but entries, so a user's folder named as the cache is never
written to or pruned. The pruning removes only files named as entries (and the temporary files
of their writing), never anything else. `pseudo run --no-cache` or PSEUDO_NO_CACHE=1 neither
reads nor writes it.
"""
from __future__ import annotations

import marshal
import os
import sys

try:
    from _blake2 import blake2b  # what hashlib gives, without loading OpenSSL at every start
except ImportError:  # pragma: no cover - a Python built without it
    from hashlib import blake2b

FORMAT = 5
MAX_ENTRIES = 512  # past this, the older half is removed
PACKAGE = os.path.dirname(os.path.abspath(__file__))


TAG = "CACHEDIR.TAG"  # the mark of a cache folder (https://bford.info/cachedir/)
TAG_TEXT = ("Signature: 8a477f597d28d172789f06886806bc55\n"
            "# This file is a cache directory tag created by pseudo (compiled programs).\n"
            "# For information about cache directory tags see https://bford.info/cachedir/\n")


def root() -> str:
    """pseudo's cache: $PSEUDO_CACHE_DIR, else $XDG_CACHE_HOME/pseudo, else ~/.cache/pseudo."""
    chosen = os.environ.get("PSEUDO_CACHE_DIR")
    if chosen:
        return chosen
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "pseudo")


def folder() -> str | None:
    """The folder of compiled programs, or None when caching is off."""
    if os.environ.get("PSEUDO_NO_CACHE") or sys.platform == "emscripten":
        return None
    return os.path.join(root(), "programs")


def is_entry_name(name: str) -> bool:
    """A file this cache writes: an entry (its key, 40 hexadecimal digits), or the temporary
    file an entry is written to first (files.AtomicFile)."""
    if len(name) == 40:
        return all(c in "0123456789abcdef" for c in name)
    return name.startswith(".pseudo-") and name.endswith(".tmp")


def _code_version() -> bytes:
    """What identifies this pseudo's code: each module's path, size and modification time."""
    parts = [sys.version.encode(), str(FORMAT).encode()]
    for root, dirs, files in os.walk(PACKAGE):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        for name in sorted(files):
            if name.endswith((".py", ".lark")):
                info = os.stat(os.path.join(root, name))
                parts.append(f"{os.path.relpath(os.path.join(root, name), PACKAGE)}:{info.st_size}:"
                             f"{info.st_mtime_ns}".encode())
    return b"\n".join(parts)


def digest(data: bytes) -> str:
    return blake2b(data, digest_size=20).hexdigest()


def entry_key(filename: str, data: bytes) -> str:
    return digest(_code_version() + b"\0" + filename.encode("utf-8", "surrogatepass") + b"\0" + data)


def _trusted(path: str) -> bool:
    """A folder of this user's that no one else may write to."""
    try:
        info = os.stat(path)
    except OSError:
        return False
    if os.name == "nt":  # no owner or mode bits to test there (as for __pycache__)
        return True
    return info.st_uid == os.geteuid() and not info.st_mode & 0o022


def load(filename: str, data: bytes) -> dict | None:
    """The entry for this program text, or None."""
    where = folder()
    if where is None or not _trusted(where) or not os.path.isfile(os.path.join(where, TAG)):
        return None
    try:
        with open(os.path.join(where, entry_key(filename, data)), "rb") as f:
            entry = marshal.load(f)
    except (OSError, EOFError, ValueError, TypeError):
        return None
    if type(entry) is not dict or entry.get("format") != FORMAT:
        return None
    for path, real, known in entry["uses"]:
        if os.path.realpath(path) != real:  # a link that now leads elsewhere, or is a file of its own
            return None
        from .files import read_program
        try:
            if digest(read_program(path, regular_only=True)) != known:
                return None
        except OSError:
            return None
    return entry


def store(filename: str, data: bytes, entry: dict) -> None:
    """Keep an entry; a folder that cannot be made or written is no error (nothing is kept)."""
    where = folder()
    if where is None:
        return
    from .files import OutputRefused, write_file  # written whole or not at all
    try:
        os.makedirs(where, mode=0o700, exist_ok=True)
        if not _trusted(where) or not _owned(where):
            return
        write_file(os.path.join(where, entry_key(filename, data)), marshal.dumps({"format": FORMAT, **entry}))
        _prune(where)
    except (OSError, ValueError, OutputRefused):
        return


def _owned(where: str) -> bool:
    """Is the folder this cache's — marked, or marked now because it holds nothing but
    entries (a new folder, or one an earlier pseudo made before the mark)?"""
    tag = os.path.join(where, TAG)
    if os.path.isfile(tag):
        return True
    with os.scandir(where) as found:
        if not all(is_entry_name(e.name) and e.is_file(follow_symlinks=False) for e in found):
            return False
    from .files import write_file
    write_file(tag, TAG_TEXT)
    return True


def _prune(where: str) -> None:
    """Past MAX_ENTRIES entries the older half goes, with any temporary file an interrupted
    writer left; nothing but entries is ever removed."""
    with os.scandir(where) as found:
        entries = [e for e in found if is_entry_name(e.name) and e.is_file(follow_symlinks=False)]
    if len(entries) <= MAX_ENTRIES:
        return
    entries.sort(key=lambda e: e.stat(follow_symlinks=False).st_mtime)
    for e in entries[:len(entries) // 2]:
        try:
            os.remove(e.path)
        except OSError:
            pass
