"""Running a program: its streams and limits, a deep stack, Ctrl-C; and the start of an
emitted file (`выполнить`), which reports errors as `pseudo run` does.
"""
import _thread
import errno
import gc
import os
import sys
import time

from .io import finish_io, restart_io, start_io, surroundings, waiting_for_input
from .limits import (
    CHECK_EVERY,
    Limits,
    Watch,
    ВремяВышло,
    frozen,
    interrupt,
    restart_limits,
    restart_random,
    start_limits,
    start_random,
    time_is_up,
)
from .messages import ARGPARSE_WORDS, RUNTIME_MESSAGES
from .names import API, BOUNDARY, EXACT_MAIN, MAIN, PYTHON_WORDS, STATE, STATES, STEPS
from .report import EXIT_RUNTIME, in_exact_place, os_words, program_of, report_exception
from .values import КонецРаботы, Пересмотр, Ячейка

THREAD_STACK = 512 * 1024 * 1024
MAX_DEPTH = 1_000_000  # deeper recursion does not fit in memory: the options refuse it
EXIT_OK, EXIT_USAGE = 0, 64  # and report.EXIT_RUNTIME, EXIT_INTERRUPTED


def run_program(main, stdin, stdout, limits, frames_per_call, exact=None, hands_over=None, counters=None,
                watch=None, notice=None):
    """main() with fresh streams and limits, on a deep stack. КОНЕЦ_РАБОТЫ ends it normally;
    any other exception is raised to the caller as it came. Ctrl-C stops the program at its
    next step; one blocked in input is abandoned at once (KeyboardInterrupt).

    With `exact` (a function giving the exact main()), main() is the fast or the readable code:
    it leaves the depth to Python's recursion limit, set to admit exactly `max_depth` calls; the
    fast code counts its steps in its own globals, named by `counters` (`счёт_шагов`, `рубеж`;
    None: it counts none), from above. When it meets what it does not
    handle (Пересмотр: a value read of another kind than it assumed, its count at the step
    limit; an element its arrays do not have, KeyError or IndexError; or the recursion limit), the exact
    code runs from the start, rereading the input and not printing again what was printed,
    and meets the limit, or the error, or nothing, exactly where the program does. So it does
    on any error for which `hands_over(exception)` is true (one in a function the fast code
    wrote out in place of its call — given only when it wrote some), and a call written out
    there is one frame less: Python's limit is one lower.

    `watch(fast)`: a new limits.Watch for the fast code (True) or for the code that counts
    every step (False); None: no watch. `notice`: what tells of a run that goes on quietly
    (execute.Notice; see runtime/limits.py), or None.

    The cyclic garbage collector waits while the program runs: its values (numbers, strings,
    arrays) and the runtime's own objects make no reference cycles, and an error deep in
    recursion unwinds through a frame and a traceback entry per Python frame, all alive until
    the report, over which CPython 3.11's full passes made the unwinding four times slower (an
    error 100,000 calls deep: a second)."""
    start_io(stdin, stdout)
    start_limits(limits, watch(exact is not None) if watch is not None else None, notice)
    start_random(limits.seed)
    steps, boundary = counters or ("steps", "boundary")
    count = main.__globals__ if counters is not None else {}
    count[steps], count[boundary] = 0, min(CHECK_EVERY, limits.max_steps)

    def on_interrupt():
        interrupt()
        count[boundary] = -1

    def on_time():
        time_is_up()
        count[boundary] = -1

    def guarded():
        old, collecting = sys.getrecursionlimit(), gc.isenabled()
        base = _depth()
        roomy = max(old, base + limits.max_depth * frames_per_call + 1000)
        gc.disable()  # see below
        try:
            try:
                fast_limit = base + limits.max_depth - (hands_over is not None)
                if exact is None or fast_limit <= base:  # no fast code, or no room for its calls
                    sys.setrecursionlimit(roomy)
                    (main if exact is None else exact())()
                    return
                sys.setrecursionlimit(fast_limit)
                try:
                    main()
                except BaseException as e:
                    sys.setrecursionlimit(roomy)  # what follows is the runtime's, not the program's depth
                    if not _handed_over(e, hands_over):
                        raise
                    restart_io()
                    restart_limits(watch(False) if watch is not None else None)
                    restart_random()
                    exact()()
            finally:
                finish_io()
        except КонецРаботы:
            pass
        finally:
            sys.setrecursionlimit(old)
            if collecting:
                gc.enable()
    on_deep_stack(guarded, on_interrupt, time.monotonic() + limits.time_limit, on_time)


def _handed_over(exc, hands_over):
    """Does the fast code hand this exception over to the exact code?"""
    if isinstance(exc, Пересмотр | KeyError | IndexError | RecursionError):
        return True
    if hands_over is None or isinstance(exc, КонецРаботы | KeyboardInterrupt):
        return False
    return getattr(exc, "code", None) not in ("interrupted", "time-limit") and hands_over(exc)


def on_deep_stack(fn, on_interrupt, deadline=None, on_time=None):
    """fn() in a thread with a large stack, so that deep recursion fits; what it raises is
    raised here. Where there are no threads (a browser), fn() runs here. (The thread is
    `_thread`'s own: importing `threading` would cost more than the rest of a short run.)

    Ctrl-C reaches this thread: `on_interrupt` asks the program to stop at its next step;
    a program that takes no counted step for a while (a long loop of constant bounds, slow
    operations on huge numbers) gets the interruption in its own thread, at its next Python
    instruction; one blocked in input is abandoned at once (after two seconds, one that may be
    in one long operation).

    The time limit is watched here the same way: past `deadline` (the run's, time.monotonic()),
    `on_time` asks the program to stop at its next step, and a program that takes none within
    a second gets the time limit (ВремяВышло) at its next Python instruction. So a run ends
    within about a second of its limit, or at the end of one operation on numbers within the
    size limit, however slowly its steps go."""
    outcome = []
    done = _thread.allocate_lock()  # held until fn() ends; waiting on it, Ctrl-C still reaches this thread
    done.acquire()

    def target():
        try:
            roomy_call(fn)
        except BaseException as e:  # noqa: BLE001 - handed to the caller's thread
            outcome.append(e)
        finally:
            done.release()
    worker = None
    try:
        old_size = _thread.stack_size(THREAD_STACK)
        try:
            worker = _thread.start_new_thread(target, ())
        finally:
            _thread.stack_size(old_size)
    except (RuntimeError, ValueError):  # no threads here: run in this one
        target()
    hurried = None  # when the program was asked to stop at its next step for its time
    try:
        while not done.acquire(timeout=0.1):
            now = time.monotonic()
            if deadline is not None and now > deadline:
                deadline, hurried = None, now
                on_time()
            elif hurried is not None and now > hurried + 1.0 and worker is not None:
                hurried = None
                _interrupt_thread(worker, ВремяВышло)
    except KeyboardInterrupt as stop:
        on_interrupt()
        blocked = waiting_for_input()  # no step comes, nor a Python instruction, until a line does
        if not done.acquire(timeout=0.02 if blocked else 0.2) and worker is not None:
            _interrupt_thread(worker)
            if not done.acquire(timeout=0.02 if blocked else 2.0):  # blocked in input, or in one long operation
                stop.waiting = sys._current_frames().get(worker)  # where: the report shows it
                raise
        if not outcome:  # fn() ended on its own meanwhile: the Ctrl-C stops what was to follow
            raise
    if outcome:
        try:
            raise outcome[0]
        finally:  # not kept by this frame, which its traceback holds: freed with the report, not by a
            if worker is not None:  # pass of the cyclic collector over its frames at the exit. (In the
                outcome.clear()  # browser, freeing them here, deep in its small stack, overflowed it.)


def _interrupt_thread(ident, exception=KeyboardInterrupt):
    """The exception (a class) in the thread `ident`, at its next Python instruction (CPython's
    PyThreadState_SetAsyncExc; elsewhere nothing)."""
    try:
        import ctypes
        ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(ident), ctypes.py_object(exception))
    except (ImportError, AttributeError, OSError):
        pass


ROOMY_SLOTS = 1 << 17


def roomy_call(fn):
    """fn(), called from a frame that reserves about 1 MB of CPython's frame stack.

    CPython keeps Python frames in 16 KB chunks and frees a chunk as soon as the frame at its
    start returns, so a search whose depth swings across a chunk boundary maps and unmaps
    memory on every call there (100 times slower calls, measured on 3.11 to 3.13). A frame
    with a large value stack gets a chunk of its own with room to spare, and the program's
    frames live in that room."""
    def roomy(f):
        return f()
    try:
        roomy.__code__ = roomy.__code__.replace(co_stacksize=ROOMY_SLOTS)
    except (AttributeError, TypeError, ValueError):  # not CPython: nothing to work around
        pass
    return roomy(fn)


def _depth():
    frame, depth = sys._getframe(), 0
    while frame is not None:
        depth, frame = depth + 1, frame.f_back
    return depth


# ---- the state of a compiled program, for the watch ----



class FrameReader:
    """The state of a compiled program, read from its Python frames for limits.Watch. The
    frame of a step is that of a definition, of главная, or of a function the code makes
    inside one and calls from it (a state of an automaton, a deep block): up to the first
    frame that is not such a function, all are one call of the program. Its point: the
    program's place of the step (`place(code, offset)` for an emitted file, whose code carries
    its own positions), or for the fast code, which only hands a repeat over, the instruction.
    `before`: the names of the code's namespace before the program ran (the runtime's, the
    definitions): not the program's variables. `machine`: the words of runtime.names the code
    names otherwise (report.CompiledProgram.machine)."""

    def __init__(self, before, fast=False, place=None, machine=None):
        self.before, self.fast, self.place = before, fast, place
        machine = machine or {}
        self.counts = {machine.get(w, w) for w in (STEPS, BOUNDARY)}  # the fast code's own: not the program's state
        self.states = {machine.get(w, w) for w in (STATE, STATES)}  # an automaton's loop: state, not a variable
        self.mains = {machine.get(w, w) for w in (MAIN, EXACT_MAIN)}  # the main program's function
        self.positions = {}
        self.nested = {}  # (code, the code of the frame below) → is the first made in the second?

    def site(self, frame, at_step):
        if not at_step and frame.f_back is not None:  # the entry of a call: the call that made it
            frame = frame.f_back
        return frame.f_code, frame.f_lasti

    def chain(self, frame):
        """The frame of the step, and those of the same call above it."""
        chain = [frame]
        while (below := chain[-1].f_back) is not None:
            key = chain[-1].f_code, below.f_code
            if key not in self.nested:
                self.nested[key] = any(c is key[0] for c in key[1].co_consts)
            if not self.nested[key]:
                break
            chain.append(below)
        return chain

    def call(self, frame):
        return self.chain(frame)[-1]

    def snapshot(self, frame):
        chain = self.chain(frame)
        count = [0]
        values = (self.values(self.program_globals(frame), count),
                  *(self.values(f.f_locals, count) for f in reversed(chain)))
        return (chain[-1], self.point(frame), values, surroundings()), count[0]

    def program_globals(self, frame):
        return {k: v for k, v in frame.f_globals.items() if k not in self.before}

    def variables(self, frame):
        """The values of the variables the call sees — the globals, главная's, its own (a cell
        by the value in it) —, as the interpreter's reader gives them."""
        chain = self.chain(frame)
        main = chain[-1]
        while main is not None and main.f_code.co_name not in self.mains:
            main = main.f_back
        scopes = [self.program_globals(frame), *([main.f_locals] if main not in (None, chain[-1]) else []),
                  *(f.f_locals for f in reversed(chain))]
        out = {}
        for names in scopes:
            kept = set()  # the variables of this call kept in cells: their plain copies are stale
            for name, value in names.items():
                if type(value) is Ячейка and value.ключ == value.имя != name and value.имя in names \
                        and type(names[value.имя]) is not Ячейка:
                    kept.add(value.имя)  # `ячейка_x` beside `x`: the parameter, or a ДЛЯ's value, copied in
            for name, value in names.items():
                if name in kept:
                    continue
                if type(value) is Ячейка:
                    if value.имя in kept and value.ключ == value.имя:
                        name = value.имя
                    value = value.или_ничего()
                if frozen(value, [0]) is not None and not isinstance(value, dict) and not self.counting(name) \
                        and name not in self.states:
                    out[name] = value
        return out

    def counting(self, name):
        """Is it one of the fast code's own counts of steps?"""
        return name in self.counts or self.fast and name.startswith("шагов")

    def point(self, frame):
        code, offset = frame.f_code, frame.f_lasti
        if self.fast:
            return code, offset
        if self.place is not None:
            return self.place(code, offset)
        if code not in self.positions:
            self.positions[code] = list(code.co_positions())
        return self.positions[code][offset // 2]

    def values(self, names, count):
        out = []
        for name, value in names.items():
            if name.startswith("__") or self.counting(name):
                continue
            if type(value) is dict and value and type(next(iter(value))) is str:
                continue  # a table of the emitted file, not an array
            held = frozen(value, count)
            if held is not None:
                out.append((name, held))
        return tuple(out)


# ---- the start of an emitted file ----

def выполнить(главная, программа, остальное=None, потом=None):
    """Run the program of an emitted file as `pseudo run` would, and exit with its code."""
    standard_streams()
    программа = {**программа, "code_file": главная.__code__.co_filename}  # the file, as Python named it
    try:
        limits = _options(sys.argv[1:], bool(программа.get("counters")))
        code = run_emitted(главная, программа, остальное, потом, limits, sys.stdin, sys.stdout, sys.stderr)
    except BrokenPipeError:  # the reader went away (`| head`): not an error
        sys.stdout = None
        code = EXIT_OK
    except KeyboardInterrupt:  # before the program began (its options read): no place to show
        print(f"ошибка: {RUNTIME_MESSAGES['interrupted']}", file=sys.stderr)
        code = 130  # report.EXIT_INTERRUPTED: in an emitted file report.py is not loaded yet
    sys.exit(final_flush(code))


class ClosedStream:
    """A standard stream the shell closed (`>&-`, `<&-`), which Python gives as None: nothing
    to read, and writing is the program's input-output error, not a crash."""

    def readline(self, size=-1):
        return ""

    def write(self, text):
        raise OSError(errno.EBADF, "стандартный вывод закрыт")

    def flush(self):
        pass

    def isatty(self):
        return False


def standard_streams():
    """The streams of a run, the same for pseudo and an emitted file: a closed one is a
    ClosedStream, and output is UTF-8 whatever the locale (PYTHONIOENCODING=ascii), a
    character it cannot hold replaced, never an error."""
    if sys.stdin is None:
        sys.stdin = ClosedStream()
    if sys.stdout is None:
        sys.stdout = ClosedStream()
    if sys.stderr is None:  # nowhere to report: messages are dropped
        sys.stderr = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115 - for the whole process
    for stream in (sys.stdout, sys.stderr):
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(encoding="utf-8", errors="replace")


def final_flush(code, stderr=None):
    """The exit code once standard output is flushed at the end of the process. When that
    fails (a full disk) what its buffer holds is dropped — its descriptor now leads to
    /dev/null — so that Python's own flush at exit does not fail again («Exception ignored»,
    exit code 120); the failure is told, unless the run has failed already (a program's
    output that could not be written is its error, reported). A reader that went away (`| head`)
    is no error."""
    stream = sys.stdout
    if stream is None:
        return code
    try:
        stream.flush()
        return code
    except (OSError, ValueError) as e:
        problem = None if isinstance(e, BrokenPipeError | ValueError) else os_words(e)
    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), stream.fileno())
    except (OSError, ValueError, AttributeError):
        pass
    if problem is None or code != EXIT_OK:
        return code
    print(f"ошибка: не удалось записать стандартный вывод: {problem}", file=stderr or sys.stderr)
    return EXIT_RUNTIME


def run_emitted(главная, программа, остальное, потом, limits, stdin, stdout, stderr):
    """Run the program of an emitted file; its exit code, its error reported on `stderr`.

    `программа`: the fields of the CompiledProgram its error reports need, and where the
    file's code is: the line `остальное` starts on (`rest_line`), the lines of its readable
    program (`part`). `остальное`: the exact program of a file with limits, kept as text;
    `потом`: the runtime's modules a start does not need, kept as text. Each is compiled only
    when it is needed: the exact program in a namespace of its own, the runtime's modules in
    the runtime's. The exact code of a readable file is made from its program (exact.py)."""
    machine = программа.get("machine", {})
    later = []
    described = []  # the CompiledProgram, made at the first error

    def program():
        if not described:
            later_runtime()
            described.append(program_of(программа))
        return described[0]

    def later_runtime():
        if потом is not None and not later:
            text = "\n" * (программа["later_line"] - 1) + потом
            exec(compile(text, программа["code_file"], "exec"), globals())  # noqa: S102 - the runtime's own
            later.append(True)

    def exact():
        later_runtime()
        if программа.get("part"):
            return readable_exact(программа, namespace_for(machine))
        if остальное is None:  # written with --import-runtime: the exact code is the file's own
            return главная.__globals__[machine.get(EXACT_MAIN, EXACT_MAIN)]
        namespace = namespace_for(machine)
        code = compile("\n" * (программа["rest_line"] - 1) + остальное, программа["code_file"], "exec")
        exec(code, namespace)  # noqa: S102 - the file's own code
        return namespace[machine.get(EXACT_MAIN, EXACT_MAIN)]

    def hands_over(exc):
        described = program()
        return in_exact_place(exc, described)

    counters = программа.get("counters")
    before = frozenset(главная.__globals__)

    def watch(fast):  # the exact code of the file carries the file's positions: the program's are in the table
        place = None if fast else lambda code, offset: program().place(code, offset)
        return Watch(FrameReader(before, fast, place, machine), программа.get("watchable", False), fast)
    try:
        run_program(главная, stdin, stdout, limits, программа["frames_per_call"], exact,
                    hands_over if программа["exact_places"] else None, tuple(counters) if counters else None, watch)
    except BrokenPipeError:
        raise
    except BaseException as e:  # noqa: BLE001 - reported as pseudo reports it
        described = program()  # first: the report's own module may be one a start does not load
        return report_exception(e, described, stderr)
    return EXIT_OK


def runtime_words():
    """The runtime's names: in an emitted file its modules share this namespace; installed,
    they are the package's."""
    package = globals().get("__package__")
    if package:
        import importlib
        return vars(importlib.import_module(package))
    return globals()


def namespace_for(machine):
    """A namespace for a program's code: the runtime's words and the builtins the code names,
    under the names it gives them (`machine`: those the program's names made give way)."""
    import builtins
    words = runtime_words()
    namespace = {"__name__": "pseudo_program", **{machine.get(word, word): words[word] for word in API}}
    for word in PYTHON_WORDS:
        if word in machine:
            namespace[machine[word]] = getattr(builtins, word)
    return namespace


def readable_exact(программа, namespace):
    """главная of the exact code of a readable emitted file, made from its program part."""
    first, last = программа["part"]
    filename = программа["code_file"]
    with open(filename, encoding="utf-8") as f:
        text = f.read()
    words = runtime_words()
    exact_main = words.get("exact_main")
    if exact_main is None:  # the installed runtime: its module is imported when it is needed
        import importlib
        exact_main = importlib.import_module(f"{__package__}.exact").exact_main
    return exact_main(text, first, last, filename, namespace, программа, words)


def _options(argv, counted=True):
    """The options of an emitted file: those of `pseudo run`, in Russian, a misused one told
    as pseudo tells it (exit code 64, with a hint); a readable file (not `counted`) runs
    without pseudo's limits of steps and time, and says so if they are given."""
    if not argv:
        return Limits()
    import argparse
    argparse._ = lambda text: ARGPARSE_WORDS.get(text, text)  # the file's own process: its words

    class Parser(argparse.ArgumentParser):
        def error(self, message):
            self.print_usage(sys.stderr)
            self.exit(EXIT_USAGE, f"{self.prog}: ошибка: {message}\n"
                                  f"подсказка: параметры файла показывает python3 {self.prog} --help\n")
    parser = Parser(description="Программа, переведённая pseudo на Python.")
    defaults = Limits()
    if counted:
        parser.add_argument("--max-steps", type=int, default=defaults.max_steps, metavar="N",
                            help=f"наибольшее число шагов: повторений циклов, вызовов и переходов "
                                 f"(по умолчанию {defaults.max_steps:_})".replace("_", " "))
        parser.add_argument("--time-limit", type=float, default=defaults.time_limit, metavar="СЕК",
                            help=f"наибольшее время выполнения в секундах (по умолчанию {defaults.time_limit:g})")
    parser.add_argument("--max-depth", type=int, default=defaults.max_depth, metavar="N",
                        help=f"наибольшая глубина рекурсии (по умолчанию {defaults.max_depth:_})".replace("_", " "))
    parser.add_argument("--seed", type=int, default=None, metavar="N",
                        help="начало последовательности СЛУЧАЙНОЕ: с одним и тем же N — те же числа при каждом запуске")
    args, rest = parser.parse_known_args(argv)
    if rest:
        limits = [x for x in rest if x.split("=")[0] in ("--max-steps", "--time-limit")]
        parser.error("этот файл выполняет программу без пределов шагов и времени; файл с пределами пишет "
                     "pseudo py --limits" if limits and not counted else f"неизвестные аргументы: {' '.join(rest)}")
    if not counted:
        args.max_steps, args.time_limit = defaults.max_steps, defaults.time_limit
    if not (0 < args.max_depth <= MAX_DEPTH and args.max_steps > 0 and 0 < args.time_limit < float("inf")):
        parser.error("пределы — положительные числа; глубина не больше 1 000 000")
    return Limits(args.max_steps, args.max_depth, args.time_limit, args.seed)

