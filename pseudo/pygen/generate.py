"""The code generator: the resolved tree becomes Python `ast` — the only code generator.

Every generated node carries the position of the construct it comes from (columns in UTF-8
bytes), so that code compiled in memory reports errors at the program's own places, and an
emitted file can map its positions back (emit.py).

What each operation does is the runtime's: where the kinds of the operands are known (the
analysis) and the runtime's operator table says Python's operator is exact for them, the code
uses it; elsewhere it calls the runtime's checked function. Automata become structured loops
(structure.py) or, failing that, a dispatch loop over one function per state.

Each body (a definition, or the main program) is written by its own `BodyCode`, which holds
what is fixed for the body; what changes within it — the loops around a statement, the
transfers of a state being written — travels down as an explicit `Where`.
"""
from __future__ import annotations

import ast
import functools

from .. import nodes as n
from ..analysis import RESULT, Facts
from ..analysis.automaton import END, FINAL, Automaton, own_transfers
from ..analysis.kinds import BOOL, INT, STR
from ..frontend.source import Span
from ..runtime import API
from ..runtime.ops import NEGATION, OPERATORS
from .counts import BOUNDARY, COUNTING, STEPS, counted_in_locals, merge_counts
from .elements import ElementsOutOfLoops, shared_arrays, write_summaries
from .hoist import hoisted, integer_constant
from .inline import Inlining
from .names import MAIN, Names
from .rows import rows_out_of_loops
from .structure import CannotStructure, Jump, Loop, StateCode, Structurer
from .weights import Weights

COMMENT = "__pseudo_comment__"
# The attribute of a definition nested in the exact code that names the file it comes from (the
# positions of an emitted file are found per file; the exact code is one function of them all).
SOURCE_FILE = "pseudo_source_file"
OUTLINE = 12  # a block nested deeper in one Python function becomes a function of its own
CHAIN = 40  # a chain of operations longer than this is computed in parts (`(t := …, …)[-1]`)
WRITTEN_OUT = "pseudo_written_out"  # marks a function's code written out in place of a call: it keeps its places


# ---- building nodes ----

def at(node, span: Span | None):
    """Give a generated node the position of the program text it comes from."""
    if span is not None:
        col, end_col = span.utf8_columns()
        node.lineno, node.col_offset = span.line, col
        node.end_lineno, node.end_col_offset = span.end_line, end_col
    return node


def entry_position(node, span: Span):
    """Column 1 of a definition's header, zero wide: an error there is reported at the call."""
    node.lineno, node.col_offset, node.end_lineno, node.end_col_offset = span.line, 0, span.line, 0
    return node


def name(id_: str, span=None, ctx=None):
    return at(ast.Name(id=id_, ctx=ctx or ast.Load()), span)


def call(func: str, args, span=None, keywords=()):
    return at(ast.Call(func=name(func, span), args=list(args), keywords=list(keywords)), span)


def statement(value: ast.expr, span=None) -> ast.stmt:
    return at(ast.Expr(value), span)


def assign(target: ast.expr, value: ast.expr, span=None) -> ast.stmt:
    return at(ast.Assign(targets=[target], value=value), span)


def attribute(value: ast.expr, attr: str, span=None, ctx=None):
    return at(ast.Attribute(value=value, attr=attr, ctx=ctx or ast.Load()), span)


def function(name_: str, params: list[str], body: list[ast.stmt]) -> ast.FunctionDef:
    args = ast.arguments(posonlyargs=[], args=[ast.arg(arg=p) for p in params], kwonlyargs=[], kw_defaults=[],
                         defaults=[])
    fn = ast.FunctionDef(name=name_, args=args, body=body or [ast.Pass()], decorator_list=[], returns=None)
    if "type_params" in ast.FunctionDef._fields:  # Python 3.12+
        fn.type_params = []
    return fn


def comment(text: str) -> ast.stmt:
    """A comment travels through the tree as a call of a marker name; emit.py writes it as `#`
    lines, and code compiled in memory drops it (`strip_comments`)."""
    return ast.Expr(ast.Call(func=ast.Name(id=COMMENT, ctx=ast.Load()), args=[ast.Constant(text)], keywords=[]))


def is_comment(s) -> bool:
    return (isinstance(s, ast.Expr) and isinstance(s.value, ast.Call) and isinstance(s.value.func, ast.Name)
            and s.value.func.id == COMMENT)


class _StripComments(ast.NodeTransformer):
    def generic_visit(self, node):
        super().generic_visit(node)
        for field_ in ("body", "orelse", "finalbody"):
            stmts = getattr(node, field_, None)
            if isinstance(stmts, list) and stmts and isinstance(stmts[0], ast.stmt):
                kept = [s for s in stmts if not is_comment(s)]
                setattr(node, field_, kept or ([ast.Pass()] if field_ == "body" else []))
        return node


def strip_comments(module: ast.Module) -> ast.Module:
    return _StripComments().visit(module)


# ---- the program ----

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


class Generator:
    """The program's Python: its definitions and главная, by source file."""

    def __init__(self, program: n.Program, facts: Facts, main_file: str, limits: bool = True,
                 fast: bool = True, names: Names | None = None):
        self.program, self.facts, self.main_file = program, facts, main_file
        self.limits = limits  # count steps for the limits and Ctrl-C (and, in the exact code, calls)
        self.fast = fast
        self.kinds = facts.guarded_kinds if fast else facts.kinds
        self.weights = Weights(program, facts) if fast and limits else None
        self.names = names or Names(program)
        self.comments = sorted(program.comments, key=lambda c: (c.span.filename, c.span.line))
        self.cells: dict[tuple, str] = {}  # (definition, local) → the cell that holds it
        self.frames_per_call = 2  # the definition's frame, and one for a runtime helper it calls
        # the fast code's arrays: plain dicts (one index) or rows of rows (several), by name
        self.plain_arrays = _index_counts(program) if fast else {}
        self.inlining = Inlining(program) if fast else None
        self.inlined: dict[tuple, str] = {}  # program place of a written-out node → its function's Python name

    def parts(self) -> dict[str, list[ast.stmt]]:
        """The program's statements, by source file: the definitions, then главная; each
        comment before the statement it precedes, the rest at the end of their file."""
        parts: dict[str, list[ast.stmt]] = {self.main_file: []}
        written = []  # (its file, the comments before it, its BodyCode, the function, its owner)
        for key, d in self.program.definitions.items():
            before = self.comments_before(d.span)
            code = BodyCode(self, key)
            written.append((d.span.filename, before, code, code.definition(d), key))
        before = self.comments_before(self.program.main.span)
        code = BodyCode(self, None)
        written.append((self.main_file, before, code, code.main(), ""))
        if self.fast:
            self.take_out_of_loops([(code, fn) for _, _, code, fn, _ in written])
        for file, before, _, fn, owner in written:
            parts.setdefault(file, []).extend(before + [self.counted(fn, owner)])
        for c in self.comments:  # after the last statement of their file
            parts.setdefault(c.span.filename, []).append(comment(c.text))
        self.comments = []
        return parts

    def take_out_of_loops(self, written: list[tuple[BodyCode, ast.FunctionDef]]) -> None:
        """Reads that stay the same during a loop, made once before it, in place: elements of
        one-index arrays that nothing in the loop can write (pygen/elements.py), then rows of
        arrays of several indices (pygen/rows.py)."""
        functions = [fn for _, fn in written]
        plain = {self.names.var(a) for a, indices in self.plain_arrays.items() if indices == 1}
        arrays = plain - shared_arrays(functions, plain)
        summaries = write_summaries(functions, arrays)
        by_name = {fn.name: fn for fn in functions}
        for code, fn in written:
            code.take_out_of_loops(fn, arrays, summaries, by_name)

    def counted(self, fn: ast.FunctionDef, owner: str) -> ast.FunctionDef:
        """A function of the fast code with its counts of steps made cheaper (pygen.counts)."""
        merge_counts(fn)
        if self.limits:
            counted_in_locals(fn, lambda base: self.names.fresh(base, owner), _calls_that_do_not_count())
        return fn

    def checked_main(self, name_: str) -> ast.FunctionDef:
        """The whole program assuming nothing of its input, as one function: its definitions
        nested, the variables a first run left forgotten, then главная (no comments)."""
        self.comments = []
        defs = []
        for key, d in self.program.definitions.items():
            defs.append(BodyCode(self, key).definition(d))
            setattr(defs[-1], SOURCE_FILE, d.span.filename)
        main = BodyCode(self, None).main()
        names = ast.Tuple(elts=[ast.Constant(x) for x in sorted(self.names.vars.values())], ctx=ast.Load())
        forget = statement(call("забыть", [call("globals", []), names]))
        run = statement(call(MAIN, []))
        return function(name_, [], [forget] + defs + [main, run])

    def comments_before(self, span: Span | None) -> list[ast.stmt]:
        if span is None:
            return []
        taken = [c for c in self.comments if c.span.filename == span.filename and c.span.line < span.line]
        for c in taken:
            self.comments.remove(c)
        return [comment(c.text) for c in taken]


class BodyCode:
    """The code of one body: a definition (`key`), or the main program (None)."""

    def __init__(self, gen: Generator, key: str | None, arguments: dict | None = None):
        self.gen, self.key = gen, key
        self.arguments = arguments or {}  # a function written out in place: its parameters' code
        self.loop_vars: list[str] = []  # the variables of the ДЛЯ around the statement being written
        self.names, self.kinds = gen.names, gen.kinds
        body = gen.facts.bodies[key]
        self.refs = body.refs
        code = body.code
        self.automaton = gen.facts.automaton(code) if isinstance(code, n.Block) else None
        self.plan = None
        if self.automaton is not None:
            try:
                self.plan = Structurer(self.automaton).plan()
            except CannotStructure:
                self.plan = None
        automata = self.automata = gen.facts.body_automata[key]
        # Python allows 20 nested loops and 100 levels of indentation: a body nested deeper has
        # its deep blocks written as functions of their own (`outline`), its states as a dispatch
        self.outlined = isinstance(code, n.Block) and _nesting(code) > OUTLINE
        if self.outlined:
            self.plan = None
        self.dispatched = self.outlined or any(a is not self.automaton or self.plan is None for a in automata)
        self.substitutes: dict[int, ast.expr] = {}  # parts of a long chain already computed
        self.outlines: list[ast.stmt] = []  # the functions of deep blocks, defined at the body's top
        self.state_spans = {s.name: s.span for a in automata for s in a.states}
        self.locals = set(body.locals) if key is not None else self._main_locals()
        self.cells = self._cells(code)  # locals kept in a cell: passed as РЕЗ, or seen by state functions
        gen.cells.update({(key, x): cell for x, cell in self.cells.items()})
        self.scopes = [FunctionScope()]  # the Python function being written, innermost last
        self.calls_counted = False  # inside a short ДЛЯ whose calls of recursive definitions are counted before it

    # ---- the two kinds of body ----

    def definition(self, d: n.Definition) -> ast.FunctionDef:
        entry = [entry_position(x, d.span) for x in self.count_entry(d)]
        cells = [assign(name(py, d.span, ast.Store()), call("Ячейка", [
            ast.Dict(keys=[ast.Constant(self.names.var(x))], values=[name(self.names.var(x), d.span)])
            if x in {p.name for p in d.params} else ast.Dict(keys=[], values=[]),
            ast.Constant(self.names.var(x)), ast.Constant(x)], d.span), d.span) for x, py in self.cells.items()]
        if isinstance(d.body, n.Call):
            body = [at(ast.Return(self.leave(self.call(d.body, value=False), d.body.span)), d.body.span)]
        elif d.is_function:
            body = [at(ast.Return(self.leave(self.expr(d.body), d.body.span)), d.body.span)]
        else:
            body = self.body(d.body, Where()) + self.end_of_procedure(d.span, last=True)
        code = function(self.names.defs[d.name], [self.names.var(p.name) for p in d.params],
                        self.declarations() + entry + cells + self.outlines + body)
        return at(code, d.span)

    def take_out_of_loops(self, fn: ast.FunctionDef, arrays: set[str], summaries: dict, by_name: dict) -> None:
        """The fast code reads an element of a one-index array, or a row of an array of several
        indices, once, before the loops in which it stays the same (Generator.take_out_of_loops)."""
        own = {self.names.var(x) for x in self.locals - set(self.cells) - set(self.refs)}
        params = {self.names.var(p) for p in self.value_params()} & own
        placed = {}
        if not any(isinstance(x, ast.FunctionDef | ast.Lambda) for s in fn.body for x in ast.walk(s)):
            placed = ElementsOutOfLoops(fn, self.names.fresh, arrays, summaries, by_name, params, own).placed
        rows = {self.names.var(a) for a, indices in self.gen.plain_arrays.items() if indices > 1}
        rows_out_of_loops(fn, self.names.fresh, rows, params, own, placed)

    def main(self) -> ast.FunctionDef:
        arrays = [assign(name(self.names.var(a), ctx=ast.Store()), self.new_array(a)) for a in self.gen.facts.arrays]
        self.scopes[-1].globals |= set(self.gen.facts.arrays)
        start = self.count(self.gen.weights.start(), self.gen.program.main.span) if self.gen.weights else []
        body = self.body(self.gen.program.main, Where())
        return at(function(MAIN, [], self.declarations() + arrays + self.outlines + start + body), self.gen.program.main.span)

    def new_array(self, array: str) -> ast.expr:
        """An empty array: in the fast code a plain dict, or rows of rows for several indices
        (`Строки`); in the exact code, or where the array is used with different numbers of
        indices, a `Массив`, keyed by an integer or a tuple, which names itself in errors."""
        indices = self.gen.plain_arrays.get(array)
        if indices is None:
            return call("Массив", [ast.Constant(array)])
        if indices == 1:
            return ast.Dict(keys=[], values=[])
        return call("Строки", [ast.Constant(indices - 2)] if indices > 2 else [])

    def leave(self, value: ast.expr | None, span) -> ast.expr:
        """The value a call gives back, through `выйти` (one level less deep) in the exact code."""
        if not self.gen.limits or self.gen.fast:
            return value if value is not None else ast.Constant(None)
        return call("выйти", [value] if value is not None else [], span)

    def end_of_procedure(self, span, last: bool = False) -> list[ast.stmt]:
        """A procedure's end: its РЕЗУЛЬТАТ, or nothing when it has none (at its last line,
        without `return`)."""
        if RESULT not in self.locals:
            if last:
                return [statement(self.leave(None, span), span)] if self.gen.limits and not self.gen.fast else []
            value = None
        elif RESULT in self.cells:
            value = at(ast.Call(func=attribute(name(self.cells[RESULT], span), "или_ничего", span), args=[],
                                keywords=[]), span)
        elif self.key in self.gen.facts.may_give_nothing:
            value = at(ast.Call(func=attribute(call("locals", [], span), "get", span),
                                args=[ast.Constant(self.names.var(RESULT))], keywords=[]), span)
        else:
            value = name(self.names.var(RESULT), span)
        return [at(ast.Return(self.leave(value, span)), span)]

    def _main_locals(self) -> set[str]:
        """Variables only the main program touches are locals of главная: faster, and no
        `global` lines. Not those passed as РЕЗ (their cells are on the module's globals),
        and none when the main program has labels (its state functions share its variables)."""
        program = self.gen.program
        if self.outlined or any(isinstance(x, n.Label) for x in n.walk(program.main)):
            return set()
        elsewhere = set()
        for d in program.definitions.values():
            for x in n.walk(d.body):
                if isinstance(x, n.Var | n.Index) and x.name not in d.locals:
                    elsewhere.add(x.name)
                elif isinstance(x, n.For) and x.var not in d.locals:
                    elsewhere.add(x.var)
        by_ref = {a.name for _, a in _ref_arguments(program.main, program)}
        targets = {id(t) for x in n.walk(program.main) if isinstance(x, n.Assign | n.Read)
                   for t in ([x.target] if isinstance(x, n.Assign) else x.targets)}
        read = {x.name for x in n.walk(program.main) if isinstance(x, n.Var) and id(x) not in targets}
        loop_vars = {x.var for x in n.walk(program.main) if isinstance(x, n.For)}
        mine = {x.name for x in n.walk(program.main) if isinstance(x, n.Var)} | loop_vars
        # a variable only ever assigned stays global: a local that nothing reads is dead code
        return (mine & (read | loop_vars)) - elsewhere - by_ref

    def _cells(self, code) -> dict[str, str]:
        by_ref = set() if self.key is None else {a.name for _, a in _ref_arguments(code, self.gen.program)}
        kept = (set(self.locals) if self.dispatched else by_ref & self.locals) - self.refs
        owner = "" if self.key is None else self.key  # the main program's cells too
        return {x: self.names.fresh(f"ячейка_{self.names.var(x)}", owner) for x in sorted(kept)}

    def declarations(self) -> list[ast.stmt]:
        """`global` for the names the function being written assigns: the program's globals,
        and the fast code's own count of steps (`счёт_шагов`, `рубеж`)."""
        scope = self.scopes[-1]
        names = sorted(self.names.var(x) for x in scope.globals) + ([BOUNDARY, STEPS] if scope.counts else [])
        return [ast.Global(names=names)] if names else []

    # ---- counting steps ----

    def count(self, weight: int, span) -> list[ast.stmt]:
        """The fast code counts `weight` steps at once and looks at the limits when its count
        passes the boundary; the exact code counts one (`шаг()`); nothing without limits."""
        if not self.gen.limits or weight == 0:
            return []
        if not self.gen.fast:
            return [statement(call("шаг", [], span), span)]
        self.scopes[-1].counts = True
        add = at(ast.AugAssign(target=name(STEPS, span, ast.Store()), op=ast.Add(),
                               value=ast.Constant(weight)), span)
        passed = ast.Compare(left=name(STEPS, span), ops=[ast.Gt()], comparators=[name(BOUNDARY, span)])
        look = assign(name(BOUNDARY, span, ast.Store()), call("пределы", [name(STEPS, span)], span), span)
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
        if not self.gen.limits:
            return []
        if not self.gen.fast:
            return [statement(call("войти", []))]
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

    # ---- blocks and statements ----

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
        method = getattr(self, "_stmt_" + type(s).__name__)
        code = [x if hasattr(x, "lineno") else at(x, s.span) for x in method(s, where)]
        self.calls_counted ^= whole
        return counted + code

    def _stmt_Assign(self, s: n.Assign, where: Where):
        return [self.store(s.target, self.expr(s.value), s.span)]

    def store(self, target: n.Target, value: ast.expr, span) -> ast.stmt:
        if isinstance(target, n.Index):
            return assign(self.element(target, ast.Store()), value, span)
        place = self.variable(target, ast.Store())
        if isinstance(place, ast.Name) and target.name not in self.locals:
            self.scopes[-1].globals.add(target.name)
        return assign(place, value, span)

    def variable(self, v: n.Var, ctx) -> ast.expr:
        """A variable as Python reads or writes it: a name, or the value of a cell."""
        if v.name in self.refs:
            return attribute(name(self.names.var(v.name), v.span), "значение", v.span, ctx)
        if v.name in self.cells:
            return attribute(name(self.cells[v.name], v.span), "значение", v.span, ctx)
        return name(self.names.var(v.name), v.span, ctx)

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
            body.append(statement(call("цикл_не_кончится", [
                ast.Constant(endless.cond), ast.Constant(endless.unchanged), ast.Tuple(elts=names, ctx=ast.Load()),
                ast.Tuple(elts=values, ctx=ast.Load())], s.cond.span), s.cond.span))
        if self.gen.fast and self.key is None and not where.loops and len(self.scopes) == 1 \
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
        if _exit_needs_raise(s.body, self.gen.facts, self.outlined):
            handler = ast.ExceptHandler(type=name("Кончено"), name=None, body=[ast.Pass()])
            return [ast.Try(body=[loop], handlers=[handler], orelse=[], finalbody=[])]
        return [loop]

    def _stmt_Exit(self, s: n.Exit, where: Where):
        if where.loops and where.loops[-1] == "endless":
            return [ast.Break()]
        return [ast.Raise(exc=call("Кончено", [], s.span), cause=None)]  # from an inner loop or a state

    def _stmt_For(self, s: n.For, where: Where):
        var = n.Var(s.span, s.var)
        target = self.variable(var, ast.Store())
        through = []
        if not isinstance(target, ast.Name):  # a РЕЗ parameter or a cell: each value goes through it
            value = self.names.fresh(f"значение_{self.names.var(s.var)}")
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
        if not self.gen.fast:
            return [loop]
        arrays = {self.names.var(a) for a in self.gen.plain_arrays}
        bound = {self.names.var(v) for v in self.value_params() | set(self.loop_vars)}
        return hoisted(loop, self.names.fresh, arrays, bound)

    def value_params(self) -> set[str]:
        """The parameters of the body being written that surely have a value (a РЕЗ one's place may have none)."""
        return {p.name for p in self.gen.program.definitions[self.key].params if not p.by_ref} if self.key else set()

    def progression(self, s: n.For) -> ast.expr:
        bounds = (s.start, s.stop) + ((s.step,) if s.step else ())
        ints = all(self.kinds.expr(e, self.key) == INT for e in bounds)
        step = s.step.value if isinstance(s.step, n.Const) and type(s.step.value) is int else (1 if s.step is None else 0)
        calls = any(isinstance(x, n.Call) for e in (s.start, s.stop) for x in n.walk(e))
        if ints and step != 0 and not calls:
            start, stop = self.expr(s.start), self.expr(s.stop)
            bound = ast.BinOp(left=stop, op=ast.Add() if step > 0 else ast.Sub(), right=ast.Constant(1))
            args = [start, _fold(bound)] + ([integer(step)] if step != 1 else [])
            listed = _listed_out(args)
            return at(listed, s.span) if listed else call("range", args, s.span)
        step_expr = self.expr(s.step) if s.step is not None else ast.Constant(1)
        return call("прогрессия", [self.expr(s.start), step_expr, self.expr(s.stop)], s.span)

    def _stmt_Print(self, s: n.Print, where: Where):
        keywords = [] if s.newline else [ast.keyword(arg="перевод_строки", value=ast.Constant(False))]
        return [statement(call("сообщить", [self.expr(a) for a in s.args], s.span, keywords), s.span)]

    def _stmt_Read(self, s: n.Read, where: Where):
        # the value is read at the statement: the end of input is reported at ПРОЧЕСТЬ
        reader = {None: "прочесть", INT: "прочесть_целое", STR: "прочесть_строку"}
        return [self.store(t, call("прочесть_строку_целиком" if s.whole_line else reader[self.kinds.guards.get(id(t))],
                                   [ast.Constant(t.span.text())], s.span), t.span) for t in s.targets]

    def _stmt_Screen(self, s: n.Screen, where: Where):
        if s.op == "clear":
            return [statement(call("очистить_экран", [], s.span), s.span)]
        check = "место_курсора" if s.op == "cursor" else "длительность"
        args = [call(check, [self.expr(a)], a.span) for a in s.args]  # an error is the argument's
        return [statement(call("курсор" if s.op == "cursor" else "пауза", args, s.span), s.span)]

    def _stmt_Stop(self, s: n.Stop, where: Where):
        return [statement(call("конец_работы", [], s.span), s.span)]

    def _stmt_Goto(self, s: n.Goto, where: Where):
        return self.jump(where.jumps[id(s)], s.span, where, counted=True)

    def _stmt_Label(self, s: n.Label, where: Where):  # pragma: no cover - blocks with labels are automata
        raise AssertionError("a label outside an automaton")

    # ---- automata ----

    def render(self, plan: list, where: Where, counted: bool = True) -> list[ast.stmt]:
        """A structured plan (structure.py) as loops, `continue` and `break`."""
        out: list[ast.stmt] = []
        for item in plan:
            if isinstance(item, Loop):
                out.append(comment(f"состояние {item.state}: цикл"))
                body = self.render(item.body, where)
                while body and isinstance(body[-1], ast.Continue):
                    body.pop()
                # a transfer back to the head ends the body: its count stays, the `continue` goes
                out.append(ast.While(test=ast.Constant(True), body=body or [ast.Pass()], orelse=[]))
                out.extend(self.render(item.after, where, counted=False))  # the `break` counted the step
            elif isinstance(item, StateCode):
                out.append(comment(f"состояние {item.state}"))
                # a state copied into several places has other jumps in each copy
                state_where = where.but(jumps=item.jumps)
                out.extend(self.statements(item.stmts, state_where))
                if item.fall is not None:
                    out.extend(self.jump(item.fall, None, where, counted=False))
            else:
                out.extend(self.jump(item, None, where, counted=counted))
        return out

    def jump(self, j: Jump, span, where: Where, counted: bool) -> list[ast.stmt]:
        step = self.count_transfer(self.state_spans.get(j.target)) if counted and j.kind not in ("final", "end") \
            else []
        if j.kind == "continue":
            return step + [ast.Continue()]
        if j.kind == "break":
            return step + [ast.Break()]
        if j.kind == "final":
            return [statement(call("конец_работы", [], span), span)]
        if j.kind == "end":
            return self.end_of_procedure(span) if self.key is not None else [ast.Return(value=None)]
        if j.kind == "return":  # from a state function of a dispatch loop
            if j.target == FINAL:
                return [statement(call("конец_работы", [], span), span)]
            return step + [ast.Return(value=ast.Constant(None if j.target == END else j.target))]
        return step + self.render(j.plan, where)

    def dispatch(self, a: Automaton, where: Where, nested: bool) -> list[ast.stmt]:
        """The fallback for any automaton: one function per state, returning the name of the
        state to run next (None at the end); a dispatch loop calls them. A transfer to a label
        outside a nested automaton ends its loop, and the state function around it passes the
        label on."""
        self.gen.frames_per_call = max(self.gen.frames_per_call, 2 + _dispatch_depth(a, self.gen.facts))
        functions, table = [], []
        for state in a.states:
            jumps = {id(t): Jump("return", t.label if isinstance(t, n.Goto) else FINAL)
                     for t in own_transfers(state.stmts)}
            self.scopes.append(FunctionScope())
            body = self.statements(state.stmts, Where((), jumps)) if state.stmts else []
            fall = next((e.target for e in state.edges if e.kind == "fall"), None)
            if fall is not None:
                body.append(ast.Return(value=ast.Constant(None if fall == END else fall)))
            decls = self.declarations()
            self.scopes.pop()
            fn_name = self.names.fresh(f"состояние_{state.name}")
            functions.append(at(function(fn_name, [], decls + body), state.span))
            table.append((state.name, fn_name))
        states = ast.Dict(keys=[ast.Constant(s) for s, _ in table], values=[name(f) for _, f in table])
        current = name("состояние")
        test = (ast.Compare(left=current, ops=[ast.In()], comparators=[name("состояния")]) if nested else
                ast.Compare(left=current, ops=[ast.IsNot()], comparators=[ast.Constant(None)]))
        run = ast.Assign(targets=[name("состояние", ctx=ast.Store())], value=ast.Call(
            func=ast.Subscript(value=name("состояния"), slice=current, ctx=ast.Load()), args=[], keywords=[]))
        out = functions + [ast.Assign(targets=[name("состояния", ctx=ast.Store())], value=states),
                           ast.Assign(targets=[name("состояние", ctx=ast.Store())], value=ast.Constant(a.entry)),
                           ast.While(test=test, body=[run], orelse=[])]
        if nested and _leaves(a):  # a transfer to an outer label: the enclosing state function passes it on
            out.append(ast.If(test=ast.Compare(left=name("состояние"), ops=[ast.IsNot()],
                                               comparators=[ast.Constant(None)]),
                              body=[ast.Return(value=name("состояние"))], orelse=[]))
        return out

    # ---- expressions ----

    def cond(self, e: n.Expr) -> ast.expr:
        value = self.expr(e)
        if self.kinds.expr(e, self.key) == BOOL:
            return value
        return call("условие", [value], e.span)

    def expr(self, e: n.Expr) -> ast.expr:
        if id(e) in self.substitutes:
            return at(name(self.substitutes[id(e)].id), e.span)
        spine = _left_spine(e, self.substitutes)
        if len(spine) > CHAIN:
            return at(self.chain(spine), e.span)
        code = getattr(self, "_expr_" + type(e).__name__)(e)
        return code if getattr(code, WRITTEN_OUT, False) else at(code, e.span)

    def chain(self, spine: list) -> ast.expr:
        """A long chain computed in parts, left to right, each part named as it is computed:
        `(t1 := a + b + …, t2 := t1 + …, …, t2 + … + z)[-1]` — the order of evaluation is
        the chain's own, and no part nests deeper than Python's parser allows."""
        parts = []
        for cut in spine[CHAIN::CHAIN][::-1]:  # from the innermost part out
            value = at(getattr(self, "_expr_" + type(cut).__name__)(cut), cut.span)
            temp = self.names.fresh("часть")
            parts.append(at(ast.NamedExpr(target=name(temp, cut.span, ast.Store()), value=value), cut.span))
            self.substitutes[id(cut)] = name(temp)
        root = spine[0]
        parts.append(at(getattr(self, "_expr_" + type(root).__name__)(root), root.span))
        last = at(ast.UnaryOp(op=ast.USub(), operand=ast.Constant(1)), root.span)
        return ast.Subscript(value=at(ast.Tuple(elts=parts, ctx=ast.Load()), root.span), slice=last, ctx=ast.Load())

    def _expr_Const(self, e: n.Const):
        v = e.value
        if type(v) is int and v < 0:
            return at(integer(v), e.span)
        if type(v) not in (int, str, bool):  # a fraction
            return call("дробь", [ast.Constant(v.numerator), ast.Constant(v.denominator)], e.span)
        return ast.Constant(v)

    def _expr_Var(self, e: n.Var):
        if e.name in self.arguments:
            return self.arguments[e.name]()
        return self.variable(e, ast.Load())

    def _expr_Index(self, e: n.Index):
        return self.element(e, ast.Load())

    def element(self, e: n.Index, ctx) -> ast.expr:
        """An element: `a[k]` or `a[i, j]` of a `Массив`, `a[i][j]` of rows of rows."""
        array = name(self.names.var(e.name), e.span)
        if e.name not in self.gen.plain_arrays:
            return at(ast.Subscript(value=array, slice=self.key_of(e), ctx=ctx), e.span)
        rows, last = self.row_of(e)
        return at(ast.Subscript(value=rows, slice=last, ctx=ctx), e.span)

    def row_of(self, e: n.Index) -> tuple[ast.expr, ast.expr]:
        """The last level of an array of the fast code that holds the element, and its key
        there: (`a[i]`, `j`) for `a[i, j]`."""
        rows = name(self.names.var(e.name), e.span)
        keys = [self.expr(i) if self.kinds.expr(i, self.key) == INT else call("целый_индекс", [self.expr(i)], i.span)
                for i in e.indices]
        for k in keys[:-1]:
            rows = at(ast.Subscript(value=rows, slice=k, ctx=ast.Load()), e.span)
        return rows, keys[-1]

    def key_of(self, e: n.Index) -> ast.expr:
        """The index of an element of a `Массив`; checked by `индекс` unless surely integers."""
        parts = [self.expr(i) for i in e.indices]
        key = parts[0] if len(parts) == 1 else ast.Tuple(elts=parts, ctx=ast.Load())
        if all(self.kinds.expr(i, self.key) == INT for i in e.indices):
            return key
        return call("индекс", [key, name(self.names.var(e.name), e.span)], e.span)

    def _expr_Call(self, e: n.Call):
        code = self.call(e, value=True)
        if e.name in self.gen.facts.may_give_nothing:
            return call("значение", [code, ast.Constant(e.name)], e.span)
        return code

    def call(self, e: n.Call, value: bool) -> ast.expr:
        d = self.gen.program.definitions[e.name]
        plan = None
        if value and self.gen.inlining:
            plan = self.gen.inlining.plan(e, self.locals | set(self.arguments), self.value_params() | set(self.loop_vars))
        if plan is not None:
            return self.inline(e, d, plan)
        args = [self.cell(a) if p.by_ref else self.expr(a) for a, p in zip(e.args, d.params)]
        return at(ast.Call(func=name(self.names.defs[e.name], e.span), args=args, keywords=[]), e.span)

    def inline(self, e: n.Call, d: n.Definition, plan: dict[str, str]) -> ast.expr:
        """The function's expression in place of its call (inline.py); each parameter stands
        for its argument's code, a named argument read after its first use."""
        arguments = {}
        for param, arg in zip(d.params, e.args):
            if plan[param.name] == "named":
                arguments[param.name] = self.named_once(arg, self.names.fresh(f"{self.names.var(param.name)}_"))
            else:
                arguments[param.name] = lambda arg=arg: self.expr(arg)
        code = BodyCode(self.gen, e.name, arguments).expr(d.body)
        python = self.names.defs[e.name]
        # an error in the function's nodes, or in its arguments (evaluated in the order the
        # expression uses them, not from left to right), is the exact code's to report
        self.gen.inlined.update({place_of(x.span): python for root in (d.body, *e.args) for x in n.walk(root)})
        setattr(code, WRITTEN_OUT, True)
        return code

    def named_once(self, arg: n.Expr, temp: str):
        """The code of an argument: `(temp := …)` where it is first used, `temp` after."""
        used = []

        def code():
            if used:
                return name(temp, arg.span)
            used.append(True)
            return at(ast.NamedExpr(target=name(temp, arg.span, ast.Store()), value=self.expr(arg)), arg.span)
        return code

    def cell(self, a: n.Expr) -> ast.expr:
        """A РЕЗ argument: the cell of a variable or an array element."""
        span = a.span
        if isinstance(a, n.Index) and a.name in self.gen.plain_arrays:
            return call("Ячейка", [*self.row_of(a), ast.Constant(None)], span)
        if isinstance(a, n.Index):
            return call("Ячейка", [name(self.names.var(a.name), span), self.key_of(a), ast.Constant(a.name)], span)
        if a.name in self.refs:  # passed on: the same cell
            return name(self.names.var(a.name), span)
        if a.name in self.cells:
            return name(self.cells[a.name], span)
        return call("Ячейка", [call("globals", [], span), ast.Constant(self.names.var(a.name)),
                               ast.Constant(a.name)], span)

    def _expr_BuiltinCall(self, e: n.BuiltinCall):
        function = "ввод_кончился" if e.name == "ввод кончился" else e.name
        return call(function, [self.expr(a) for a in e.args], e.span)

    def _expr_Unary(self, e: n.Unary):
        operand = self.expr(e.operand)
        if self.kinds.exact(NEGATION, [e.operand], self.key):
            return ast.UnaryOp(op=ast.USub(), operand=operand)
        return call(NEGATION.function.__name__, [operand], e.span)

    def _expr_Binary(self, e: n.Binary):
        op = OPERATORS[e.op]
        left, right = self.expr(e.left), self.expr(e.right)
        if self.kinds.guarded_power(e, self.key):  # a power of integers, taken to be an integer
            return call("степень_целых", [left, right], e.span)
        if not self.kinds.exact(op, [e.left, e.right], self.key):
            return call(op.function.__name__, [left, right], e.span)
        if op.comparison:
            return ast.Compare(left=left, ops=[getattr(ast, op.python)()], comparators=[right])
        return ast.BinOp(left=left, op=getattr(ast, op.python)(), right=right)

    _expr_Compare = _expr_Binary

    def _expr_Logical(self, e: n.Logical):
        parts = []
        for side in (e.left, e.right):
            value = self.logical_operand(side, e.op)
            same = isinstance(side, n.Logical) and side.op == e.op and isinstance(value, ast.BoolOp)
            parts.extend(value.values if same and side is e.left else [value])
        return ast.BoolOp(op=ast.Or() if e.op == "ИЛИ" else ast.And(), values=parts)

    def logical_operand(self, e: n.Expr, op: str) -> ast.expr:
        value = self.expr(e)
        if self.kinds.expr(e, self.key) == BOOL:
            return value
        return call("логическое", [value, ast.Constant(op)], e.span)

    def _expr_Not(self, e: n.Not):
        return ast.UnaryOp(op=ast.Not(), operand=self.logical_operand(e.operand, "НЕ"))

    def _expr_IfExpr(self, e: n.IfExpr):
        return ast.IfExp(test=self.cond(e.cond), body=self.expr(e.then), orelse=self.expr(e.else_))


# ---- facts about the tree that only the generator needs ----

@functools.cache
def _calls_that_do_not_count() -> frozenset[str]:
    """What a loop that counts its steps in a local may call: Python's builtins, the runtime's
    functions, except those that count, and the marker of a comment."""
    import builtins
    return frozenset(dir(builtins)) | frozenset(API) - COUNTING | {COMMENT}


def _ref_arguments(root, program: n.Program):
    """(call, argument) for every variable passed as РЕЗ under `root`."""
    for x in n.walk(root):
        if isinstance(x, n.Call) and x.name in program.definitions:
            for a, p in zip(x.args, program.definitions[x.name].params):
                if p.by_ref and isinstance(a, n.Var):
                    yield x, a


def place_of(span: Span) -> tuple:
    return (span.filename, span.line, span.column, span.end_line, span.end_column)


def _index_counts(program: n.Program) -> dict[str, int]:
    """Each array always used with the same number of indices, and that number."""
    counts: dict[str, set] = {}
    for root in n.bodies(program):
        for x in n.walk(root):
            if isinstance(x, n.Index):
                counts.setdefault(x.name, set()).add(len(x.indices))
    return {array: min(c) for array, c in counts.items() if len(c) == 1}


def _exit_needs_raise(body: n.Block, facts: Facts, outlined: bool) -> bool:
    """Does a КОНЧЕНО of this endless loop stand where `break` cannot reach the loop: inside
    an inner ПОКА or ДЛЯ, in a state function of a block with labels, or in a block written
    as a function of its own (`outlined`)?"""
    def search(block: n.Block, inside: bool) -> bool:
        inside = inside or facts.automaton(block) is not None
        for s in block.stmts:
            if isinstance(s, n.Exit) and inside:
                return True
            if isinstance(s, n.Loop):
                continue  # its КОНЧЕНО are its own
            deeper = inside or isinstance(s, n.While | n.For)
            if any(search(b, deeper) for b in n.blocks(s)):
                return True
        return False
    return search(body, outlined)


def _nesting(block: n.Block) -> int:
    """How deep the Python code of a block nests compound statements."""
    deepest = 0
    for s in block.stmts:
        extra = 2 if isinstance(s, n.Loop) else 1
        for inner in n.blocks(s):
            deepest = max(deepest, extra + _nesting(inner))
    return deepest


def _left_spine(e, computed: dict) -> list:
    """The operations down the left side of a chain `a + b - c * …`, the outermost first, up
    to a part already computed."""
    spine = []
    while isinstance(e, n.Binary | n.Compare) and id(e) not in computed:
        spine.append(e)
        e = e.left
    return spine


def _leaves(a: Automaton) -> bool:
    """Does some transfer of the automaton name a label it does not have?"""
    names = {s.name for s in a.states}
    return any(isinstance(t, n.Goto) and t.label not in names for s in a.states for t in own_transfers(s.stmts))


def _dispatch_depth(a: Automaton, facts: Facts) -> int:
    """How many state functions deep the automaton's code can go (its own, and nested ones)."""
    deepest = 0
    for state in a.states:
        for s in state.stmts:
            for x in n.walk(s):
                if isinstance(x, n.Block) and facts.automaton(x) is not None:
                    deepest = max(deepest, _dispatch_depth(facts.automaton(x), facts))
    return 1 + deepest


def _fold(e: ast.BinOp) -> ast.expr:
    """`8 + 1` → `9` in range bounds, for readability."""
    left = integer_constant(e.left)
    return e if left is None else integer(left + (1 if isinstance(e.op, ast.Add) else -1))


SHORT = 8  # a ДЛЯ of constant bounds and at most this many turns lists its values


def _listed_out(args: list[ast.expr]) -> ast.Tuple | None:
    """`range(1, 5)` → `(1, 2, 3, 4)` for a short loop of constant bounds: CPython 3.11 makes a
    range object at every start of the loop, and a constant tuple costs nothing to start (peg
    solitaire: 13 % fewer instructions). The values are the same integers."""
    values = [integer_constant(a) for a in args]
    if None in values or any(abs(v) > 2**62 for v in values):  # len() of a range fails past 2**63
        return None
    turns = range(*values)
    return ast.Tuple(elts=[integer(v) for v in turns], ctx=ast.Load()) if 2 <= len(turns) <= SHORT else None


def integer(value: int) -> ast.expr:
    """An integer as Python writes it: a negative one is `-` applied to a constant."""
    return ast.UnaryOp(op=ast.USub(), operand=ast.Constant(-value)) if value < 0 else ast.Constant(value)
