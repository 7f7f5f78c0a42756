"""`pseudo step`: an interactive stepper in the terminal, over a recorded run.

The program runs with a tracer that records its events (recording.py); the user moves through
its steps — the statements, and the steps inside expressions (a function's body, its value,
the branch a conditional expression takes) —: next, into, out, continue to a line, a state or
a call, back, print an expression (evaluate.py). Stepping back is moving back in the
recording. The program runs ahead of the user until it waits for input; with the input live
(on a terminal, without --input), the line is asked for when the user steps past the
ПРОЧЕСТЬ. The last stop is the end of the program, so that what the last statement printed is
shown too.
"""
from __future__ import annotations

import shutil
import sys

from .. import nodes as n
from ..runtime.io import plural
from .evaluate import Point, array_elements, evaluate
from .trace import definition_name, named, statement_end
from .views import call_text, printed

HELP = """\
команды:
  Enter, n, далее        следующая инструкция, не заходя в вызовы
  s, внутрь              следующая инструкция, заходя в вызовы
  o, выйти               выполнить до выхода из текущей процедуры
  c [ГДЕ], до …          продолжить до строки (c 16), до входа в состояние автомата (c СОК),
                         до вызова процедуры или фразы (c HR) или, без ГДЕ, до конца
  b, назад               шаг назад
  p ВЫРАЖЕНИЕ, печать …  значение выражения в этой точке: переменные, элементы массивов,
                         встроенные функции, фразы и функции программы (p ДЛИНА(w), p место k, i свободно);
                         p МАССИВ — все его элементы (p c)
  l, список              показать текст вокруг текущей строки
  w, вывод               всё, что программа напечатала до этой точки
  h, ?, помощь           эта справка
  q, выход               выйти"""

ALIASES = {"": "n", "n": "n", "далее": "n", "s": "s", "внутрь": "s", "o": "o", "выйти": "o", "c": "c", "до": "c",
           "b": "b", "назад": "b", "p": "p", "печать": "p", "l": "l", "список": "l", "w": "w", "вывод": "w", "h": "h", "?": "h",
           "помощь": "h", "q": "q", "выход": "q"}

CHANGES = 8  # changes listed at a stop; the rest are counted
STOPS = ("stmt", "expr")  # the events the user stops at


def text_lines(source) -> list[str]:
    """A file's lines, without the empty one after its last line break."""
    lines = source.lines
    return lines[:-1] if len(lines) > 1 and lines[-1] == "" else lines


def _lines(count: int) -> str:
    if count % 10 == 1 and count % 100 != 11:
        return f"{count} строка"
    if 2 <= count % 10 <= 4 and not 12 <= count % 100 <= 14:
        return f"{count} строки"
    return f"{count} строк"


class Stepper:
    def __init__(self, recording, loaded, write, read, width: int | None = None):
        self.recording = recording
        self.events = recording.events  # grows while the program runs
        self.loaded = loaded
        self.sources = loaded.sources
        self.write = write  # write(text)
        self.read = read  # read(prompt) -> str, raises EOFError at the end
        self.width = width  # the lines' width to wrap lists at; None: the terminal's, if stdout is one
        recording.ask = self.ask
        self.stops: list[int] = []  # the event index of each stop found so far; then len(events), the end
        self.scanned = 0  # events looked at for stops
        self.closed = False  # the last stop, the end, is known
        self._scan()
        self.pos = 0
        self.shown = 0  # the event index up to which the program's output has been shown
        self.previous = 0  # the event index of the stop shown before this one
        self.statements = self._statements(loaded.program)

    @staticmethod
    def _statements(program) -> dict:
        """Every step of the program by its place: (file, line) → {column: node} — its
        statements, the bodies of its functions, the branches of its conditional expressions."""
        found: dict = {}

        def add(node):
            if node.span is not None:
                found.setdefault((node.span.filename, node.span.line), {})[node.span.column] = node
        for d in program.definitions.values():
            if d.is_function:
                add(d.body)
        for root in n.bodies(program):
            for node in n.walk(root):
                if isinstance(node, n.STMT_NODES) and not isinstance(node, n.Label):
                    add(node)
                elif isinstance(node, n.IfExpr):
                    add(node.then)
                    add(node.else_)
        return found

    # ---- the stops, found as the program runs ----

    def _scan(self) -> None:
        events = self.events
        for i in range(self.scanned, len(events)):
            if events[i]["kind"] in STOPS:
                self.stops.append(i)
        self.scanned = len(events)
        if self.recording.finished and not self.closed:
            self.stops.append(len(events))
            self.closed = True

    def _has(self, p: int) -> bool:
        """Is there a stop p? The program runs on (asking for input) until there is or it ends."""
        while p >= len(self.stops) and not self.closed:
            self.recording.more()
            self._scan()
        return p < len(self.stops)

    @property
    def end(self) -> int | None:
        """The last stop, once the program has ended."""
        return len(self.stops) - 1 if self.closed else None

    def ask(self) -> str:
        """The line of input the program waits for, typed by the user ("" at Ctrl-D)."""
        self.write(_quoted(self._output(self.shown, len(self.events))))  # its question, if it asked one
        self.shown = len(self.events)
        where = next((e for e in reversed(self.events) if e["kind"] == "stmt"), None)
        self.write("программа ждёт ввода" + (f" (строка {where['line']}: {where['text']})" if where else "")
                   + "; Ctrl-D — конец ввода\n")
        try:
            return self.read("ввод » ") + "\n"
        except EOFError:
            self.write("\n")
            return ""

    # ---- the loop ----

    def run(self) -> None:
        if self.closed and self.end == 0:
            self.write("программа не выполнила ни одной инструкции\n")
            self.show()
            return
        self.write("pseudo step — пошаговое выполнение; h — справка\n")
        self.show()
        while True:
            try:
                line = self.read("(шаг) ")
            except (EOFError, KeyboardInterrupt):
                self.write("\n")
                return
            word, _, rest = line.strip().partition(" ")
            command = ALIASES.get(word)
            if command is None:
                self.write(f"неизвестная команда «{word}»; h — справка\n")
                continue
            if command == "q":
                return
            if command == "h":
                self.write(HELP + "\n")
                continue
            if command == "p":
                point = self.point()
                elements = array_elements(rest.strip(), point)
                if elements is not None:  # an array's elements, listed (a value is never broken)
                    output, value = "", self._wrapped(elements, "")
                else:
                    output, value = evaluate(self.loaded, rest, point)
                self.write(_quoted(output) + value + "\n")
                continue
            if command == "l":
                self.show(again=True)
                continue
            if command == "w":
                self.write(_quoted(self._output(0, self.stops[self.pos])) or "программа ещё ничего не напечатала\n")
                continue
            before = self.pos
            try:
                if command == "c":
                    moved = self.continue_to(rest.strip())
                else:
                    moved = {"n": self.next_over, "s": self.next_into, "o": self.out, "b": self.back}[command]()
            except KeyboardInterrupt:  # at the question for input: the step is not made
                self.write("\nввод отменён: программа ждёт его на том же месте\n")
                continue
            if moved:
                self.previous = self.stops[before]
                self.show()

    # ---- moving ----

    def _event(self, pos: int | None = None) -> dict | None:
        index = self.stops[self.pos if pos is None else pos]
        return self.events[index] if index < len(self.events) else None

    def _depth(self, pos: int) -> int:
        e = self._event(pos)
        return 0 if e is None else e["depth"]

    def _at_end(self) -> bool:
        if self.pos == self.end:
            self.write("программа закончилась; b — шаг назад\n")
            return True
        return False

    def _move(self, predicate) -> bool:
        p = self.pos + 1
        while self._has(p):
            if p == self.end or predicate(p):
                self.pos = p
                return True
            p += 1
        return False

    def next_over(self) -> bool:
        if self._at_end():
            return False
        depth = self._depth(self.pos)
        return self._move(lambda p: self._depth(p) <= depth)

    def next_into(self) -> bool:
        if self._at_end():
            return False
        return self._move(lambda p: True)

    def out(self) -> bool:
        if self._at_end():
            return False
        depth = self._depth(self.pos)
        if depth == 0:
            self.write("это основная программа: выходить некуда\n")
            return False
        return self._move(lambda p: self._depth(p) < depth)

    def back(self) -> bool:
        if self.pos == 0:
            self.write("это первая инструкция\n")
            return False
        self.pos -= 1
        return True

    def _events_after(self, index: int):
        """The events after `index`, as the program goes on (asking for input) to make them."""
        i = index + 1
        while True:
            while i >= len(self.events):
                if self.closed:
                    return
                self.recording.more()
                self._scan()
            yield i, self.events[i]
            i += 1

    def _after(self, index: int) -> int:
        """The first stop after event `index`."""
        p = self.pos
        while self._has(p) and self.stops[p] <= index:
            p += 1
        return p

    def continue_to(self, where: str) -> bool:
        if not where:
            if self._at_end():
                return False
            return self._move(lambda p: False)
        if where.isdigit():
            return self._to_line(int(where))
        start = self.stops[self.pos]
        states = {x.name for a in self.loaded.facts.automata.values() for x in a.states}
        if where in states:
            for i, e in self._events_after(start):
                if e["kind"] == "state" and e["to"] == where:
                    self.pos = self._after(i)
                    return True
            self.write(f"в состояние {where} программа больше не входит\n")
            return False
        definitions = self.loaded.program.definitions
        keys = named(self.loaded.program, where)
        if keys:
            for i, e in self._events_after(start):
                if e["kind"] == "call" and e["definition"] in keys:
                    self.pos = self._after(i)
                    return True
            d = definitions[min(keys)]
            what = f"фраза {definition_name(d)}" if d.is_phrase else f"{'функция' if d.is_function else 'процедура'} {d.name}"
            self.write(f"{what} больше не вызывается\n")
            return False
        self.write(f"«{where}» — не номер строки, не состояние автомата и не процедура этой программы; "
                   "h — справка\n")
        return False

    def _to_line(self, line: int) -> bool:
        e = self._event()
        file = e["file"] if e is not None else self.loaded.main_file
        source = self.sources.get(file)
        count = len(text_lines(source)) if source is not None else 0
        if not 1 <= line <= count:
            self.write(f"в файле {file} нет строки {line}: в нём {_lines(count)}\n")
            return False
        if not self.statements.get((file, line)):
            self.write(f"на строке {line} нет инструкций\n")
            return False
        here = lambda x: x is not None and x["line"] == line and x["file"] == file
        p = self.pos + 1
        while self._has(p) and p != self.end:
            if here(self._event(p)):
                self.pos = p
                return True
            p += 1
        if any(here(self._event(p)) for p in range(self.pos + 1)):
            self.write(f"строка {line} больше не выполняется\n")
        else:
            self.write(f"строка {line} не выполняется ни разу\n")
        return False

    # ---- showing ----

    def _output(self, start: int, end: int) -> str:
        return "".join(e["text"] for e in self.events[start:end] if e["kind"] == "output")

    def show(self, again: bool = False) -> None:
        here = self.stops[self.pos]
        if here > self.shown:  # what the statements run since the last stop printed
            self.write(_quoted(self._output(self.shown, here)))
        self.shown = here  # after a step back, going forward again shows the output again
        if not again:
            changed = self.changes()
            if changed:
                self.write(self._wrapped(changed, "изменилось: ") + "\n")
        e = self._event()
        count = f" из {len(self.stops)}" if self.closed else ""
        if e is None:
            self.write(f"шаг {self.pos + 1}{count} · " + (self.recording.ending or "конец программы") + "\n")
            return
        state, stack = self._context()
        place = f"шаг {self.pos + 1}{count} · строка {e['line']} · глубина {e['depth']}"
        if state:
            place += f" · состояние {state}"
        self.write(place + "\n")
        if stack:
            self.write("стек: " + " → ".join(shown_stack(stack)) + "\n")
        if e["kind"] == "expr":
            self.write(self._expression(e, call_text(printed(stack[-1])) if stack else "") + "\n")
        source = self.sources.get(e["file"])
        if source is None:
            return
        for number in range(max(1, e["line"] - 2), min(len(text_lines(source)), e["line"] + 2) + 1):
            mark = "→" if number == e["line"] else " "
            self.write(f" {mark}{number:>4} | {source.line(number)}\n")
            if number == e["line"]:
                self.write(self._caret(e))

    def _wrapped(self, items: list[str], head: str) -> str:
        """The items «a; b; c» after their head, broken between items to the terminal's width (a
        hard wrap in the middle of «д2[8]: ИСТИНА → ЛОЖЬ» is hard to read on a projected terminal);
        the lines after the first are indented under the first item. The items come apart, not
        as one text: a value may hold «; » itself (a string 'один; два')."""
        width = self.width
        if width is None:
            width = shutil.get_terminal_size((0, 0)).columns if sys.stdout.isatty() else 0
        listed = "; ".join(items)
        if width <= 0 or len(head) + len(listed) <= width or len(items) < 2:
            return head + listed
        indent = " " * min(len(head), 12)
        lines, line = [], head + items[0]
        for k, item in enumerate(items[1:], 2):
            if len(line) + len("; ") + len(item) + (k < len(items)) > width:  # with the «;» that follows it
                lines.append(line + ";")
                line = indent + item
            else:
                line += "; " + item
        return "\n".join([*lines, line])

    @staticmethod
    def _expression(e: dict, call: str) -> str:
        """What a step inside an expression does, in the call `call`."""
        if e["role"] == "body":
            return f"вычисляется значение {call}"
        if e["role"] == "value":
            return f"значение {call} = {printed(e)['value'] or '—'}"
        return f"условие {'истинно' if e['role'] == 'then' else 'ложно'}: вычисляется ветвь " \
               f"{'ТО' if e['role'] == 'then' else 'ИНАЧЕ'}"

    def _caret(self, e: dict) -> str:
        """A line under the current one marking the statement, when the line holds several,
        or the expression that is the step."""
        on_line = self.statements.get((e["file"], e["line"]), {})
        if len(on_line) < 2 and e["kind"] != "expr":
            return ""
        node = on_line.get(e["column"])
        end = statement_end(node) if node is not None else e["column"] + len(e["text"])
        width = max(1, end - e["column"])
        return f"       | {' ' * (e['column'] - 1)}^{'~' * (width - 1)}\n"

    def changes(self) -> list[str]:
        """What moving here changed: each variable and element once, from its value before the
        move to its value now (a step back: what the statement before this stop changed).
        Variables of calls that have ended are left out."""
        here = self.stops[self.pos]
        start = self.previous if self.previous < here else self.stops[self.pos - 1] if self.pos else 0
        depth = self._depth(self.pos)
        net: dict = {}
        for e in self.events[start:here]:
            if e["kind"] != "assign":
                continue
            frame = e.get("frame")
            if frame is not None and frame > depth:
                continue
            key = (e["name"], tuple(e["index"]) if e.get("index") is not None else None, frame)
            if key in net:
                net[key] = (net[key][0], e["new"], net[key][2])
            else:
                net[key] = (e["old"], e["new"], e)
        parts = []
        for old, new, e in net.values():
            if old == new and type(old) is type(new):
                continue
            p = printed({**e, "old": old, "new": new})
            name = f"{p['name']}[{', '.join(p['index'])}]" if p.get("index") is not None else p["name"]
            parts.append(f"{name} := {p['new']}" if p["old"] is None else f"{name}: {p['old']} → {p['new']}")
        if len(parts) > CHANGES:
            parts = parts[:CHANGES] + [f"… и ещё {len(parts) - CHANGES}"]
        return parts

    def _context(self):
        """The state and the calls in progress here: the calls' events, each made text only
        where it is shown (a recursion 100,000 deep is that many)."""
        state, stack = None, []
        for e in self.events[:self.stops[self.pos] + 1]:
            if e["kind"] == "state":
                state = e["to"]
            elif e["kind"] == "call":
                stack.append(e)
            elif e["kind"] == "return":
                stack.pop()
        return state, stack

    # ---- the values at this stop, for p ----

    def point(self) -> Point:
        """Globals, arrays and the current call's locals (and its definition), as the program
        had them here: replayed from the recorded assignments and calls."""
        globals_, arrays, frames = {}, {}, [({}, None)]
        for e in self.events[:self.stops[self.pos]]:
            if e["kind"] == "call":
                frames.append((dict(zip(e["params"], e["args"])), e["definition"]))
            elif e["kind"] == "return":
                frames.pop()
            elif e["kind"] == "assign":
                if e.get("index") is not None:
                    index = e["index"]
                    arrays.setdefault(e["name"], {})[index[0] if len(index) == 1 else tuple(index)] = e["new"]
                elif e.get("local"):
                    frame = e.get("frame")
                    frames[frame if frame is not None and frame < len(frames) else -1][0][e["name"]] = e["new"]
                else:
                    globals_[e["name"]] = e["new"]
        locals_, definition = frames[-1]
        return Point(globals_, arrays, {k: v for k, v in locals_.items() if v is not None}, definition)


STACK_ENDS = 3  # calls shown at each end of a longer stack


def shown_stack(calls: list[dict]) -> list[str]:
    """The calls in progress as text; of a deep recursion its first and last calls and how many
    between."""
    if len(calls) <= 2 * STACK_ENDS + 1:
        return [call_text(printed(e)) for e in calls]
    return [*(call_text(printed(e)) for e in calls[:STACK_ENDS]), f"… ещё {plural(len(calls) - 2 * STACK_ENDS, 'вызов', 'вызова', 'вызовов')} …",
            *(call_text(printed(e)) for e in calls[-STACK_ENDS:])]


def _quoted(text: str) -> str:
    """The program's output, each line marked so that it stands apart from the stepper's own."""
    if not text.strip("\n"):  # only the end of a line left open
        return ""
    return "".join(f"вывод » {line}\n" for line in text.strip("\n").split("\n"))
