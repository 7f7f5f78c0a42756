"""A run recorded for the stepper (`pseudo step`), event by event as it goes.

The program runs in a thread of its own with a tracer that records its events (decoded, their
values typed). Its input is a text given in advance (`--input`, or nothing), or — live, on a
terminal — the lines the user types when the program reads: the program then waits, and the
recording lets it go on only when the stepper needs the events that follow (`more`), asking
for the line at that moment. What was typed is in the recording as input events, so moving
back and forward again replays it, and nothing is asked twice.
"""
from __future__ import annotations

import io
import threading
import time

from ..errors import PseudoError
from ..runtime import limits as runtime_limits
from .trace import Decoder, TraceLimit, Tracer

PATIENCE = 2.0  # seconds a program stopped by Ctrl-C may take to end before it is left behind
RUNAWAY_DEPTH = 10_000  # calls in progress when the bound on events stops the recording: told as a runaway


class Recording:
    """`events`: the events so far (dicts); `finished`: the program has ended, or the recording
    has; `ending`: how, when not at the program's end (its error, the bound on events), and
    `note`, the same as a message;
    `waiting`: the program waits for a line of input; `ask()`: the line the user types for it
    ("" for the end of input) — set by the stepper when the input is live."""

    def __init__(self, loaded, limits, max_events: int | None, text: str | None = None, live: bool = False):
        self.events: list[dict] = []
        self.finished = False
        self.ending: str | None = None
        self.note: str | None = None  # the same, as the command says it on standard error
        self.waiting = False
        self.ask = None
        self.failure: BaseException | None = None  # an internal error of the run, raised to the stepper
        self.left = False  # the run was left behind (it would not stop): its events are no longer taken
        self._lock = threading.Condition()
        self._line: str | None = None  # the line handed to the program, until it takes it
        self._closed = False  # the input has ended: every read from now on is the end of input
        decode, events = Decoder(), self.events

        def record(ev):
            if not self.left:
                events.append(decode(ev))
        stdin = _Live(self) if live else io.StringIO(text or "")
        tracer = Tracer(record, max_events)
        threading.Thread(target=self._run, args=(loaded, stdin, limits, tracer), daemon=True).start()
        self._settle()

    def _run(self, loaded, stdin, limits, tracer) -> None:
        from ..execute import run
        try:
            run(loaded, stdin=stdin, stdout=io.StringIO(), limits=limits, tracer=tracer)
        except TraceLimit as e:
            depth = self.events[-1]["depth"] if self.events else 0
            if depth >= RUNAWAY_DEPTH:  # the bound came first: the recursion would have reached the depth limit
                self.ending = self.note = (f"запись остановлена после {e.limit} событий на глубине {depth}: похоже, "
                                           "рекурсия не кончается — у определения должен быть случай, в котором "
                                           "оно не вызывает себя (--max-events N запишет больше)")
            else:
                self.ending = f"запись остановлена после {e.limit} событий (--max-events)"
                self.note = f"записаны первые {e.limit} событий; увеличьте --max-events"
        except PseudoError as e:
            self.ending = self.note = "программа остановилась с ошибкой:\n" + e.render()
        except BaseException as e:  # noqa: BLE001 - raised in the stepper's thread (_settle)
            self.failure = e
        finally:
            with self._lock:
                self.finished = True
                self._lock.notify_all()

    def _settle(self) -> None:
        """Wait until the program waits for input or has ended. Ctrl-C stops it at its next
        step; one that takes no step for PATIENCE seconds more is left behind."""
        interrupted = None
        with self._lock:
            while not (self.waiting or self.finished):
                try:
                    self._lock.wait(0.1)
                except KeyboardInterrupt:
                    runtime_limits.interrupt()
                    interrupted = interrupted or time.monotonic()
                if interrupted is not None and time.monotonic() - interrupted > PATIENCE:
                    self.left, self.finished = True, True
                    self.ending = "программа прервана (Ctrl-C)"
        if self.failure is not None:
            raise self.failure

    def more(self) -> None:
        """Let the program go on until it waits for input again or ends. The line it waits for
        is asked for now; a KeyboardInterrupt while asking gives it nothing, and it waits on."""
        if self.finished:
            return
        if self.waiting:
            line = self.ask()
            with self._lock:
                self._line, self.waiting = line, False
                self._lock.notify_all()
        self._settle()

    def close(self) -> None:
        """The stepper quits: a program still waiting for input gets the end of it and stops."""
        if not self.finished:
            with self._lock:
                self._closed, self._line = True, ""
                self._lock.notify_all()
            runtime_limits.interrupt()


class _Live:
    """The program's standard input, live: each line is asked for when the program reads."""

    def __init__(self, recording: Recording):
        self.recording = recording

    def readline(self, size=-1) -> str:  # a typed line: not longer than the reader takes
        r = self.recording
        with r._lock:
            if r._closed:
                return ""
            r.waiting = True
            r._lock.notify_all()
            while r._line is None:
                r._lock.wait()
            line, r._line = r._line, None
            r._closed = line == ""
            return line

    def isatty(self) -> bool:  # the recorded output reads as with input from a file
        return False
