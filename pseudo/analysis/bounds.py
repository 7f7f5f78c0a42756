"""The bounds of the integers a program computes, and so of the indices of its arrays.

An array of the language has any integers as indices; where every index a program can use lies
between two known bounds, the code generator keeps the array as a Python list (rows of rows
for several indices), which Python indexes fastest. The bounds come from an interval analysis,
the way a compiler proves an index in range:

- every variable, parameter, definition's value and array (its elements) gets the smallest
  interval holding every integer that may be stored in it (a constant; a ДЛЯ variable, between
  its bounds; a sum, a difference, a product of bounded integers; …); anything else — a value
  read, a string, a fraction, a truth value — is unbounded;
- a condition bounds a variable in the code it guards: in `ЕСЛИ k = 8 ТО … ИНАЧЕ HR(k + 1)`
  k is not 8 in the ИНАЧЕ branch, in `x >= 1 И доска[x] = 0` x is at least 1 on the right of
  И; this holds only where nothing in the guarded code may assign the variable;
- a fixed point over the whole program, a body looked at again only when an interval it reads
  has grown; an interval that keeps growing (a counter, a recursion that moves its parameter
  without end) is taken as unbounded after GROWTH widenings.

`Bounds.indices(array)` gives, per index position, the interval of every index used (read,
written or passed as РЕЗ), or None when some position is unbounded.
"""
from __future__ import annotations

from .. import nodes as n
from ..runtime.names import RESULT
from ..runtime.ops import _product_too_big

INF = float("inf")
TOP = (-INF, INF)
GROWTH = 24  # how often an interval may grow before it is taken as unbounded
# The bounds serve list sizes and guards of small integers, so they stay within ±BIG: a bound
# outside is made wider (infinite, or BIG for a lower bound above it). Huge integers would be
# slow to multiply, and one past a float's range times INF raises OverflowError.
BIG = 2 ** 63


def clamped(interval):
    if interval is None:
        return None
    lo, hi = interval
    return (-INF if lo <= -BIG else min(lo, BIG), INF if hi >= BIG else max(hi, -BIG))


def join(a, b):
    if a is None:
        return b
    if b is None:
        return a
    return (min(a[0], b[0]), max(a[1], b[1]))


def meet(a, b):
    """a narrowed by the bounds b (None: a has no value there)."""
    if a is None:
        return None
    lo, hi = max(a[0], b[0]), min(a[1], b[1])
    return (lo, hi) if lo <= hi else None


def _mul(a, b):
    products = [x * y for x in a for y in b if not ({x, y} & {INF, -INF} and 0 in (x, y))]
    if len(products) < 4:  # 0 · ∞: the product of a bounded side and an unbounded one
        return TOP
    return (min(products), max(products))


class Bounds:
    def __init__(self, program: n.Program, assigned: dict[str | None, set[str]]):
        """`assigned`: the globals each definition (and the main program, None) may assign,
        itself or through what it calls."""
        self.program, self.assigned = program, assigned
        self.locals = {key: set(d.locals) for key, d in program.definitions.items()}
        self.table: dict[tuple, tuple] = {}
        self.growth: dict[tuple, int] = {}
        self.used: dict[str, list] | None = None  # array → interval of each index position (the last pass)
        self.factors: dict[int, tuple] = {}  # id of a product `a * b` → the intervals of a and b (the last pass)
        self.writes: dict[int, tuple] = {}  # id of a block or expression → (it, variables it assigns, its calls)
        # a worklist of bodies: one is looked at again when an interval it read has grown
        self.readers: dict[tuple, set] = {}  # a key of the table → the bodies that read it
        self.reading = None  # the body being looked at
        bodies = [None, *program.definitions]  # the main program first: its calls bound the parameters
        pending = dict.fromkeys(bodies)  # an ordered set
        while pending:
            body = next(iter(pending))
            del pending[body]
            self.grown: set = set()
            self._body(body)
            for key in self.grown:
                pending.update(dict.fromkeys(self.readers.get(key, ())))
        self.used = {}
        for body in bodies:
            self._body(body)

    def short_product(self, e: n.Binary) -> bool:
        """Is the product `e` of integers one the size limit never refuses (runtime.ops), its
        factors being bounded?"""
        factors = self.factors.get(id(e))
        if factors is None or any(-INF in f or INF in f for f in factors):
            return False
        left, right = (max(abs(int(lo)), abs(int(hi))).bit_length() for lo, hi in factors)
        return not _product_too_big(left, right)

    def rows(self, array: str) -> list[tuple[int, int]] | None:
        """The bounds of the indices after the first of an array of several, when they are all
        bounded and the first is never negative but has no upper bound (pentomino's `d[о, m]`,
        `о` counting the orientations as they are found); else None."""
        used = (self.used or {}).get(array)
        if used is None or len(used) < 2 or any(b is None for b in used):
            return None
        (lo, hi), rest = used[0], used[1:]
        if lo < 0 or hi != INF or any(-INF in b or INF in b for b in rest):
            return None
        return [(int(lo), int(hi)) for lo, hi in rest]

    def indices(self, array: str) -> list[tuple[int, int]] | None:
        """The bounds of each index position of `array`, or None if one is unbounded."""
        used = (self.used or {}).get(array)
        if used is None or any(b is None or -INF in b or INF in b for b in used):
            return None
        return [(int(lo), int(hi)) for lo, hi in used]

    # ---- the fixed point ----

    def _body(self, key: str | None) -> None:
        """Look at the main program (None) or a definition once."""
        self.reading = key
        if key is None:
            self._block(self.program.main, None, {})
            return
        d = self.program.definitions[key]
        if d.is_function:
            self._merge(("()", key), self._value(d.body, key, {}))
        else:
            self._block(d.body, key, {})
            if RESULT in d.locals:
                self._merge(("()", key), self._read((key, RESULT)))

    def _read(self, key: tuple):
        """The interval at `key`; the body being looked at is looked at again if it grows."""
        self.readers.setdefault(key, set()).add(self.reading)
        return self.table.get(key)

    def _key(self, name: str, scope: str | None) -> tuple:
        return (scope, name) if scope is not None and name in self.locals[scope] else (None, name)

    def _merge(self, key: tuple, value) -> None:
        if value is None or self.used is not None:
            return
        old = self.table.get(key)
        new = join(old, value)
        if new == old:
            return
        count = self.growth[key] = self.growth.get(key, 0) + 1
        if count > GROWTH and old is not None:  # widened: the bound that moved goes
            new = (new[0] if new[0] >= old[0] else -INF, new[1] if new[1] <= old[1] else INF)
        self.table[key] = new
        self.grown.add(key)

    def _store(self, target, value, scope, env) -> None:
        if isinstance(target, n.Index):
            self._indices(target, scope, env)
            self._merge(("[]", target.name), value)
        else:
            self._merge(self._key(target.name, scope), value)

    # ---- statements ----

    def _block(self, block: n.Block, scope, env) -> None:
        for s in block.stmts:
            self._stmt(s, scope, env)

    def _stmt(self, s, scope, env) -> None:
        self.STMT[type(s)](self, s, scope, env)

    def _stmt_Assign(self, s: n.Assign, scope, env) -> None:
        self._store(s.target, self._value(s.value, scope, env), scope, env)

    def _stmt_CallStmt(self, s: n.CallStmt, scope, env) -> None:
        self._value(s.call, scope, env)

    def _stmt_If(self, s: n.If, scope, env) -> None:
        self._value(s.cond, scope, env)
        self._block(s.then, scope, self._refined(s.cond, True, s.then, scope, env))
        if s.else_ is not None:
            self._block(s.else_, scope, self._refined(s.cond, False, s.else_, scope, env))

    def _stmt_While(self, s: n.While, scope, env) -> None:
        self._value(s.cond, scope, env)
        self._block(s.body, scope, self._refined(s.cond, True, s.body, scope, env))

    def _stmt_For(self, s: n.For, scope, env) -> None:
        self._for(s.var, s.start, s.step, s.stop, s.body, scope, env)

    def _stmt_Loop(self, s: n.Loop, scope, env) -> None:
        self._block(s.body, scope, env)

    def _stmt_Print(self, s, scope, env) -> None:
        for a in s.args:
            self._value(a, scope, env)

    def _stmt_Read(self, s: n.Read, scope, env) -> None:
        for t in s.targets:
            self._store(t, TOP, scope, env)

    def _stmt_Exit(self, s, scope, env) -> None:
        pass

    _stmt_Screen = _stmt_Print
    _stmt_Stop = _stmt_Label = _stmt_Goto = _stmt_Exit

    def _for(self, var, start, step, stop, body, scope, env) -> None:
        first, last = self._value(start, scope, env), self._value(stop, scope, env)
        by = self._value(step, scope, env) if step is not None else (1, 1)
        if first is None or last is None or by is None:
            return  # no value reaches it: the loop never runs
        if by[0] > 0:
            values = (first[0], max(first[1], last[1])) if first != TOP and last != TOP else TOP
        elif by[1] < 0:
            values = (min(first[0], last[0]), first[1]) if first != TOP and last != TOP else TOP
        else:
            values = TOP
        self._merge(self._key(var, scope), values)
        inner = env
        if values != TOP and not self._may_assign(var, body, scope):
            inner = {**env, self._key(var, scope): meet(values, (first[0], last[1]) if by[0] > 0 else (last[0], first[1]))
                     or values}
        self._block(body, scope, inner)

    # ---- expressions ----

    def _value(self, e, scope, env):
        """The interval of e's integer values; TOP when unbounded or not an integer; None when
        no value reaches it yet."""
        return self.VALUE[type(e)](self, e, scope, env)

    def _value_Const(self, e: n.Const, scope, env):
        return clamped((e.value, e.value)) if type(e.value) is int else TOP

    def _value_Var(self, e: n.Var, scope, env):
        key = self._key(e.name, scope)
        value = self._read(key)
        return meet(value, env[key]) if key in env and value is not None else value

    def _value_Index(self, e: n.Index, scope, env):
        self._indices(e, scope, env)
        return self._read(("[]", e.name))

    def _value_Call(self, e: n.Call, scope, env):
        return self._call(e, scope, env)

    def _value_BuiltinCall(self, e: n.BuiltinCall, scope, env):
        return clamped(_builtin(e.name, [self._value(a, scope, env) for a in e.args]))

    def _value_Unary(self, e: n.Unary, scope, env):
        v = self._value(e.operand, scope, env)
        return None if v is None else (-v[1], -v[0])

    def _value_Binary(self, e: n.Binary, scope, env):
        a, b = self._value(e.left, scope, env), self._value(e.right, scope, env)
        if e.op == "*" and self.used is not None and a is not None and b is not None:
            old = self.factors.get(id(e), (None, None))
            self.factors[id(e)] = (join(old[0], a), join(old[1], b))
        return clamped(_binary(e.op, a, b))

    def _value_Compare(self, e: n.Compare, scope, env):
        self._value(e.left, scope, env)
        self._value(e.right, scope, env)
        return TOP

    def _value_Logical(self, e: n.Logical, scope, env):
        self._value(e.left, scope, env)
        self._value(e.right, scope, self._refined(e.left, e.op == "И", e.right, scope, env))
        return TOP

    def _value_Not(self, e: n.Not, scope, env):
        self._value(e.operand, scope, env)
        return TOP

    def _value_IfExpr(self, e: n.IfExpr, scope, env):
        self._value(e.cond, scope, env)
        return join(self._value(e.then, scope, self._refined(e.cond, True, e.then, scope, env)),
                    self._value(e.else_, scope, self._refined(e.cond, False, e.else_, scope, env)))

    def _indices(self, e: n.Index, scope, env) -> None:
        values = [self._value(i, scope, env) for i in e.indices]
        if self.used is not None and all(v is not None for v in values):  # None: no value reaches it
            old = self.used.get(e.name)
            self.used[e.name] = values if old is None or len(old) != len(values) else \
                [join(a, b) for a, b in zip(old, values)]

    def _call(self, e: n.Call, scope, env):
        d = self.program.definitions.get(e.name)
        if d is None:
            return TOP
        for arg, param in zip(e.args, d.params):
            value = self._value(arg, scope, env)
            self._merge((e.name, param.name), value)
            if param.by_ref and isinstance(arg, n.Var | n.Index):  # one variable: the parameter's values come back
                self._store(arg, self._read((e.name, param.name)), scope, env)
        return self._read(("()", e.name))

    # ---- conditions ----

    def _refined(self, cond, truth: bool, guarded, scope, env) -> dict:
        """`env` with the bounds `cond` (taken as `truth`) puts on variables that nothing in
        `guarded` (a block or an expression) may assign."""
        found: dict[tuple, tuple] = {}
        self._bounds_of(cond, truth, scope, env, found)
        out = env
        for key, bound in found.items():
            if not self._may_assign(key[1], guarded, scope):
                out = {**out, key: meet(out[key], bound) or bound if key in out else bound}
        return out

    def _bounds_of(self, cond, truth: bool, scope, env, found: dict) -> None:
        match cond:
            case n.Not(operand=operand):
                self._bounds_of(operand, not truth, scope, env, found)
            case n.Logical(op=op, left=left, right=right) if (op == "И") == truth:
                self._bounds_of(left, truth, scope, env, found)
                self._bounds_of(right, truth, scope, env, found)
            case n.Compare(op=op, left=n.Var(name=name), right=right):
                self._compared(name, op, right, truth, scope, env, found)
            case n.Compare(op=op, left=left, right=n.Var(name=name)):
                self._compared(name, FLIPPED[op], left, truth, scope, env, found)

    def _compared(self, name, op, other, truth, scope, env, found) -> None:
        value = self._value(other, scope, env)
        if value is None or value == TOP:
            return
        op = op if truth else NEGATED[op]
        lo, hi = value
        key = self._key(name, scope)
        bound = {"=": (lo, hi), "<": (-INF, hi - 1), "≤": (-INF, hi), ">": (lo + 1, INF), "≥": (lo, INF)}.get(op)
        if bound is None and op == "≠" and lo == hi:  # not one value: a bound that is that value moves
            now = meet(self._read(key), env[key]) if key in env else self._read(key)
            if now is not None and now[1] == lo:
                bound = (-INF, lo - 1)
            elif now is not None and now[0] == lo:
                bound = (lo + 1, INF)
        if bound is not None:
            found[key] = meet(found[key], bound) or bound if key in found else bound

    def _may_assign(self, name: str, root, scope) -> bool:
        """May running `root` assign the variable `name` (of `scope`, or a global)?"""
        if id(root) not in self.writes:
            self.writes[id(root)] = (root, *assigned_by(n.walk(root), self.program.definitions))  # its id stays its own
        _, direct, callees = self.writes[id(root)]
        if name in direct:
            return True
        local = scope is not None and name in self.locals[scope]
        return not local and any(name in self.assigned.get(c, ()) for c in callees)


Bounds.STMT = n.arms("bounds, a statement", Bounds, "_stmt_")
Bounds.VALUE = n.arms("bounds, an expression", Bounds, "_value_")


def assigned_by(nodes, definitions: dict) -> tuple[set[str], set[str]]:
    """The variables `nodes` assign themselves (a target of := or ПРОЧЕСТЬ, a ДЛЯ variable, an
    argument passed as РЕЗ), and the definitions they call."""
    direct, callees = set(), set()
    for x in nodes:
        direct.update(n.assigned(x, definitions, scalars=True))
        if isinstance(x, n.Call) and x.name in definitions:
            callees.add(x.name)
    return direct, callees


FLIPPED = {"=": "=", "≠": "≠", "<": ">", "≤": "≥", ">": "<", "≥": "≤"}
NEGATED = {"=": "≠", "≠": "=", "<": "≥", "≤": ">", ">": "≤", "≥": "<"}


def _binary(op: str, a, b):
    if a is None or b is None:
        return None
    if op == "+":
        return (a[0] + b[0], a[1] + b[1])
    if op == "-":
        return (a[0] - b[1], a[1] - b[0])
    if op == "*":
        return _mul(a, b)
    if op == "ОСТ" and b[0] == b[1] and b[0] > 0:
        return (0, b[0] - 1)
    if op == "ДЕЛ" and b[0] == b[1] and b[0] > 0 and -INF < a[0] and a[1] < INF:
        return (a[0] // b[0], a[1] // b[0])
    return TOP


def _builtin(name: str, values: list):
    if any(v is None for v in values):
        return None
    if name == "СЛУЧАЙНОЕ" and values[0][1] < INF:
        return (1, max(1, values[0][1]))
    if name == "АБС" and values[0] != TOP:
        lo, hi = values[0]
        return (0 if lo <= 0 <= hi else min(abs(lo), abs(hi)), max(abs(lo), abs(hi)))
    if name in ("МИН", "МАКС") and TOP not in values:
        pick = min if name == "МИН" else max
        return (pick(v[0] for v in values), pick(v[1] for v in values))
    return TOP
