"""Python names for the program's names: one scheme, fixed before any code is written.

Python compares identifiers after NFKC normalisation, so `ﬁ` and `fi`, or a fullwidth `ｘ` and
`x`, are one Python name; and a program may name a variable `print`, `граница` or `сообщить`.
The scheme:
- a name that is an NFKC-normal Python identifier keeps itself (`кол`, `HR`, `print`); a phrase
  is named by its words joined with `_` (`место_свободно`);
- any other name is spelt with its NFKC letters, a character that cannot stand in an
  identifier written as `_hex_`, and a final `_` (`x²` → `x2_`, `ﬁ` → `fi_`, `if` → `if_`);
- a variable named as one of Python's builtins takes a final `_` too (`print` → `print_`): a
  global that has no value yet would otherwise be Python's `print`, not the language's error;
- then the names the generated code takes from the runtime and from Python (`сообщить`,
  `range`) and gives things of its own (`главная`): these give way to the program's, taking
  `_`, then `_2`, `_3`, … where the program has the word (`сообщить_`);
- names the generated code makes for itself (cells, loop values, states) likewise.
Every name is claimed against the set of taken names — Python's keywords, and every name
claimed before it — compared after NFKC, and all the program's names are claimed before any
other: the scheme is injective, and the program's names change only where Python must.
"""
from __future__ import annotations

import builtins
import functools
import keyword
import unicodedata

from .. import nodes as n
from ..frontend.phrases import parse_pattern
from ..runtime.names import API, OWN, PYTHON_WORDS

# what a module's namespace holds besides its code's names
MODULE_NAMES = ("__file__", "__builtins__", "__name__", "__doc__", "__spec__", "__loader__", "__package__",
                "__annotations__", "__cached__")
MACHINE = (*OWN, *API, *PYTHON_WORDS)  # in the order they are claimed


@functools.cache
def runtime_names_of(module: str) -> frozenset[str]:
    """The names a runtime module defines at its top level (not those it imports from the others)."""
    import ast
    import importlib
    from importlib import resources
    namespace = vars(importlib.import_module(f"pseudo.runtime.{module}"))
    tree = ast.parse(resources.files("pseudo.runtime").joinpath(f"{module}.py").read_text(encoding="utf-8"))
    imported = {a.asname or a.name for node in tree.body if isinstance(node, ast.ImportFrom) and node.level > 0
                for a in node.names}
    return frozenset(x for x in namespace if not x.startswith("__") and x not in imported)


@functools.cache
def reserved() -> frozenset[str]:
    return frozenset(nfkc(w) for w in (*keyword.kwlist, *MODULE_NAMES))


@functools.cache
def python_builtins() -> frozenset[str]:
    return frozenset(dir(builtins))


def nfkc(name: str) -> str:
    return unicodedata.normalize("NFKC", name)


def spelled(text: str) -> str:
    """A Python spelling of any name: its NFKC letters, other characters as `_hex_`, then `_`."""
    out = []
    for ch in nfkc(text):
        ok = ch.isidentifier() if not out else ("a" + ch).isidentifier()
        out.append(ch if ok and ch != "_" else f"_{ord(ch):x}_")
    return "".join(out) + "_"


class Names:
    """The Python name of each variable, array and definition of a program, and of each name
    the generated code makes."""

    def __init__(self, program: n.Program):
        self.taken: set[str] = set(reserved())
        self.numbers: dict[str, int] = {}
        self.defs: dict[str, str] = {}
        self.vars: dict[str, str] = {}
        self.kept: dict[tuple, str] = {}  # (owner, base) → the name fresh() gave for it
        for key, d in sorted(program.definitions.items()):
            base = phrase_base(key) if d.is_phrase else key
            self.defs[key] = self._claim(base)
        for name in sorted(program_names(program)):
            self.vars[name] = self._claim(name, python_builtins())
        # the runtime's, Python's and the generated code's own names, after the program's
        self.machine: dict[str, str] = {word: self._claim(word) for word in MACHINE}

    def _claim(self, base: str, avoid: frozenset[str] = frozenset()) -> str:
        stem = base if base.isidentifier() and nfkc(base) == base and base not in avoid else spelled(base)
        name, number = stem, self.numbers.get(stem, 2)
        while nfkc(name) in self.taken:
            name, number = f"{stem}_" if number == 2 else f"{stem}_{number}", number + 1
        self.numbers[stem] = number  # the next try for this stem: fresh names are claimed by the hundred
        self.taken.add(nfkc(name))
        return name

    def var(self, name: str) -> str:
        return self.vars[name]

    def rt(self, word: str) -> str:
        """The Python name of a word of the runtime, of Python or of the generated code itself
        (runtime.names): the word, unless the program has it."""
        return self.machine[word]

    def renamed_machine(self) -> dict[str, str]:
        """The words that gave way to the program's names, and what they became."""
        return {word: py for word, py in self.machine.items() if py != word}

    def fresh(self, base: str, owner: str | None = None) -> str:
        """A name for something the generated code keeps (a cell, a loop value, a state).
        With an `owner` (the definition it lives in) the same base gets the same name each
        time: the fast and the exact code keep a parameter's cell under one name, which the
        error report reads."""
        if owner is None:
            return self._claim(base)
        if (owner, base) not in self.kept:
            self.kept[owner, base] = self._claim(base)
        return self.kept[owner, base]

    def program_names(self) -> dict[str, str]:
        """Python names of variables mapped back to the program's (for error messages)."""
        return {py: name for name, py in self.vars.items()}


def phrase_base(key: str) -> str:
    pattern = parse_pattern(key, None)
    return "_".join(e.replace("-", "_") for e in pattern.elements if isinstance(e, str) and e != ",")


def program_names(program: n.Program) -> set[str]:
    """Every variable, array, parameter and local name of the program."""
    names = {x for d in program.definitions.values() for x in d.locals}
    for root in n.bodies(program):
        for x in n.walk(root):
            if isinstance(x, n.Var | n.Index):
                names.add(x.name)
            elif isinstance(x, n.For):
                names.add(x.var)
    return names
