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
CLOSER_OF = {"IF": "END_IF", "WHILE": "LOOP_END", "FOR": "LOOP_END", "LPAR": "RPAR", "LSQB": "RSQB"}


def split_chunks(tokens: list[Token], source: Source) -> tuple[list[list[Token]], list[Diagnostic]]:
    """The chunks of a file, their headers and labels marked; the errors of headers."""
    chunks, errors = [], []
    for chunk in cut(tokens):
        try:
            chunks.append(mark(chunk, source))
        except HeaderError as e:
            errors.append(e.diagnostic)
    return chunks, errors


def cut(tokens: list[Token]) -> list[list[Token]]:
    """The tokens, cut into chunks by the body-end rule (line breaks kept)."""
    chunks: list[list[Token]] = []
    pending_headers, line_start = 0, True
    open_: list[str] = []  # the closers the open blocks and brackets wait for
    chunk: list[Token] | None = None
    for tok in tokens:
        kind = tok.type
        if kind == "_NL":
            if chunk is not None:
                chunk.append(tok)
            line_start = True
            continue
        if line_start and tok.column == 1 and not open_ or chunk is None:
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
                open_.append("LOOP_END")
        elif kind in OPENERS:
            open_.append(CLOSER_OF[kind])
        elif kind in open_:  # a closer closes the innermost block; one that none waits for, none
            open_.pop()
    return chunks


def mark(chunk: list[Token], source: Source) -> list[Token]:
    """The chunk with its header (DEF_NAME … DEF_EQ) and its labels (a virtual `;` after each)
    marked; a header that lost its «)» raises HeaderError."""
    return _mark_labels(_mark_header(chunk, source))


def header_end(toks: list[Token]) -> int | None:
    """The place of the `=` of a definition's header at the start of the tokens — `NAME (params) =`,
    `NAME =` or `«pattern» =` —, or None."""
    if len(toks) < 2:
        return None
    first = toks[0]
    if first.type in ("NAME", "PATTERN") and toks[1].type == "EQ":
        return 1
    if first.type == "NAME" and toks[1].type == "LPAR":
        i = _past_params(toks)
        if i < len(toks) - 1 and toks[i].type == "RPAR" and toks[i + 1].type == "EQ":
            return i + 1
    return None


def split_at_header(chunk: list[Token]) -> tuple[list[Token], list[Token]]:
    """A chunk that failed to parse, cut before its first line (after the first) that starts in
    column 1 with a definition's header: a block left open made the layout take the following
    definitions into it. The second part is empty if there is no such line."""
    for i in range(1, len(chunk)):
        if chunk[i - 1].type == "_NL" and chunk[i].column == 1 and header_end(chunk[i:]) is not None:
            return chunk[:i], chunk[i:]
    return chunk, []


def _past_params(toks: list[Token]) -> int:
    i = 2
    while i < len(toks) and toks[i].type in ("NAME", "COMMA", "REZ"):
        i += 1
    return i


class HeaderError(Exception):
    def __init__(self, diagnostic: Diagnostic):
        super().__init__()
        self.diagnostic = diagnostic


def _mark_header(chunk: list[Token], source: Source) -> list[Token]:
    """Retype `NAME (params) =`, `NAME =` and `«pattern» =` at the chunk's start."""
    eq = header_end(chunk)
    if eq is not None:
        return _retype(chunk, eq)
    if len(chunk) > 2 and chunk[0].type == "NAME" and chunk[1].type == "LPAR":
        i = _past_params(chunk)
        if i < len(chunk) and chunk[i].type == "EQ" and chunk[i].line == chunk[0].line:
            # the book's own misprint: `HR (k =`
            raise HeaderError(diagnostic("error", "header-missing-paren", span_of_token(source, chunk[i]),
                                         hint("header-missing-paren", name=chunk[0].value)))
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
