"""Pure expressions compiled to one Python function each, for the interpreter.

An expression without calls and РЕЗ parameters has no side effects, so it may be evaluated
twice. The generated function computes the common case inline — integers, strings and
logical values, elements whose index is an integer that is in the array — and gives up on
anything else (an unset variable, a fraction, a missing element, division by zero) by calling
the interpreter's ordinary closure for the same expression, which evaluates it again and
reports the error exactly as always. So the generated code never decides an error itself.
"""
from __future__ import annotations

from . import nodes as n
from .runtime import UNSET

MIN_NODES = 2  # a constant or a variable alone gains nothing over its closure


class _NotPure(Exception):
    pass


class _GiveUp(Exception):
    """Raised by generated code: leave this evaluation to the closure."""


GIVE_UP = "(_GiveUp, KeyError)"  # what the generated code's handler catches: a missing element is a KeyError
ARITH = {"+": "+", "-": "-", "*": "*", "ДЕЛ": "//", "ОСТ": "%"}
COMPARE = {"=": "==", "≠": "!=", "<": "<", "≤": "<=", ">": ">", "≥": ">="}


def compile_pure(e: n.Expr, locals_: dict, ref_params: set, global_slot, array, slow):
    """A function fr → value for `e`, or None when `e` is not pure or too small to gain."""
    if sum(1 for _ in n.walk(e)) < MIN_NODES:
        return None
    gen = _Generator(locals_, ref_params, global_slot, array)
    try:
        result = gen.checked(gen.expr(e, 1), 1)
    except _NotPure:
        return None
    lines = ["def fast(fr):", "    try:"] + gen.lines + [f"        return {result}",
                                                        f"    except {GIVE_UP}:", "        return slow(fr)"]
    namespace = {"_GiveUp": _GiveUp, "UNSET": UNSET, "G": gen.globals_list, "slow": slow, **gen.arrays}
    try:
        exec("\n".join(lines), namespace)  # noqa: S102 - the text is generated above, from the tree
    except (SyntaxError, RecursionError, MemoryError):  # e.g. И nested past Python's 100 indent levels
        return None
    return namespace["fast"]


class _Generator:
    def __init__(self, locals_, ref_params, global_slot, array):
        self.locals, self.ref_params, self.global_slot, self.array = locals_, ref_params, global_slot, array
        self.lines: list[str] = []
        self.count = 0
        self.arrays: dict[str, object] = {}
        self.array_names: dict[str, str] = {}
        self.globals_list = None
        self.bound: dict[str, str] = {}  # a parameter of an inlined function → its argument's temporary
        self.ints: set[str] = set()  # temporaries known to hold an integer: no type test needed
        self.raw: set[str] = set()  # variables read but not yet known to be set (a type test tells)
        self.cache: dict = {}  # a variable or an element read once per expression: it cannot change inside

    def region(self) -> None:
        """A new expression: nothing read before is known any more."""
        self.ints, self.raw, self.cache = set(), set(), {}

    def temp(self) -> str:
        self.count += 1
        return f"t{self.count}"

    def emit(self, depth: int, text: str) -> None:
        self.lines.append("    " * (depth + 1) + text)

    def expr(self, e, depth: int) -> str:
        """Statements computing `e` into a temporary (or a literal); returns its name."""
        match e:
            case n.Const(value=v) if type(v) in (int, str, bool):
                t = self.temp()  # a name, not a literal: `5 is not True` would be a SyntaxWarning
                self.emit(depth, f"{t} = {v!r}")
                if type(v) is int:
                    self.ints.add(t)
                return t
            case n.Var(name=name):
                return self.var(name, depth)
            case n.Index(name=name, indices=indices):
                return self.index(name, indices, depth)
            case n.Unary(operand=operand):
                a = self.expr(operand, depth)
                t = self.temp()
                self.require_ints([a], depth)
                self.emit(depth, f"{t} = -{a}")
                self.ints.add(t)
                return t
            case n.Binary(op=op, left=left, right=right) if op in ARITH:
                a, b = self.expr(left, depth), self.expr(right, depth)
                t = self.temp()
                self.require_ints([a, b], depth)
                if op in ("ДЕЛ", "ОСТ"):
                    self.emit(depth, f"if {b} == 0: raise _GiveUp")
                self.emit(depth, f"{t} = {a} {ARITH[op]} {b}")
                self.ints.add(t)
                return t
            case n.Compare(op=op, left=left, right=right):
                a, b = self.expr(left, depth), self.expr(right, depth)
                t = self.temp()
                if a in self.ints or b in self.ints:  # then both must be integers
                    self.require_ints([a, b], depth)
                else:  # integers or strings, both of one kind
                    self.emit(depth, f"if type({a}) is not type({b}) or type({a}) is not int and type({a}) is not str: "
                                     "raise _GiveUp")
                    self.raw -= {a, b}
                self.emit(depth, f"{t} = {a} {COMPARE[op]} {b}")
                return t
            case n.Logical(op=op, left=left, right=right):
                t = self.temp()
                a = self.expr(left, depth)
                self.require_logical(a, depth)
                self.emit(depth, f"{t} = {a}")
                self.emit(depth, f"if {t} is {'True' if op == 'И' else 'False'}:")
                known = set(self.ints), set(self.raw), dict(self.cache)
                b = self.expr(right, depth + 1)
                self.require_logical(b, depth + 1)
                self.emit(depth + 1, f"{t} = {b}")
                self.ints, self.raw, self.cache = known  # what the right side learnt holds only there
                return t
            case n.Not(operand=operand):
                a = self.expr(operand, depth)
                t = self.temp()
                self.require_logical(a, depth)
                self.emit(depth, f"{t} = not {a}")
                return t
        raise _NotPure

    def require_ints(self, names: list[str], depth: int) -> None:
        tests = [f"type({x}) is not int" for x in dict.fromkeys(names) if x not in self.ints]
        if tests:
            self.emit(depth, f"if {' or '.join(tests)}: raise _GiveUp")
        self.ints |= set(names)
        self.raw -= set(names)

    def require_logical(self, name: str, depth: int) -> None:
        self.emit(depth, f"if {name} is not True and {name} is not False: raise _GiveUp")
        self.raw.discard(name)

    def checked(self, name: str, depth: int) -> str:
        """The expression's value: a variable read alone must still be tested for being set."""
        if name in self.raw:
            self.emit(depth, f"if {name} is UNSET: raise _GiveUp")
            self.raw.discard(name)
        return name

    def var(self, name: str, depth: int) -> str:
        if name in self.bound:
            return self.bound[name]
        if name in self.ref_params:
            raise _NotPure
        if name in self.cache:
            return self.cache[name]
        t = self.temp()
        if name in self.locals:
            self.emit(depth, f"{t} = fr[{self.locals[name]}]")
        else:
            slot, self.globals_list = self.global_slot(name)
            self.emit(depth, f"{t} = G[{slot}]")
        self.raw.add(t)  # UNSET: the type test of whatever uses it gives up, or `checked`
        self.cache[name] = t
        return t

    def index(self, name: str, indices, depth: int) -> str:
        keys = [self.expr(i, depth) for i in indices]
        key = keys[0] if len(keys) == 1 else "(" + ", ".join(keys) + ")"
        if (name, key) in self.cache:  # read before in this expression, its key tested then
            return self.cache[name, key]
        t = self.temp()
        self.require_ints(keys, depth)  # ИСТИНА is not 1
        self.emit(depth, f"{t} = {self.array_name(name)}[{key}]")  # a missing element: KeyError, as _GiveUp
        self.cache[name, key] = t
        return t

    def array_name(self, name: str) -> str:
        """The generated code's name for the array `name`."""
        if name not in self.array_names:
            self.array_names[name] = f"A{len(self.arrays)}"
            self.arrays[self.array_names[name]] = self.array(name)
        return self.array_names[name]
