"""The judge of exercises: programs run on a task's tests and their outputs judged, as a contest's
judge does (`pseudo check`'s static checks are frontend/check.py's). Each program is compiled
once, each test run in a process of its own under the task's limits, as many at once as there
are cores.

A program is compiled as `pseudo run` compiles it, through its cache (`Program`); each test
runs the kept code with `execute.run_code`, the test's input as standard input and a capped
buffer as standard output, so its output is `pseudo run`'s to the byte. Where the system can
fork (`os.fork`), a run is a child process of this one (`check`): it starts at once with the
compiled code, and whatever it does — loop in one long operation, eat memory, print forever —
ends with it; it is killed a little after the time limit if the runtime has not stopped it at
the limit. The runs of all programs share the cores, so one pupil's runaways do not hold up the
class. Without fork (Windows) everything runs in this process, one run after another, each
under the runtime's limits.

What checking finds is plain dicts (JSON from a run's process): `compiled(...)` once per
program, then one `result(...)` per test.
"""
from __future__ import annotations

import io
import json
import os
import time

from .errors import PseudoError, PseudoRuntimeError, StaticError
from .tasks import Difference, Task, Test, difference

FORKS = hasattr(os, "fork")
OUTPUT_LIMIT = 100_000  # characters of output a run may print (or four times the expected, if more)
KEPT = 50_000  # characters of a wrong output kept for the report
MEMORY = 2 << 30  # bytes of address space a run may take (its stack is a quarter of it)
LIMIT_CODES = ("step-limit", "time-limit", "depth-limit")


def kill_time(time_limit: float) -> float:
    """How long a run may take before it is killed: the runtime stops it at the time limit
    when it takes steps; this is for one that does not (one long operation on huge numbers)."""
    return time_limit * 1.1 + 0.5


class Program:
    """A program compiled once, through the cache of `pseudo run`: what every run of it needs.
    The exact code, which the fast code hands over to in a run that meets what it does not
    handle, is compiled once too, when a run first needs it."""

    def __init__(self, path: str):
        from .api import compiled, read_bytes
        from .runtime.report import program_of
        self.path = path
        self.data = read_bytes(path)
        entry, self.loaded = compiled(path, self.data)
        self.codes, self.described = entry["codes"], program_of(entry["program"])
        self.warnings, self.uses = entry["warnings"], [used for used, _, _ in entry["uses"]]
        self.exact_code = None

    def exact(self):
        """главная of the exact code."""
        from .execute import deep_call
        from .pygen.compiled import compile_code
        from .runtime import load_code
        if self.exact_code is None:
            if self.loaded is None:
                from .api import load_file
                self.loaded = load_file(self.path, self.data)
            self.exact_code = deep_call(lambda: compile_code(self.loaded, "exact"))
        return load_code(self.exact_code.codes, self.exact_code.program, lines=False)


class Captured(io.TextIOBase):
    """Standard output of a run: kept in memory up to `limit` characters; past it the program
    stops with an output error (its place is the СООБЩИТЬ that went over)."""

    def __init__(self, limit: int):
        super().__init__()
        self.parts: list[str] = []
        self.size, self.limit, self.over = 0, limit, False

    def write(self, text: str) -> int:
        if self.size + len(text) > self.limit:
            self.parts.append(text[:self.limit - self.size])
            self.size, self.over = self.limit, True
            from .runtime.values import fail
            raise fail("io-error", detail=f"вывод длиннее {self.limit:_} знаков".replace("_", " "))
        self.parts.append(text)
        self.size += len(text)
        return len(text)

    def isatty(self) -> bool:
        return False

    def text(self) -> str:
        return "".join(self.parts)


# ---- what a check finds, as plain data ----

def compiled(error: str | None = None, warnings=(), status: str = "syntax") -> dict:
    """The program compiled (error None), or not: its error and the status every test gets."""
    return {"kind": "compiled", "error": error, "warnings": list(warnings), "status": status}


def result(test: Test, status: str, detail: str = "", message: str = "", output: str = "",
           diff: Difference | None = None) -> dict:
    """One test's result. `status`: "passed", "failed" (a wrong output; `diff` says where),
    "error" (the program's own runtime error, `message` its whole report), "limit" (a runaway:
    steps, time, depth, output; `detail` says which). `detail` is one line; `output` the
    output received (up to KEPT characters), for a test not passed."""
    return {"kind": "test", "test": test.name, "status": status, "detail": detail, "message": message,
            "output": output[:KEPT] if status != "passed" else "", "diff": diff.as_dict() if diff else None}


def not_a_pupils_work(path: str, folder: str) -> str:
    return f"{path} — файл самой задачи, а не работа ученика; решение учителя проверяет pseudo test {folder}"


def prepare(task: Task, path: str, pupil: bool = True) -> tuple[Program | None, dict]:
    """The program compiled, and the message that says so — or None and why not. A pupil's
    program may not use the task's answers."""
    from .api import UsageError
    if pupil and task.is_answer(path):
        return None, compiled(not_a_pupils_work(path, task.folder), status="refused")
    try:
        program = Program(path)
    except StaticError as e:  # its message may show a line of the file it is about: not an answer's
        read = [d.span.filename for d in e.diagnostics if d.span is not None]
        answer = next((name for name in read if pupil and task.is_answer(name)), None)
        return None, compiled(_refusal(answer), status="refused") if answer else compiled(e.render())
    except UsageError as e:
        return None, compiled(str(e), status="error")
    answer = next((name for name in program.uses if pupil and task.is_answer(name)), None)
    if answer:
        return None, compiled(_refusal(answer), status="refused")
    return program, compiled(warnings=program.warnings)


def _refusal(path: str) -> str:
    return (f"программа подключает через ИСПОЛЬЗОВАТЬ файл задачи {path}: тесты, task.toml и решение учителя "
            "программе недоступны")


def run_test(program: Program, task: Task, test: Test) -> dict:
    """Run the compiled program on one test, here, and judge its output."""
    from .execute import run_code
    out = Captured(max(OUTPUT_LIMIT, 4 * len(test.expected)))
    handed = []

    def exact():
        handed.append(True)
        return program.exact()
    try:
        run_code(program.codes, program.described, io.StringIO(test.input), out, task.limits(), exact, lines=False)
    except PseudoRuntimeError as e:
        found = _stopped(test, e, out, program.path)
    except PseudoError as e:  # a static error of the exact code's compilation (a nesting too deep)
        found = result(test, "error", e.first.text, e.render(), out.text())
    else:
        diff = difference(task.compare, test.expected, out.text())
        found = result(test, "failed", diff.text(), output=out.text(), diff=diff) if diff else result(test, "passed")
    found["handed_over"] = bool(handed)
    return found


def _stopped(test: Test, error: PseudoRuntimeError, out: Captured, path: str) -> dict:
    """The result of a run the program's error stopped: a runaway's limit, or its own error."""
    span, where = error.first.span, ""
    if span is not None:
        where = f" — строка {span.line}" if span.filename == path else f" — {span.filename}:{span.line}"
    if out.over or error.code in LIMIT_CODES:
        text = f"превышен предел вывода ({out.limit:_} знаков)".replace("_", " ") if out.over else error.first.text
        return result(test, "limit", text.split(";")[0] + where, error.render(), out.text())
    return result(test, "error", f"{error.first.text}{where}", error.render(), out.text())


# ---- the runs ----

def check(task: Task, paths: list[str], tests: list[Test], jobs: int, on_message, pupil: bool = True) -> None:
    """Every program on every test, `jobs` runs at a time: on_message(index, message) as each
    thing is found — the program `paths[index]` compiled or not, then its tests' results in the
    order the runs end."""
    if not FORKS:
        for index, path in enumerate(paths):
            program, message = prepare(task, path, pupil)
            on_message(index, message)
            for test in tests if program else ():
                found = run_test(program, task, test)
                found.pop("handed_over")
                on_message(index, found)
        return
    import selectors
    waiting = list(enumerate(paths))[::-1]  # to compile
    queue: list[tuple[int, Test]] = []  # runs to start, the next last
    programs: dict[int, Program] = {}
    running: dict[int, _Run] = {}
    chooser = selectors.DefaultSelector()
    try:
        while waiting or queue or running:
            while queue and len(running) < jobs:
                index, test = queue.pop()
                run = _Run(programs[index], task, test, index)
                running[run.fd] = run
                chooser.register(run.fd, selectors.EVENT_READ)
            # While programs remain to compile, one is compiled at each turn and the runs are
            # only looked at; otherwise this waits for a run to end or to overstay.
            nearest = min((r.deadline for r in running.values()), default=time.monotonic())
            for key, _ in chooser.select(0 if waiting else max(0.0, nearest - time.monotonic())):
                run = running[key.fd]
                if run.read():
                    chooser.unregister(key.fd)
                    del running[key.fd]
                    _ended(run, run.end(), on_message)
            now = time.monotonic()
            for fd, run in list(running.items()):
                if run.deadline <= now:
                    chooser.unregister(fd)
                    del running[fd]
                    _ended(run, run.kill(), on_message)
            if waiting:
                index, path = waiting.pop()
                program, message = prepare(task, path, pupil)
                on_message(index, message)
                if program is not None:
                    programs[index] = program
                    queue[:0] = [(index, test) for test in reversed(tests)]
    finally:
        for run in running.values():
            run.kill()
        chooser.close()


def _ended(run: _Run, found: dict, on_message) -> None:
    if found.pop("handed_over", False) and run.program.exact_code is None:
        try:
            run.program.exact()  # once, here: the program's next runs start with it
        except PseudoError:  # each run meets it again, and reports it
            pass
    on_message(run.index, found)


class _Run:
    """One program on one test, in a child process of this one, which writes its result (JSON)
    into a pipe and ends."""

    def __init__(self, program: Program, task: Task, test: Test, index: int):
        self.program, self.test, self.index = program, test, index
        self.time_limit = task.time_limit
        self.deadline = time.monotonic() + kill_time(task.time_limit)
        self.chunks: list[bytes] = []
        read, write = os.pipe()
        self.pid = os.fork()
        if self.pid == 0:  # the child: never returns
            os.close(read)
            _child(lambda: run_test(program, task, test), test, write)
        os.close(write)
        self.fd = read

    def read(self) -> bool:
        """Read what came; True at the end."""
        chunk = os.read(self.fd, 1 << 16)
        self.chunks.append(chunk)
        return not chunk

    def end(self) -> dict:
        """The result the process wrote, once it has ended."""
        os.close(self.fd)
        _, status = os.waitpid(self.pid, 0)
        try:
            return json.loads(b"".join(self.chunks))
        except ValueError:
            return _crashed(self.test, _death(status))

    def kill(self) -> dict:
        _kill(self.pid)
        os.close(self.fd)
        os.waitpid(self.pid, 0)
        return result(self.test, "limit", f"превышен предел времени ({self.time_limit:g} с): программа не "
                                          "отвечала и была остановлена")


def _crashed(test: Test, detail: str) -> dict:
    return result(test, "error", detail, detail)


# ---- the process of a run ----

def _child(run, test: Test, write: int) -> None:
    """The run in the child process: its result written to `write`, then the process ends."""
    code = 0
    try:
        _confine(write)
        data = json.dumps(run()).encode()  # ASCII: whatever the output holds, even a lone surrogate
    except BaseException as e:  # noqa: BLE001 - the child ends here whatever happens
        data = json.dumps(_crashed(test, f"внутренняя ошибка pseudo при проверке: {e!r}")).encode()
        code = 1
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(write, view):]
    finally:
        os._exit(code)


def _confine(keep: int) -> None:
    """What a run may not touch: the terminal (its streams are the test's), any other file
    descriptor than `keep`, memory past MEMORY, any file (nothing is written by a run; a write
    would fail)."""
    import signal
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)
    os.closerange(3, keep)
    os.closerange(keep + 1, 1 << 16)
    try:
        import resource
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (0, 0))
        resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))
    except (ImportError, ValueError, OSError):
        pass


def _kill(pid: int) -> None:
    import signal
    try:
        os.kill(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass


def _death(status: int) -> str:
    if os.WIFSIGNALED(status):
        import signal
        number = os.WTERMSIG(status)
        try:
            name = signal.Signals(number).name
        except ValueError:
            name = str(number)
        return f"программа аварийно завершилась (сигнал {name})"
    return f"программа аварийно завершилась (код {os.WEXITSTATUS(status)})"
