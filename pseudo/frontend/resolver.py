"""Resolution: the raw tree of a program and the files it uses becomes the resolved tree.

`loading` parses the files, `bodies` resolves each body's token runs into nodes (phrases,
calls, transfers), `binding` binds the names; this module runs them over the whole program.
"""
from __future__ import annotations

from .. import nodes as n
from ..errors import Diagnostic, StaticError, diagnostic
from ..messages import hint
from .binding import bind_names
from .bodies import BodyResolver
from .loading import Loaded, diagnostic_order, load
from .parser import RawDef, RawUse
from .phrases import Pattern, PhraseTable, parse_pattern
from .raw import Broken, header_text, raw_labels
from .source import Source, Span


class Scope:
    """What a body can see: its locals, its labels (name → block id), its loops. `name`: None
    for the main program; `chain`: the ids of the enclosing raw blocks; `by_fold`: the labels
    by their look-alike folding, made when first asked."""

    def __init__(self, name: str | None, params: list[n.Param]):
        self.name, self.params = name, params
        self.labels: dict[str, tuple[int, str, Span]] = {}
        self.chain: list[int] = []
        self.loops: list[str] = []
        self.open: list[n.Stmt] = []  # the statements whose blocks the resolver is in
        self.by_fold: dict[str, list[str]] | None = None


class Resolver:
    def __init__(self, loaded: Loaded):
        self.loaded = loaded
        self.errors: list[Diagnostic] = []
        self.warnings: list[Diagnostic] = []
        self.procs: dict[str, RawDef] = {}
        self.patterns: dict[str, Pattern] = {}
        self.phrases = PhraseTable()
        self.expr_cache: dict[tuple, n.Expr | StaticError] = {}
        self.value_cache: dict[tuple, n.Expr | StaticError] = {}  # BodyResolver.value's
        self.walked: dict[int, tuple[n.Node, list[n.Node]]] = {}  # bind_names's, for the analysis
        self.declared: set[int] = set()  # ids of the RawDefs accepted by _declare
        self.captures: dict[tuple, tuple[str, Diagnostic]] = {}  # (place) → (phrase, warning): warn_capture
        self.broken = Broken()  # what the chunks that did not parse define: not reported as unknown
        for f in loaded.files:
            self.errors.extend(f.errors)
            self.broken.names |= f.broken.names
            self.broken.labels |= f.broken.labels
        self.all_labels = {s.name: s.span for f in loaded.files for item in [n.Block(None, tuple(
            x for x in f.main if not isinstance(x, RawUse)))] + [d.body for d in f.definitions]
            for s in raw_labels(item)}

    # ---- the whole program ----

    def resolve(self) -> n.Program:
        for f in self.loaded.files:
            self.warnings.extend(f.warnings)
            for d in f.definitions:
                self._declare(d)
        definitions = {}
        for f in self.loaded.files:
            for d in f.definitions:
                if id(d) in self.declared:
                    definitions[d.name if not d.is_phrase else self.patterns[d.name].key] = self._definition(d, f.source)
        main_file = self.loaded.main
        stmts = [s for s in main_file.main if not isinstance(s, RawUse)]
        span = stmts[0].span if stmts else Span(main_file.source, 1, 1, 1, 1)
        raw_main = n.Block(span, tuple(stmts))
        body = BodyResolver(self, main_file.source, Scope(None, []))
        body.collect_labels(raw_main)
        main = body.guard(lambda: body.block(raw_main), n.Block(span, ()))
        comments = tuple(c for f in self.loaded.files for c in f.comments)
        program = n.Program(span, definitions, main, comments)
        program, self.walked = bind_names(program, self.warnings, self.errors, self.broken.names)
        _name_the_missing_label(self.errors)
        return program

    def _declare(self, d: RawDef) -> None:
        if d.is_phrase:
            try:
                pattern = parse_pattern(d.name, d.span)
            except StaticError as e:
                self.errors.extend(e.diagnostics)
                return
            other = self.phrases.by_shape.get(pattern.shape)
            if other:
                self.errors.append(diagnostic("error", "duplicate-def", d.span, hint("duplicate-def"), name=pattern.key,
                                              where=f"строке {other.span.line}"))
                return
            self.patterns[d.name] = pattern
            self.phrases.add(pattern)
            self.declared.add(id(d))
        elif d.name in self.procs:
            self.errors.append(diagnostic("error", "duplicate-def", d.span, hint("duplicate-def"), name=d.name,
                                          where=f"строке {self.procs[d.name].span.line}"))
        else:
            self.procs[d.name] = d
            self.declared.add(id(d))

    def _definition(self, d: RawDef, source: Source) -> n.Definition:
        pattern = self.patterns.get(d.name) if d.is_phrase else None
        if d.is_phrase and pattern is None:
            return n.Definition(d.span, d.name, (), n.Block(d.span, ()), ())
        params = [n.Param(d.span, s.name, s.by_ref) for s in pattern.slots] if pattern else d.params
        names = [p.name for p in params]
        for i, p in enumerate(params):
            if p.name in names[:i]:
                header = d.name + " =" if pattern else header_text(d)
                tip = hint("duplicate-param", header=header, name=p.name, first=names.index(p.name) + 1, second=i + 1)
                self.errors.append(diagnostic("error", "duplicate-param", p.span, tip, name=p.name))
        resolver = BodyResolver(self, source, Scope(d.name, params))
        resolver.collect_labels(d.body)
        if not d.body.stmts and not d.broken:
            self.errors.append(diagnostic("error", "empty-body", d.span, hint("body-dedent"), name=d.name))
        body = resolver.guard(lambda: resolver.expression_body(d.body) or resolver.block(d.body),
                              n.Block(d.span, ()))
        words = tuple(e.name if not isinstance(e, str) else e for e in pattern.elements) if pattern else ()
        return n.Definition(d.span, pattern.key if pattern else d.name, tuple(params), body, (),
                            is_phrase=bool(pattern), words=words)



class Resolved:
    """`program`: what could be resolved (statements with errors are left out); `sources`: every
    file of the program, by name; `walked`: bind_names's nodes of the bodies it kept; `named`:
    every path named by ИСПОЛЬЗОВАТЬ (Loaded.named); `captures`: (phrase, warning) of each
    phrase whose last argument took an operator (BodyResolver.warn_capture)."""

    def __init__(self, program: n.Program, warnings: list[Diagnostic], errors: list[Diagnostic],
                 sources: dict[str, Source], walked: dict[int, tuple[n.Node, list[n.Node]]], named: list[str],
                 captures: list[tuple[str, Diagnostic]] = ()):
        self.program, self.warnings, self.errors = program, warnings, errors
        self.sources, self.walked, self.named, self.captures = sources, walked, named, captures


def resolve_program(source: Source) -> Resolved:
    """Parse and resolve; syntax errors raise, resolution errors are collected."""
    loaded = load(source)
    resolver = Resolver(loaded)
    program = resolver.resolve()
    sources = {f.source.filename: f.source for f in loaded.files}
    errors = list(dict.fromkeys(resolver.errors))  # two halves of one slip tell it once: `ЕСЛИ (1 ТО 2)`
    return Resolved(program, sorted(resolver.warnings, key=diagnostic_order), errors, sources,
                    resolver.walked, loaded.named, list(resolver.captures.values()))


def _name_the_missing_label(errors: list[Diagnostic]) -> None:
    """A label defined twice (`СБ:` typed for `С8:`) while a transfer in the same file goes to a
    label defined nowhere: the hint of the second definition is that label."""
    missing = [d for d in errors if d.code == "undefined-label"]
    for d in errors:
        if d.code == "duplicate-label" and d.hint is None:
            wanted = sorted({m.span.text() for m in missing if m.span.source is d.span.source})
            d.hint = hint("duplicate-label-missing", name=wanted[0], line=next(
                m.span.line for m in missing if m.span.text() == wanted[0])) if len(wanted) == 1 else \
                hint("duplicate-label")
