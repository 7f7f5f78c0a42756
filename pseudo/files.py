"""Files the tool writes: never one of its inputs, and never left half-written; and the one
reading of a program file, bounded.

An output path is compared with every input (the program and each file it names in
ИСПОЛЬЗОВАТЬ) by identity — the same device and inode — so `./p.pseudo`, a hard link or a
symbolic link to the program, or /dev/stdout opened on it, are all refused before anything is
opened for writing. The text goes to a temporary file beside the target, which replaces the
target only when it is whole — except a device, a pipe or an open descriptor (`-o /dev/null`,
`-o /dev/stdout | less`), written straight.
"""
from __future__ import annotations

import errno
import os
import stat

MAX_BYTES = 10 * 1024 * 1024  # no program is this long: a larger file is a slip (/dev/zero, a log)


class NotAProgram(OSError):
    """A file that cannot be a program: a device, a pipe, or one too large."""


def read_program(path, regular_only: bool = False) -> bytes:
    """The bytes of a program file, never more than MAX_BYTES: a device that never ends
    (/dev/zero) or a huge file named by mistake is refused, not read until memory runs out.
    `regular_only` (a file a program names in ИСПОЛЬЗОВАТЬ): a device, a pipe or a terminal
    is refused before it is opened, since opening a pipe or reading a terminal waits."""
    if regular_only:
        try:
            mode = os.stat(path).st_mode
        except ValueError:  # a NUL byte in the name: open says so
            mode = stat.S_IFREG
        if not (stat.S_ISREG(mode) or stat.S_ISDIR(mode)):  # a folder: open's own error names it
            raise NotAProgram(0, "это не файл, а устройство или канал")
    with open(path, "rb") as f:
        data = f.read(MAX_BYTES + 1)
    if len(data) > MAX_BYTES:
        raise NotAProgram(0, f"файл больше {MAX_BYTES // 1024 // 1024} МБ — это не программа")
    return data


class OutputRefused(Exception):
    """The output path names an input, or cannot be written: a usage error (exit 64)."""


def same_file(a: str, b: str) -> bool:
    try:
        return os.path.samefile(a, b)
    except (OSError, ValueError):  # one of them does not exist, or a NUL in a name
        return False


def check_output(path: str, inputs) -> None:
    """Refuse an output path that is one of the inputs, or a folder, or has a NUL byte, or a
    .pseudo file: what the tool writes is never a program, and such a path is most likely
    another program of the folder (`pseudo py a.pseudo -o b.pseudo`)."""
    if "\x00" in path:
        raise OutputRefused(f"в имени файла {path!r} есть нулевой байт")
    for i, name in enumerate(inputs):  # the program first, then the files it uses
        if same_file(path, name):
            what = "сама программа" if i == 0 else f"файл {name}, который программа подключает через ИСПОЛЬЗОВАТЬ"
            raise OutputRefused(f"{path} — это {what}; он не будет перезаписан. Укажите другой файл в -o")
    if path.lower().endswith(".pseudo"):
        raise OutputRefused(f"{path} — файл .pseudo: так называются программы, и он не будет перезаписан. "
                            "Укажите файл с другим расширением")
    if os.path.isdir(path):
        raise OutputRefused(f"{path} — это папка; укажите файл")
    if _special(path) or _descriptor(path) is not None:
        return
    folder = os.path.dirname(os.path.realpath(path))
    if not os.path.isdir(folder):
        raise OutputRefused(f"папки {folder} нет")
    if not os.access(folder, os.W_OK):
        raise OutputRefused(f"в папку {folder} нельзя записывать")


class AtomicFile:
    """A text or binary file that appears at `path` only when `commit()` is called; `discard()`
    (or an exception in a `with` block) leaves whatever was at `path` untouched."""

    def __init__(self, path: str, inputs=(), binary: bool = False):
        check_output(path, inputs)
        self.done = False
        mode, encoding = ("wb", None) if binary else ("w", "utf-8")
        descriptor = _descriptor(path)
        if descriptor is not None or _special(path):  # /dev/null, a pipe, /dev/stdout: written straight
            self.path, self.temp = path, None
            try:  # an open descriptor (/dev/stdout, /dev/fd/3) is written where it stands, as a shell
                self.stream = (os.fdopen(os.dup(descriptor), mode, encoding=encoding) if descriptor is not None
                               else open(path, mode, encoding=encoding))  # noqa: SIM115 - closed by commit
            except OSError as e:
                raise OutputRefused(f"не удалось записать {path}: {io_words(e)}") from None
            self.write = self.stream.write
            return
        self.path = os.path.realpath(path)  # through a symbolic link: the file it names is replaced
        folder = os.path.dirname(self.path)
        try:
            fd, self.temp = _new_file(folder)
        except OSError as e:
            raise OutputRefused(f"не удалось записать {path}: {io_words(e)}") from None
        self.stream = os.fdopen(fd, mode, encoding=encoding)
        self.write = self.stream.write  # the stream's own: a trace writes through it per event

    def flush(self) -> None:
        self.stream.flush()

    def commit(self) -> None:
        if self.done:
            return
        self.done = True
        try:
            self.stream.close()  # what its buffer holds is written now: a full disk fails here
        except OSError as e:
            if self.temp is not None:
                _remove(self.temp)
            raise OutputRefused(f"не удалось записать {self.path}: {io_words(e)}") from None
        if self.temp is None:
            return
        try:
            os.chmod(self.temp, _mode_for(self.path))
            os.replace(self.temp, self.path)
        except OSError as e:
            _remove(self.temp)
            raise OutputRefused(f"не удалось записать {self.path}: {io_words(e)}") from None

    def discard(self) -> None:
        if self.done:
            return
        self.done = True
        try:
            self.stream.close()
        except OSError:  # what could not be written is dropped with the rest
            pass
        if self.temp is not None:
            _remove(self.temp)

    def __enter__(self):
        return self

    def __exit__(self, kind, value, tb):
        if kind is None:
            self.commit()
        else:
            self.discard()
        return False


def write_file(path: str, data: str | bytes, inputs=()) -> None:
    """The whole output at once, atomically."""
    with AtomicFile(path, inputs, binary=isinstance(data, bytes)) as out:
        try:
            out.write(data)
        except OSError as e:  # a full disk, a device that refuses
            raise OutputRefused(f"не удалось записать {path}: {io_words(e)}") from None


def io_words(e: OSError) -> str:
    """Why reading or writing failed, in Russian (runtime/report.py's words, which an emitted
    file has too)."""
    from .runtime.report import os_words
    return os_words(e)


def _new_file(folder: str) -> tuple[int, str]:
    """A new empty file of its own in `folder`, readable by its owner only, as tempfile.mkstemp
    makes it (the module `tempfile` imports a dozen others: a tenth of a short trace's start)."""
    flags = os.O_RDWR | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0)
    for _ in range(100):
        path = os.path.join(folder, f".pseudo-{os.urandom(6).hex()}.tmp")
        try:
            return os.open(path, flags, 0o600), path
        except FileExistsError:
            continue
    raise FileExistsError(errno.EEXIST, "нет свободного имени для временного файла", folder)


STANDARD = {"/dev/stdin": 0, "/dev/stdout": 1, "/dev/stderr": 2}


def _descriptor(path: str) -> int | None:
    """The open descriptor a path names — /dev/stdout, /dev/stderr, /dev/fd/N, /proc/self/fd/N —
    or None. Such a path leads, through /proc, to a pipe (which has no name to replace) or to
    the file the shell opened, perhaps to append to: it is written through the descriptor,
    never replaced (that would drop what the file held) nor reopened from its start. `-` is
    standard output, as everywhere in pseudo's command line."""
    if path == "-":
        return 1
    if os.name == "nt":
        return None
    path = os.path.abspath(path)
    if path in STANDARD:
        return STANDARD[path]
    for folder in ("/dev/fd/", "/proc/self/fd/"):
        if path.startswith(folder) and path[len(folder):].isdigit():
            return int(path[len(folder):])
    return None


def is_standard_output(path: str) -> bool:
    """`-`, or a name of the descriptor of standard output (/dev/stdout, /dev/fd/1)."""
    return _descriptor(path) == 1


def _special(path: str) -> bool:
    """A device, a named pipe or a socket: a place to write to, not a file to replace."""
    try:
        return not stat.S_ISREG(os.stat(path).st_mode)
    except OSError:
        return False


def _mode_for(path: str) -> int:
    """Keep an existing file's permissions; a new file gets the usual 0666 less the umask."""
    try:
        return os.stat(path).st_mode & 0o7777
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def _remove(path: str) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass
