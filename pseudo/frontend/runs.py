"""Questions about a run of tokens that resolving a body asks: where a bracket closes, its
top-level commas and operators, whether it reads as prose, the span it covers."""
from __future__ import annotations

from itertools import pairwise

from .parser import Token
from .phrases import depths
from .source import Source, Span, span_of_token


def closing(toks: list[Token], i: int) -> int | None:
    """The index of the token that closes the bracket or ЕСЛИ at `i`."""
    opener, closer = ("LPAR", "RPAR") if toks[i].type == "LPAR" else ("IF", "END_IF")
    depth = 0
    for k in range(i, len(toks)):
        if toks[k].type == opener:
            depth += 1
        elif toks[k].type == closer:
            depth -= 1
            if depth == 0:
                return k
    return None


def split_commas(toks: list[Token], source: Source, statement: str) -> list[list[Token]]:
    """The values of the list of the statement `statement` (СООБЩИТЬ, ПРОЧЕСТЬ), between its
    top-level commas; the last is empty after СООБЩИТЬ's closing comma, which keeps the line
    open. Any other comma with nothing before it is an error, with the statement without it."""
    from ..errors import static_error
    from ..messages import hint
    from .syntax_errors import unexpected
    commas = top_level(toks, "COMMA")
    pieces = [toks[a:b] for a, b in zip([0] + [c + 1 for c in commas], [*commas, len(toks)], strict=True)]
    for i, piece in enumerate(pieces):
        if not piece and (i < len(pieces) - 1 or statement != "СООБЩИТЬ"):  # `СООБЩИТЬ ,`, `1,, 2`, `ПРОЧЕСТЬ x,`
            comma = commas[min(i, len(commas) - 1)]
            text, at = source.text, toks[comma]
            kept = " ".join((text[toks[0].start_pos:at.start_pos] + text[at.end_pos:toks[-1].end_pos]).split())
            fixed = f"{statement} {kept}".rstrip() if kept or statement == "СООБЩИТЬ" else None
            tip = hint("trailing-comma" if i == len(pieces) - 1 else "extra-comma", fixed=fixed) if fixed else None
            raise static_error("unexpected-token", span_of_token(source, toks[comma]), tip, found=unexpected(toks[comma]))
    return pieces


def split_top(toks: list[Token], type_: str) -> list[list[Token]]:
    pieces, prev = [], 0
    for c in top_level(toks, type_):
        pieces.append(toks[prev:c])
        prev = c + 1
    pieces.append(toks[prev:])
    return [p for p in pieces if p]


BINARY_OPERATORS = {"PLUS", "MINUS", "STAR", "SLASH", "CARET", "DIV", "MOD", "EQ", "NE", "LT", "GT", "LE", "GE"}


def first_operator(toks: list[Token]) -> int | None:
    """The index of the first binary operator outside brackets (a minus that follows nothing
    or another operator is a sign, not an operation); None if there is none."""
    d = depths(toks)
    after_operand = False
    for i, tok in enumerate(toks):
        if d[i] == 0 and tok.type in BINARY_OPERATORS and after_operand:
            return i
        after_operand = tok.type not in BINARY_OPERATORS and tok.type not in ("LPAR", "LSQB", "IF") or d[i + 1] < d[i]
    return None


def top_level(toks: list[Token], type_: str) -> list[int]:
    found = [i for i, t in enumerate(toks) if t.type == type_]
    if not found:
        return found
    d = depths(toks)
    return [i for i in found if d[i] == 0]


def tokens_span(source: Source, toks: list[Token]) -> Span:
    first, last = toks[0], toks[-1]
    return Span(source, first.line, first.column, last.end_line, last.end_column)


OPERAND_END = {"NAME", "NUMBER", "STRING", "TRUE", "FALSE", "RESULT", "RPAR", "RSQB"}
OPERAND_START = {"NAME", "NUMBER", "STRING", "TRUE", "FALSE", "RESULT"}


def is_prose(toks: list[Token]) -> bool:
    """Two operands side by side, one of them a word (`занят 1`, `нет таких`): the user wrote a
    phrase, not an expression with a typo, so the helpful error names the nearest phrases.
    Two numbers side by side (`1 5`) are a typo: the parser's error says so."""
    return any(a.type in OPERAND_END and b.type in OPERAND_START and "NAME" in (a.type, b.type)
               for a, b in pairwise(toks))
