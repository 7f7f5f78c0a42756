"""Which calls the fast code writes out in place, as the expression of the definition called.

The book's prose conditions are small functions of one expression («место (k), (i) свободно»
= кол[i] И д1[k + i] И д2[k − i + 9]), called in the innermost loops: a Python call costs
more than the expression. A call is written out when

- the definition is a function of one expression that calls no definition and nothing with an
  effect (СЛУЧАЙНОЕ, «ввод кончился»), is not recursive and has no РЕЗ parameter;
- each argument is evaluated, written out, exactly when the call would evaluate it: a
  constant, or a variable that surely has a value (a parameter of the caller, the variable of
  a ДЛЯ around the call), may stand anywhere; any other argument must be used first where
  nothing is conditional yet (not after И, ИЛИ or in a branch of ЕСЛИ), and an argument that is
  more than a variable and is used more than once is named there (`(x := …)`) and read after;
- the expression's own names do not mean something else where it is written out (a local of
  the caller with the name of a global the function reads).

An error in the written-out expression would be reported without the call in the call stack,
so the fast code hands it over to the exact code (runner.run_program), which reports it with
the call; the program's places of the written-out nodes say which errors those are
(`report.CompiledProgram.exact_places`).
"""
from __future__ import annotations

from .. import nodes as n
from ..runtime.library import INPUT_ENDED

EFFECTS = {"СЛУЧАЙНОЕ", INPUT_ENDED}


class Inlining:
    def __init__(self, program: n.Program):
        self.program = program
        # each function that may be written out: the variables it reads besides its parameters,
        # and the order in which it reads variables
        self.functions = {key: self._reads(d) for key, d in program.definitions.items() if self._simple(d)}

    @staticmethod
    def _simple(d: n.Definition) -> bool:
        """A function of value parameters whose body calls nothing (so not itself) and does not act."""
        return d.is_function and not any(p.by_ref for p in d.params) and not acts(d.body)

    @staticmethod
    def _reads(d: n.Definition):
        params = {p.name for p in d.params}
        return {x.name for x in n.walk(d.body) if isinstance(x, n.Var | n.Index)} - params, _uses(d.body)

    def plan(self, call: n.Call, caller_locals: set[str], bound: set[str]) -> dict[str, str] | None:
        """How each parameter stands in the written-out expression — "const" (the argument is a
        constant), "name" (a variable, read where the parameter is), "once" (used once, where the
        argument is evaluated), "named" (evaluated and named at its first use) — or None when the
        call is not written out. `bound`: the caller's variables that surely have a value there
        (its parameters, the variables of the ДЛЯ around the call)."""
        if call.name not in self.functions:
            return None
        d = self.program.definitions[call.name]
        if d.span.source is not call.span.source:  # its places are another file's: the call stays
            return None
        params = [p.name for p in d.params]
        free, order = self.functions[call.name]
        if free & caller_locals:
            return None
        plan = {}
        for param, arg in zip(params, call.args, strict=True):
            uses = [conditional for name, conditional in order if name == param]
            if isinstance(arg, n.Const) or isinstance(arg, n.Var) and arg.name in bound:
                plan[param] = "const"
            elif not uses or uses[0] or acts(arg):  # never used, or first used where it may not be
                return None  # evaluated; or it acts (a call, СЛУЧАЙНОЕ): its time to act is the call's
            elif isinstance(arg, n.Var):
                plan[param] = "name"
            else:
                plan[param] = "once" if len(uses) == 1 else "named"
        return plan


def acts(e: n.Expr, known: dict | None = None) -> bool:
    """Does evaluating `e` act: call a definition (which may print, read, loop), take a random
    number, wait for input? `known`: the answers for parts already asked about (id → bool),
    kept by a caller that asks about each operand of a chain nested thousands deep."""
    if known is None:
        return any(isinstance(x, n.Call) or isinstance(x, n.BuiltinCall) and x.name in EFFECTS for x in n.walk(e))
    if id(e) not in known:
        known[id(e)] = isinstance(e, n.Call) or isinstance(e, n.BuiltinCall) and e.name in EFFECTS \
            or any(acts(x, known) for x in n.children(e))
    return known[id(e)]


def _uses(e: n.Expr, conditional: bool = False) -> list[tuple[str, bool]]:
    """The variables an expression reads, in the order Python evaluates them, each with
    whether its evaluation there depends on a condition."""
    return _USES[type(e)](e, conditional)


def _uses_Var(e: n.Var, conditional: bool) -> list:
    return [(e.name, conditional)]


def _uses_Logical(e: n.Logical, conditional: bool) -> list:
    return _uses(e.left, conditional) + _uses(e.right, True)


def _uses_IfExpr(e: n.IfExpr, conditional: bool) -> list:
    return _uses(e.cond, conditional) + _uses(e.then, True) + _uses(e.else_, True)


def _operand_uses(e, conditional: bool) -> list:
    out = []
    for child in n.children(e):
        out += _uses(child, conditional)
    return out


_uses_Const = _uses_Index = _uses_Call = _uses_BuiltinCall = _uses_Unary = _uses_Binary = _uses_Compare = _uses_Not = \
    _operand_uses
_USES = n.arms("inlining, the variables read", globals(), "_uses_")
