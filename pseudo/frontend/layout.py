"""The layout pass: cut a token stream into top-level chunks by the body-end rule.

DIALECT: a definition's body ends at the first line that starts in column 1 while every
block opened inside the body is closed. So a line starting in column 1 at block depth 0
starts a new chunk. The pass also marks definition headers (DEF_NAME … DEF_EQ) and puts a
virtual `;` after each label, so that the grammar stays small and free of conflicts.
"""
from __future__ import annotations

from ..errors import Diagnostic, diagnostic
from ..messages import hint
from .raw import Token
from .source import Source, span_of_token

OPENERS = {"IF", "WHILE", "FOR", "LPAR", "LSQB"}
CLOSERS = {"END_IF", "LOOP_END", "RPAR", "RSQB"}
NESTING = OPENERS | CLOSERS | {"DO"}  # the tokens that may change the depth of blocks


def split_chunks(tokens: list[Token], source: Source) -> tuple[list[list[Token]], list[Diagnostic]]:
    chunks: list[list[Token]] = []
    errors: list[Diagnostic] = []
    depth, pending_headers, line_start = 0, 0, True
    chunk: list[Token] | None = None
    for tok in tokens:
        kind = tok.type
        if kind == "_NL":
            if chunk is not None:
                chunk.append(tok)
            line_start = True
            continue
        if line_start and tok.column == 1 and depth == 0 or chunk is None:
            chunk = []
            chunks.append(chunk)
        line_start = False
        chunk.append(tok)
        if kind not in NESTING:
            continue
        if kind in ("WHILE", "FOR"):
            pending_headers += 1
        if kind == "DO":
            if pending_headers:
                pending_headers -= 1
            else:
                depth += 1
        elif kind in OPENERS:
            depth += 1
        elif kind in CLOSERS:
            depth = max(0, depth - 1)
    result = []
    for chunk in chunks:
        try:
            result.append(_mark_labels(_mark_header(chunk, source)))
        except _HeaderError as e:
            errors.append(e.diagnostic)
    return result, errors


class _HeaderError(Exception):
    def __init__(self, diagnostic: Diagnostic):
        self.diagnostic = diagnostic


def _mark_header(chunk: list[Token], source: Source) -> list[Token]:
    """Retype `NAME (params) =`, `NAME =` and `«pattern» =` at the chunk's start."""
    first = chunk[0]
    if len(chunk) < 2:
        return chunk
    if first.type in ("NAME", "PATTERN") and chunk[1].type == "EQ":
        return _retype(chunk, 1)
    if first.type == "NAME" and chunk[1].type == "LPAR":
        i = 2
        while i < len(chunk) and chunk[i].type in ("NAME", "COMMA", "REZ"):
            i += 1
        if i < len(chunk) and chunk[i].type == "RPAR":
            if i + 1 < len(chunk) and chunk[i + 1].type == "EQ":
                return _retype(chunk, i + 1)
        elif i < len(chunk) and chunk[i].type == "EQ" and chunk[i].line == first.line:
            # the book's own misprint: `HR (k =`
            raise _HeaderError(diagnostic(
                "error", "header-missing-paren", span_of_token(source, chunk[i]),
                hint("header-missing-paren", name=first.value)))
    return chunk


def _retype(chunk: list[Token], eq_at: int) -> list[Token]:
    out = list(chunk)
    if out[0].type == "NAME":
        out[0] = Token.new_borrow_pos("DEF_NAME", out[0].value, out[0])
    out[eq_at] = Token.new_borrow_pos("DEF_EQ", "=", out[eq_at])
    return out


def _mark_labels(chunk: list[Token]) -> list[Token]:
    if not any(tok.type == "LABEL" for tok in chunk):
        return chunk
    out = []
    for tok in chunk:
        out.append(tok)
        if tok.type == "LABEL":
            out.append(Token.new_borrow_pos("SEMI", "", tok))
    return out
