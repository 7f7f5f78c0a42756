"""The raw tree: what the parser gives the resolver — statements with their token runs not
yet resolved, definitions with their bodies, the files a program uses. Its tokens are those
of Lark's lexer (a `str` of their text, with the type and the place)."""
from __future__ import annotations

from .. import nodes as n
from ..errors import Diagnostic
from .lark_standalone import Token
from .source import Source, Span

# Plain classes, not dataclasses, here and in the other modules every load runs: the module
# `dataclasses` imports `inspect` and a dozen modules behind it, a tenth of a trace's start.

class Run:
    """A flat run of tokens: an expression, an assignment, a call, a phrase or a transfer.
    `after_newline`: separated from the previous statement by a line break only."""

    def __init__(self, tokens: list[Token], span: Span, after_newline: bool = False):
        self.tokens, self.span, self.after_newline = tokens, span, after_newline


class RawDef:
    """A definition as parsed: `name` is the procedure's name or the «pattern» text; `span` its
    header; `broken`: only its header was read, its body did not parse (an error says why)."""

    def __init__(self, name: str, params: list[n.Param], body: n.Block, span: Span, is_phrase: bool):
        self.name, self.params, self.body, self.span, self.is_phrase = name, params, body, span, is_phrase
        self.broken = False


def header_text(d: RawDef | n.Definition) -> str:
    """A procedure's or function's header as a pupil writes it: ФАКТ (n) =, ОБМЕН (РЕЗ a, РЕЗ b) =."""
    params = ", ".join(("РЕЗ " if p.by_ref else "") + p.name for p in d.params)
    return f"{d.name} ({params}) =" if params else f"{d.name} ="


class RawUse:
    def __init__(self, path: str, span: Span):
        self.path, self.span = path, span


class Broken:
    """What the chunks that did not parse define, so far as it can be told: the names of
    definitions whose header did not parse either, and labels."""

    def __init__(self):
        self.names: set[str] = set()
        self.labels: set[str] = set()


class ParsedFile:
    """`main`: the statements (nodes with Runs inside), RawUse items among them; `errors`: the
    syntax errors, one for each chunk that did not parse; `broken`: what those chunks define."""

    def __init__(self, source: Source, definitions: list[RawDef], main: list, comments: list[n.Comment],
                 warnings: list[Diagnostic]):
        self.source, self.definitions, self.main = source, definitions, main
        self.comments, self.warnings = comments, warnings
        self.errors: list[Diagnostic] = []
        self.broken = Broken()


# the operators' names in the tree, by terminal
OPS = {"OR": "ИЛИ", "AND": "И", "EQ": "=", "NE": "≠", "LT": "<", "LE": "≤", "GT": ">", "GE": "≥",
       "PLUS": "+", "MINUS": "-", "STAR": "*", "SLASH": "/", "DIV": "ДЕЛ", "MOD": "ОСТ"}


def raw_labels(block: n.Block):
    """The labels of a raw block, those of its nested blocks too."""
    for s in block.stmts:
        if isinstance(s, n.Label):
            yield s
        for child in n.blocks(s):
            yield from raw_labels(child)
