"""The bytecode of the runtime modules an emitted file needs at every start, kept between runs.

Python compiles a script at every run (it keeps the bytecode of imported modules only), and
compiling those modules took longer than a short program's whole run. So an emitted file holds
them as the text of a string and gets their code from `код_среды`, which keeps it where Python
keeps a module's: in `__pycache__` beside the file (or under PYTHONPYCACHEPREFIX). The kept
code is taken only when it was compiled from the same text, for the same file name and line, by
the same Python, and its bytes are whole (a digest of them is kept with them); and only from a
file of this user's that no one else may write to. Anything else — no such file, another text,
a damaged or foreign file — means compiling again, as without it. The code is written back
unless Python is told not to write bytecode (PYTHONDONTWRITEBYTECODE, -B). This module is
copied into the file as plain code, before the text; the package itself never imports it.
"""
import marshal as _marshal
import os as _os
import sys as _sys

try:
    from _blake2 import blake2b as _blake2b  # what hashlib gives, without loading OpenSSL
except ImportError:  # pragma: no cover - a Python built without it
    from hashlib import blake2b as _blake2b

# In an emitted file this module shares the namespace of the program: every name it defines
# but `код_среды` begins with `_`, which no name of a program does.


def код_среды(text, filename, line):
    """The code of `text`, which is the text of `filename` from line `line` on."""
    key = (_sys.version, filename, line, text)
    path = _kept_path(filename)
    if path is not None:
        code = _kept_code(path, key)
        if code is not None:
            return code
    code = compile("\n" * (line - 1) + text, filename, "exec")
    if path is not None and not _sys.dont_write_bytecode:
        data = _marshal.dumps(code)
        _store(path, _marshal.dumps((*key, _blake2b(data, digest_size=16).digest(), data)))
    return code


def _kept_path(filename):
    """Where the code of `filename`'s runtime is kept, or None (a Python that keeps no bytecode)."""
    os, sys = _os, _sys
    tag = sys.implementation.cache_tag
    if tag is None or not filename:
        return None
    folder = os.path.dirname(os.path.abspath(filename))
    if sys.pycache_prefix:
        folder = os.path.join(sys.pycache_prefix, os.path.splitdrive(folder)[1].lstrip(os.sep))
    else:
        folder = os.path.join(folder, "__pycache__")
    return os.path.join(folder, f"{os.path.splitext(os.path.basename(filename))[0]}.pseudo-runtime.{tag}.bin")


def _kept_code(path, key):
    """The code kept at `path` for `key`, or None."""
    os, marshal, blake2b = _os, _marshal, _blake2b
    try:
        with open(path, "rb") as f:
            info = os.fstat(f.fileno())
            if os.name != "nt" and (info.st_uid != os.geteuid() or info.st_mode & 0o022):
                return None
            kept = marshal.loads(f.read())
        if type(kept) is tuple and len(kept) == 6 and kept[:4] == key \
                and blake2b(kept[5], digest_size=16).digest() == kept[4]:
            return marshal.loads(kept[5])
    except Exception:  # noqa: BLE001 - a damaged file can make marshal raise almost anything
        return None
    return None


def _store(path, data):
    """Write the kept code whole or not at all (a file of the same name is replaced at once)."""
    os = _os
    temporary = f"{path}.{os.getpid()}"
    try:
        os.makedirs(os.path.dirname(path), mode=0o755, exist_ok=True)
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(temporary, path)
    except OSError:
        try:
            os.unlink(temporary)
        except OSError:
            pass
