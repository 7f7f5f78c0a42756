"""The most characters each string of a program can have, for the readable code: where two
strings joined by `+` cannot together pass the limit of a string's length (MAX_STRING), it
joins them with Python's own `+`; elsewhere with the runtime's `сложить`, which stops at the
limit with the error every mode gives. The readable file runs without pseudo's limits of steps
and time, and a string that doubles (`s := s + s`) would otherwise grow there until memory ran
out.

The bounds are found as the kinds are (kinds.py): the same fixed point over the same variables,
arrays, parameters and results, with the longest length in place of the join of kinds. A
length is at most MAX_STRING, which stands for "unknown": no string is longer, since a join
checks and a line read is at most MAX_INPUT. A literal has its length; a line or a word read,
MAX_INPUT; СТРОКА of a number, at most its digits; a join, the sum. A bound that still grows after
a few rounds of the fixed point (a string joined to itself, `s := s + s`, or built up in a loop,
`s := s + 'x'`) is unknown.

One more join is written `+`: a string built up a few characters at a time, `строка := строка +
'П'` (a variable, or an array's elements, to which nothing else is joined and nothing longer
than MAX_INPUT is assigned). It may pass the limit only after millions of joins, each of which
copies the whole string in `pseudo run` and the interpreter: 11 million joins of 8 characters
to pass it from MAX_INPUT, 6·10^14 characters copied, more than eight hours at 20 GB a second,
where the time limit of `pseudo run` stops a program after one (the readable file has none by
design). No join that doubles a string is of this kind.
"""
from __future__ import annotations

from .. import nodes as n
from ..runtime.io import MAX_INPUT
from ..runtime.values import MAX_DIGITS, MAX_STRING
from .kinds import Kinds

# The longest text of a number read or made by a checked operation: a fraction's two parts of
# MAX_DIGITS digits, a sign and a slash; or ДЕСЯТИЧНОЕ's, up to 1000 digits after the point. Sums
# and products by a short factor are not checked and may grow an integer past it, by at most 20
# digits an operation: past the limit of a string only after hundreds of thousands of operations
# on integers of millions of digits, and sixteen such texts joined at once.
NUMBER_TEXT = 2 * MAX_DIGITS + 1002
KIND_WORDS = len("логическое")  # the longest word ВИД gives
GROWTH = 8  # how many times a bound may grow before it is taken to grow without end
SHORT = 8  # the longest piece a string built up a few characters at a time takes at a join


class Lengths(Kinds):
    """The bounds of lengths of strings, by the keys of kinds.Kinds; `joined` says where the
    readable code may join two strings with `+`."""

    def __init__(self, program: n.Program):
        self.grown: dict[tuple, int] = {}  # how many times each bound has grown
        self.base: dict[tuple, int] = {}  # each bound, without the joins of its key to itself
        self.appends: dict[int, tuple] = {}  # id of a join `x + piece` stored in x → (x's key, piece, scope)
        super().__init__(program)
        pieces: dict[tuple, int] = {}
        for key, piece, scope in self.appends.values():
            pieces[key] = max(pieces.get(key, 0), self.length(piece, scope))
        self.built_up = {key for key, longest in pieces.items()
                         if longest <= SHORT and self.base.get(key, 0) <= MAX_INPUT}

    def joined(self, e: n.Binary, scope: str | None) -> bool:
        """May the join `e` of two strings be Python's `+`: can it not pass the limit of a
        string's length, or is it a string built up a few characters at a time?"""
        return self.length(e.left, scope) + self.length(e.right, scope) <= MAX_STRING \
            or id(e) in self.appends and self.appends[id(e)][0] in self.built_up

    def length(self, e: n.Expr, scope: str | None) -> int:
        """The most characters `e` can have, if it is a string (MAX_STRING: unknown)."""
        return self._final(e, scope) or 0

    def _merge(self, key: tuple, length: int | None, itself: bool = False) -> None:
        """A string of `length` stored in `key` (`itself`: joined to the key's own strings)."""
        if length is None:
            return
        if not itself and length > self.base.get(key, -1):
            self.base[key] = length
            self.changed = True
        old = self.table.get(key)
        if old is not None and length <= old:
            return
        if old is not None:
            self.grown[key] = self.grown.get(key, 0) + 1
        self.table[key] = MAX_STRING if itself or self.grown.get(key, 0) > GROWTH else length
        self.changed = True

    # ---- the length of an expression (None: nothing stored yet) ----

    def _type_Const(self, e: n.Const, scope, part) -> int:
        return len(e.value) if type(e.value) is str else 0

    def _type_BuiltinCall(self, e: n.BuiltinCall, scope, part) -> int:
        args = [part(a, scope) or 0 for a in e.args]
        if e.name == "СТРОКА":  # the string itself, or the text of a number or a boolean
            return max(args[0], NUMBER_TEXT)
        if e.name in ("ПОДСТРОКА", "МИН", "МАКС"):  # a part of a string, one of the strings
            return max(args[:1] if e.name == "ПОДСТРОКА" else args)
        return {"СИМВОЛ": 1, "ДЕСЯТИЧНОЕ": NUMBER_TEXT, "ВИД": KIND_WORDS}.get(e.name, 0)  # others: numbers

    def _type_Binary(self, e: n.Binary, scope, part) -> int:
        if e.op != "+":
            return 0  # a number, or an error
        return min((part(e.left, scope) or 0) + (part(e.right, scope) or 0), MAX_STRING)

    def _type_IfExpr(self, e: n.IfExpr, scope, part) -> int | None:
        return max(part(e.then, scope) or 0, part(e.else_, scope) or 0)

    def _no_string(self, e, scope, part) -> int:
        return 0  # a number or a boolean

    _type_Unary = _type_Compare = _type_Logical = _type_Not = _no_string

    # ---- what a statement stores ----

    def _store_Assign(self, node: n.Assign, scope) -> None:
        value, key = node.value, self._target_key(node.target, scope)
        if isinstance(value, n.Binary) and value.op == "+" and isinstance(value.left, n.Var | n.Index) \
                and self._target_key(value.left, scope) == key:  # x := x + piece: x grows
            self.appends[id(value)] = (key, value.right, scope)
            self._merge(key, self._type(value, scope), itself=True)
        else:
            self._merge(key, self._type(value, scope))

    def _store_Read(self, node: n.Read, scope) -> None:
        for t in node.targets:
            self._store(t, MAX_INPUT, scope)

    def _store_For(self, node: n.For, scope) -> None:
        self._merge(self._key(node.var, scope), 0)  # a number: the runtime refuses any other


Lengths.TYPE = n.arms("lengths, an expression", Lengths, "_type_")
Lengths.STORE = n.arms("lengths, what a node stores", Lengths, "_store_")
