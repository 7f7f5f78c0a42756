"""Binding names: parameters, ДЛЯ variables and РЕЗУЛЬТАТ are local to a definition, every
other name is global, and a name written with look-alike letters resolves to the one defined
(with a warning).
"""
from __future__ import annotations

from .. import nodes as n
from ..errors import Diagnostic, diagnostic
from ..messages import hint, nearest
from ..runtime.library import BUILTINS
from ..runtime.messages import KIND_WORDS, RUNTIME_HINTS
from ..runtime.names import RESULT
from .source import Span, fold_lookalikes
from .syntax_errors import keyword_hint


def bind_names(program: n.Program, warnings: list[Diagnostic], errors: list[Diagnostic],
               unread: set[str] = frozenset()) -> tuple[n.Program, dict[int, tuple[n.Node, list[n.Node]]]]:
    """Locals per definition, globals, calls of parameterless definitions, look-alike names;
    `unread`: definitions whose header did not parse (a call of one is not reported).
    Also the nodes of each body that needed no change (`nodes.walk` of it, by the body's id):
    the analysis reads them instead of walking the body again."""
    defs = program.definitions
    names = _Names(program)
    locals_of, assigned = names.locals, names.assigned
    lookalikes = _FoldIndex(assigned, defs)
    nearest_call = _Nearest(lambda: [k for k in defs if not k.startswith("«")] + [b for b in BUILTINS if " " not in b])

    def binder(scope_locals: tuple[str, ...]):
        local = set(scope_locals)
        nearest_value = _Nearest(lambda: [*local, *assigned])

        def known(name: str) -> bool:
            return name in local or name in assigned

        def resolve_name(name: str, span: Span) -> str:
            if known(name) or name in defs:
                return name
            folded = lookalikes.matches(name) | {m for m in local if fold_lookalikes(m) == fold_lookalikes(name)}
            if len(folded) == 1:
                resolved = folded.pop()
                warnings.append(diagnostic("warning", "tol-lookalike", span, written=name, resolved=resolved))
                return resolved
            return name

        def call_hint(name: str, arity: int) -> str:
            """Why a call names nothing: a variable or array of the program, a misspelling of
            a definition or a keyword; else the header that defines it."""
            if known(name):
                return hint("call-of-variable", name=name)
            near = nearest_call(name)
            params = ", ".join("abcdefgh"[i] if i < 8 else f"p{i + 1}" for i in range(arity))
            return hint("undefined-call", nearest=near) if near else keyword_hint(name) or \
                hint("undefined-call-define", header=f"{name} ({params}) =" if arity else f"{name} =")

        def never_assigned(node) -> None:
            near = nearest_value(node.name)
            why = RUNTIME_HINTS["kind-word"].format(name=node.name) if node.name in KIND_WORDS else \
                hint("never-assigned", nearest=near) if near else keyword_hint(node.name)
            warnings.append(diagnostic("warning", "never-assigned", node.span, why, name=node.name))

        def fix(node):
            match node:
                case n.Var(name=name) if not known(name):
                    name = resolve_name(name, node.span)
                    if name in defs:
                        return n.Call(node.span, name, ())
                    if not known(name):
                        never_assigned(node)
                    return n.Var(node.span, name)
                case n.Index(name=name) if not known(name):
                    name = resolve_name(name, node.span)
                    if not known(name):
                        never_assigned(node)
                    return n.Index(node.span, name, node.indices)
                case n.Call(name=name) if name not in defs:
                    resolved = resolve_name(name, node.span)
                    if resolved in defs:
                        return n.Call(node.span, resolved, node.args)
                    if name in BUILTINS and not known(name):  # the program's own names hide a built-in
                        return n.BuiltinCall(node.span, name, node.args)
                    if name in BUILTINS:  # `МАКС := 0` and then МАКС(a, b)
                        errors.append(hidden_builtin(node, program))
                        return node
                    if name in unread:
                        return node
                    errors.append(diagnostic("error", "undefined-call", node.span, call_hint(name, len(node.args)),
                                             name=name))
                    return n.Call(node.span, resolved, node.args)
                case n.CallStmt(call=n.BuiltinCall(name=name)):  # `ДЛИНА(x)` alone: its value is lost
                    errors.append(diagnostic("error", "builtin-as-statement", node.span,
                                             hint("builtin-as-statement", call=node.call.span.text()), name=name))
            return node
        return fix

    walked = {}

    def bound(key: str | None, root):
        if names.all_known(key, defs):
            walked[id(root)] = root, names.nodes[key]
            return root
        return n.rewrite(root, binder(locals_of[key] if key is not None else ()))
    new_defs = {key: n.Definition(d.span, d.name, d.params, bound(key, d.body), locals_of[key], d.is_phrase,
                                  d.words) for key, d in defs.items()}
    return n.Program(program.span, new_defs, bound(None, program.main), program.comments), walked


def hidden_builtin(call: n.Call, program: n.Program) -> Diagnostic:
    """A built-in function called where a variable or array of the program has its name."""
    name = call.name
    first = next((x for body in n.bodies(program) for x in n.walk(body) if _assigns(x, name)), None)
    what = "массив" if any(isinstance(t, n.Index) and t.name == name for t in _assigned(first)) else "переменная"
    line = first.span.line if first is not None else call.span.line
    text = first.span.full_text() if first is not None else name
    whom = "массив" if what == "массив" else "переменную"
    return diagnostic("error", "builtin-hidden", call.span,
                      hint("builtin-hidden", name=name, whom=whom, line=line, text=text), name=name, what=what)


def _assigned(node) -> list:
    if isinstance(node, n.Assign):
        return [node.target]
    if isinstance(node, n.Read):
        return list(node.targets)
    return []


def _assigns(node, name: str) -> bool:
    return isinstance(node, n.For) and node.var == name or \
        any(isinstance(t, n.Var | n.Index) and t.name == name for t in _assigned(node))


class _Nearest:
    """The nearest of some names to a name, for a hint. The names are listed when first needed
    (most scopes need none), and each name is looked up once (a program may read the same
    unset variable a thousand times)."""

    def __init__(self, choices):
        self.choices, self.listed, self.found = choices, None, {}

    def __call__(self, name: str) -> str | None:
        """The nearest other name: a hint never offers the name written."""
        if name not in self.found:
            if self.listed is None:
                self.listed = self.choices()
            self.found[name] = nearest(name, [c for c in self.listed if c != name])
        return self.found[name]


class _FoldIndex:
    """The global names and definitions by their look-alike folding, built when first asked."""

    def __init__(self, assigned: set[str], defs: dict):
        self.names, self.by_fold = (assigned, defs), None

    def matches(self, name: str) -> set[str]:
        if self.by_fold is None:
            self.by_fold = {}
            for group in self.names:
                for m in group:
                    self.by_fold.setdefault(fold_lookalikes(m), set()).add(m)
        return set(self.by_fold.get(fold_lookalikes(name), ()))


NAMED = (n.Var, n.Index)  # a tuple, not n.Var | n.Index: in a loop over every node, the union is made each time


class _Names:
    """What one walk of each body finds for binding names: each definition's locals —
    parameters first, then ДЛЯ variables and РЕЗУЛЬТАТ in the order of the text —, the names
    that receive a value outside any definition's locals, and the names each body reads and
    calls (a body whose names are all known needs no rewriting)."""

    def __init__(self, program: n.Program):
        self.locals: dict[str, tuple[str, ...]] = {}
        self.assigned: set[str] = set()
        self.read: dict[str | None, set[str]] = {}
        self.called: dict[str | None, set[str]] = {}
        self.builtin_statement: set[str | None] = set()
        self.nodes: dict[str | None, list[n.Node]] = {}
        for key, d in [(None, None), *program.definitions.items()]:
            self._walk(key, d, d.body if d is not None else program.main, program.definitions)

    def _walk(self, key, d, body, definitions) -> None:
        names = [p.name for p in d.params] if d is not None else None  # the main program has no locals
        written: list[str] = []
        read, called = self.read.setdefault(key, set()), self.called.setdefault(key, set())
        self.nodes[key] = nodes = list(n.walk(body))
        for node in nodes:
            extra = None
            if isinstance(node, NAMED):
                read.add(node.name)
                extra = node.name if node.name == RESULT else None
            elif isinstance(node, n.For):
                extra = node.var
            elif isinstance(node, n.Call):
                called.add(node.name)
            elif isinstance(node, n.CallStmt) and isinstance(node.call, n.BuiltinCall):
                self.builtin_statement.add(key)
            written.extend(n.assigned(node, definitions))
            if extra and names is not None and extra not in names:
                names.append(extra)
        local = set(names or ())
        self.assigned.update(name for name in written if name not in local)
        if d is not None:
            self.locals[key] = tuple(names)

    def all_known(self, key: str | None, defs: dict) -> bool:
        """Does every name the body reads or calls stand for itself (nothing to bind, to warn
        about or to report)?"""
        local = self.locals.get(key, ())
        return key not in self.builtin_statement and all(c in defs for c in self.called[key]) and \
            all(name in local or name in self.assigned for name in self.read[key])

