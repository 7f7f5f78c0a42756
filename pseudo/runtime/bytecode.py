"""The bytecode of the runtime modules an emitted file needs at every start, kept between runs.

Python compiles a script at every run (it keeps the bytecode of imported modules only), and
compiling those modules took longer than a short program's whole run. So an emitted file holds
them as the text of a string and gets their code from `код_среды`, which keeps it where Python
keeps a module's: in `__pycache__` beside the file (or under PYTHONPYCACHEPREFIX), the place
`importlib.util.cache_from_source` gives. The kept code is taken only when it was compiled from
the same text, for the same file name and line, by the same Python, and its bytes are whole (a
digest of them is kept with them: `importlib.util.source_hash`'s, CPython's own for .pyc files);
and only from a file of this user's that no one else may write to, checked before its bytes are
read. Anything else — no such file, another text, a damaged or foreign file — means compiling
again, as without it. The code is written back unless Python is told not to write bytecode
(PYTHONDONTWRITEBYTECODE, -B). A file run from a string (`exec(open('f.py').read())`, where
Python names the code "<string>") keeps nothing. This module is copied into the file as plain code, before the
text: Python compiles it at every start too, so it is short, and takes the two functions from
the modules importlib loads at every start (`importlib.util` itself is not loaded then). The
package itself never imports it.

A Ctrl-C while the file starts — compiling the runtime takes a tenth of a second when no code
is kept — comes before the runtime can report it: the file's start tells it with `_прервано`,
as a run tells a Ctrl-C with no place (messages.py "interrupted"), and exits with its code.
"""
import marshal as _marshal
import os as _os
import sys as _sys
from _frozen_importlib_external import cache_from_source as _cache_from_source
from _imp import source_hash as _source_hash

# In an emitted file this module shares the namespace of the program: every name it defines
# but `код_среды` begins with `_`, which no name of a program does.
_INTERRUPTED, _EXIT_INTERRUPTED = "ошибка: выполнение прервано (Ctrl-C)", 130


def код_среды(text, filename, line):
    """The code of `text`, which is the text of `filename` from line `line` on."""
    os, marshal = _os, _marshal
    key = (_sys.version, filename, line, text)
    path = None
    try:
        if filename.startswith("<"):  # "<string>": run from a string (exec(open(…).read())), no file to keep beside
            raise OSError(filename)
        path = _cache_from_source(filename)[:-len(".pyc")] + ".pseudo-runtime.bin"
        with open(path, "rb") as f:
            info = os.fstat(f.fileno())
            kept = (os.name == "nt" or info.st_uid == os.geteuid() and not info.st_mode & 0o022) \
                and marshal.loads(f.read())
        if type(kept) is tuple and len(kept) == 6 and kept[:4] == key and _source_hash(0, kept[5]) == kept[4]:
            return marshal.loads(kept[5])
    except Exception:  # noqa: BLE001, S110 - none kept (or no bytecode kept by this Python), or damaged
        pass
    code = compile("\n" * (line - 1) + text, filename, "exec")
    if path is not None and not _sys.dont_write_bytecode:
        data = marshal.dumps(code)
        _store(path, marshal.dumps((*key, _source_hash(0, data), data)))
    return code


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


def _прервано():
    """Ctrl-C before the runtime was loaded: the run's message, not Python's traceback."""
    try:
        _sys.stderr.write(f"{_INTERRUPTED}\n")
        _sys.stderr.flush()
    except (AttributeError, OSError, ValueError):  # no standard error, or a closed one
        pass
    _os._exit(_EXIT_INTERRUPTED)
