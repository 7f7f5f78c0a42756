"""The code of one body — a definition, or the main program — statement by statement.

What is fixed for the body is held by its `BodyCode`; what changes within it — the loops around
a statement, the transfers of a state being written — travels down as an explicit `Where`.
"""
from __future__ import annotations

import ast

from .. import nodes as n
from ..analysis import nesting, ref_arguments
from ..analysis.kinds import INT, STR
from ..runtime.names import BOUNDARY, MAIN, RESULT, STEPS
from .automata import AutomatonCode
from .expressions import ExpressionCode
from .structure import CannotStructure, Structurer
from .syntax import (
    assign,
    at,
    attribute,
    call,
    comment,
    entry_position,
    function,
    integer,
    integer_constant,
    name,
    statement,
)

OUTLINE = 12  # a block nested deeper in one Python function becomes a function of its own
SHORT = 8  # a ДЛЯ of constant bounds and at most this many turns lists its values (the fast code)


class Where:
    """What changes while a body is written: the loops around a statement ("endless" for
    ВЫПОЛНЯТЬ … ВЕРНУТЬСЯ, "other" for ПОКА and ДЛЯ, innermost last; reset inside a state
    function), how each transfer of the state being written is rendered (`jumps`: id(Goto or
    Stop) → Jump), and the `depth` of compound statements around, within the Python function
    being written. Never changed: `but` makes another. (Plain classes in the stages every run
    goes through: see frontend/raw.py.)"""
    __slots__ = ("depth", "jumps", "loops")

    def __init__(self, loops: tuple = (), jumps: dict | None = None, depth: int = 0):
        self.loops, self.jumps, self.depth = loops, {} if jumps is None else jumps, depth

    def but(self, loops: tuple | None = None, jumps: dict | None = None, depth: int | None = None) -> Where:
        return Where(self.loops if loops is None else loops, self.jumps if jumps is None else jumps,
                     self.depth if depth is None else depth)


class FunctionScope:
    """What a Python function being written must declare `global`, and whether it counts steps."""

    def __init__(self):
        self.globals: set = set()
        self.counts = False


class BodyCode(ExpressionCode, AutomatonCode):
    """The code of one body: a definition (`key`), or the main program (None)."""

    def __init__(self, gen, key: str | None, arguments: dict | None = None):
        self.gen, self.key = gen, key
        self.arguments = arguments or {}  # a function written out in place: its parameters' code
        self.loop_vars: list[str] = []  # the variables of the ДЛЯ around the statement being written
        self.names, self.kinds = gen.names, gen.kinds
        body = gen.facts.bodies[key]
        self.refs = body.refs
        code = body.code
        self.automaton = gen.facts.automaton(code) if isinstance(code, n.Block) else None
        # Python allows 20 nested loops and 100 levels of indentation: a body nested deeper has
        # its deep blocks written as functions of their own (`outline`), its states as a dispatch
        self.outlined = isinstance(code, n.Block) and nesting(code) > OUTLINE
        self.plan = None
        if self.automaton is not None and not self.outlined:
            try:
                self.plan = Structurer(self.automaton).plan()
            except CannotStructure:
                self.plan = None
        automata = self.automata = gen.facts.body_automata[key]
        self.dispatched = self.outlined or any(a is not self.automaton or self.plan is None for a in automata)
        self.substitutes: dict[int, ast.expr] = {}  # parts of a long chain already computed
        self.outlines: list[ast.stmt] = []  # the functions of deep blocks, defined at the body's top
        self.state_spans = {s.name: s.span for a in automata for s in a.states}
        if key is not None:
            self.locals = set(body.locals)
        else:
            self.locals = set() if self.outlined else set(gen.facts.main_locals)
        self.cells = self._cells(code)  # locals kept in a cell: passed as РЕЗ, or seen by state functions
        gen.cells.update({(key, x): cell for x, cell in self.cells.items()})
        self.scopes = [FunctionScope()]  # the Python function being written, innermost last
        self.calls_counted = False  # inside a short ДЛЯ whose calls of recursive definitions are counted before it

    # ---- the two kinds of body ----

    def definition(self, d: n.Definition) -> ast.FunctionDef:
        entry = [entry_position(x, d.span) for x in self.count_entry(d)]
        cells = [assign(name(py, d.span, ast.Store()), call(self.rt("Ячейка"), [
            ast.Dict(keys=[ast.Constant(self.names.var(x))], values=[name(self.names.var(x), d.span)])
            if x in {p.name for p in d.params} else ast.Dict(keys=[], values=[]),
            ast.Constant(self.names.var(x)), ast.Constant(x)], d.span), d.span) for x, py in self.cells.items()]
        if isinstance(d.body, n.Call):
            body = [at(ast.Return(self.leave(self.call(d.body, value=False), d.body.span)), d.body.span)]
        elif d.is_function:
            body = [at(ast.Return(self.leave(self.expr(d.body, copied=True), d.body.span)), d.body.span)]
        else:
            body = self.body(d.body, Where()) + self.end_of_procedure(d.span, last=True)
        code = function(self.names.defs[d.name], [self.names.var(p.name) for p in d.params],
                        self.declarations() + entry + cells + self.outlines + body)
        return at(code, d.span)

    def main(self) -> ast.FunctionDef:
        self.scopes[-1].globals |= set(self.gen.facts.arrays)
        start = self.count(self.gen.weights.start(), self.gen.program.main.span) if self.gen.weights else []
        body = self.body(self.gen.program.main, Where())
        arrays = [assign(name(self.names.var(a), ctx=ast.Store()), self.new_array(a)) for a in self.gen.facts.arrays]
        note = self.gen.arrays_note() if self.gen.readable else None
        if note:
            arrays.insert(0, comment(note))
        code = function(self.rt(MAIN), [], self.declarations() + arrays + self.outlines + start + body)
        return at(code, self.gen.program.main.span)

    def new_array(self, array: str) -> ast.expr:
        """An empty array (Generator.layout): a list of ПУСТО (rows of rows for several
        indices), a list of rows yet to grow, a dict (of dicts, for several indices), or a
        `Массив`, which names itself in errors."""
        layout = self.gen.layout(array)
        if layout == "array":
            return call(self.rt("Массив"), [ast.Constant(array)])
        if layout in ("dict", "nested"):
            return ast.Dict(keys=[], values=[])
        if layout == "grown":  # rows made as elements are stored (`вырастить`)
            return ast.List(elts=[], ctx=ast.Load())
        sizes = self.gen.list_sizes[array]
        code = ast.BinOp(left=ast.List(elts=[name(self.rt("ПУСТО"))], ctx=ast.Load()), op=ast.Mult(),
                         right=ast.Constant(sizes[-1]))
        for size in reversed(sizes[:-1]):
            loop = ast.comprehension(target=name("_", ctx=ast.Store()), iter=call(self.rt("range"), [ast.Constant(size)]),
                                     ifs=[], is_async=0)
            code = ast.ListComp(elt=code, generators=[loop])
        return code

    def leave(self, value: ast.expr | None, span) -> ast.expr:
        """The value a call gives back, through `выйти` (one level less deep) in the exact code."""
        if self.gen.fast:
            return value if value is not None else ast.Constant(None)
        return call(self.rt("выйти"), [value] if value is not None else [], span)

    def end_of_procedure(self, span, last: bool = False) -> list[ast.stmt]:
        """A procedure's end: its РЕЗУЛЬТАТ, or nothing when it has none (at its last line,
        without `return`)."""
        if RESULT not in self.locals:
            if last:
                return [] if self.gen.fast else [statement(self.leave(None, span), span)]
            value = None
        elif RESULT in self.cells:
            value = at(ast.Call(func=attribute(name(self.cells[RESULT], span), "или_ничего", span), args=[],
                                keywords=[]), span)
        elif self.key in self.gen.facts.may_give_nothing:
            value = at(ast.Call(func=attribute(call(self.rt("locals"), [], span), "get", span),
                                args=[ast.Constant(self.names.var(RESULT))], keywords=[]), span)
        else:
            value = name(self.names.var(RESULT), span)
        return [at(ast.Return(self.leave(value, span)), span)]

    def _cells(self, code) -> dict[str, str]:
        by_ref = set() if self.key is None else {a.name for _, a in ref_arguments(n.walk(code), self.gen.program)}
        kept = (set(self.locals) if self.dispatched else by_ref & self.locals) - self.refs
        owner = "" if self.key is None else self.key  # the main program's cells too
        return {x: self.names.fresh(f"ячейка_{self.names.var(x)}", owner) for x in sorted(kept)}

    def new_scope(self) -> FunctionScope:
        return FunctionScope()

    def declarations(self) -> list[ast.stmt]:
        """`global` for the names the function being written assigns: the program's globals,
        and the fast code's own count of steps."""
        scope = self.scopes[-1]
        names = sorted(self.names.var(x) for x in scope.globals)
        names += [self.rt(BOUNDARY), self.rt(STEPS)] if scope.counts else []
        return [ast.Global(names=names)] if names else []

    def value_params(self) -> set[str]:
        """The parameters of the body being written that surely have a value (a РЕЗ one's place may have none)."""
        return {p.name for p in self.gen.program.definitions[self.key].params if not p.by_ref} if self.key else set()

    # ---- counting steps ----

    def count(self, weight: int, span) -> list[ast.stmt]:
        """The fast code counts `weight` steps at once and looks at the limits when its count
        passes the boundary; the exact code counts one (`шаг()`); the readable code none."""
        if not self.gen.counts or weight == 0:
            return []
        if not self.gen.fast:
            return [statement(call(self.rt("шаг"), [], span), span)]
        self.scopes[-1].counts = True
        steps, boundary = self.rt(STEPS), self.rt(BOUNDARY)
        add = at(ast.AugAssign(target=name(steps, span, ast.Store()), op=ast.Add(),
                               value=ast.Constant(weight)), span)
        passed = ast.Compare(left=name(steps, span), ops=[ast.Gt()], comparators=[name(boundary, span)])
        look = assign(name(boundary, span, ast.Store()), call(self.rt("пределы"), [name(steps, span)], span), span)
        return [add, at(ast.If(test=passed, body=[look], orelse=[]), span)]

    def count_loop(self, s) -> list[ast.stmt]:
        return self.count(self.gen.weights.loop(s) if self.gen.weights else 1, s.span)

    def count_transfer(self, span) -> list[ast.stmt]:
        w = self.gen.weights
        return self.count(1 + sum(w.stmts(st.stmts) for a in self.automata for st in a.states) if w else 1, span)

    def count_entry(self, d: n.Definition) -> list[ast.stmt]:
        """At a definition's entry: the exact code's `войти()`; the fast code counts there only
        the calls of recursive definitions that a body of one expression makes (a call of the
        definition itself its caller counts, and the statements of a body count their own:
        `count_calls`)."""
        if not self.gen.counts:
            return []
        if not self.gen.fast:
            return [statement(call(self.rt("войти"), []))]
        return [] if isinstance(d.body, n.Block) else self.count(self.gen.weights.calls_in(d.body), d.span)

    def count_calls(self, s: n.Stmt) -> tuple[list[ast.stmt], bool]:
        """The fast code's count, before a statement, of the calls of recursive definitions it
        makes; of those its body makes too if it is a short ДЛЯ that makes few (weights.py).
        And whether it did count its body's (whose statements then count none)."""
        w = self.gen.weights
        if w is None or self.calls_counted:
            return [], False
        inside = w.calls_in_loop(s) if isinstance(s, n.For) else 0
        return self.count(w.calls(s) + inside, s.span), inside > 0

    # ---- blocks ----

    def body(self, block: n.Block, where: Where) -> list[ast.stmt]:
        """The body's own block: its automaton, if it has labels, structured if it can be."""
        if self.automaton is None:
            return self.block(block, where)
        if self.plan is not None:
            return self.render(self.plan, where)
        return self.dispatch(self.automaton, where, nested=False)

    def block(self, block: n.Block, where: Where) -> list[ast.stmt]:
        nested = self.gen.facts.automaton(block)
        if nested is not None:
            return self.dispatch(nested, where, nested=True)
        return self.statements(block.stmts, where)

    def statements(self, stmts, where: Where) -> list[ast.stmt]:
        out = []
        for s in stmts:
            out.extend(self.gen.comments_before(s.span))
            out.extend(self.stmt(s, where))
            if isinstance(s, n.Goto | n.Stop | n.Exit):
                break  # what follows a transfer never runs
        return out

    def suite(self, block: n.Block | None, where: Where) -> list[ast.stmt]:
        if block is None:
            return []
        if self.outlined and where.depth >= OUTLINE:
            return self.outline(block, where)
        return self.block(block, where)

    def outline(self, block: n.Block, where: Where) -> list[ast.stmt]:
        """A deeply nested block as a local function; a transfer out of it comes back as the
        label it names, and the state function around it passes the label on."""
        self.scopes.append(FunctionScope())
        body = self.block(block, Where((), where.jumps, 0))
        decls = self.declarations()
        self.scopes.pop()
        fn_name = self.names.fresh("блок")
        self.gen.frames_per_call += 1
        # defined at the top of the body's function, not here: so the indentation does not grow
        self.outlines.append(at(function(fn_name, [], decls + body), block.span))
        if not any(isinstance(x, n.Goto) for x in n.walk(block)):
            return [statement(call(fn_name, []))]
        signal = self.names.fresh("переход")
        return [assign(name(signal, ctx=ast.Store()), call(fn_name, [])),
                ast.If(test=ast.Compare(left=name(signal), ops=[ast.IsNot()], comparators=[ast.Constant(None)]),
                       body=[ast.Return(value=name(signal))], orelse=[])]

    def stmt(self, s: n.Stmt, where: Where) -> list[ast.stmt]:
        counted, whole = self.count_calls(s)
        self.calls_counted |= whole
        code = [x if hasattr(x, "lineno") else at(x, s.span) for x in self.STMT[type(s)](self, s, where)]
        self.calls_counted ^= whole
        return counted + code

    # ---- statements ----

    def _stmt_Assign(self, s: n.Assign, where: Where):
        return [self.store(s.target, self.expr(s.value, copied=True), s.span)]

    def store(self, target: n.Target, value: ast.expr, span) -> ast.stmt:
        if isinstance(target, n.Index):
            return assign(self.element(target, ast.Store()), value, span)
        place = self.variable(target, ast.Store())
        if isinstance(place, ast.Name) and target.name not in self.locals:
            self.scopes[-1].globals.add(target.name)
        return assign(place, value, span)

    def _stmt_CallStmt(self, s: n.CallStmt, where: Where):
        return [statement(self.call(s.call, value=False), s.span)]

    def _stmt_If(self, s: n.If, where: Where):
        inner = where.but(depth=where.depth + 1)
        return [ast.If(test=self.cond(s.cond), body=self.suite(s.then, inner) or [ast.Pass()],
                       orelse=self.suite(s.else_, inner))]

    def _stmt_While(self, s: n.While, where: Where):
        inner = where.but(loops=where.loops + ("other",), depth=where.depth + 1)
        body = self.count_loop(s) + self.suite(s.body, inner)
        endless = self.gen.facts.endless.get(id(s))
        if endless is not None:  # its body done, its condition still holds: it cannot end (analysis/loops.py)
            names = [ast.Constant(x) for x in endless.variables]
            values = [self.expr(n.Var(s.cond.span, x)) for x in endless.variables]
            body.append(statement(call(self.rt("цикл_не_кончится"), [
                ast.Constant(endless.cond), ast.Constant(endless.unchanged), ast.Tuple(elts=names, ctx=ast.Load()),
                ast.Tuple(elts=values, ctx=ast.Load())], s.cond.span), s.cond.span))
        if self.gen.mode == "fast" and self.key is None and not where.loops and len(self.scopes) == 1 \
                and not (body and isinstance(body[-1], ast.Continue | ast.Break | ast.Return | ast.Raise)):
            # CPython 3.11 specialises a function's code once it has been called eight times or
            # has jumped back often; the end of `while` tests and jumps back without counting,
            # so the main program's ПОКА (run once) would never be specialised: `continue` jumps
            # back, counting (the loop of 100,000 turns: 15 % fewer instructions)
            body += [comment("переход назад: так Python 3.11 ускоряет цикл главной программы"), ast.Continue()]
        return [ast.While(test=self.cond(s.cond), body=body or [ast.Pass()], orelse=[])]

    def _stmt_Loop(self, s: n.Loop, where: Where):
        inner = where.but(loops=where.loops + ("endless",), depth=where.depth + 2)
        loop = at(ast.While(test=ast.Constant(True), body=self.count_loop(s) + self.suite(s.body, inner) or [ast.Pass()],
                            orelse=[]), s.span)
        if self.gen.facts.exit_needs_raise(s.body, self.outlined):
            handler = ast.ExceptHandler(type=name(self.rt("Кончено")), name=None, body=[ast.Pass()])
            return [ast.Try(body=[loop], handlers=[handler], orelse=[], finalbody=[])]
        return [loop]

    def _stmt_Exit(self, s: n.Exit, where: Where):
        if where.loops and where.loops[-1] == "endless":
            return [ast.Break()]
        return [ast.Raise(exc=call(self.rt("Кончено"), [], s.span), cause=None)]  # from an inner loop or a state

    def _stmt_For(self, s: n.For, where: Where):
        var = n.Var(s.span, s.var)
        target = self.variable(var, ast.Store())
        through = []
        if not isinstance(target, ast.Name):  # a РЕЗ parameter or a cell: each value goes through it
            # named as the variable itself (the variable lives in the cell, so its name is free): a
            # state that came back lists `j`, not a name of the code's own (runner.FrameReader)
            value = self.names.var(s.var) if s.var in self.cells else self.names.fresh(f"значение_{self.names.var(s.var)}")
            through = [assign(target, name(value, s.span), s.span)]
            target = name(value, s.span, ast.Store())
        elif s.var not in self.locals:
            self.scopes[-1].globals.add(s.var)
        inner = where.but(loops=where.loops + ("other",), depth=where.depth + 1)
        # a short loop of constant bounds counts nothing: its turns are counted with the run around it
        absorbed = self.gen.weights is not None and self.gen.weights.absorbed(s)
        each = [] if absorbed else self.count_loop(s)
        self.loop_vars.append(s.var)
        body = through + each + self.suite(s.body, inner)
        self.loop_vars.pop()
        loop = at(ast.For(target=target, iter=self.progression(s), body=body or [ast.Pass()], orelse=[]), s.span)
        return [loop]

    def progression(self, s: n.For) -> ast.expr:
        """`range(…)` where the bounds are integers (the fast code lists a few constant values),
        else the runtime's `прогрессия`. The stop of `range` is written `stop + 1` (or `- 1`),
        a constant folded: the exact code of a readable file reads the bound back from it."""
        bounds = (s.start, s.stop) + ((s.step,) if s.step else ())
        ints = all(self.kinds.expr(e, self.key) == INT for e in bounds)
        step = s.step.value if isinstance(s.step, n.Const) and type(s.step.value) is int else (1 if s.step is None else 0)
        calls = any(isinstance(x, n.Call) for e in (s.start, s.stop) for x in n.walk(e))
        if ints and step != 0 and not calls:
            start, stop = self.operands([s.start, s.stop])
            bound = ast.BinOp(left=stop, op=ast.Add() if step > 0 else ast.Sub(), right=ast.Constant(1))
            args = [start, _fold(bound)] + ([integer(step)] if step != 1 else [])
            listed = _listed_out(args) if self.gen.fast else None
            return at(listed, s.span) if listed else call(self.rt("range"), args, s.span)
        start, *rest = self.operands([s.start, *([s.step] if s.step is not None else []), s.stop])
        step_expr, stop = rest if s.step is not None else (ast.Constant(1), rest[0])
        return call(self.rt("прогрессия"), [start, step_expr, stop], s.span)

    def _stmt_Print(self, s: n.Print, where: Where):
        keywords = [] if s.newline else [ast.keyword(arg="перевод_строки", value=ast.Constant(False))]
        return [statement(call(self.rt("сообщить"), self.operands(s.args), s.span, keywords), s.span)]

    def _stmt_Read(self, s: n.Read, where: Where):
        # the value is read at the statement: the end of input is reported at ПРОЧЕСТЬ
        reader = {None: "прочесть", INT: "прочесть_целое", STR: "прочесть_строку"}
        return [self.store(t, call(self.rt("прочесть_строку_целиком" if s.whole_line else reader[self.kinds.guards.get(id(t))]),
                                   [ast.Constant(t.span.text())], s.span), t.span) for t in s.targets]

    def _stmt_Screen(self, s: n.Screen, where: Where):
        if s.op == "clear":
            return [statement(call(self.rt("очистить_экран"), [], s.span), s.span)]
        check = "место_курсора" if s.op == "cursor" else "длительность"
        least = 1 if s.op == "cursor" else 0  # a constant that is surely right needs no check
        args = [code if isinstance(a, n.Const) and type(a.value) is int and a.value >= least else
                call(self.rt(check), [code], a.span) for a, code in zip(s.args, self.operands(s.args))]
        return [statement(call(self.rt("курсор" if s.op == "cursor" else "пауза"), args, s.span), s.span)]

    def _stmt_Stop(self, s: n.Stop, where: Where):
        return [statement(call(self.rt("конец_работы"), [], s.span), s.span)]

    def _stmt_Goto(self, s: n.Goto, where: Where):
        return self.jump(where.jumps[id(s)], s.span, where, counted=True)

    def _stmt_Label(self, s: n.Label, where: Where):  # pragma: no cover - blocks with labels are automata
        raise AssertionError("a label outside an automaton")


BodyCode.STMT = n.arms("code, statements", BodyCode, "_stmt_")


def _fold(e: ast.BinOp) -> ast.expr:
    """`8 + 1` → `9` in range bounds, for readability."""
    left = integer_constant(e.left)
    return e if left is None else integer(left + (1 if isinstance(e.op, ast.Add) else -1))


def _listed_out(args: list[ast.expr]) -> ast.Tuple | None:
    """`range(1, 5)` → `(1, 2, 3, 4)` for a short loop of constant bounds: CPython 3.11 makes a
    range object at every start of the loop, and a constant tuple costs nothing to start (peg
    solitaire: 13 % fewer instructions). The values are the same integers."""
    values = [integer_constant(a) for a in args]
    if None in values or any(abs(v) > 2**62 for v in values):  # len() of a range fails past 2**63
        return None
    turns = range(*values)
    return ast.Tuple(elts=[integer(v) for v in turns], ctx=ast.Load()) if 2 <= len(turns) <= SHORT else None
