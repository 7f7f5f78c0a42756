"""What a syntax error's hint reads of the whole file, found once per file: the chunk in hand
may be a slice of a statement, and a file of many errors must not be read once per error.

- the file's top-level chunks (`file_chunks`, `chunk_of`);
- the brackets a pupil opened in the header of ЕСЛИ, ПОКА or ДЛЯ and closed after its ТО,
  ВЫПОЛНЯТЬ or ДО (`ЕСЛИ (1 ТО 2) КОНЕЦ_ЕСЛИ`): both halves of the statement fail to read,
  and both are told as the one slip (`bracket_over_header`).
"""
from __future__ import annotations

import bisect
import functools

from ..errors import StaticError, diagnostic
from ..messages import TERMINALS, hint
from .raw import Token
from .source import Source, span_of_token


@functools.lru_cache(maxsize=4)
def file_chunks(source: Source) -> tuple[list[list[Token]], list[int]]:
    """The whole file's top-level chunks and where each begins: lexed again once per file, not
    once per error (a file of 1,500 stray ВЕРНУТЬСЯ took a minute)."""
    from .layout import cut
    from .parser import lex
    chunks = [chunk for chunk in cut(lex(source)[0]) if chunk]
    return chunks, [chunk[0].start_pos for chunk in chunks]


def chunk_of(tok: Token, source: Source) -> int:
    """The index of the top-level chunk of the file that holds `tok`."""
    return bisect.bisect_right(file_chunks(source)[1], tok.start_pos) - 1


@functools.lru_cache(maxsize=4)
def _places(source: Source) -> list[list[int]]:
    """Where each token of each chunk begins."""
    return [[t.start_pos for t in chunk] for chunk in file_chunks(source)[0]]


def neighbour(tok: Token, source: Source, step: int) -> Token | None:
    """The token of the file `step` places after `tok` (before it, for a negative step) in its
    chunk, or None."""
    at = chunk_of(tok, source)
    i = bisect.bisect_left(_places(source)[at], tok.start_pos) + step
    chunk = file_chunks(source)[0][at]
    return chunk[i] if 0 <= i < len(chunk) else None


# The keywords that end a header's part, by the header's opener.
HEADER_ENDS = {"IF": ("THEN",), "WHILE": ("DO",), "FOR": ("STEP", "TO", "DO")}
WHAT = {"IF": "условии ЕСЛИ", "WHILE": "условии ПОКА", "FOR": "заголовке ДЛЯ"}


class _Open:
    """A «(» being walked: the header it stands in, the keyword of that header met inside it,
    the ЕСЛИ of conditional expressions open inside it; `spoilt`: a block began or ended inside."""
    __slots__ = ("header", "ifs", "keyword", "lpar", "spoilt")

    def __init__(self, lpar: Token, header: Token | None):
        self.lpar, self.header, self.keyword, self.ifs, self.spoilt = lpar, header, None, 0, False


@functools.lru_cache(maxsize=4)
def _over_headers(source: Source) -> dict[int, tuple[Token, Token, Token, Token]]:
    """Each «(» of a header whose «)» comes after the header's own keyword, and that «)», by the
    place of either: (the header's opener, the «(», the keyword, the «)»). One walk of the file."""
    found = {}
    for chunk in file_chunks(source)[0]:
        brackets: list[_Open] = []
        waiting: list[Token] = []  # the headers whose last part is still being read
        for tok in chunk:
            kind = tok.type
            top = brackets[-1] if brackets else None
            if kind in ("IF", "WHILE", "FOR"):
                if top is not None:
                    top.ifs += kind == "IF"
                    top.spoilt |= kind != "IF"
                waiting.append(tok)
            elif kind == "LPAR":
                brackets.append(_Open(tok, waiting[-1] if waiting else None))
            elif kind == "RPAR" and top is not None:
                brackets.pop()
                if top.keyword is not None and not top.spoilt:
                    found[top.lpar.start_pos] = found[tok.start_pos] = (top.header, top.lpar, top.keyword, tok)
            elif top is not None:
                if top.ifs and kind in ("THEN", "ELSE", "END_IF"):
                    top.ifs -= kind == "END_IF"  # a conditional expression's own words
                elif kind in ("END_IF", "LOOP_END"):
                    top.spoilt = True
                elif waiting and top.header is waiting[-1] and top.keyword is None \
                        and kind in HEADER_ENDS[top.header.type]:
                    top.keyword = tok
            if waiting and kind in ("THEN", "DO") and kind in HEADER_ENDS[waiting[-1].type]:
                waiting.pop()
    return found


def bracket_over_header(tok: Token, tokens: list[Token], source: Source) -> StaticError | None:
    """`ЕСЛИ (1 ТО 2) КОНЕЦ_ЕСЛИ`, `ПОКА (x < 3 ВЫПОЛНЯТЬ …)`, `ДЛЯ i := (1 ДО 3 …)`: the
    error of a header's «(» whose «)» the pupil put after the header's keyword, if `tok` (or the
    «(» `tokens` leave open at their end) is one of them; told at the «(», the same words from
    either half, so the two are one error."""
    found = _over_headers(source)
    slip = found.get(tok.start_pos) if tok.type in ("LPAR", "RPAR") else None
    if slip is None and tok.type == "$END":
        depth = 0
        for t in reversed(tokens):
            depth += (t.type == "RPAR") - (t.type == "LPAR")
            if depth < 0:
                slip = found.get(t.start_pos)
                break
    if slip is None:
        return None
    header, lpar, keyword, rpar = slip
    text, word = source.text, TERMINALS[keyword.type]
    if rpar.line == header.line:  # the statement, both brackets taken out
        closer = _closer_after(rpar, source)
        end = closer.end_pos if closer is not None else rpar.end_pos
        fixed = text[header.start_pos:lpar.start_pos] + text[lpar.end_pos:rpar.start_pos] + text[rpar.end_pos:end]
    else:  # its header, up to the keyword
        fixed = text[header.start_pos:lpar.start_pos] + text[lpar.end_pos:keyword.end_pos] + " …"
    before = neighbour(lpar, source, -1)
    moved = "" if before is not None and before.type == "FOR" else \
        hint("bracket-over-header-moved", keyword=word,
             fixed=" ".join(f"{text[header.start_pos:keyword.start_pos]}) {word} …".split()).replace(" )", ")"))
    where = f" в строке {rpar.line}," if rpar.line != lpar.line else ""
    return StaticError([diagnostic("error", "bracket-over-header", span_of_token(source, lpar),
                                   hint("bracket-over-header", keyword=word, fixed=" ".join(fixed.split()),
                                        moved=moved),
                                   what=WHAT[header.type], keyword=word, where=where)])


def _closer_after(rpar: Token, source: Source) -> Token | None:
    """The КОНЕЦ_ЕСЛИ or ВЕРНУТЬСЯ that ends the statement on the line of `rpar`, if one does."""
    step = 1
    while (t := neighbour(rpar, source, step)) is not None and t.line == rpar.line and t.type not in ("SEMI", "_NL"):
        if t.type in ("END_IF", "LOOP_END"):
            return t
        step += 1
    return None
