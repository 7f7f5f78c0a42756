"""No silent wrong answers (DIALECT.md): forms that are legal, but are how a typing slip turns
into a wrong result without a word. Each gets a warning that names both places.

- two different names that look the same on screen (`c` Latin and `с` Cyrillic; `ﬁ` and `fi`);
- `k = n * 2` between statements of the main program: a function k, not an assignment;
- a recursive definition that assigns a global and reads it again after a recursive call
  (not a counter it updates from its own value, such as `шаг := шаг + 1`);
- a ДЛЯ's variable assigned in its body, which does not change the loop's next value;
- a function of one expression called as a statement (`F(3)`): its value is lost.
"""
from __future__ import annotations

import unicodedata

from .. import nodes as n
from ..errors import Diagnostic, diagnostic
from ..messages import hint
from .source import fold_lookalikes


def warnings(program: n.Program, recursive: set[str], first: FirstUses | None = None) -> list[Diagnostic]:
    """`first`: the first uses of names, if the caller has walked the program already."""
    if first is None:
        first = FirstUses(program)
        for root in n.bodies(program):
            for x in n.walk(root):
                first.see_node(x)
    return look_alike_names(first.first) + definitions_like_assignments(program) + \
        globals_across_recursion(program, recursive) + loop_variables_assigned(program) + \
        function_values_lost(program)


# ---- a ДЛЯ's variable assigned in its body ----

def loop_variables_assigned(program: n.Program) -> list[Diagnostic]:
    """`i := 1` in the body of `ДЛЯ i := …`: the loop's next value is its progression's all the
    same (language.md § 4), so a loop meant to start again, or to stop early, runs on as if
    nothing were assigned. Told once per loop, at the first such assignment; one walk of each
    body, each node with the ДЛЯ loops around it (a walk per loop was quadratic in their
    nesting)."""
    out, told = [], set()
    for root in n.bodies(program):
        stack = [(root, ())]
        while stack:
            node, around = stack.pop()
            targets = (node.target,) if isinstance(node, n.Assign) else node.targets if isinstance(node, n.Read) else ()
            for t in targets:
                for loop in around if isinstance(t, n.Var) else ():
                    if loop.var == t.name and id(loop) not in told:
                        told.add(id(loop))
                        out.append(diagnostic("warning", "for-var-assigned", t.span, hint("for-var-assigned",
                                              name=loop.var), name=loop.var, line=loop.span.line))
            inner = (*around, node) if isinstance(node, n.For) else around
            stack.extend((child, inner if child is getattr(node, "body", None) else around)
                         for child in reversed(n.children(node)))
    return sorted(out, key=lambda d: (d.span.line, d.span.column))


def function_values_lost(program: n.Program) -> list[Diagnostic]:
    """`F(3)` alone, F a function of one expression that only computes its value: the value is
    lost, as a built-in's is (an error there, binding.py). A function with a body may print or
    assign, one with a РЕЗ parameter assigns it, and one that calls a definition or СЛУЧАЙНОЕ
    may act: those are called for what they do."""
    out = []
    for root in n.bodies(program):
        for s in n.walk(root):
            if isinstance(s, n.CallStmt) and isinstance(s.call, n.Call):
                d = program.definitions.get(s.call.name)
                if d is not None and _only_a_value(d):
                    call = s.call.span.text()
                    out.append(diagnostic("warning", "function-value-lost", s.span,
                                          hint("builtin-as-statement", call=call), name=d.name))
    return out


def _only_a_value(d: n.Definition) -> bool:
    return d.is_function and not isinstance(d.body, n.Block) and not any(p.by_ref for p in d.params) and \
        not any(isinstance(x, n.Call) or isinstance(x, n.BuiltinCall) and x.name == "СЛУЧАЙНОЕ" for x in n.walk(d.body))


# ---- names that look the same ----

def _screen_form(name: str) -> str:
    return fold_lookalikes(unicodedata.normalize("NFKC", name))


class FirstUses:
    """Each name of a variable, array, parameter or procedure, at its first place in the text:
    the definitions' own first, then what `see_node` is shown of the bodies."""

    def __init__(self, program: n.Program):
        self.first: dict[str, n.Node] = {}
        for key, d in program.definitions.items():
            if not d.is_phrase:
                self.see(key, d)
            for p in d.params:
                self.see(p.name, p)

    def see(self, name: str, node) -> None:
        first = self.first.get(name)
        if first is None:
            self.first[name] = node
            return
        here, there = node.span, first.span
        if here.source is not there.source and here.filename != there.filename:
            earlier = here.filename < there.filename
        else:
            earlier = (here.line, here.column) < (there.line, there.column)
        if earlier:
            self.first[name] = node

    def see_node(self, x: n.Node) -> None:
        if isinstance(x, n.Var | n.Index):
            self.see(x.name, x)
        elif isinstance(x, n.For):
            self.see(x.var, x)


def look_alike_names(first: dict[str, n.Node]) -> list[Diagnostic]:
    groups: dict[str, list[str]] = {}
    for name in first:
        groups.setdefault(_screen_form(name), []).append(name)
    out = []
    for names in groups.values():
        if len(names) < 2:
            continue
        names.sort(key=lambda x: (first[x].span.filename, first[x].span.line, first[x].span.column))
        for other in names[1:]:
            where = first[names[0]].span
            out.append(diagnostic("warning", "look-alike", first[other].span, hint("look-alike"), name=other,
                                  first=names[0], line=where.line, how=_difference(names[0], other)))
    return out


def _difference(a: str, b: str) -> str:
    """What makes two names that look alike different: a letter of another alphabet, or a
    character that Unicode only writes differently (ﬁ, ｘ)."""
    if len(a) == len(b):
        for x, y in zip(a, b):
            if x != y and fold_lookalikes(x) == fold_lookalikes(y):
                return f"«{x}» — {_alphabet(x)}, «{y}» — {_alphabet(y)}"
    for x in a + b:
        if unicodedata.normalize("NFKC", x) != x:
            return f"«{x}» — особое начертание «{unicodedata.normalize('NFKC', x)}»"
    return "их буквы пишутся одинаково"


def _alphabet(ch: str) -> str:
    name = unicodedata.name(ch, "")
    return "латинская буква" if name.startswith("LATIN") else "кириллическая буква" if name.startswith(
        "CYRILLIC") else "буква " + name.split()[0].lower() if name else "знак"


# ---- `k = n * 2` in the main program ----

def definitions_like_assignments(program: n.Program) -> list[Diagnostic]:
    """A one-line definition without parameters standing between statements of the main
    program: most likely an assignment written with `=`."""
    lines = sorted(s.span.line for s in program.main.stmts if s.span.filename == program.span.filename)
    out = []
    for key, d in program.definitions.items():
        if d.is_phrase or d.params or not d.is_function or d.span.filename != program.span.filename:
            continue
        if lines and lines[0] < d.span.line < lines[-1]:
            out.append(diagnostic("warning", "def-like-assign", d.span, hint("def-like-assign", name=key), name=key))
    return out


# ---- a global across a recursive call ----

def globals_across_recursion(program: n.Program, recursive: set[str]) -> list[Diagnostic]:
    out = []
    for key in sorted(recursive):
        d = program.definitions[key]
        if d.is_function:
            continue
        assigned: dict[str, tuple[int, n.Node]] = {}  # global → when and where it was last assigned
        last_call = -1  # when the last recursive call came: a global assigned before it is stale
        reported: set[str] = set()
        counters = _counters(d.body)
        for when, (kind, node) in enumerate(_events(d.body)):
            if kind == "assign" and node.name not in d.locals and node.name not in counters:
                assigned[node.name] = when, node
            elif kind == "call" and node.name in recursive:
                last_call = when
            elif kind == "read" and node.name in assigned and assigned[node.name][0] < last_call \
                    and node.name not in reported:
                reported.add(node.name)
                out.append(diagnostic("warning", "global-across-recursion", node.span,
                                      hint("global-across-recursion", name=node.name),
                                      name=node.name, proc=key, line=assigned[node.name][1].span.line))
    return out


def _counters(body) -> set[str]:
    """Globals updated from their own value (`шаг := шаг + 1`): shared on purpose — a counter
    or an accumulator that every call changes and reads."""
    return {x.target.name for x in n.walk(body) if isinstance(x, n.Assign) and isinstance(x.target, n.Var)
            and any(isinstance(v, n.Var) and v.name == x.target.name for v in n.walk(x.value))}


def _events(node):
    """Assignments of variables, calls and reads of variables, in the order they happen."""
    return _EVENTS[type(node)](node)


def _events_Assign(node: n.Assign):
    yield from _events(node.value)
    if isinstance(node.target, n.Var):
        yield "assign", node.target
    else:
        yield from _all_events(node.target.indices)


def _events_Var(node: n.Var):
    yield "read", node


def _events_Call(node: n.Call):
    yield from _all_events(node.args)
    yield "call", node


def _events_For(node: n.For):
    yield from _all_events([node.start, node.step, node.stop])
    yield from _events(node.body)


def _events_Read(node: n.Read):
    for t in node.targets:
        if isinstance(t, n.Var):
            yield "assign", t


def _children_events(node):
    """A node that only reads its children."""
    return _all_events(n.children(node))


_events_Block = _events_Const = _events_Index = _events_BuiltinCall = _events_Unary = _events_Binary = \
    _events_Compare = _events_Logical = _events_Not = _events_IfExpr = _events_CallStmt = _events_If = \
    _events_While = _events_Loop = _events_Exit = _events_Print = _events_Screen = _events_Stop = _events_Label = \
    _events_Goto = _children_events


def _all_events(nodes_):
    for x in nodes_:
        if x is not None:
            yield from _events(x)


_EVENTS = n.arms("silent, the events", globals(), "_events_")
