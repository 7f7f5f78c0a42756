"""`pseudo trace`, `pseudo step` and `pseudo graph`: a run shown event by event (as text, JSON
lines, a table, the margin, words, or a page), a run stepped through in the terminal, a program
drawn (its states, its calls, a flowchart). The views themselves are in tools/."""
from __future__ import annotations

import os
import sys
from contextlib import contextmanager

from ..api import UsageError
from ..errors import EXIT_OK, EXIT_UNAVAILABLE, PseudoError
from ..files import AtomicFile, OutputRefused, check_output, io_words, is_standard_output
from . import flush, inputs, load, refuse_output, run_limits, write_output
from .arguments import MAX_EVENTS, MAX_EVENTS_KEPT

# ---- pseudo trace ----


def cmd_trace(args) -> int:
    from ..tools.trace import Tracer
    from ..tools.views import NoOutput, filtered, open_trace_output
    loaded = load(args)
    kept = args.margin or args.format == "table"
    max_events = args.max_events or (MAX_EVENTS_KEPT if kept else MAX_EVENTS)
    flt = _trace_filter(args)
    stream = page = None
    if args.html:
        page = args.output or _page_beside(args.file)
        view = _trace_page(page, args, loaded)
    else:
        stream = open_trace_output(args.output, inputs(loaded))  # a file of -o: written whole or not at all
        view = _trace_view(args, loaded, stream, flt)
    # A trace on standard output holds the program's output (`вывод:` events): not written a second time.
    program_output = NoOutput() if stream is sys.stdout or page is not None and is_standard_output(page) else None
    sink = filtered(view, flt)
    # the events outside the filter's window are numbered, not made (a table keeps them all)
    tracer = Tracer(sink, max_events, None if flt.empty() or getattr(view, "filters", False) else flt)
    with _trace_file(stream):
        stopped = _run_traced(args, loaded, tracer, view, sink, page, program_output, max_events)
    flush()
    if stopped:
        print(stopped, file=sys.stderr)
    return EXIT_OK


@contextmanager
def _trace_file(stream):
    """The file of -o kept when the trace ends, or ends at the program's error, and discarded
    when anything else stops it; a device or a pipe named by -o closed."""
    try:
        yield
    except BaseException as e:
        if isinstance(stream, AtomicFile):
            stream.commit() if isinstance(e, PseudoError) else stream.discard()
        raise
    finally:
        if stream is not None and stream is not sys.stdout and not isinstance(stream, AtomicFile):
            stream.close()
    if isinstance(stream, AtomicFile):
        stream.commit()


def _trace_filter(args):
    """The events asked for: --only, --vars, --from, --to, --depth."""
    from ..tools.views import ONLY, Filter
    if args.first is not None and args.last is not None and args.first > args.last:
        raise UsageError(f"--from {args.first} больше, чем --to {args.last}: между ними нет ни одного события")
    return Filter(kinds=set().union(*(ONLY[k] for k in _event_kinds(args.only, ONLY))) if args.only else None,
                  names={x.strip() for x in args.vars.split(",") if x.strip()} if args.vars else None,
                  first=args.first, last=args.last,
                  depth=args.depth)


def _event_kinds(text: str, known: dict) -> list[str]:
    names = [x.strip() for x in text.split(",") if x.strip()]
    for name in names:
        if name not in known:
            raise UsageError(f"неизвестный вид событий «{name}»; есть: {', '.join(known)}")
    return names


def _page_beside(program: str) -> str:
    """--html without -o: the page beside the program, named after it."""
    from pathlib import Path
    return str(Path(program).with_suffix(".html"))


def _trace_page(path: str, args, loaded):
    """--html: the trace page's view, its file refused before the run if it is one of the program's."""
    from pathlib import Path
    check_output(path, inputs(loaded))  # before running: refuse the program's own file
    from ..tools.html import HtmlView  # only here: it is the page's (10 ms of a start)
    return HtmlView(path, loaded.sources, loaded.main_file, Path(args.file).name, inputs(loaded))


def _trace_view(args, loaded, stream, flt):
    """The view of a trace in text: --margin, --explain, or --format text, jsonl, table."""
    from ..tools.views import ExplainView, JsonlView, MarginView, TableView, TextView, header_lines
    if args.margin:
        return MarginView(stream, loaded.sources[loaded.main_file], header_lines(loaded.program, loaded.main_file))
    if args.explain:
        return ExplainView(stream)
    if args.format == "table":
        return TableView(stream, flt)
    return {"text": TextView, "jsonl": JsonlView}[args.format](stream)


def _run_traced(args, loaded, tracer, view, sink, page, program_output, max_events) -> str | None:
    """The run under the tracer, its trace ended as the run ended — even by the program's error,
    which goes on up. Returns what to say of a trace stopped at --max-events, or None."""
    from ..execute import run
    from ..tools.trace import TraceLimit
    stopped, outcome, error = None, "ok", None
    try:
        run(loaded, stdout=program_output, limits=run_limits(args), tracer=tracer)
    except TraceLimit as e:
        stopped, outcome = f"pseudo: трассировка остановлена после {e.limit} событий{_why_so_many(tracer)}", "trace-limit"
    except PseudoError as e:
        outcome, error = "error", e
        raise
    finally:
        _end_trace(tracer, view, sink, page, outcome, error, max_events)
    return stopped


def _why_so_many(tracer) -> str:
    """What a trace stopped at --max-events may mean: a recursion or a loop without end is far
    likelier in a pupil's program than a trace too short."""
    from ..tools.recording import RUNAWAY_DEPTH
    if tracer.depth >= RUNAWAY_DEPTH:
        return (f" на глубине {tracer.depth}: похоже, рекурсия не кончается — у определения должен быть случай, в "
                "котором оно не вызывает себя (--max-events N покажет больше)")
    return ("; если программа не кончается, посмотрите, что должно остановить повторение; если ей просто нужно "
            "больше событий — --max-events N")


def _end_trace(tracer, view, sink, page, outcome: str, error, max_events: int) -> None:
    """The end of the trace written: how the run ended, the events kept until then."""
    from ..tools.trace import end_event
    from ..tools.views import JsonlView
    try:
        if isinstance(view, JsonlView):  # a reader of the stream learns how the run ended
            view(end_event(tracer.count + 1, outcome, error))
        elif page is not None:  # the page shows how it ended at its last position
            view.ended(outcome, error, max_events if outcome == "trace-limit" else None)
        sink.finish()  # the trace up to the end or up to the program's error is whole
        if page is not None:  # said here, before the program's error: the page is there all the same
            print(f"pseudo: страница трассировки записана в {page}", file=sys.stderr)
    except OSError as e:  # a full disk, a closed stream: the program's error, if any, says it
        if outcome != "error" and not isinstance(e, BrokenPipeError):  # a reader gone (`| head`): no error
            raise OutputRefused(f"не удалось записать трассировку: {io_words(e)}") from None


# ---- pseudo step ----


def cmd_step(args) -> int:
    from ..tools.recording import Recording
    from ..tools.stepper import Stepper
    loaded = load(args)
    text = _input_file(args.input) if args.input else ""
    # On a terminal without --input, the program's input is typed when it reads.
    live = not args.input and sys.stdin.isatty()
    if live:
        _edit_typed_lines()
    recording = Recording(loaded, run_limits(args), args.max_events, text, live=live)
    if recording.note:  # the run is over before the first step is shown
        print(recording.note, file=sys.stderr)
    try:
        Stepper(recording, loaded, sys.stdout.write, input).run()
    finally:
        recording.close()
    return EXIT_OK


def _input_file(path: str) -> str:
    """The text of --input: no more than a run reads (not all of /dev/zero or a huge log)."""
    from ..runtime.io import MAX_INPUT
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read(MAX_INPUT + 1)
        if len(text) > MAX_INPUT:
            raise UsageError(f"файл ввода {path} длиннее {MAX_INPUT:,} знаков: столько программа не прочтёт"
                             .replace(",", " "))
    except FileNotFoundError:
        raise UsageError(f"файл ввода {path} не найден") from None
    except UnicodeDecodeError:
        raise UsageError(_not_utf8_input(path)) from None
    except IsADirectoryError:
        raise UsageError(f"файл ввода {path} — это папка, а не файл") from None
    except OSError as e:
        raise UsageError(f"не удалось прочесть файл ввода {path}: {io_words(e)}") from None
    except ValueError:  # a NUL byte in the name
        raise UsageError("в имени файла ввода нулевой байт") from None
    return text


def _not_utf8_input(path: str) -> str:
    """«файл ввода bad.txt не в кодировке UTF-8 (строка 2, столбец 2) — сохраните файл ввода в UTF-8»,
    where a run says «ввод не в кодировке UTF-8 (…)»: the place counted in the whole file, read
    again as bytes (the text reader's error counts in its last block)."""
    from ..messages import encoding_hint, not_utf8
    from ..runtime.io import MAX_INPUT
    with open(path, "rb") as f:
        data = f.read(4 * (MAX_INPUT + 1))  # a character of UTF-8 is at most 4 bytes
    try:
        data.decode("utf-8")
        start = len(data)  # not met again: only a character cut at the end of what is read
    except UnicodeDecodeError as e:
        start = e.start
    return f"файл ввода {path} {not_utf8(data, start)} — {encoding_hint(data, 'файл ввода')}"


def _edit_typed_lines() -> None:
    """History and editing of the lines typed (readline, where Python has it and the terminal
    can move its cursor: not TERM=dumb)."""
    if os.environ.get("TERM") != "dumb":
        try:
            import readline  # noqa: F401 - input() edits lines once it is imported
        except ImportError:
            pass


# ---- pseudo graph ----


def cmd_graph(args) -> int:
    loaded = load(args)
    refuse_output(args.output, loaded)
    dot = _flowchart(args, loaded) if args.flowchart or args.proc else _diagram(args, loaded)
    if args.format == "dot":
        write_output(args.output or "-", dot, loaded)
        return EXIT_OK
    drawn = _drawn_by_graphviz(dot, args.format)
    if drawn is None:
        return EXIT_UNAVAILABLE
    write_output(args.output or "-", drawn, loaded)
    return EXIT_OK


def _diagram(args, loaded) -> str:
    """The state diagram in DOT, or the call graph of a program without labels."""
    from pathlib import Path

    from ..tools.graph import to_dot
    return to_dot(loaded, Path(args.file).stem)


def _flowchart(args, loaded) -> str:
    """The flowchart in DOT of the main program, or of the definition --proc names."""
    from pathlib import Path

    from ..tools import flowchart
    from ..tools.trace import definition_name, named
    definition = None  # the main program
    if args.proc:
        keys = named(loaded.program, args.proc)
        if not keys:
            known = ", ".join(definition_name(d) for d in loaded.program.definitions.values()) or "их нет"
            raise UsageError(f"в программе нет процедуры, функции или фразы «{args.proc}»; есть: {known}")
        definition = min(keys)
    return flowchart.to_dot(loaded, Path(args.file).stem, definition)


def _drawn_by_graphviz(dot: str, form: str) -> bytes | None:
    """The picture (svg, png) Graphviz's dot draws of `dot`; None, said why, when it cannot."""
    import shutil
    import subprocess
    if shutil.which("dot") is None:
        print("pseudo: ошибка: для --format svg и png нужна программа dot из пакета Graphviz; установите её "
              "(Debian/Ubuntu: sudo apt install graphviz; macOS: brew install graphviz; Windows: "
              "winget install graphviz) или возьмите текст DOT без --format", file=sys.stderr)
        return None
    result = subprocess.run(["dot", f"-T{form}"], input=dot.encode("utf-8"), capture_output=True, check=False)
    if result.returncode != 0:
        print(f"pseudo: ошибка: dot не смог нарисовать диаграмму: {result.stderr.decode(errors='replace')}",
              file=sys.stderr)
        return None
    return result.stdout
