"""The code generator: the resolved tree becomes Python `ast` — the only code generator.

Every generated node carries the position of the construct it comes from (columns in UTF-8
bytes), so that code compiled in memory reports errors at the program's own places, and an
emitted file can map its positions back (emit.py). Each body is written by its own `BodyCode`
(body.py: statements; expressions.py; automata.py).

Three kinds of code come out of one program:
- "readable": the program as a reader writes it in Python, the file `pseudo py` writes — the
  book's definitions called where the book calls them, operators plain where the kinds are
  known, arrays as lists where their indices are bounded, no count of steps;
- "fast": what `pseudo run` runs and `pseudo py --limits` writes — the same, with the steps
  counted in bulk for the limits, small functions written out in place of their calls, reads
  that stay the same during a loop made before it, short loops listing their values;
- "exact": every operation checked by the runtime, every step and call counted where the
  interpreter counts it; the fast code hands over to it (runtime/runner.py).
"""
from __future__ import annotations

import ast
import functools

from .. import nodes as n
from ..analysis import Facts
from ..frontend.source import Span
from ..runtime.names import API, MAIN, PYTHON_WORDS, STEPS
from .body import BodyCode
from .counts import COUNTING, counted_in_locals, merge_counts
from .inline import Inlining
from .names import Names
from .reads import read_once_in_tests, take_out_of_loops
from .syntax import COMMENT, SOURCE_FILE, call, comment, function, statement
from .unrolled import write_out_short_loops
from .weights import Weights

MODES = ("readable", "fast", "exact")
LIST_CELLS = 1 << 16  # an array of bounded indices is a list if it has at most this many cells


class Generator:
    """The program's Python: its definitions and главная, by source file."""

    def __init__(self, program: n.Program, facts: Facts, main_file: str, mode: str = "fast",
                 names: Names | None = None):
        if mode not in MODES:
            raise ValueError(f"no such kind of code: {mode}")
        self.program, self.facts, self.main_file, self.mode = program, facts, main_file, mode
        self.fast = mode != "exact"  # operators plain where kinds are known; arrays of the fast code
        self.readable = mode == "readable"
        self.counts = mode != "readable"  # steps counted for the limits (and, in the exact code, calls)
        self.kinds = facts.guarded_kinds if self.fast else facts.kinds
        self.weights = Weights(program, facts) if mode == "fast" else None
        self.names = names or Names(program)
        self.comments = sorted(program.comments, key=lambda c: (c.span.filename, c.span.line))
        self.cells: dict[tuple, str] = {}  # (definition, local) → the cell that holds it
        self.frames_per_call = 2  # the definition's frame, and one for a runtime helper it calls
        self.inlining = Inlining(program) if mode == "fast" else None
        # program places whose errors the exact code reports: of a node written out in place of a
        # call (→ its function's Python name), of one evaluated after an element of a list that
        # may have no value (→ "")
        self.exact_places: dict[tuple, str] = {}
        self.acting: dict[int, bool] = {}  # id of an expression → does it act (inline.acts)
        self.layouts, self.list_sizes = self._layouts()
        self.checked = False  # some element of a list is checked where it is copied (`задано`)

    # ---- arrays ----

    def _layouts(self) -> tuple[dict[str, str], dict[str, list[int]]]:
        """How each array is kept: "list" (a list of ПУСТО, rows of rows for several indices:
        its indices bounded, `list_sizes`), "grown" (the fast code's, for several indices, the
        first never negative but without an upper bound, the others bounded: a list of such
        rows that grows where an element is stored, `вырастить`; `row_sizes`), "dict" (one
        index), "nested" (several: plain dicts of dicts, which CPython indexes faster than a
        dict of a class of its own; a row is made where an element is stored,
        `a.setdefault(i, {})[j] = …`) or "array" (a `Массив`: in the exact code, or used with
        different numbers of indices)."""
        layouts, sizes = {}, {}
        self.row_sizes: dict[str, list[int]] = {}
        for array in self.facts.arrays:
            indices = self.facts.index_counts.get(array)
            if not self.fast or indices is None:
                layouts[array] = "array"
                continue
            bounds = self.facts.bounds.indices(array)
            lengths = _lengths(bounds) if bounds else None
            if lengths and functools.reduce(lambda a, b: a * b, lengths) <= LIST_CELLS:
                layouts[array], sizes[array] = "list", lengths
            elif self.mode == "fast" and (rows := self.facts.bounds.rows(array)) is not None:
                layouts[array], self.row_sizes[array] = "grown", _lengths(rows)
            else:
                layouts[array] = "dict" if indices == 1 else "nested"
        return layouts, sizes

    def layout(self, array: str) -> str:
        return self.layouts[array]

    def arrays_note(self) -> str | None:
        """The comment over the readable code's arrays: which are lists and the bounds of
        their indices, which are dicts of dicts, what ПУСТО and `задано` are."""
        import textwrap
        glue = "\N{NO-BREAK SPACE}"  # an array's bounds stay on one line
        lists = [f"{a}[{', '.join(f'{lo} … {hi}' for lo, hi in self.facts.bounds.indices(a))}]".replace(" ", glue)
                 for a in self.list_sizes]
        rows = [f"{a}[{']['.join('…' * self.facts.index_counts[a])}]" for a, kind in self.layouts.items()
                if kind == "nested"]
        sentences = []
        if lists:
            negative = any(lo < 0 for a in self.list_sizes for lo, _ in self.facts.bounds.indices(a))
            sentences.append("Массивы с индексами в известных границах — списки Python: " + ", ".join(lists)
                             + ("; индекс -1 — последний элемент списка" if negative else "") + ". ПУСТО — "
                             "элемент, которому ещё ничего не присвоено"
                             + ("; задано(…) проверяет, что у копируемого элемента есть значение." if self.checked
                                else "."))
        if rows:
            sentences.append("Массивы нескольких индексов без известных границ — словари словарей: "
                             + ", ".join(rows) + "; строка заводится, когда её элементу впервые присваивают "
                             "значение (setdefault).")
        if not sentences:
            return None
        return "\n".join(textwrap.wrap(" ".join(sentences), 88, break_long_words=False,
                                       break_on_hyphens=False)).replace(glue, " ")

    # ---- the program ----

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
        if self.mode == "fast":
            take_out_of_loops(self, [(code, fn) for _, _, code, fn, _ in written])
            read_once_in_tests(self, [fn for _, _, _, fn, _ in written])
        for file, before, _, fn, owner in written:
            parts.setdefault(file, []).extend(before + [self.counted(fn, owner)])
        for c in self.comments:  # after the last statement of their file
            parts.setdefault(c.span.filename, []).append(comment(c.text))
        self.comments = []
        return parts

    def counted(self, fn: ast.FunctionDef, owner: str) -> ast.FunctionDef:
        """A function with its counts of steps made cheaper (pygen.counts), and its short
        loops of constant values written out (pygen.unrolled)."""
        if self.mode == "fast":
            steps = self.names.rt(STEPS)
            merge_counts(fn, steps)
            counted_in_locals(fn, steps, lambda base: self.names.fresh(base, owner), self.calls_that_do_not_count())
            write_out_short_loops(fn)
        return fn

    def calls_that_do_not_count(self) -> frozenset[str]:
        """What a loop that counts its steps in a local may call: Python's builtins, the runtime's
        functions, except those that count, and the marker of a comment."""
        return _builtins() - set(self.names.vars.values()) - set(self.names.defs.values()) \
            | {self.names.rt(x) for x in (*API, *PYTHON_WORDS) if x not in COUNTING} | {COMMENT}

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
        forget = statement(call(self.names.rt("забыть"), [call(self.names.rt("globals"), []), names]))
        run = statement(call(self.names.rt(MAIN), []))
        return function(name_, [], [forget] + defs + [main, run])

    def comments_before(self, span: Span | None) -> list[ast.stmt]:
        if span is None:
            return []
        taken = [c for c in self.comments if c.span.filename == span.filename and c.span.line < span.line]
        for c in taken:
            self.comments.remove(c)
        return [comment(c.text) for c in taken]


def _lengths(bounds: list[tuple[int, int]]) -> list[int]:
    """The length of a list for each index between its bounds: a negative index counts from the
    end (`-1` the last element)."""
    return [(hi + 1 if hi >= 0 else 0) + (-lo if lo < 0 else 0) for lo, hi in bounds]


@functools.cache
def _builtins() -> frozenset[str]:
    import builtins
    return frozenset(dir(builtins))
