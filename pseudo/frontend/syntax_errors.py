"""The words of a syntax error: what the grammar's parser met, what it expected, where, and
the hint that fits the likely slip (a misspelt keyword, a missing ТО, an unclosed block).

The parser (parser.py) calls `syntax_error` with the token Lark's LALR parser refused and the
terminals it expected there, and `char_error` for a character no terminal accepts.
"""
from __future__ import annotations

from itertools import pairwise

from ..errors import Diagnostic, StaticError, diagnostic
from ..messages import KEYWORDS, TERMINALS, hint, message, nearest
from .raw import Token
from .source import Source, Span, fold_lookalikes, span_of_token


def char_error(source: Source, pos: int, line: int, column: int) -> StaticError:
    span = Span(source, line, column, line, column + 1)
    ch = source.text[pos] if pos < len(source.text) else ""
    if ch == "{":
        return StaticError([diagnostic("error", "unclosed-comment", span)])
    if ch in "'\"":
        return StaticError([diagnostic("error", "unclosed-string", span)])
    if ch == "«":
        return StaticError([diagnostic("error", "bad-pattern", span, detail="нет закрывающей «»»")])
    after_digit = pos > 0 and source.text[pos - 1].isdigit()
    tip = hint("two-numbers") if ch in ".," and after_digit else None
    return StaticError([diagnostic("error", "unexpected-char", span, tip, char=ch)])


LATIN_KEYWORDS = {fold_lookalikes(k): k for k in KEYWORDS}  # a keyword with Latin look-alikes: TO for ТО
FEMININE = {"метка", "строка", "запятая"}
MASCULINE = {"образец", "конец"}


def unexpected(tok: Token) -> str:
    """«неожиданное число «2»», «неожиданная запятая»: the adjective agrees with the noun."""
    what = describe_token(tok)
    first = what.split()[0]
    return ("неожиданная " if first in FEMININE else "неожиданный " if first in MASCULINE else "неожиданное ") + what


def describe_token(tok: Token) -> str:
    if tok.type == "$END":
        return "конец текста"
    if tok.type == "_NL":
        return "конец строки"
    what = TERMINALS.get(tok.type, tok.type)
    if tok.type == "PATTERN":  # the pattern is already in «»
        return f"образец фразы {tok.value}"
    return what if what.startswith("«") or tok.type.isupper() and what.isupper() else f"{what} «{tok.value}»"


CLOSERS = {"IF": ("ЕСЛИ", "КОНЕЦ_ЕСЛИ"), "WHILE": ("ПОКА", "ВЕРНУТЬСЯ"), "FOR": ("ДЛЯ", "ВЕРНУТЬСЯ"),
           "DO": ("ВЫПОЛНЯТЬ", "ВЕРНУТЬСЯ"), "LPAR": ("«(»", "«)»"), "LSQB": ("«[»", "«]»")}


def _innermost_unclosed(tokens: list[Token]) -> Token | None:
    stack: list[Token] = []
    headers = 0
    for tok in tokens:
        if tok.type == "DO" and headers:
            headers -= 1  # the ВЫПОЛНЯТЬ of a ПОКА or ДЛЯ header opens nothing new
            continue
        headers += tok.type in ("WHILE", "FOR")
        if tok.type in CLOSERS:
            stack.append(tok)
        elif tok.type in ("END_IF", "LOOP_END", "RPAR", "RSQB") and stack:
            stack.pop()
    return stack[-1] if stack else None


def syntax_error(tok: Token, expected: set[str], tokens: list[Token], source: Source,
                 following: list[Token] = ()) -> StaticError:
    """The message for an unexpected token (`$END` at the end) where the grammar expected one of
    `expected`, among the tokens of the chunk or expression; `following`: the tokens after a
    chunk that was cut off them (a definition begun inside one of its blocks)."""
    if tok.type == "$END":
        opener = _innermost_unclosed(tokens)
        if opener is not None:
            what, closer = CLOSERS[opener.type]
            typo = next((t for t in tokens if t.type == "NAME" and nearest_keyword(t.value)), None)
            if typo is not None:  # КОНЕЦ_ЕСИЛ: the block is open because its closer is misspelt
                return StaticError([diagnostic("error", "unclosed-block", span_of_token(source, typo),
                                               hint("keyword-typo", written=typo.value,
                                                    keyword=nearest_keyword(typo.value)),
                                               opener=what, closer=closer)])
            lower = next((t for t in tokens if t.type == "NAME" and t.value.upper() in KEYWORDS), None)
            if lower is not None:
                return StaticError([diagnostic("error", "unclosed-block", span_of_token(source, lower),
                                               hint("keyword-case", keyword=lower.value.upper()),
                                               opener=what, closer=closer)])
            return StaticError([diagnostic("error", "unclosed-block", span_of_token(source, opener),
                                           _unclosed_hint(opener, [*tokens, *following]), opener=what,
                                           closer=closer)])
        last = tokens[-1]
        span = Span(source, last.end_line, last.end_column, last.end_line, last.end_column + 1)
        if last.type in OPERATORS:  # `x := 1 +`: the line ends where an operand should be
            op = f"«{last.value}»"
            return StaticError([Diagnostic("error", "unexpected-token", message("operand-missing", op=op),
                                           span_of_token(source, last), hint("operand-missing", op=op))])
        text = "текст кончился раньше времени"
    else:
        span = span_of_token(source, tok)
        text = unexpected(tok)
    words = sorted({TERMINALS.get(x, x) for x in expected
                    if not x.startswith("__") and x not in ("$END", "_NL", "SEMI")})
    if words and len(words) <= 6:
        text += "; ожидалось: " + ", ".join(words)
    return StaticError([Diagnostic("error", "unexpected-token", text, span, _syntax_hint(tok, expected, tokens))])


OPERATORS = {"PLUS", "MINUS", "STAR", "SLASH", "CARET", "DIV", "MOD", "AND", "OR", "NOT", "EQ", "NE", "LT", "GT",
             "LE", "GE"}


def _unclosed_hint(opener: Token, tokens: list[Token]) -> str | None:
    """Why a block may be open at the end: ИНАЧЕ ЕСЛИ needs a КОНЕЦ_ЕСЛИ of its own, or a
    definition was begun inside the block."""
    after = tokens[tokens.index(opener):]
    for a, b in pairwise(after):
        if opener.type == "IF" and a.type == "ELSE" and b.type == "IF":
            return hint("else-if", line=b.line)
    for i, tok in enumerate(after[1:], start=1):
        if tok.column == 1 and tok.type in ("NAME", "PATTERN") and _looks_like_header(after[i:]):
            what, closer = CLOSERS[opener.type]
            return hint("def-in-block", line=tok.line, name=tok.value, opener=what, opener_line=opener.line,
                        closer=closer)
    return None


def _looks_like_header(toks: list[Token]) -> bool:
    """`имя (…) =`, `имя =` or `«…» =` at the start of a line."""
    if len(toks) > 1 and toks[1].type == "EQ":
        return True
    if toks[0].type == "NAME" and len(toks) > 1 and toks[1].type == "LPAR":
        close = next((k for k, t in enumerate(toks) if t.type == "RPAR"), None)
        return close is not None and close + 1 < len(toks) and toks[close + 1].type == "EQ"
    return False


COMPARISONS = {"EQ", "NE", "LT", "LE", "GT", "GE"}


def _syntax_hint(tok: Token, expected: set[str], tokens: list[Token]) -> str | None:
    before = tokens[:next((i for i, t in enumerate(tokens) if t is tok), len(tokens))]
    for other in tokens:
        if other.type != "NAME":
            continue
        where = f" (строка {other.line})" if other.line != tok.line else ""  # the caret is elsewhere
        if other.value.upper() in KEYWORDS and other.value != other.value.upper():
            return hint("keyword-case", keyword=other.value.upper(), where=where)
        latin = LATIN_KEYWORDS.get(fold_lookalikes(other.value))
        if latin:
            return hint("keyword-latin", written=other.value, keyword=latin, where=where)
        near = nearest_keyword(other.value)
        if near:
            return hint("keyword-typo", written=other.value, keyword=near, where=where)
    if tok.type in COMPARISONS and any(t.type in COMPARISONS and t.line == tok.line for t in before):
        return hint("compare-chain")
    if tok.type == "END_IF" and "END_IF" not in expected:
        return hint("extra-end-if")
    if tok.type in OPERATORS and before and before[-1].type in OPERATORS and before[-1].type != "NOT":
        return hint("two-operators", first=before[-1].value, second=tok.value)
    if tok.type in ("RPAR", "RSQB"):
        pair = {"RPAR": "LPAR", "RSQB": "LSQB"}[tok.type]
        opened = sum(t.type == pair for t in before) - sum(t.type == tok.type for t in before)
        if opened <= 0:
            return hint("unpaired-close", close=TERMINALS[tok.type], open=TERMINALS[pair])
        return hint("operand-before", close=TERMINALS[tok.type])
    if tok.type == "NUMBER" and before and before[-1].type == "NUMBER" and tok.line == before[-1].line:
        return hint("two-numbers")
    if before and before[-1].type == "COMMA" and _statement_start(before).type == "PRINT":
        return hint("print-comma")
    opener = _innermost_unclosed(before)
    if "THEN" in expected and opener is not None and opener.type == "IF" \
            and not any(t.type == "THEN" for t in before[before.index(opener):]):
        return hint("missing-then")
    if "DO" in expected and opener is not None and opener.type in ("WHILE", "FOR") \
            and not any(t.type == "DO" for t in before[before.index(opener):]):
        return hint("missing-do")
    if opener is not None and opener.type == "IF" and "END_IF" in expected:
        return hint("missing-end-if", line=opener.line)
    if opener is not None and opener.type in ("WHILE", "FOR", "DO") and "LOOP_END" in expected:
        return hint("missing-loop-end", opener=TERMINALS[opener.type], line=opener.line)
    if tok.type == "DEF_EQ":
        return hint("body-dedent")
    return None


def _statement_start(before: list[Token]) -> Token:
    """The first token of the statement the last token of `before` belongs to."""
    i = len(before) - 1
    while i > 0 and before[i - 1].type not in ("SEMI", "_NL", "THEN", "ELSE", "DO") \
            and before[i - 1].line == before[i].line:
        i -= 1
    return before[i]


def nearest_keyword(word: str) -> str | None:
    """The keyword an uppercase word was probably meant to be (КОНЕЦ_ЕСИЛ → КОНЕЦ_ЕСЛИ)."""
    if not word.isupper() or word in KEYWORDS or len(word) < 3:
        return None
    return nearest(word, sorted(KEYWORDS | {"ПЕРЕЙТИ"}), cutoff=0.75)
