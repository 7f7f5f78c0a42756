"""Static checks on a resolved program: calls and arguments, arrays and scalars, the
automata's states (read from the analysis)."""
from __future__ import annotations

from .. import nodes as n
from ..analysis import Facts, automaton
from ..analysis.kinds import BOOL, STR
from ..errors import Diagnostic, diagnostic
from ..messages import hint, nearest
from ..runtime.library import BUILTINS
from . import silent
from .raw import header_text


def check(program: n.Program, facts: Facts, captures=()) -> list[Diagnostic]:
    """Errors and warnings that need the whole resolved program; `captures`: (phrase, warning)
    of the phrases whose last argument took an operator, warned about unless the phrase is a
    condition (resolver.warn_capture)."""
    out: list[Diagnostic] = [w for key, w in captures if facts.kinds.result(key) != BOOL]
    uses = _Uses(silent.FirstUses(program))
    for key, body in facts.bodies.items():
        out.extend(uses.collect(facts.nodes[key], body.locals, program.definitions))
    out.extend(automaton.check(facts.top_automata()))
    out.extend(silent.warnings(program, facts.recursive, uses.first))
    out.extend(uses.unread_arrays())
    for key, listed in facts.nodes.items():
        out.extend(diagnostic("warning", "endless-while", x.cond.span, hint("endless-while", name=loop.variables[0])
                              if loop.variables else None, unchanged=loop.unchanged, cond=loop.cond)
                   for x in listed if isinstance(x, n.While) and (loop := facts.endless.get(id(x))) is not None)
    for name in uses.scalars.keys() & uses.arrays.keys():
        if name not in uses.assigned:  # `СООБЩИТЬ m` for an array m: the whole array as a value
            out.append(diagnostic("error", "array-as-value", uses.scalars[name].span,
                                  hint("array-as-value", name=name), name=name))
            continue
        first, second = sorted((uses.scalars[name], uses.arrays[name]), key=lambda x: (x.span.line, x.span.column))
        tip = hint("string-as-array", name=name) if facts.kinds.var(name, None) == STR else hint("scalar-and-array")
        out.append(diagnostic("error", "scalar-and-array", second.span, tip, name=name, line=first.span.line))
    return out


ASSIGNING = (n.Assign, n.Read)  # a tuple, not a union: the union is made at each use


class _Uses:
    """What one pass over each body's nodes finds: the first use of each name as a scalar and as an
    array, the scalars assigned, the arrays written and read; and for silent.py, the first
    place of each name in the text."""

    def __init__(self, first: silent.FirstUses):
        self.first = first
        self.scalars: dict[str, n.Node] = {}
        self.arrays: dict[str, n.Node] = {}
        self.assigned: set[str] = set()
        self.written: dict[str, n.Index] = {}
        self.read: set[str] = set()

    def collect(self, nodes: list[n.Node], local: tuple[str, ...], defs: dict[str, n.Definition]) -> list[Diagnostic]:
        """Go through one body's nodes; the calls' and local arrays' errors, in the order of the text."""
        out: list[Diagnostic] = []
        targets: set[int] = set()  # an assignment comes before its target
        for node in nodes:  # the most frequent kinds first
            if isinstance(node, n.Var):
                self.first.see(node.name, node)
                if node.name not in local:
                    self.scalars.setdefault(node.name, node)
            elif isinstance(node, n.Index):
                self.first.see(node.name, node)
                if node.name in local:
                    out.append(diagnostic("error", "local-array", node.span, hint("local-array"),
                                          name=node.name))
                else:
                    self.arrays.setdefault(node.name, node)
                if id(node) in targets:
                    self.written.setdefault(node.name, node)
                else:
                    self.read.add(node.name)
            elif isinstance(node, n.Call):
                out.extend(_check_call(node, defs))
            elif isinstance(node, n.BuiltinCall):
                out.extend(_check_builtin(node))
            elif isinstance(node, n.For):
                self.first.see(node.var, node)
                if node.var not in local:
                    self.scalars.setdefault(node.var, node)
                self.assigned.add(node.var)
            elif isinstance(node, ASSIGNING):
                written = [node.target] if isinstance(node, n.Assign) else node.targets
                targets.update(id(t) for t in written)
                self.assigned.update(t.name for t in written if isinstance(t, n.Var))
        return out

    def unread_arrays(self) -> list[Diagnostic]:
        """An array that is only assigned, named like one that is read: most likely a typo."""
        out = []
        read = None
        for name, node in self.written.items():
            if name in self.read:
                continue
            read = read if read is not None else sorted(self.read)
            near = nearest(name, read)
            if near:
                out.append(diagnostic("warning", "array-unread", node.span, hint("array-unread", nearest=near),
                                      name=name))
        return out


def _check_call(call: n.Call, defs: dict[str, n.Definition]) -> list[Diagnostic]:
    d = defs.get(call.name)
    if d is None:
        return []  # reported by the resolver
    if len(call.args) != len(d.params):
        tip = None if d.is_phrase else hint("defined-at", name=d.name, line=d.span.line, header=header_text(d))
        return [diagnostic("error", "arity", call.span, tip, name=_display(d), expected=len(d.params),
                           noun=_plural(len(d.params)), got=len(call.args))]
    return [diagnostic("error", "ref-arg", arg.span, hint("ref-arg", name=_display(d)), param=p.name, name=_display(d))
            for arg, p in zip(call.args, d.params)
            if p.by_ref and not isinstance(arg, n.Var | n.Index)]


def _check_builtin(call: n.BuiltinCall) -> list[Diagnostic]:
    function, least, most = BUILTINS.get(call.name, (None, 0, 0))
    got = len(call.args)
    if least <= got and (most is None or got <= most):
        return []
    if most is None:  # «от 1 аргумента»: the genitive after «от»
        expected, noun = f"от {least}", "аргумента" if least % 10 == 1 and least % 100 != 11 else "аргументов"
    else:
        expected = str(least) if least == most else f"от {least} до {most}"
        noun = _plural(most) if least == most else "аргументов"
    return [diagnostic("error", "arity", call.span, _builtin_usage(call.name, function), name=call.name,
                       expected=expected, noun=noun, got=got)]


def _builtin_usage(name: str, function) -> str | None:
    """How a built-in function is called, from its Python parameters: ПОДСТРОКА(s, i, n), МИН(a, b, …)."""
    if function is None or name != name.upper():  # «ввод кончился» is a phrase
        return None
    code = function.__code__
    params = ", ".join(code.co_varnames[:code.co_argcount]) if not code.co_flags & 4 else "a, b, …"  # 4: *args
    return hint("arity-builtin", name=name, usage=f"{name}({params})")


def _display(d: n.Definition) -> str:
    return d.name


def _plural(k: int) -> str:
    if k % 10 == 1 and k % 100 != 11:
        return "аргумент"
    if k % 10 in (2, 3, 4) and k % 100 not in (12, 13, 14):
        return "аргумента"
    return "аргументов"
