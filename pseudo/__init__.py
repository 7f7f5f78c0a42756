"""pseudo: runs the pseudocode of J. Arsac's «Программирование игр и головоломок» (1990).

The stages:
    frontend (source → parser with layout → resolver → check)
    → analysis (facts every later stage reads)
    → pygen (the one Python code generator: `pseudo run`, `pseudo py`)
      | interpreter (the reference evaluator, a tree walk: mode "reference")
        and closures (the same made once into closures: `run --interpret`, trace, step, --stats)
    all calling the runtime, which decides what every operation does.
"""
from __future__ import annotations

__version__ = "0.2.0"

# The public API is imported on first use (PEP 562): `pseudo run` of a program already
# compiled once (pseudo/cache.py) starts without the front end, the analysis or the generator.
_API = {
    "Diagnostic": ".errors", "PseudoError": ".errors", "PseudoRuntimeError": ".errors", "StaticError": ".errors",
    "Source": ".frontend.source", "Program": ".nodes", "Limits": ".runtime", "Facts": ".analysis",
}


def __getattr__(name: str):
    if name not in _API:
        raise AttributeError(f"module 'pseudo' has no attribute {name!r}")
    from importlib import import_module
    value = getattr(import_module(_API[name], __name__), name)
    globals()[name] = value
    return value


class Loaded:
    """A program ready to run: its tree, the facts about it, its warnings and its files (the
    main one first); `named`: every path its ИСПОЛЬЗОВАТЬ name, also one that names a file
    loaded under another name (a link)."""
    __slots__ = ("facts", "main_file", "named", "program", "sources", "warnings")

    def __init__(self, program, facts, warnings, sources, main_file, named=()):
        self.program, self.facts, self.warnings = program, facts, warnings
        self.sources, self.main_file, self.named = sources, main_file, list(named)

    def __repr__(self) -> str:
        return f"Loaded(main_file={self.main_file!r}, sources={list(self.sources)!r})"


def load(source) -> Loaded:
    """Parse, resolve, analyse and check; raises StaticError listing every error found."""
    from .analysis import analyse
    from .errors import StaticError
    from .frontend.check import check
    from .frontend.resolver import diagnostic_order, resolve_program
    resolved = resolve_program(source)
    facts = analyse(resolved.program, resolved.walked)
    found = check(resolved.program, facts, resolved.captures)
    errors = resolved.errors + [d for d in found if d.severity == "error"]
    if errors:
        raise StaticError(sorted(errors, key=diagnostic_order))
    warnings = _once(resolved.warnings + [d for d in found if d.severity == "warning"])
    return Loaded(resolved.program, facts, sorted(warnings, key=diagnostic_order), resolved.sources,
                  source.filename, resolved.named)


def _once(warnings: list) -> list:
    """A tolerance of the printed text is reported once per kind and line."""
    seen, out = set(), []
    for w in warnings:
        key = (w.code, w.span.filename, w.span.line) if w.code.startswith("tol-") and w.span else id(w)
        if key not in seen:
            seen.add(key)
            out.append(w)
    return out


def run(loaded: Loaded, stdin=None, stdout=None, limits=None, mode: str = "compiled",
        stats=None, tracer=None) -> None:
    """Run a loaded program: compiled to Python (the default; "exact": without the fast code)
    or interpreted ("interpret": the evaluator of closures.py; "reference": the tree walk of
    interpreter.py, which tests hold it to); statistics (`interpreter.Stats`) and tracing
    (`tools.trace.Tracer`) interpret it."""
    from .execute import run as _run
    _run(loaded, stdin=stdin, stdout=stdout, limits=limits, mode=mode, stats=stats, tracer=tracer)


def load_ipython_extension(ipython) -> None:
    """`%load_ext pseudo` in IPython or Jupyter: the %%pseudo cell magic (see pseudo.notebook)."""
    from .notebook import load_ipython_extension as load_extension
    load_extension(ipython)


__all__ = ["Diagnostic", "Limits", "Loaded", "Program", "PseudoError", "PseudoRuntimeError", "Source",
           "StaticError", "load", "run"]
