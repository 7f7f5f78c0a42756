"""The transpiler: the resolved tree becomes a Python `ast.Module`.

Every generated node carries the position of the pseudo construct it comes from (columns in
UTF-8 bytes), so that `compile()` with the program's filename gives tracebacks that point
into the .pseudo file; `ast.unparse` is used only to show the Python (`pseudo py`).

The emitted module is standalone: it carries, once, the helpers of runtime.py and prelude.py
that it uses. Where static types (infer.py) show both operands to be integers, strings or
booleans, it uses Python's operators; elsewhere the checked helpers, so that both
implementations give the same values and the same errors. Automata become structured loops
(structure.py) or, failing that, a dispatch over state functions.
"""
from __future__ import annotations

import ast
import builtins
import functools
import keyword
import re
from dataclasses import dataclass, field
from pathlib import Path

from . import nodes as n
from . import runtime
from .automaton import END, FINAL, build, own_transfers
from .infer import BOOL, INT, STR, Types
from .messages import KINDS, MESSAGES
from .phrases import parse_pattern
from .source import Span
from .structure import CannotStructure, Jump, Loop, StateCode, Structurer

RESULT = "РЕЗУЛЬТАТ"
MAIN = "главная"
COMMENT = "__pseudo_comment__"
COMMENT_EOL = "__pseudo_comment_eol__"
PY_OPS = {"+": ast.Add, "-": ast.Sub, "*": ast.Mult, "ДЕЛ": ast.FloorDiv, "ОСТ": ast.Mod}
PY_CMP = {"=": ast.Eq, "≠": ast.NotEq, "<": ast.Lt, "≤": ast.LtE, ">": ast.Gt, "≥": ast.GtE}


# ---- the pool of helpers that can be copied into an emitted module ----

@dataclass
class Helper:
    name: str
    source: str
    uses: set[str]
    order: int


@functools.cache
def pool() -> dict[str, Helper]:
    """The top-level definitions of runtime.py and prelude.py (prelude.py is never imported:
    its names are resolved in the emitted module). Read on first use: running a program
    without transpiling it does not pay for it."""
    helpers: dict[str, Helper] = {}
    here = Path(__file__).resolve().parent
    for filename in ("runtime.py", "prelude.py"):
        text = (here / filename).read_text(encoding="utf-8")
        tree = ast.parse(text)
        for node in tree.body:
            names = _defined_names(node)
            if not names or "fail" in names and filename == "runtime.py":
                continue
            source = ast.get_source_segment(text, node, padded=True)
            if isinstance(node, ast.FunctionDef | ast.ClassDef) and node.decorator_list:
                start = node.decorator_list[0].lineno - 1
                source = "\n".join(text.splitlines()[start:node.end_lineno])
            uses = {x.id for x in ast.walk(node) if isinstance(x, ast.Name)}
            for name in names:
                helpers[name] = Helper(name, source, uses - names, len(helpers))
    return helpers


def _defined_names(node) -> set[str]:
    if isinstance(node, ast.FunctionDef | ast.ClassDef):
        return {node.name}
    if isinstance(node, ast.Assign):
        return {t.id for t in node.targets if isinstance(t, ast.Name)}
    if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
        return {node.target.id}
    return set()


NOT_COPIED = {"Limits", "Machine", "NOVALUE", "NoValue"}


@functools.cache
def reserved() -> frozenset[str]:
    return frozenset(set(keyword.kwlist) | set(keyword.softkwlist) | set(dir(builtins)) | set(pool()) | {
        MAIN, "Fraction", "os", "sys", "re", "time", "threading", "dataclass", "СТРОКИ"})


# ---- names ----

class Names:
    """Python names for pseudo names. A name that is a Python keyword, a builtin, a helper of the
    emitted module or (for a variable) the Python name of a definition gets `_` appended until it
    is free; a phrase is named by its words joined with `_` (`место_свободно`)."""

    def __init__(self, program: n.Program):
        self.defs: dict[str, str] = {}
        taken = set(reserved())
        for key, d in program.definitions.items():
            base = _phrase_name(key) if d.is_phrase else key
            name = _free(base, taken)
            taken.add(name)
            self.defs[key] = name
        self.taken_by_defs = set(self.defs.values())
        self.vars: dict[str, str] = {}
        self.in_program = _program_names(program)
        self.made: set[str] = set()

    def var(self, name: str) -> str:
        if name not in self.vars:
            self.vars[name] = _free(name, reserved() | self.taken_by_defs | self.made)
        return self.vars[name]

    def fresh(self, base: str) -> str:
        """A name for a value the emitted code keeps (a loop value, a cell): no program name."""
        name = _free(base, reserved() | self.taken_by_defs | self.in_program | set(self.vars.values()) | self.made)
        self.made.add(name)
        return name

    def pseudo_name(self, python_name: str) -> str:
        back = {v: k for k, v in self.vars.items()} | {v: k for k, v in self.defs.items()}
        return back.get(python_name, python_name)


def _program_names(program: n.Program) -> set[str]:
    names = {p.name for d in program.definitions.values() for p in d.params}
    names |= {x for d in program.definitions.values() for x in d.locals}
    for root in n.bodies(program):
        names |= {x.name for x in n.walk(root) if isinstance(x, (n.Var, n.Index))}
        names |= {x.var for x in n.walk(root) if isinstance(x, n.For)}
    return names


def _free(base: str, taken: set[str]) -> str:
    name, i = base, 2
    while name in taken or not name.isidentifier():
        name = f"{base}_" if i == 2 and base.isidentifier() else f"{base}_{i}"
        i += 1
    return name


def _phrase_name(key: str) -> str:
    pattern = parse_pattern(key, None)
    words = [e.replace("-", "_") for e in pattern.elements if isinstance(e, str) and e != ","]
    return "_".join(words)


# ---- positions ----

def at(node, span: Span | None):
    """Give a generated node the position of the pseudo text it comes from."""
    if span is not None:
        col, end_col = span.utf8_columns()
        node.lineno, node.col_offset = span.line, col
        node.end_lineno, node.end_col_offset = span.end_line, end_col
    return node


def _name(id_: str, span=None, ctx=None):
    return at(ast.Name(id=id_, ctx=ctx or ast.Load()), span)


def _call(func: str, args, span, keywords=()):
    return at(ast.Call(func=_name(func, span), args=list(args), keywords=list(keywords)), span)


def _stmt_call(func: str, args, span):
    return at(ast.Expr(_call(func, args, span)), span)


def _function(name: str, params: list[str], body: list[ast.stmt]) -> ast.FunctionDef:
    args = ast.arguments(posonlyargs=[], args=[ast.arg(arg=p) for p in params], kwonlyargs=[], kw_defaults=[],
                         defaults=[])
    fn = ast.FunctionDef(name=name, args=args, body=body or [ast.Pass()], decorator_list=[], returns=None)
    if "type_params" in ast.FunctionDef._fields:  # Python 3.12+
        fn.type_params = []
    return fn


class TranspileLimit(Exception):
    pass


@dataclass
class Scope:
    key: str | None  # the definition, None for the main program
    locals: set[str]
    refs: set[str]
    assigned_globals: set[str] = field(default_factory=set)
    loops: list[str] = field(default_factory=list)  # "endless" or "other", innermost last
    jumps: dict = field(default_factory=dict)  # id(Goto|Stop) -> Jump, while rendering a state
    state_spans: dict = field(default_factory=dict)


class Transpiler:
    def __init__(self, program: n.Program, main_file: str, limits: bool = True):
        self.program = program
        self.limits = limits  # count steps (`шаг()`) for the step and time limits and Ctrl-C
        self.main_file = main_file
        self.types = Types(program)
        self.names = Names(program)
        self.arrays = sorted({x.name for body in self._bodies() for x in n.walk(body) if isinstance(x, n.Index)})
        self.maybe_nothing = {k for k in program.definitions if self._may_return_nothing(k, set())}

    def _bodies(self):
        return n.bodies(self.program)

    # ---- the module ----

    def program_parts(self) -> dict[str, list[ast.stmt]]:
        """The program's own statements, by source file: its definitions, then главная.
        The comments that open the main file come first."""
        first = min([d.span.line for d in self.program.definitions.values() if d.span.filename == self.main_file]
                    + [s.span.line for s in self.program.main.stmts], default=None)
        parts: dict[str, list[ast.stmt]] = {self.main_file: []}
        if first is not None:
            parts[self.main_file] += [_comment(c.text) for c in self.pending_comments(
                Span(self.program.main.span.source, first, 1, first, 1)) if c.span.filename == self.main_file]
        for key, d in self.program.definitions.items():
            parts.setdefault(d.span.filename, []).extend(self._comments_before(d.span) + [self.definition(key, d)])
        parts.setdefault(self.main_file, []).append(self.main())
        return parts

    def helpers_needed(self, parts) -> list[Helper]:
        wanted = {x.id for stmts in parts.values() for s in stmts for x in ast.walk(s) if isinstance(x, ast.Name)}
        wanted |= {"выполнить", "Output", "Input", "ВЫВОД", "ВВОД", "fail", "ОшибкаВыполнения", "КонецРаботы",
                   "Array", "шаг", "СООБЩЕНИЯ", "KINDS"}
        helpers = pool()
        closure, todo = set(), [w for w in wanted if w in helpers]
        while todo:
            name = todo.pop()
            if name in closure or name in NOT_COPIED:
                continue
            closure.add(name)
            todo.extend(u for u in helpers[name].uses if u in helpers)
        return sorted({helpers[x].source: helpers[x] for x in closure}.values(), key=lambda h: h.order)

    def arrays_stmts(self) -> list[ast.stmt]:
        return [ast.Assign(targets=[_name(self.names.var(a), ctx=ast.Store())],
                           value=ast.Call(func=_name("Array"), args=[ast.Constant(a)], keywords=[]))
                for a in self.arrays]

    # ---- definitions ----

    def definition(self, key: str, d: n.Definition) -> ast.FunctionDef:
        scope = Scope(key, set(d.locals), {p.name for p in d.params if p.by_ref})
        self.scope = scope
        entry = self._step(None)
        for step in entry:  # at column 0 of the header: errors there are reported at the call site
            step.lineno, step.col_offset, step.end_lineno, step.end_col_offset = d.span.line, 0, d.span.line, 0
        if d.is_function:
            body = [at(ast.Return(self.expr(d.body, tail=True)), d.body.span)]
        else:
            body = self.body(d.body)
            if RESULT in d.locals:
                body = [at(ast.Assign(targets=[_name(RESULT, ctx=ast.Store())], value=ast.Constant(None)),
                           d.span)] + body + [at(ast.Return(_name(RESULT)), d.span)]
        fn = _function(self.names.defs[key], [self._local(p.name) for p in d.params],
                       self._declarations(scope) + entry + body)
        return at(fn, d.span)

    def main(self) -> ast.FunctionDef:
        self.scope = Scope(None, self._main_locals(), set())
        body = self.body(self.program.main)
        return at(_function(MAIN, [], self._declarations(self.scope) + body), self.program.main.span)

    def _main_locals(self) -> set[str]:
        """Variables only the main program touches are locals of главная: faster, and no
        `global` lines. Not those passed as РЕЗ (their cells live in the module's globals)."""
        used_elsewhere = {x.name for d in self.program.definitions.values() for x in n.walk(d.body)
                          if isinstance(x, n.Var | n.For) and getattr(x, "name", getattr(x, "var", None)) not in d.locals}
        used_elsewhere |= {x.var for d in self.program.definitions.values() for x in n.walk(d.body)
                           if isinstance(x, n.For) and x.var not in d.locals}
        by_ref = {a.name for x in n.walk(self.program.main) if isinstance(x, n.Call) and x.name in self.program.definitions
                  for a, p in zip(x.args, self.program.definitions[x.name].params) if p.by_ref and isinstance(a, n.Var)}
        if any(isinstance(x, n.Label) for x in n.walk(self.program.main)):
            return set()  # state functions of a dispatch loop would need them as globals
        targets = {id(t) for x in n.walk(self.program.main) if isinstance(x, n.Assign | n.Read)
                   for t in ([x.target] if isinstance(x, n.Assign) else x.targets)}
        read = {x.name for x in n.walk(self.program.main) if isinstance(x, n.Var) and id(x) not in targets}
        mine = {x.name for x in n.walk(self.program.main) if isinstance(x, n.Var)}
        mine |= {x.var for x in n.walk(self.program.main) if isinstance(x, n.For)}
        # a variable only ever assigned stays global: a local that nothing reads is dead code
        return (mine & (read | {x.var for x in n.walk(self.program.main) if isinstance(x, n.For)})) \
            - used_elsewhere - by_ref

    def _declarations(self, scope: Scope) -> list[ast.stmt]:
        names = sorted(self.names.var(x) for x in scope.assigned_globals)
        return [ast.Global(names=names)] if names else []

    def _local(self, name: str) -> str:
        return self.names.var(name)

    def _may_return_nothing(self, key: str, seen: set) -> bool:
        d = self.program.definitions[key]
        if d.is_function:
            if isinstance(d.body, n.Call) and d.body.name not in seen:
                return self._may_return_nothing(d.body.name, seen | {key})
            return False
        return not _assigns_result(d.body.stmts)

    # ---- bodies, blocks and statements ----

    def body(self, block: n.Block) -> list[ast.stmt]:
        if any(isinstance(s, n.Label) for s in block.stmts):
            return self.automaton(block)
        return self.block(block)

    def block(self, block: n.Block) -> list[ast.stmt]:
        if any(isinstance(s, n.Label) for s in block.stmts):  # labels in a nested block
            return self.dispatch(build(self.scope.key, block), nested=True)
        out = []
        for s in block.stmts:
            out.extend(self._comments_before(s.span))
            out.extend(self.stmt(s))
            if isinstance(s, n.Goto | n.Stop | n.Exit):
                break  # what follows a transfer never runs
        return out

    def _suite(self, block: n.Block | None) -> list[ast.stmt]:
        return self.block(block) if block is not None else []

    def stmt(self, s: n.Stmt) -> list[ast.stmt]:
        method = getattr(self, "_stmt_" + type(s).__name__)
        return [at(x, s.span) if not hasattr(x, "lineno") else x for x in method(s)]

    def _stmt_Assign(self, s: n.Assign):
        return [self.assign(s.target, self.expr(s.value), s.span)]

    def assign(self, target: n.Target, value: ast.expr, span) -> ast.stmt:
        if isinstance(target, n.Index):
            arr = _name(self.names.var(target.name), target.span)
            if all(self.types.expr(i, self.scope.key) == INT for i in target.indices):
                sub = at(ast.Subscript(value=arr, slice=self._key(target.indices), ctx=ast.Store()), target.span)
                return at(ast.Assign(targets=[sub], value=value), span)
            keywords = [ast.keyword(arg="value", value=value), ast.keyword(arg="key", value=self._key(target.indices))]
            return at(ast.Expr(_call("store", [arr], target.span, keywords)), span)
        if target.name in self.scope.refs:
            attr = at(ast.Attribute(value=_name(self._local(target.name), target.span), attr="значение",
                                    ctx=ast.Store()), target.span)
            return at(ast.Assign(targets=[attr], value=value), span)
        if target.name not in self.scope.locals:
            self.scope.assigned_globals.add(target.name)
        return at(ast.Assign(targets=[_name(self.names.var(target.name), target.span, ast.Store())], value=value),
                  span)

    def _stmt_CallStmt(self, s: n.CallStmt):
        before, after = [], []
        call = self.call(s.call, value=False, copies=(before, after, {}))
        return before + [at(ast.Expr(call), s.span)] + after

    def _stmt_If(self, s: n.If):
        return [ast.If(test=self.cond(s.cond), body=self._suite(s.then) or [ast.Pass()],
                       orelse=self._suite(s.else_))]

    def _stmt_While(self, s: n.While):
        self.scope.loops.append("other")
        body = self._step(s.span) + self._suite(s.body)
        self.scope.loops.pop()
        return [ast.While(test=self.cond(s.cond), body=body, orelse=[])]

    def _stmt_Loop(self, s: n.Loop):
        self.scope.loops.append("endless")
        body = self._step(s.span) + self._suite(s.body)
        self.scope.loops.pop()
        loop = at(ast.While(test=ast.Constant(True), body=body, orelse=[]), s.span)
        labelled = any(isinstance(x, n.Label) for x in s.body.stmts)
        if labelled or any(isinstance(x, n.Exit) for inner in _inner_loops(s.body) for x in n.walk(inner)):
            handler = ast.ExceptHandler(type=_name("Кончено"), name=None, body=[ast.Pass()])
            return [ast.Try(body=[loop], handlers=[handler], orelse=[], finalbody=[])]
        return [loop]

    def _stmt_Exit(self, s: n.Exit):
        if self.scope.loops and self.scope.loops[-1] == "endless":
            return [ast.Break()]
        return [ast.Raise(exc=_call("Кончено", [], s.span), cause=None)]

    def _stmt_For(self, s: n.For):
        var = s.var
        if var not in self.scope.locals:
            self.scope.assigned_globals.add(var)
        target = _name(self.names.var(var), s.span, ast.Store())
        through = []
        if var in self.scope.refs:  # ДЛЯ over a РЕЗ parameter: each value goes to the caller's variable
            target = _name(self.names.fresh(f"значение_{self.names.var(var)}"), s.span, ast.Store())
            through = [self.assign(n.Var(s.span, var), _name(target.id, s.span), s.span)]
        self.scope.loops.append("other")
        body = through + self._step(s.span) + self._suite(s.body)
        self.scope.loops.pop()
        return [ast.For(target=target, iter=self._progression(s), body=body, orelse=[])]

    def _progression(self, s: n.For) -> ast.expr:
        scope = self.scope.key
        ints = all(self.types.expr(e, scope) == INT for e in (s.start, s.stop) + ((s.step,) if s.step else ()))
        step = s.step.value if isinstance(s.step, n.Const) and type(s.step.value) is int else (1 if s.step is None else 0)
        calls = any(isinstance(x, n.Call) for e in (s.start, s.stop) for x in n.walk(e))
        if ints and step != 0 and not calls:
            start, stop = self.expr(s.start), self.expr(s.stop)
            bound = ast.BinOp(left=stop, op=ast.Add() if step > 0 else ast.Sub(), right=ast.Constant(1))
            args = [start, _fold(bound)] + ([ast.Constant(step)] if step != 1 else [])
            return _call("range", args, s.span)
        step_expr = self.expr(s.step) if s.step is not None else ast.Constant(1)
        return _call("for_range", [self.expr(s.start), step_expr, self.expr(s.stop)], s.span)

    def _stmt_Print(self, s: n.Print):
        keywords = [] if s.newline else [ast.keyword(arg="перевод_строки", value=ast.Constant(False))]
        return [ast.Expr(_call("сообщить", [self.expr(a) for a in s.args], s.span, keywords))]

    def _stmt_Read(self, s: n.Read):
        # positioned at the statement: the interpreter reports the end of input at ПРОЧЕСТЬ
        return [self.assign(t, _call("прочесть", [ast.Constant(t.span.text())], s.span), t.span) for t in s.targets]

    def _stmt_Screen(self, s: n.Screen):
        helper = {"clear": "очистить_экран", "cursor": "курсор", "pause": "пауза"}[s.op]
        return [_stmt_call(helper, [self.expr(a) for a in s.args], s.span)]

    def _stmt_Stop(self, s: n.Stop):
        return [_stmt_call("конец_работы", [], s.span)]

    def _stmt_Goto(self, s: n.Goto):
        if id(s) not in self.scope.jumps:
            raise TranspileLimit(f"переход к метке {s.label} из вложенного блока с метками наружу")
        return self.jump(self.scope.jumps[id(s)], s.span, counted=True)

    def _stmt_Label(self, s: n.Label):
        raise TranspileLimit("метки внутри вложенных блоков")

    def _step(self, span) -> list[ast.stmt]:
        """`шаг()`: one step of the limits; nothing when the limits are left out."""
        return [_stmt_call("шаг", [], span)] if self.limits else []

    # ---- automata ----

    def automaton(self, block: n.Block) -> list[ast.stmt]:
        a = build(self.scope.key, block)
        self.scope.state_spans = {s.name: s.span for s in a.states}
        try:
            return self.render(Structurer(a).plan())
        except CannotStructure:
            return self.dispatch(a)

    def render(self, plan: list, counted: bool = True) -> list[ast.stmt]:
        out: list[ast.stmt] = []
        for item in plan:
            if isinstance(item, Loop):
                out.append(_comment(f"состояние {item.state}: цикл"))
                body = self.render(item.body)
                while body and isinstance(body[-1], ast.Continue):
                    body.pop()
                if body and isinstance(body[-1], ast.Expr) and _is_step(body[-1]):
                    body.pop()  # `шаг(); continue` at the end: the step stays, the continue goes
                    body.extend(self._step(self.scope.state_spans.get(item.state)))
                out.append(ast.While(test=ast.Constant(True), body=body or [ast.Pass()], orelse=[]))
                out.extend(self.render(item.after, counted=False))  # the `break` counted the step
            elif isinstance(item, StateCode):
                out.append(_comment(f"состояние {item.state}"))
                # a state copied into several places has different jumps in each copy
                saved, self.scope.jumps = self.scope.jumps, item.jumps
                out.extend(self.block(n.Block(None, item.stmts)))
                if item.fall is not None:
                    out.extend(self.jump(item.fall, None, counted=False))
                self.scope.jumps = saved
            else:
                out.extend(self.jump(item, None, counted=counted))
        return out

    def jump(self, j: Jump, span, counted: bool) -> list[ast.stmt]:
        step = self._step(self.scope.state_spans.get(j.target)) if counted and j.kind not in ("final", "end") else []
        if j.kind == "continue":
            return step + [ast.Continue()]
        if j.kind == "break":
            return step + [ast.Break()]
        if j.kind == "final":
            return [_stmt_call("конец_работы", [], span)]
        if j.kind == "end":
            return [ast.Return(value=_name(RESULT) if RESULT in self.scope.locals else None)]
        if j.kind == "return":  # in a state function of the dispatch loop
            if j.target == FINAL:
                return [_stmt_call("конец_работы", [], span)]
            return step + [ast.Return(value=ast.Constant(None if j.target == END else j.target))]
        return step + self.render(j.plan)

    def dispatch(self, a, nested: bool = False) -> list[ast.stmt]:
        """The fallback: one local function per state returning the next state's name."""
        functions, scope = [], self.scope
        names = {s.name for s in a.states}
        if nested:
            scope.state_spans = {**scope.state_spans, **{s.name: s.span for s in a.states}}
        for i, state in enumerate(a.states):
            inner = Scope(scope.key, scope.locals, scope.refs, scope.assigned_globals, [], {},
                          scope.state_spans)
            self.scope = inner
            for node in own_transfers(state.stmts):
                target = node.label if isinstance(node, n.Goto) else FINAL
                if target not in names and target != FINAL:
                    raise TranspileLimit(f"переход к метке {target} из вложенного блока с метками наружу")
                inner.jumps[id(node)] = Jump("return", target)
            body = self.block(n.Block(None, state.stmts)) if state.stmts else []
            fall = next((e.target for e in state.edges if e.kind == "fall"), None)
            if fall is not None:
                body.append(ast.Return(value=ast.Constant(None if fall == END else fall)))
            assigned_locals = sorted(self._local(x) for x in _assigned_names(state.stmts) if x in scope.locals)
            decls = ([ast.Global(names=sorted(self.names.var(x) for x in scope.assigned_globals))]
                     if scope.assigned_globals else [])
            decls += [ast.Nonlocal(names=assigned_locals)] if assigned_locals else []
            functions.append(at(_function(f"состояние_{i}", [], decls + body), state.span))
        self.scope = scope
        table = ast.Dict(keys=[ast.Constant(s.name) for s in a.states],
                         values=[_name(f"состояние_{i}") for i in range(len(a.states))])
        loop = ast.While(test=ast.Compare(left=_name("состояние"), ops=[ast.IsNot()], comparators=[ast.Constant(None)]),
                         body=[ast.Assign(targets=[_name("состояние", ctx=ast.Store())],
                                          value=ast.Call(func=ast.Subscript(value=_name("состояния"),
                                                                            slice=_name("состояние"), ctx=ast.Load()),
                                                         args=[], keywords=[]))], orelse=[])
        return functions + [ast.Assign(targets=[_name("состояния", ctx=ast.Store())], value=table),
                            ast.Assign(targets=[_name("состояние", ctx=ast.Store())], value=ast.Constant(a.entry)),
                            loop]

    # ---- expressions ----

    def cond(self, e: n.Expr) -> ast.expr:
        value = self.expr(e)
        if self.types.expr(e, self.scope.key) == BOOL:
            return value
        return _call("truth", [value], e.span)

    def expr(self, e: n.Expr, tail: bool = False) -> ast.expr:
        return at(getattr(self, "_expr_" + type(e).__name__)(e, tail) if type(e) is n.Call
                  else getattr(self, "_expr_" + type(e).__name__)(e), e.span)

    def _expr_Const(self, e: n.Const):
        v = e.value
        if type(v) is runtime.Fraction:
            return _call("Fraction", [ast.Constant(v.numerator), ast.Constant(v.denominator)], e.span)
        if type(v) is int and v < 0:
            return ast.UnaryOp(op=ast.USub(), operand=at(ast.Constant(-v), e.span))
        return ast.Constant(v)

    def _expr_Var(self, e: n.Var):
        if e.name in self.scope.refs:
            return ast.Attribute(value=_name(self._local(e.name), e.span), attr="значение", ctx=ast.Load())
        return ast.Name(id=self.names.var(e.name), ctx=ast.Load())

    def _expr_Index(self, e: n.Index):
        arr = _name(self.names.var(e.name), e.span)
        key = self._key(e.indices)
        if not all(self.types.expr(i, self.scope.key) == INT for i in e.indices):
            key = _call("check_index", [key, _name(self.names.var(e.name), e.span)], e.span)
        return ast.Subscript(value=arr, slice=key, ctx=ast.Load())

    def _key(self, indices) -> ast.expr:
        parts = [self.expr(i) for i in indices]
        return parts[0] if len(parts) == 1 else ast.Tuple(elts=parts, ctx=ast.Load())

    def _expr_Call(self, e: n.Call, tail: bool = False):
        call = self.call(e, value=True, copies=None)
        if e.name in self.maybe_nothing and not tail:
            return _call("значение", [call, ast.Constant(e.name)], e.span)
        return call

    def call(self, e: n.Call, value: bool, copies) -> ast.expr:
        d = self.program.definitions[e.name]
        args = []
        for arg, param in zip(e.args, d.params):
            args.append(self._ref(arg, copies) if param.by_ref else self.expr(arg))
        return at(ast.Call(func=_name(self.names.defs[e.name], e.span), args=args, keywords=[]), e.span)

    def _ref(self, arg: n.Expr, copies) -> ast.expr:
        """A РЕЗ argument: a cell on the program's variables or on an array element."""
        span = arg.span
        if isinstance(arg, n.Var) and arg.name in self.scope.refs:
            return _name(self._local(arg.name), span)
        if isinstance(arg, n.Index):
            key = self._key(arg.indices)
            if not all(self.types.expr(i, self.scope.key) == INT for i in arg.indices):
                key = _call("check_index", [key, _name(self.names.var(arg.name), span)], span)
            return _call("Ячейка", [_name(self.names.var(arg.name), span), key, ast.Constant(arg.name)], span)
        py = self.names.var(arg.name)
        if arg.name not in self.scope.locals:
            return _call("Ячейка", [_call("globals", [], span), ast.Constant(py), ast.Constant(arg.name)], span)
        if copies is None:
            raise TranspileLimit("локальная переменная как аргумент РЕЗ внутри выражения")
        before, after, cells = copies
        if py in cells:  # the same variable twice in one call: one cell, so that both names alias it
            return _name(cells[py], span)
        cell = cells[py] = self.names.fresh(f"ячейка_{py}")
        before.append(at(ast.Assign(targets=[_name(cell, span, ast.Store())], value=_call(
            "Ячейка", [ast.Dict(keys=[ast.Constant(py)], values=[_name(py, span)]), ast.Constant(py),
                       ast.Constant(arg.name)], span)), span))
        after.append(at(ast.Assign(targets=[_name(py, span, ast.Store())], value=at(ast.Attribute(
            value=_name(cell, span), attr="значение", ctx=ast.Load()), span)), span))
        return _name(cell, span)

    def _expr_Unary(self, e: n.Unary):
        operand = self.expr(e.operand)
        if self.types.expr(e.operand, self.scope.key) == INT:
            return ast.UnaryOp(op=ast.USub(), operand=operand)
        return _call("negate", [operand], e.span)

    def _expr_Binary(self, e: n.Binary):
        left, right = self.expr(e.left), self.expr(e.right)
        lt, rt = self.types.expr(e.left, self.scope.key), self.types.expr(e.right, self.scope.key)
        if e.op in PY_OPS and lt == rt == INT:
            return ast.BinOp(left=left, op=PY_OPS[e.op](), right=right)
        if e.op == "^":
            return _call("power", [left, right], e.span)
        return _call("arith", [ast.Constant(e.op), left, right], e.span)

    def _expr_Compare(self, e: n.Compare):
        left, right = self.expr(e.left), self.expr(e.right)
        lt, rt = self.types.expr(e.left, self.scope.key), self.types.expr(e.right, self.scope.key)
        if lt == rt and (lt in (INT, STR) or lt == BOOL and e.op in ("=", "≠")):
            return ast.Compare(left=left, ops=[PY_CMP[e.op]()], comparators=[right])
        return _call("compare", [ast.Constant(e.op), left, right], e.span)

    def _expr_Logical(self, e: n.Logical):
        parts = []
        for side in (e.left, e.right):
            value = self.expr(side)
            if self.types.expr(side, self.scope.key) != BOOL:
                value = _call("truth", [value, ast.Constant(None), ast.Constant(e.op)], side.span)
            same = isinstance(side, n.Logical) and side.op == e.op and isinstance(value, ast.BoolOp)
            parts.extend(value.values if same and side is e.left else [value])
        return ast.BoolOp(op=ast.Or() if e.op == "ИЛИ" else ast.And(), values=parts)

    def _expr_Not(self, e: n.Not):
        value = self.expr(e.operand)
        if self.types.expr(e.operand, self.scope.key) != BOOL:
            value = _call("truth", [value, ast.Constant(None), ast.Constant("НЕ")], e.operand.span)
        return ast.UnaryOp(op=ast.Not(), operand=value)

    def _expr_IfExpr(self, e: n.IfExpr):
        return ast.IfExp(test=self.cond(e.cond), body=self.expr(e.then), orelse=self.expr(e.else_))

    # ---- comments ----

    def _comments_before(self, span: Span | None) -> list[ast.stmt]:
        if span is None:
            return []
        out = []
        for c in self.pending_comments(span):
            out.append(_comment(c.text, eol=False))
        return out

    def pending_comments(self, span: Span):
        pending = getattr(self, "_comments", None)
        if pending is None:
            pending = self._comments = sorted(self.program.comments, key=lambda c: (c.span.filename, c.span.line))
        taken = [c for c in pending if c.span.filename == span.filename and c.span.line < span.line]
        for c in taken:
            pending.remove(c)
        return taken


def _comment(text: str, eol: bool = False) -> ast.stmt:
    """A comment travels through ast.unparse as a one-line call of a marker name."""
    return ast.Expr(ast.Call(func=ast.Name(id=COMMENT_EOL if eol else COMMENT, ctx=ast.Load()),
                             args=[ast.Constant(text)], keywords=[]))


def is_comment(s) -> bool:
    return (isinstance(s, ast.Expr) and isinstance(s.value, ast.Call) and isinstance(s.value.func, ast.Name)
            and s.value.func.id in (COMMENT, COMMENT_EOL))


class StripComments(ast.NodeTransformer):
    """Comment markers are for `pseudo py`; compiled code does without them."""

    def generic_visit(self, node):
        super().generic_visit(node)
        for name in ("body", "orelse", "finalbody"):
            stmts = getattr(node, name, None)
            if isinstance(stmts, list) and stmts and isinstance(stmts[0], ast.stmt):
                kept = [s for s in stmts if not is_comment(s)]
                setattr(node, name, kept or ([ast.Pass()] if name == "body" else []))
        return node


def _is_step(s: ast.stmt) -> bool:
    return isinstance(s.value, ast.Call) and isinstance(s.value.func, ast.Name) and s.value.func.id == "шаг"


def _fold(e: ast.BinOp) -> ast.expr:
    """`8 + 1` → `9` in range bounds, for readability."""
    if isinstance(e.left, ast.Constant) and type(e.left.value) is int:
        return ast.Constant(e.left.value + (1 if isinstance(e.op, ast.Add) else -1))
    return e


def _inner_loops(block: n.Block):
    for s in block.stmts:
        for x in n.walk(s):
            if isinstance(x, n.While | n.For | n.Loop):
                yield x


def _assigned_names(stmts) -> set[str]:
    out = set()
    for s in stmts:
        for x in n.walk(s):
            if isinstance(x, n.Assign) and isinstance(x.target, n.Var):
                out.add(x.target.name)
            elif isinstance(x, n.For):
                out.add(x.var)
            elif isinstance(x, n.Read):
                out |= {t.name for t in x.targets if isinstance(t, n.Var)}
    return out


def _assigns_result(stmts) -> bool:
    """Is РЕЗУЛЬТАТ surely assigned when the statements end?"""
    for s in stmts:
        if isinstance(s, n.Assign) and isinstance(s.target, n.Var) and s.target.name == RESULT:
            return True
        if isinstance(s, n.If) and s.else_ is not None and _assigns_result(s.then.stmts) and _assigns_result(
                s.else_.stmts):
            return True
    return False



# ---- the emitted module ----

HEADER_IMPORTS = ["import os", "import re", "import sys", "import threading", "import time", "from fractions import Fraction"]


@dataclass
class Emitted:
    """The pieces of a program's Python: the support code (text) and, by source file, the
    program's own statements (ast, with pseudo positions)."""
    support: str
    parts: dict[str, list[ast.stmt]]
    names: Names
    transpiler: Transpiler


def emit(program: n.Program, main_file: str, limits: bool = True) -> Emitted:
    t = Transpiler(program, main_file, limits)
    parts = t.program_parts()
    parts[main_file] = t.arrays_stmts() + parts[main_file]
    helpers = t.helpers_needed(parts)
    body = "\n\n\n".join(h.source.strip("\n") for h in helpers)
    program_names = {x.id for stmts in parts.values() for st in stmts for x in ast.walk(st) if isinstance(x, ast.Name)}
    used = body + " " + " ".join(program_names)
    imports = [i for i in HEADER_IMPORTS if re.search(r"\b" + i.split()[-1] + r"\b", used)]
    codes = sorted(set(re.findall(r'fail\("([a-z-]+)"', body)) | {"unset-var", "unset-elem", "depth-limit",
                                                                   "div-zero", "interrupted"})
    tables = [f"СООБЩЕНИЯ = {{{', '.join(f'{c!r}: {MESSAGES[c]!r}' for c in codes)}}}",
              f"KINDS = {KINDS!r}", "sys.set_int_max_str_digits(0)"]
    support = ("\n".join(imports) + "\n\n# ---- вспомогательные функции pseudo: значения, ввод и вывод, шаги и пределы "
               "----\n\n\n" + body + "\n\n\n" + "\n".join(tables) + "\n")
    return Emitted(support, parts, t.names, t)


def python_source(program: n.Program, main_file: str, title: str, limits: bool = True) -> str:
    """`pseudo py`: the whole program as one readable, standalone Python file."""
    e = emit(program, main_file, limits)
    stmts = [s for part in e.parts.values() for s in part]
    module = ast.fix_missing_locations(ast.Module(body=stmts, type_ignores=[]))
    text = _mark_cell_only_globals(ast.unparse(module))
    line_map = _line_map(module, text)
    text, line_map = _expand_comments(text, line_map)
    head = (docstring(f"{title} — программа на языке книги Ж. Арсака, переведённая pseudo на Python.\n\n"
                      f"Запуск: python3 {Path(title).stem}.py (стандартный ввод — для ПРОЧЕСТЬ).\n")
            + "\n" + e.support + "\n\n# ---- программа ----\n\n")
    offset = head.count("\n")
    line_map = {k + offset: v for k, v in line_map.items()}
    tail = (f"\n\n\n# строки этого файла → строки программы {comment_text(title)}, для сообщений об ошибках\n"
            f"СТРОКИ = {line_map!r}\n\n"
            f'if __name__ == "__main__":\n    выполнить({MAIN}, {title!r}, СТРОКИ)\n')
    return head + text + tail


def _mark_cell_only_globals(text: str) -> str:
    """A global that receives its value only through a РЕЗ cell (`Ячейка(globals(), 'i', …)`)
    is assigned where a linter cannot see it: the lines that read it get `# noqa: F821`."""
    module = ast.parse(text)
    functions = [x for x in module.body if isinstance(x, ast.FunctionDef)]
    module_bound = {t.id for x in module.body for t in _targets(x)} | {f.name for f in functions}
    for f in functions:
        declared = {name for x in ast.walk(f) if isinstance(x, ast.Global) for name in x.names}
        module_bound |= {t.id for x in ast.walk(f) for t in _targets(x) if t.id in declared}
    module_bound |= set(pool()) | set(dir(builtins)) | {COMMENT, COMMENT_EOL, "Fraction"}
    lines = set()
    for f in functions:
        local = {a.arg for x in ast.walk(f) if isinstance(x, ast.arguments) for a in x.args}
        local |= {t.id for x in ast.walk(f) for t in _targets(x)} | {x.name for x in ast.walk(f)
                                                                     if isinstance(x, ast.FunctionDef)}
        lines |= {x.lineno for x in ast.walk(f) if isinstance(x, ast.Name) and isinstance(x.ctx, ast.Load)
                  and x.id not in local and x.id not in module_bound}
    return "\n".join(line + "  # noqa: F821" if number in lines else line
                     for number, line in enumerate(text.split("\n"), start=1))


def _targets(node):
    if isinstance(node, ast.Assign):
        return [t for t in node.targets if isinstance(t, ast.Name)]
    if isinstance(node, ast.For) and isinstance(node.target, ast.Name):
        return [node.target]
    return []


def _line_map(module: ast.Module, text: str) -> dict[int, int]:
    """Lines of the unparsed text → lines of the pseudo source, matching the two trees."""
    again = ast.parse(text)
    out = {}
    for old, new in zip(ast.walk(module), ast.walk(again)):
        if isinstance(new, ast.stmt) and getattr(old, "lineno", None):
            out.setdefault(new.lineno, old.lineno)
    return out


def comment_lines(text: str) -> list[str]:
    """A program's comment as lines that stay comments in Python: split at every line break
    Python's tokenizer (or any reader) honours, other control characters shown escaped."""
    return [comment_text(line).strip() for line in text.strip().splitlines()] or [""]


def comment_text(text: str) -> str:
    """One line of text for a `#` comment: nothing in it can end the line or upset a reader."""
    return "".join(ch if ch.isprintable() or ch == "\t" else ascii(ch)[1:-1] for ch in text)


def docstring(text: str) -> str:
    """A module docstring holding any text (a file name with quotes, backslashes, line breaks)."""
    return ast.unparse(ast.Module(body=[ast.Expr(ast.Constant(text))], type_ignores=[])) + "\n"


def _expand_comments(text: str, line_map: dict[int, int]) -> tuple[str, dict[int, int]]:
    """Comment markers (string statements) become `#` lines; the line map follows."""
    out, new_map, added = [], {}, 0
    for number, line in enumerate(text.split("\n"), start=1):
        stripped = line.strip()
        marker = next((m for m in (COMMENT, COMMENT_EOL) if stripped.startswith(m + "(")), None)
        if marker is None:
            out.append(line)
            if number in line_map:
                new_map[number + added] = line_map[number]
            continue
        indent = line[:len(line) - len(line.lstrip())]
        comment = ast.literal_eval(stripped[len(marker) + 1:-1])
        lines = [f"{indent}# {x}".rstrip() for x in comment_lines(comment)]
        if marker == COMMENT_EOL and out:
            out[-1] += "  # " + " ".join(comment_lines(comment))
            added -= 1
            continue
        out.extend(lines)
        added += len(lines) - 1
    return "\n".join(out), new_map
