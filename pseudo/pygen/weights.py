"""How many steps the fast code counts at once, and where.

The interpreter counts a step at every loop iteration, call and transfer. The fast code
counts only at loop iterations, transfers and the calls of recursive definitions, but
counts there, at once, every step that can follow before the next such point: the calls
of non-recursive definitions (and their own calls, …) it may make on the way. So its count
is never below the true one when it looks at the limit, and it looks before anything more
can happen: reaching the limit, it stops no later than the program would, and the exact
code, run again from the start, finds the very step (see runner.run_program).

A short ДЛЯ of constant bounds is itself part of the straight run: all its turns are counted
at the point before it (`absorbed`), and it counts nothing itself.

A call of a recursive definition is counted by its caller, before the statement that makes
it (`calls`): the call and the callee's straight run, `entry(key)`. The calls a short ДЛЯ
makes are counted before it, all its turns at once, when they are few (`calls_in_loop`):
so the search «ДЛЯ i := 1 ДО 8 ВЫПОЛНЯТЬ ХОД(x + dx[i], …)» counts once for its eight
calls, and a call that ends at once (a square off the board) counts nothing of its own.

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
        self._blocks: dict[int, int] = {}  # id of a block → its straight run: each block is weighed
        # once, not once per loop around it (160 nested loops were weighed 700,000 times)

    def start(self) -> int:
        return self.block(self.program.main)

    def entry(self, key: str) -> int:
        """A call of a recursive definition: the call, and its straight run."""
        return 1 + self.body(key)

    def loop(self, s) -> int:
        """One iteration: the step, the body's straight run, and the condition of ПОКА (with
        the recursive calls it makes: the statements of the body count their own)."""
        cond = self.expr(s.cond) + self.calls_in(s.cond) if isinstance(s, n.While) else 0
        return 1 + self.block(s.body) + cond

    def transfer(self, a) -> int:
        """A transfer: the step, and the straight run of any state (falls chain states)."""
        return 1 + sum(self.stmts(state.stmts) for state in a.states)

    def absorbed(self, s) -> int:
        """The steps of all the turns of a ДЛЯ of constant integer bounds, when they are few
        enough to count at once with the run around it; 0 for a loop that counts its turns."""
        steps = _trips(s) * self.loop(s) if isinstance(s, n.For) else 0
        return steps if steps <= ABSORBED else 0

    # ---- the calls of recursive definitions, counted by their callers ----

    def calls(self, s) -> int:
        """The entries of the recursive definitions that statement `s` itself calls (in its
        expressions: a condition, bounds, arguments; not in the blocks it holds)."""
        return sum(self.calls_in(x) for x in n.children(s) if not isinstance(x, n.Block))

    def calls_in(self, e) -> int:
        """The entries of the recursive definitions that expression `e` calls."""
        if e is None or not isinstance(e, n.Node):
            return 0
        own = self.entry(e.name) if isinstance(e, n.Call) and e.name in self.recursive else 0
        return own + sum(self.calls_in(x) for x in n.children(e))

    def calls_in_loop(self, s) -> int:
        """The entries of the recursive calls all the turns of a short ДЛЯ (`absorbed`) make,
        when each turn makes them all and they are few enough to count before it; else 0 (a
        loop with a call under ЕСЛИ, a loop that counts or an automaton in it, too many: each
        call then counts its own, and the count stays as close to the true one as before)."""
        if not self.absorbed(s):
            return 0
        inside = self._calls_each_turn(s.body)
        steps = _trips(s) * inside if inside is not None else 0
        return steps if steps <= ABSORBED else 0

    def _calls_each_turn(self, block: n.Block) -> int | None:
        if self.facts.automaton(block) is not None:
            return None
        total = 0
        for s in block.stmts:
            if isinstance(s, n.While | n.Loop) or (isinstance(s, n.For) and not self.absorbed(s)):
                return None
            inner = [self._calls_each_turn(b) for b in n.blocks(s)]
            if None in inner or (isinstance(s, n.If) and sum(inner)):
                return None
            total += self.calls(s) + (_trips(s) if isinstance(s, n.For) else 0) * sum(inner)
        return total

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
        weight = self._blocks.get(id(block))
        if weight is None:
            a = self.facts.automaton(block)
            weight = sum(self.stmts(state.stmts) for state in a.states) if a is not None else self.stmts(block.stmts)
            self._blocks[id(block)] = weight
        return weight

    def stmts(self, stmts) -> int:
        return sum(self.stmt(s) for s in stmts)

    def stmt(self, s) -> int:
        return self.STMT[type(s)](self, s)

    def _stmt_If(self, s: n.If) -> int:
        return self.expr(s.cond) + max(self.block(s.then), self.block(s.else_) if s.else_ is not None else 0)

    def _stmt_While(self, s: n.While) -> int:
        return self.expr(s.cond)  # the first test; each iteration counts its own

    def _stmt_For(self, s: n.For) -> int:
        bounds = self.expr(s.start) + self.expr(s.stop) + (self.expr(s.step) if s.step is not None else 0)
        return bounds + self.absorbed(s)

    def _stmt_Loop(self, s: n.Loop) -> int:
        return 0  # each iteration counts its own

    def _straight(self, s) -> int:
        """A statement that holds no block: the calls its expressions make."""
        return sum(self.expr(x) for x in n.children(s))

    _stmt_Assign = _stmt_CallStmt = _stmt_Exit = _stmt_Print = _stmt_Read = _stmt_Screen = _stmt_Stop = \
        _stmt_Label = _stmt_Goto = _straight

    def expr(self, e) -> int:
        """The steps of the calls of non-recursive definitions an expression makes."""
        if e is None:
            return 0
        return self.EXPR[type(e)](self, e)

    def _expr_Call(self, e: n.Call) -> int:
        return self.call(e.name) + self._operands(e)

    def _operands(self, e) -> int:
        return sum(self.expr(x) for x in n.children(e))

    _expr_Const = _expr_Var = _expr_Index = _expr_BuiltinCall = _expr_Unary = _expr_Binary = _expr_Compare = \
        _expr_Logical = _expr_Not = _expr_IfExpr = _operands


Weights.STMT = n.arms("weights, statements", Weights, "_stmt_")
Weights.EXPR = n.arms("weights, expressions", Weights, "_expr_")


def _trips(s: n.For) -> int:
    """How many turns a ДЛЯ of constant integer bounds makes; 0 for any other."""
    bounds = (s.start, s.stop) + ((s.step,) if s.step is not None else ())
    if not all(isinstance(b, n.Const) and type(b.value) is int for b in bounds):
        return 0
    step = s.step.value if s.step is not None else 1
    if step == 0:
        return 0
    return max(0, (s.stop.value - s.start.value) // step + 1)  # not len(range(…)): a bound may pass 2**63
