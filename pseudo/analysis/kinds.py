"""Kinds of values, inferred statically for the code generator: where the operands of an
operator are surely of kinds for which Python's own operator is exact (the runtime's operator
table says which), the generated code uses it; everywhere else it calls the runtime's checked
function, so that every mode gives the same values and the same errors.

Types form a small lattice: INT < NUM (an integer or an exact fraction), BOOL, STR; any two
different types join to ANY. Every variable, array (its elements), parameter and definition
result gets the join of everything that can be stored in it; a fixed point over the whole
program settles the types of parameters and results.
"""
from __future__ import annotations

from .. import nodes as n
from ..runtime.library import INPUT_ENDED
from ..runtime.names import RESULT
from ..runtime.ops import OPERATORS
from ..runtime.values import is_fraction  # not `fractions` itself: a start does not import it

INT, NUM, BOOL, STR, ANY = "INT", "NUM", "BOOL", "STR", "ANY"


def join(a: str | None, b: str | None) -> str | None:
    if a is None or a == b:
        return b
    if b is None:
        return a
    if {a, b} == {INT, NUM}:
        return NUM
    return ANY


def numeric(t: str | None) -> bool:
    return t in (INT, NUM)


PYTHON_KINDS = {INT: "int", NUM: "num", STR: "str", BOOL: "bool"}  # the runtime's names of the kinds (ops.py)
KINDS_OF_PYTHON = {v: k for k, v in PYTHON_KINDS.items()}
BUILTIN_KINDS = {"СЛУЧАЙНОЕ": INT, "ДЛИНА": INT, "СИМВОЛ": STR, "ПОДСТРОКА": STR, "СТРОКА": STR, "ЧИСЛО": NUM,
                 "ЦЕЛ": INT, "ДЕСЯТИЧНОЕ": STR, "ВИД": STR, INPUT_ENDED: BOOL}


class Kinds:
    """The inferred types. Keys: (scope, name) for scalars, ("[]", name) for arrays,
    ("()", key) for a definition's value; scope is the definition key or None.

    With `guarded` (for the fast code), a value read by ПРОЧЕСТЬ is taken to be of the kind
    its variable's uses need to be fast (`_read_kinds`: a string where it meets a string, an
    integer where it is counted with), and a power of integers to be an integer; `guards` maps
    each target of ПРОЧЕСТЬ so taken to its kind: the fast code checks the value where it
    comes in (`прочесть_целое`, `прочесть_строку`, `степень_целых`) and, if it is of another
    kind, hands over to the exact code, which runs the whole program again. A value only
    printed, stored, passed on or compared for equality is read as it is, unguarded: a word
    typed for a name must not cost a second run."""

    def __init__(self, program: n.Program, guarded: bool = False):
        self.program = program
        self.table: dict[tuple, str | None] = {}
        self.guards: dict[int, str] = {}  # id of a ПРОЧЕСТЬ target → the kind it is taken to be
        self.known: dict[tuple, str | None] = {}  # kinds of expressions asked for, once the table is final
        self.guarding = guarded
        self.checked_reads, checks = _checked_until_integer(program) if guarded else (set(), set())
        self.read_kinds = _read_kinds(program, checks) if guarded else {}
        self.locals = {key: set(d.locals) for key, d in program.definitions.items()}
        self.changed = True
        while self.changed:
            self.changed = False
            for key, d in program.definitions.items():
                self._body(d.body, key)
                if d.is_function:
                    self._merge(("()", key), self._type(d.body, key))
                elif RESULT in d.locals:
                    self._merge(("()", key), self.table.get((key, RESULT)))
            self._body(program.main, None)

    # ---- lookups used by the transpiler ----

    def var(self, name: str, scope: str | None) -> str:
        return self.table.get(self._key(name, scope)) or ANY

    def element(self, name: str) -> str:
        return self.table.get(("[]", name)) or ANY

    def result(self, key: str) -> str:
        return self.table.get(("()", key)) or ANY

    def expr(self, e: n.Expr, scope: str | None) -> str:
        """The expression's type; ANY when it cannot be known."""
        return self._final(e, scope) or ANY

    def _final(self, e: n.Expr, scope: str | None) -> str | None:
        """_type once the table is final, remembered for each part: asked for each operand of
        a chain nested thousands deep, each part is typed once."""
        key = (id(e), scope)
        if key not in self.known:
            self.known[key] = self._type(e, scope, self._final)
        return self.known[key]

    def guarded_power(self, e: n.Expr, scope: str | None) -> bool:
        """Is `e` a power of integers that the fast code takes to be an integer (`степень_целых(…)`:
        a negative exponent makes a fraction, and hands over to the exact code)?"""
        return (self.guarding and isinstance(e, n.Binary) and e.op == "^"
                and self.expr(e.left, scope) == self.expr(e.right, scope) == INT)

    def exact(self, op, operands, scope: str | None) -> bool:
        """Does the Python operator of `op` (a runtime Operator) give the checked value here?"""
        kinds = {self.expr(e, scope) for e in operands}
        return ANY not in kinds and op.python_for({PYTHON_KINDS[k] for k in kinds},
                                                  [e.value for e in operands if isinstance(e, n.Const)])

    def _type(self, e: n.Expr, scope: str | None, part=None) -> str | None:
        """None (no value seen yet) is the bottom of the lattice while the fixed point runs.
        `part`: what types the operands (_final once the table is final)."""
        return self.TYPE[type(e)](self, e, scope, part or self._type)

    def _type_Const(self, e: n.Const, scope, part) -> str:
        v = e.value
        return BOOL if type(v) is bool else INT if type(v) is int else NUM if is_fraction(v) else STR

    def _type_Var(self, e: n.Var, scope, part) -> str | None:
        return self.table.get(self._key(e.name, scope))

    def _type_Index(self, e: n.Index, scope, part) -> str | None:
        return self.table.get(("[]", e.name))

    def _type_Call(self, e: n.Call, scope, part) -> str | None:
        return self.table.get(("()", e.name))

    def _type_BuiltinCall(self, e: n.BuiltinCall, scope, part) -> str | None:
        if e.name in ("АБС", "МИН", "МАКС"):  # of the kind of their arguments
            kinds = [part(a, scope) for a in e.args]
            if any(k is None for k in kinds):
                return None
            joined = kinds[0]
            for k in kinds[1:]:
                joined = join(joined, k)
            return joined if joined in (INT, NUM) or e.name != "АБС" and joined == STR else ANY
        return BUILTIN_KINDS[e.name]

    def _type_Unary(self, e: n.Unary, scope, part) -> str | None:
        t = part(e.operand, scope)
        return t if t is None or numeric(t) else ANY

    def _type_Binary(self, e: n.Binary, scope, part) -> str | None:
        a, b = part(e.left, scope), part(e.right, scope)
        if a is None or b is None:
            return None
        if e.op == "^" and a == b == INT and self.guarding:
            return INT  # taken to be an integer: see guarded_power
        right = e.right
        natural = isinstance(right, n.Const) and type(right.value) is int and right.value >= 0
        gives = OPERATORS[e.op].gives
        kind = gives.get((PYTHON_KINDS.get(a), "natural" if natural else None)) \
            or gives.get((PYTHON_KINDS.get(a), PYTHON_KINDS.get(b)))
        return KINDS_OF_PYTHON.get(kind, ANY)

    def _boolean(self, e, scope, part) -> str:
        return BOOL

    _type_Compare = _type_Logical = _type_Not = _boolean

    def _type_IfExpr(self, e: n.IfExpr, scope, part) -> str | None:
        return join(part(e.then, scope), part(e.else_, scope))

    # ---- the fixed point ----

    def _key(self, name: str, scope: str | None) -> tuple:
        return (scope, name) if scope is not None and name in self.locals[scope] else (None, name)

    def _merge(self, key: tuple, t: str | None) -> None:
        old = self.table.get(key)
        new = join(old, t)
        if new != old:
            self.table[key] = new
            self.changed = True

    def _target_key(self, target: n.Target, scope: str | None) -> tuple:
        return ("[]", target.name) if isinstance(target, n.Index) else self._key(target.name, scope)

    def _store(self, target: n.Target, t: str | None, scope: str | None) -> None:
        self._merge(self._target_key(target, scope), t)

    def _body(self, body, scope: str | None) -> None:
        for node in n.walk(body):
            self.STORE[type(node)](self, node, scope)

    def _store_Assign(self, node: n.Assign, scope) -> None:
        self._store(node.target, self._type(node.value, scope), scope)

    def _store_Read(self, node: n.Read, scope) -> None:
        for t in node.targets:
            self._store(t, STR if node.whole_line else self._read(t), scope)

    def _store_For(self, node: n.For, scope) -> None:
        parts = [self._type(node.start, scope), self._type(node.stop, scope)]
        parts.append(self._type(node.step, scope) if node.step is not None else INT)
        if any(p is None for p in parts):
            return
        t = INT if all(p == INT for p in parts) else NUM if all(numeric(p) for p in parts) else ANY
        self._merge(self._key(node.var, scope), t)

    def _store_Call(self, node: n.Call, scope) -> None:
        if node.name in self.program.definitions:
            self._call(node.name, node.args, scope)

    def _stores_nothing(self, node, scope) -> None:
        pass  # no value stored

    _store_Block = _store_Const = _store_Var = _store_Index = _store_BuiltinCall = _store_Unary = _store_Binary = \
        _store_Compare = _store_Logical = _store_Not = _store_IfExpr = _store_CallStmt = _store_If = _store_While = \
        _store_Loop = _store_Exit = _store_Print = _store_Screen = _store_Stop = _store_Label = _store_Goto = _stores_nothing

    def _read(self, target: n.Target) -> str:
        if id(target) in self.checked_reads:
            return INT  # read again until it is an integer (_checked_until_integer): it needs no guard
        kind = self.read_kinds.get(target.name)
        if kind is None:
            return ANY
        self.guards[id(target)] = kind
        return kind

    def _call(self, name: str, args, scope: str | None) -> None:
        for arg, param in zip(args, self.program.definitions[name].params):
            pkey = (name, param.name)
            self._merge(pkey, self._type(arg, scope))
            if param.by_ref and isinstance(arg, n.Var | n.Index):
                # by reference: the argument and the parameter are one variable
                self._store(arg, self.table.get(pkey), scope)


Kinds.TYPE = n.arms("kinds, an expression", Kinds, "_type_")
Kinds.STORE = n.arms("kinds, what a node stores", Kinds, "_store_")


ORDER = ("<", "≤", ">", "≥")


def _read_kinds(program: n.Program, checks: set[int]) -> dict[str, str]:
    """The kind worth guarding a value read into each variable or array as: STR where it meets
    a string constant in a `+` or an order comparison; INT where it is counted with — an
    operand of arithmetic or of an order comparison, a bound of ДЛЯ, an index. A name that
    ВИД is asked of (but in `checks`, the ids of the tests of _checked_until_integer) is never
    guarded: the program itself checks what was typed there."""
    strings, integers, checked = set(), set(), set()

    def names(*exprs) -> set[str]:
        return {x.name for x in exprs if isinstance(x, n.Var | n.Index)}

    for root in n.bodies(program):
        for node in n.walk(root):
            if isinstance(node, n.Binary) or isinstance(node, n.Compare) and node.op in ORDER:
                sides = (node.left, node.right)
                meets_string = any(isinstance(x, n.Const) and type(x.value) is str for x in sides)
                (strings if meets_string else integers).update(names(*sides))
            elif isinstance(node, n.Unary):
                integers |= names(node.operand)
            elif isinstance(node, n.For):
                integers |= names(node.start, node.stop, node.step)
            elif isinstance(node, n.Index):
                integers |= names(*node.indices)
            elif isinstance(node, n.BuiltinCall) and node.name == "ВИД" and id(node) not in checks:
                checked |= names(*node.args)
    kinds = dict.fromkeys(integers - checked, INT)
    kinds.update(dict.fromkeys(strings - checked, STR))
    return kinds


def _checked_until_integer(program: n.Program) -> tuple[set[int], set[int]]:
    """The language reference's way to read an integer: `ПРОЧЕСТЬ x`, then `ПОКА ВИД(x) ≠
    'целое' ВЫПОЛНЯТЬ … ПРОЧЕСТЬ x … ВЕРНУТЬСЯ`, the loop doing nothing else with x than asking
    ВИД of it, printing it, making it a string (СТРОКА) and reading it again, and calling
    nothing that might. x is an integer wherever the program counts with it, so it is one, with
    no guard: a word typed there is told and read again, not a reason to run the exact code.
    The ids of those reads' targets, and of the ВИД calls of their loops' tests."""
    reads, checks = set(), set()
    for root in n.bodies(program):
        for block in n.walk(root):
            if not isinstance(block, n.Block):
                continue
            for before, loop in zip(block.stmts, block.stmts[1:]):
                test = _integer_test(loop)
                if test is None or not isinstance(before, n.Read) or before.whole_line:
                    continue
                name = test.args[0].name
                first = [t for t in before.targets if isinstance(t, n.Var) and t.name == name]
                again = _reads_only(loop.body, name)
                if first and again is not None:
                    reads |= {id(t) for t in first + again}
                    checks.add(id(test))
    return reads, checks


def _integer_test(loop) -> n.BuiltinCall | None:
    """The call `ВИД(x)` of a loop `ПОКА ВИД(x) ≠ 'целое'`, x a variable."""
    if not isinstance(loop, n.While) or not isinstance(loop.cond, n.Compare) or loop.cond.op != "≠":
        return None
    sides = (loop.cond.left, loop.cond.right)
    calls = [x for x in sides if isinstance(x, n.BuiltinCall) and x.name == "ВИД" and len(x.args) == 1
             and isinstance(x.args[0], n.Var)]
    return calls[0] if calls and any(isinstance(x, n.Const) and x.value == "целое" for x in sides) else None


def _reads_only(body: n.Block, name: str) -> list[n.Var] | None:
    """The targets reading `name` again in `body`, if it only reads it, prints it, asks ВИД of
    it or makes it a string, and calls nothing of the program; else None."""
    reads, harmless = [], set()
    for node in n.walk(body):
        if isinstance(node, n.Call | n.CallStmt | n.Label | n.Goto):
            return None
        if isinstance(node, n.Read) and not node.whole_line:
            reads += [t for t in node.targets if isinstance(t, n.Var) and t.name == name]
        arguments = node.args if isinstance(node, n.Print) or isinstance(node, n.BuiltinCall) \
            and node.name in ("ВИД", "СТРОКА") else ()
        harmless |= {id(a) for a in arguments if isinstance(a, n.Var)}
    uses = [x for x in n.walk(body) if isinstance(x, n.Var | n.Index) and x.name == name]
    return reads if reads and all(id(x) in harmless or x in reads for x in uses) else None
