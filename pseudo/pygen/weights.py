"""How many steps the fast code counts at once, and where.

The interpreter counts a step at every loop iteration, call and transfer. The fast code
counts only at loop iterations, transfers and the entries of recursive definitions, but
counts there, at once, every step that can follow before the next such point: the calls
of non-recursive definitions (and their own calls, …) it may make on the way. So its count
is never below the true one when it looks at the limit, and it looks before anything more
can happen: reaching the limit, it stops no later than the program would, and the exact
code, run again from the start, finds the very step (see runner.run_program).

A short ДЛЯ of constant bounds is itself part of the straight run: all its turns are counted
at the point before it (`absorbed`), and it counts nothing itself.

`Weights.loop(s)` is the weight of one iteration of a loop, `entry(key)` of a call of a
recursive definition, `transfer(a)` of a transfer within the automaton `a`, and
`start(program)` of the main program before its first such point.
"""
from __future__ import annotations

from .. import nodes as n
from ..runtime.limits import CHECK_EVERY

ABSORBED = CHECK_EVERY  # the most steps a ДЛЯ of constant bounds may add to the run around it


class Weights:
    def __init__(self, program: n.Program, facts):
        self.program, self.facts = program, facts
        self.recursive = facts.recursive
        self._calls: dict[str, int] = {}

    def start(self) -> int:
        return self.block(self.program.main)

    def entry(self, key: str) -> int:
        """A call of a recursive definition: the call, and its straight run."""
        return 1 + self.body(key)

    def loop(self, s) -> int:
        """One iteration: the step, the body's straight run, and the condition of ПОКА."""
        cond = self.expr(s.cond) if isinstance(s, n.While) else 0
        return 1 + self.block(s.body) + cond

    def transfer(self, a) -> int:
        """A transfer: the step, and the straight run of any state (falls chain states)."""
        return 1 + sum(self.stmts(state.stmts) for state in a.states)

    def absorbed(self, s) -> int:
        """The steps of all the turns of a ДЛЯ of constant integer bounds, when they are few
        enough to count at once with the run around it; 0 for a loop that counts its turns."""
        if not isinstance(s, n.For):
            return 0
        bounds = (s.start, s.stop) + ((s.step,) if s.step is not None else ())
        if not all(isinstance(b, n.Const) and type(b.value) is int for b in bounds):
            return 0
        step = s.step.value if s.step is not None else 1
        if step == 0:
            return 0
        trips = len(range(s.start.value, s.stop.value + (1 if step > 0 else -1), step))
        steps = trips * self.loop(s)
        return steps if steps <= ABSORBED else 0

    # ---- the straight run: steps taken before the next counting point ----

    def body(self, key: str) -> int:
        d = self.program.definitions[key]
        return self.expr(d.body) if d.is_function else self.block(d.body)

    def call(self, key: str) -> int:
        """The steps of a call of a non-recursive definition: the call and its straight run."""
        if key in self.recursive:
            return 0  # it counts at its own entry
        if key not in self._calls:
            self._calls[key] = 1 + self.body(key)
        return self._calls[key]

    def block(self, block: n.Block) -> int:
        a = self.facts.automaton(block)
        if a is not None:
            return sum(self.stmts(state.stmts) for state in a.states)
        return self.stmts(block.stmts)

    def stmts(self, stmts) -> int:
        return sum(self.stmt(s) for s in stmts)

    def stmt(self, s) -> int:
        match s:
            case n.If(cond=cond, then=then, else_=else_):
                return self.expr(cond) + max(self.block(then), self.block(else_) if else_ is not None else 0)
            case n.While(cond=cond):
                return self.expr(cond)  # the first test; each iteration counts its own
            case n.For(start=start, step=step, stop=stop):
                bounds = self.expr(start) + self.expr(stop) + (self.expr(step) if step is not None else 0)
                return bounds + self.absorbed(s)
            case n.Loop():
                return 0
        return sum(self.expr(x) for x in n.children(s) if not isinstance(x, n.Block))

    def expr(self, e) -> int:
        if e is None or not isinstance(e, n.Node):
            return 0
        own = self.call(e.name) if isinstance(e, n.Call) else 0
        return own + sum(self.expr(x) for x in n.children(e))
