"""The code of automata: a structured plan (structure.py) as loops, `continue` and `break`; or,
where the states cannot be structured without writing one twice, one function per state and a
loop that runs them."""
from __future__ import annotations

import ast

from .. import nodes as n
from ..analysis.automaton import END, FINAL, Automaton, own_transfers
from ..runtime.names import STATE, STATES
from .structure import Jump, Loop, StateCode
from .syntax import at, call, comment, function, is_comment, name, statement


class AutomatonCode:
    """The automata of a body (a mixin of BodyCode)."""

    def render(self, plan: list, where, counted: bool = True) -> list[ast.stmt]:
        """A structured plan as loops, `continue` and `break`."""
        out: list[ast.stmt] = []
        for item in plan:
            if isinstance(item, Loop):
                out.append(comment(f"состояние {item.state}: цикл"))
                body = self.render(item.body, where)
                if body and _is_state_comment(body[0], item.state):
                    body.pop(0)  # named by the loop's own comment
                while body and isinstance(body[-1], ast.Continue):
                    body.pop()
                # a transfer back to the head ends the body: its count stays, the `continue` goes
                out.append(ast.While(test=ast.Constant(True), body=body or [ast.Pass()], orelse=[]))
                out.extend(self.render(item.after, where, counted=False))  # the `break` counted the step
            elif isinstance(item, StateCode):
                out.append(comment(f"состояние {item.state}"))
                state_where = where.but(jumps=item.jumps)
                out.extend(self.statements(item.stmts, state_where))
                if item.fall is not None:
                    out.extend(self.jump(item.fall, None, where, counted=False))
            else:
                out.extend(self.jump(item, None, where, counted=counted))
        return out

    def jump(self, j: Jump, span, where, counted: bool) -> list[ast.stmt]:
        step = self.count_transfer(self.state_spans.get(j.target)) if counted and j.kind not in ("final", "end") \
            else []
        if j.kind == "continue":
            return step + [ast.Continue()]
        if j.kind == "break":
            return step + [ast.Break()]
        if j.kind == "final":
            return [statement(call(self.rt("конец_работы"), [], span), span)]
        if j.kind == "end":
            return self.end_of_procedure(span) if self.key is not None else [ast.Return(value=None)]
        if j.kind == "return":  # from a state function of a dispatch loop
            if j.target == FINAL:
                return [statement(call(self.rt("конец_работы"), [], span), span)]
            return step + [ast.Return(value=ast.Constant(None if j.target == END else j.target))]
        return step + self.render(j.plan, where)

    def dispatch(self, a: Automaton, where, nested: bool) -> list[ast.stmt]:
        """Any automaton: a function for each state that is entered first or reached from
        several places, holding the states only it leads to, and returning the name of the
        state to run next (None at the end); a loop calls them. A transfer to a label outside a
        nested automaton ends its loop, and the state function around it passes the label on."""
        self.gen.frames_per_call = max(self.gen.frames_per_call, 2 + self.gen.facts.dispatch_depth(a))
        heads = _heads(a, every=self.outlined)  # a body nested too deep has each state apart
        functions, table = [], []
        for state in a.states:
            if state.name not in heads:
                continue
            self.scopes.append(self.new_scope())
            body = self.render(self.state_plan(a, state.name, heads), where.but(loops=(), jumps={}, depth=0))
            if body and _is_state_comment(body[0], state.name):
                body.pop(0)  # the function's name says it
            decls = self.declarations()
            self.scopes.pop()
            fn_name = self.names.fresh(f"состояние_{state.name}")
            functions.append(at(function(fn_name, [], decls + body), state.span))
            table.append((state.name, fn_name))
        states = ast.Dict(keys=[ast.Constant(s) for s, _ in table], values=[name(f) for _, f in table])
        variable, functions_of = self.rt(STATE), self.rt(STATES)
        current = name(variable)
        test = (ast.Compare(left=current, ops=[ast.In()], comparators=[name(functions_of)]) if nested else
                ast.Compare(left=current, ops=[ast.IsNot()], comparators=[ast.Constant(None)]))
        run = ast.Assign(targets=[name(variable, ctx=ast.Store())], value=ast.Call(
            func=ast.Subscript(value=name(functions_of), slice=current, ctx=ast.Load()), args=[], keywords=[]))
        out = functions + [ast.Assign(targets=[name(functions_of, ctx=ast.Store())], value=states),
                           ast.Assign(targets=[name(variable, ctx=ast.Store())], value=ast.Constant(a.entry)),
                           ast.While(test=test, body=[run], orelse=[])]
        if nested and _leaves(a):  # a transfer to an outer label: the enclosing state function passes it on
            out.append(ast.If(test=ast.Compare(left=name(variable), ops=[ast.IsNot()],
                                               comparators=[ast.Constant(None)]),
                              body=[ast.Return(value=name(variable))], orelse=[]))
        return out

    def state_plan(self, a: Automaton, state_name: str, heads: set[str]) -> list:
        """A state's code in its function: a transfer to a state with a function of its own
        returns that state's name; the states only it leads to are written in place."""
        state = a.state(state_name)
        jumps = {id(t): self.state_jump(a, t.label if isinstance(t, n.Goto) else FINAL, heads)
                 for t in own_transfers(state.stmts)}
        fall = next((e.target for e in state.edges if e.kind == "fall"), None)
        return [StateCode(state_name, state.stmts, jumps, None if fall is None else self.state_jump(a, fall, heads))]

    def state_jump(self, a: Automaton, target: str, heads: set[str]) -> Jump:
        if target in heads or target in (FINAL, END) or a.state(target) is None:
            return Jump("return", target)
        return Jump("inline", target, self.state_plan(a, target, heads))


def _heads(a: Automaton, every: bool) -> set[str]:
    """The states of an automaton that get a function of their own: the entry, and each state
    reached from several places (or from none but a cycle of such states); all of them if
    `every`."""
    if every:
        return {s.name for s in a.states}
    reached: dict[str, int] = {}  # the places each state is reached from: transfers (in nested blocks too), falls
    names = {s.name for s in a.states}
    for s in a.states:
        targets = [x.label for st in s.stmts for x in n.walk(st) if isinstance(x, n.Goto) and x.label in names]
        for target in targets + [e.target for e in s.edges if e.kind == "fall"]:
            reached[target] = reached.get(target, 0) + 1
    # a transfer from a nested automaton comes back through its loop: its target needs a function
    own = {id(t) for s in a.states for t in own_transfers(s.stmts)}
    nested = {x.label for s in a.states for st in s.stmts for x in n.walk(st) if isinstance(x, n.Goto)
              and id(x) not in own}
    heads = {a.entry} | nested & names | {s.name for s in a.states if reached.get(s.name, 0) != 1}
    written = set()
    todo = list(heads)
    while True:  # the states a head leads to alone are written in it; any left over are heads too
        while todo:
            for e in a.state(todo.pop()).edges:
                if e.target not in heads and e.target not in written and a.state(e.target) is not None:
                    written.add(e.target)
                    todo.append(e.target)
        left = [s.name for s in a.states if s.name not in heads and s.name not in written]
        if not left:
            return heads
        heads.add(left[0])
        todo.append(left[0])


def _is_state_comment(s: ast.stmt, state: str) -> bool:
    return is_comment(s) and s.value.args[0].value == f"состояние {state}"


def _leaves(a: Automaton) -> bool:
    """Does some transfer of the automaton name a label it does not have?"""
    names = {s.name for s in a.states}
    return any(isinstance(t, n.Goto) and t.label not in names for s in a.states for t in own_transfers(s.stmts))
