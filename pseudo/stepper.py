"""`pseudo step`: an interactive stepper in the terminal, over a recorded trace.

The program runs first with a tracer that records its events (its standard input comes from
`--input`); then the user moves through the statements: next, into, out, continue to a line or
a state, back, print an expression. Stepping back is moving back in the recording.
"""
from __future__ import annotations

from fractions import Fraction

from . import nodes as n
from .errors import PseudoError
from .parser import lex, parse_expression
from .runtime import arith, compare, negate, power, show, truth
from .source import Source
from .views import call_text

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
    def __init__(self, events: list[dict], sources: dict, main_file: str, write, read):
        self.events = events
        self.sources = sources
        self.main_file = main_file
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
                stack.append(call_text(e))
            elif e["kind"] == "return":
                stack.pop()
        return state, stack

    # ---- printing an expression ----

    def values(self) -> tuple[dict, dict]:
        """Globals and the current frame's locals, as the program had them here."""
        globals_, frames = {}, [{}]
        for e in self.events[:self.stops[self.pos]]:
            if e["kind"] == "call":
                frames.append(dict(zip(e["params"], e["args"])))
            elif e["kind"] == "return":
                frames.pop()
            elif e["kind"] == "assign":
                key = e["name"] if not e.get("index") else (e["name"], tuple(e["index"]))
                (frames[-1] if e.get("local") else globals_)[key] = e["new"]
        return globals_, frames[-1]

    def evaluate(self, text: str) -> str:
        if not text:
            return "напишите выражение: p k + 1"
        try:
            source = Source(text, "<печать>")
            tokens = [t for t in lex(source)[0] if t.type != "_NL"]
            expr = parse_expression(tokens, source)
            globals_, locals_ = self.values()
            return show(_Evaluator(globals_, locals_).eval(expr))
        except PseudoError as e:
            return "не вычислить: " + e.first.text
        except _Unknown as e:
            return f"не вычислить: {e}"


def _quoted(text: str) -> str:
    """The program's output, each line marked so that it stands apart from the stepper's own."""
    if not text.strip("\n"):  # only the end of a line left open
        return ""
    return "".join(f"вывод » {line}\n" for line in text.strip("\n").split("\n"))


class _Unknown(Exception):
    pass


def _value(text: str):
    if text == "ИСТИНА":
        return True
    if text == "ЛОЖЬ":
        return False
    try:
        return int(text)
    except ValueError:
        pass
    try:
        return Fraction(text)
    except (ValueError, ZeroDivisionError):
        return text


class _Evaluator:
    """Expressions over the recorded values (no calls: they would have to run the program)."""

    def __init__(self, globals_: dict, locals_: dict):
        self.globals, self.locals = globals_, locals_

    def eval(self, e):
        match e:
            case n.Const(value=v):
                return v
            case n.Var(name=name):
                for scope in (self.locals, self.globals):
                    if name in scope:
                        return _value(scope[name])
                raise _Unknown(f"переменная {name} здесь ещё не получила значения")
            case n.Index(name=name, indices=indices):
                key = (name, tuple(show(self.eval(i)) for i in indices))
                if key not in self.globals:
                    raise _Unknown(f"элемент {name}[{', '.join(key[1])}] здесь ещё не получил значения")
                return _value(self.globals[key])
            case n.Unary(operand=operand):
                return negate(self.eval(operand))
            case n.Binary(op=op, left=left, right=right):
                a, b = self.eval(left), self.eval(right)
                return power(a, b) if op == "^" else arith(op, a, b)
            case n.Compare(op=op, left=left, right=right):
                return compare(op, self.eval(left), self.eval(right))
            case n.Logical(op=op, left=left, right=right):
                a = truth(self.eval(left), None, op)
                if a is (op == "ИЛИ"):
                    return a
                return truth(self.eval(right), None, op)
            case n.Not(operand=operand):
                return not truth(self.eval(operand), None, "НЕ")
            case n.IfExpr(cond=cond, then=then, else_=else_):
                return self.eval(then) if truth(self.eval(cond)) else self.eval(else_)
        raise _Unknown("вызовы процедур при просмотре не вычисляются")
