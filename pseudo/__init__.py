"""pseudo: runs the pseudocode of J. Arsac's «Программирование игр и головоломок» (1990).

The stages:
    frontend (source → parser with layout → resolver → check)
    → analysis (facts every later stage reads)
    → pygen (the one Python code generator: `pseudo run`, `pseudo py`)
      | interpreter (the reference evaluator: `run --interpret`, trace, step, --stats)
    both calling the runtime, which decides what every operation does.
"""
from __future__ import annotations

from dataclasses import dataclass

from .analysis import Facts, analyse
from .errors import Diagnostic, PseudoError, PseudoRuntimeError, StaticError
from .frontend.check import check as _check
from .frontend.resolver import diagnostic_order, resolve_program
from .frontend.source import Source
from .nodes import Program
from .runtime import Limits

__version__ = "0.2.0"


@dataclass
class Loaded:
    """A program ready to run: its tree, the facts about it, its warnings and its files."""
    program: Program
    facts: Facts
    warnings: list[Diagnostic]
    rules_seen: set[str]
    sources: dict[str, Source]  # every file, the main one first
    main_file: str


def load(source: Source) -> Loaded:
    """Parse, resolve, analyse and check; raises StaticError listing every error found."""
    resolved = resolve_program(source)
    facts = analyse(resolved.program, resolved.walked)
    found = _check(resolved.program, facts)
    errors = resolved.errors + [d for d in found if d.severity == "error"]
    if errors:
        raise StaticError(sorted(errors, key=diagnostic_order))
    warnings = _once(resolved.warnings + [d for d in found if d.severity == "warning"])
    return Loaded(resolved.program, facts, sorted(warnings, key=diagnostic_order), resolved.rules_seen,
                  resolved.sources, source.filename)


def _once(warnings: list[Diagnostic]) -> list[Diagnostic]:
    """A tolerance of the printed text is reported once per kind and line."""
    seen, out = set(), []
    for w in warnings:
        key = (w.code, w.span.filename, w.span.line) if w.code.startswith("tol-") and w.span else id(w)
        if key not in seen:
            seen.add(key)
            out.append(w)
    return out


def run(loaded: Loaded, stdin=None, stdout=None, limits: Limits | None = None, mode: str = "compiled",
        stats=None, tracer=None) -> None:
    """Run a loaded program: compiled to Python (the default) or interpreted ("interpret");
    statistics (`interpreter.Stats`) and tracing (`tools.trace.Tracer`) interpret it."""
    from .execute import run as _run
    _run(loaded, stdin=stdin, stdout=stdout, limits=limits, mode=mode, stats=stats, tracer=tracer)


def load_ipython_extension(ipython) -> None:
    """`%load_ext pseudo` in IPython or Jupyter: the %%pseudo cell magic (see pseudo.notebook)."""
    from .notebook import load_ipython_extension as load_extension
    load_extension(ipython)


__all__ = ["Diagnostic", "Limits", "Loaded", "Program", "PseudoError", "PseudoRuntimeError", "Source",
           "StaticError", "load", "run"]
