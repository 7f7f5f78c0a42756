"""The bytecode of the runtime modules an emitted file needs at every start, kept between runs.

Python compiles a script at every run (it keeps the bytecode of imported modules only), and
compiling those modules took longer than a short program's whole run. So an emitted file holds
them as the text of a string and gets their code from `код_среды`, which keeps it as Python keeps
a module's: in `__pycache__` beside the file. The kept code is taken only when it was compiled
from the same text, for the same file name and line, by the same Python; anything else — no
such file, another text, a folder others may write to, a damaged file — means compiling again,
as without it. The code is written back unless Python is told not to write bytecode
(PYTHONDONTWRITEBYTECODE, -B). This module is copied into the file as plain code, before the
text; the package itself never imports it.
"""
import marshal
import os
import sys


def код_среды(text, filename, line):
    """The code of `text`, which is the text of `filename` from line `line` on."""
    key = (sys.version, filename, line, text)
    path = _kept_path(filename)
    if path is not None and _private(os.path.dirname(path)):
        try:
            with open(path, "rb") as f:
                kept = marshal.loads(f.read())
            if type(kept) is tuple and len(kept) == 5 and kept[:4] == key:
                return kept[4]
        except (OSError, EOFError, ValueError, TypeError):
            pass
    code = compile("\n" * (line - 1) + text, filename, "exec")
    if path is not None and not sys.dont_write_bytecode:
        _store(path, marshal.dumps((*key, code)))
    return code


def _kept_path(filename):
    """Where the code of `filename`'s runtime is kept, or None (a Python that keeps no bytecode)."""
    tag = sys.implementation.cache_tag
    if tag is None or not filename:
        return None
    folder = os.path.join(os.path.dirname(os.path.abspath(filename)), "__pycache__")
    return os.path.join(folder, f"{os.path.splitext(os.path.basename(filename))[0]}.pseudo-runtime.{tag}.bin")


def _private(folder):
    """A folder of this user's that no one else may write to."""
    try:
        info = os.stat(folder)
    except OSError:
        return False
    return os.name == "nt" or info.st_uid == os.geteuid() and not info.st_mode & 0o022


def _store(path, data):
    """Write the kept code whole or not at all (a file of the same name is replaced at once)."""
    temporary = f"{path}.{os.getpid()}"
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        if not _private(os.path.dirname(path)):
            return
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(temporary, path)
    except OSError:
        try:
            os.unlink(temporary)
        except OSError:
            pass
