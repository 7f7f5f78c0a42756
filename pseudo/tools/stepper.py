"""`pseudo step`: an interactive stepper in the terminal, over a recorded trace.

The program runs first with a tracer that records its events (its standard input comes from
`--input`); then the user moves through the statements: next, into, out, continue to a line or
a state, back, print an expression. Stepping back is moving back in the recording.
"""
from __future__ import annotations

import io

from .. import nodes as n
from ..errors import PseudoError
from ..frontend.parser import lex, parse_expression
from ..frontend.source import Source
from ..interpreter import Frame, Interpreter
from ..runtime import Limits
from ..runtime import io as runtime_io
from ..runtime import limits as runtime_limits
from ..runtime.values import Failure, Массив, show
from .views import call_text, printed

HELP = """\
команды:
  Enter, n, далее        следующая инструкция, не заходя в вызовы
  s, внутрь              следующая инструкция, заходя в вызовы
  o, выйти               выполнить до выхода из текущей процедуры
  c [СТРОКА|СОСТОЯНИЕ], до …   продолжить до строки, до состояния автомата или до конца
  b, назад               шаг назад
  p ВЫРАЖЕНИЕ, печать …  значение выражения в этой точке
  l, список              показать текст вокруг текущей строки
  w, вывод               всё, что программа напечатала до этой точки
  h, ?, помощь           эта справка
  q, выход               выйти"""

ALIASES = {"": "n", "n": "n", "далее": "n", "s": "s", "внутрь": "s", "o": "o", "выйти": "o", "c": "c", "до": "c",
           "b": "b", "назад": "b", "p": "p", "печать": "p", "l": "l", "список": "l", "w": "w", "вывод": "w", "h": "h", "?": "h",
           "помощь": "h", "q": "q", "выход": "q"}


class Stepper:
    def __init__(self, events: list[dict], loaded, write, read):
        self.events = events
        self.loaded = loaded
        self.sources = loaded.sources
        self.write = write  # write(text)
        self.read = read  # read(prompt) -> str, raises EOFError at the end
        self.stops = [i for i, e in enumerate(events) if e["kind"] == "stmt"]
        self.pos = 0
        self.shown = 0  # the event index up to which the program's output has been shown

    # ---- the loop ----

    def run(self) -> None:
        if not self.stops:
            self.write("программа не выполнила ни одной инструкции\n")
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
                self.write(self.evaluate(rest.strip()) + "\n")
                continue
            if command == "l":
                self.show()
                continue
            if command == "w":
                self.write(_quoted(self._output(0, self.stops[self.pos])) or "программа ещё ничего не напечатала\n")
                continue
            if command == "c":
                moved = self.continue_to(rest.strip())
            else:
                moved = {"n": self.next_over, "s": self.next_into, "o": self.out, "b": self.back}[command]()
            if moved:
                self.show()

    # ---- moving ----

    def _event(self, pos: int | None = None) -> dict:
        return self.events[self.stops[self.pos if pos is None else pos]]

    def _move(self, predicate, message: str) -> bool:
        for p in range(self.pos + 1, len(self.stops)):
            if predicate(p):
                self.pos = p
                return True
        self.write(message + "\n")
        return False

    def next_over(self) -> bool:
        depth = self._event()["depth"]
        return self._move(lambda p: self._event(p)["depth"] <= depth, "программа закончилась")

    def next_into(self) -> bool:
        return self._move(lambda p: True, "программа закончилась")

    def out(self) -> bool:
        depth = self._event()["depth"]
        if depth == 0:
            self.write("это основная программа: выходить некуда\n")
            return False
        return self._move(lambda p: self._event(p)["depth"] < depth, "программа закончилась")

    def back(self) -> bool:
        if self.pos == 0:
            self.write("это первая инструкция\n")
            return False
        self.pos -= 1
        return True

    def continue_to(self, where: str) -> bool:
        if not where:
            self.pos = len(self.stops) - 1
            self.write("до конца программы\n")
            return True
        if where.isdigit():
            line = int(where)
            return self._move(lambda p: self._event(p)["line"] == line, f"строка {line} больше не выполняется")
        start = self.stops[self.pos]
        for i in range(start + 1, len(self.events)):
            e = self.events[i]
            if e["kind"] == "state" and e["to"] == where:
                later = [p for p, index in enumerate(self.stops) if index > i]
                if later:
                    self.pos = later[0]
                    return True
        self.write(f"в состояние {where} программа больше не входит\n")
        return False

    # ---- showing ----

    def _output(self, start: int, end: int) -> str:
        return "".join(e["text"] for e in self.events[start:end] if e["kind"] == "output")

    def show(self) -> None:
        here = self.stops[self.pos]
        if here > self.shown:  # what the statements run since the last stop printed
            self.write(_quoted(self._output(self.shown, here)))
        self.shown = here
        e = self._event()
        state, stack = self._context()
        place = f"шаг {self.pos + 1} из {len(self.stops)} · строка {e['line']} · глубина {e['depth']}"
        if state:
            place += f" · состояние {state}"
        self.write(place + "\n")
        if stack:
            self.write("стек: " + " → ".join(stack) + "\n")
        source = self.sources.get(e["file"])
        if source is None:
            return
        for number in range(max(1, e["line"] - 2), min(len(source.lines), e["line"] + 2) + 1):
            mark = "→" if number == e["line"] else " "
            self.write(f" {mark}{number:>4} | {source.line(number)}\n")

    def _context(self):
        state, stack = None, []
        for e in self.events[:self.stops[self.pos] + 1]:
            if e["kind"] == "state":
                state = e["to"]
            elif e["kind"] == "call":
                stack.append(call_text(printed(e)))
            elif e["kind"] == "return":
                stack.pop()
        return state, stack

    # ---- printing an expression ----

    def values(self) -> tuple[dict, dict, dict, str | None]:
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
                    frames[-1][0][e["name"]] = e["new"]
                else:
                    globals_[e["name"]] = e["new"]
        locals_, definition = frames[-1]
        return globals_, arrays, {k: v for k, v in locals_.items() if v is not None}, definition

    def evaluate(self, text: str) -> str:
        """The value of an expression here, computed by the interpreter on the values the
        program had: the same value, or the same error, as in the program itself."""
        if not text:
            return "напишите выражение: p k + 1"
        try:
            source = Source(text, "<печать>")
            tokens = [t for t in lex(source)[0] if t.type != "_NL"]
            expr = _bound(parse_expression(tokens, source), self.loaded.program)
        except PseudoError as e:
            return "не вычислить: " + e.first.text
        globals_, arrays, locals_, definition = self.values()
        interpreter = Interpreter(self.loaded.program, self.loaded.facts)
        interpreter.globals = globals_
        for name, elements in arrays.items():
            interpreter.arrays.setdefault(name, Массив(name)).update(elements)
        frame = Frame(self.loaded.facts.bodies[definition], locals_, None)
        runtime_io.start_io(io.StringIO(""), io.StringIO())  # a call's output is not the program's
        runtime_limits.start_limits(Limits(max_steps=1_000_000, time_limit=5.0))
        try:
            return show(interpreter.eval(expr, frame))
        except Failure as f:
            return "не вычислить: " + f.text()
        except RecursionError:
            return "не вычислить: слишком глубокая рекурсия"


def _bound(expr, program: n.Program):
    """Names of definitions in an expression typed at the prompt become calls."""
    def fix(node):
        if isinstance(node, n.Var) and node.name in program.definitions:
            return n.Call(node.span, node.name, ())
        if isinstance(node, n.Call) and node.name not in program.definitions:
            raise _Unknown(f"неизвестная процедура или функция {node.name}")
        return node
    return n.rewrite(expr, fix)


def _quoted(text: str) -> str:
    """The program's output, each line marked so that it stands apart from the stepper's own."""
    if not text.strip("\n"):  # only the end of a line left open
        return ""
    return "".join(f"вывод » {line}\n" for line in text.strip("\n").split("\n"))


class _Unknown(PseudoError):
    def __init__(self, text: str):
        from ..errors import Diagnostic
        super().__init__([Diagnostic("error", "stepper", text, None)])
