"""The words of a syntax error: what the grammar's parser met, what it expected, where, and
the hint that fits the likely slip (a misspelt keyword, a missing ТО, an unclosed block).

The parser (parser.py) calls `syntax_error` with the token Lark's LALR parser refused and the
terminals it expected there, and `char_error` for a character no terminal accepts.
"""
from __future__ import annotations

import functools
import re
from itertools import pairwise, takewhile

from ..errors import Diagnostic, StaticError, diagnostic
from ..messages import KEYWORDS, TERMINALS, hint, message, nearest
from .line_hints import (
    COMPARISONS,
    STATEMENT_STARTS,
    assign_sign_hint,
    colon_for_keyword,
    decimal_fraction,
    end_on_line,
    ends_line,
    half_comparison,
    list_literal,
    missing_to,
    name_then_word,
    number_start,
    start_on_line,
)
from .raw import Token
from .source import Source, Span, fold_lookalikes, span_of_token, text_of_tokens
from .whole_file import bracket_over_header, chunk_of, file_chunks, neighbour

QUOTES = "‘’‚‛“”„‟"


def char_error(source: Source, pos: int, line: int, column: int) -> StaticError:
    span = Span(source, line, column, line, column + 1)
    ch = source.text[pos] if pos < len(source.text) else ""
    if ch == "{":
        return StaticError([diagnostic("error", "unclosed-comment", span, hint("unclosed-comment"))])
    if ch in "'\"":
        return StaticError([diagnostic("error", "unclosed-string", span, hint("unclosed-string"))])
    if ch == "«":
        return StaticError([diagnostic("error", "bad-pattern", span, hint("bad-pattern"), detail="нет закрывающей «»»")])
    if ch in QUOTES:  # ‘…’ “…” „…“: a word processor's quotes
        line_text = source.line(line)
        close = min((i for i in (line_text.find(c, column) for c in QUOTES) if i >= 0), default=-1)
        inside = line_text[column:close] if close >= 0 else ""
        fixed = f"'{inside}'" if close >= 0 and "'" not in inside else "'…'"
        return StaticError([diagnostic("error", "typographic-quote", span, hint("typographic-quote", fixed=fixed),
                                       char=ch)])
    after_digit = pos > 0 and source.text[pos - 1].isdigit()
    number = re.match(r"(\d+)\.(\d+)", source.text[number_start(source.text, pos):pos + 40]) if ch == "." else None
    if number:  # `1.5`: a decimal point, where the language writes a fraction
        tip = decimal_fraction(number[1], number[2], "decimal-point")
    elif ch in ".," and after_digit:
        tip = hint("two-numbers")
    elif ch == "_":  # `_x`: a name begins with a letter
        end = next((i for i in range(pos, len(source.text)) if not (source.text[i].isalnum() or source.text[i] == "_")),
                   len(source.text))
        tip = hint("name-underscore", fixed=source.text[pos:end].lstrip("_") or "x")
    else:
        tip = (assign_sign_hint(source.line(line), column - 1) or colon_for_keyword(source, line, column) if ch == ":"
               else None) or _char_hint(ch, source.text[pos + 1:pos + 2])
    return StaticError([diagnostic("error", "unexpected-char", span, tip, char=ch)])


def _char_hint(ch: str, after: str) -> str | None:
    """The word of the language for a sign another language writes: != % && || # !"""
    if ch == "!":
        return hint("sign-of-another-language", sign="!=", word="≠ (или <>)") if after == "=" else \
            hint("sign-of-another-language", sign="!", word="НЕ")
    words = {"%": "ОСТ", "&": "И", "|": "ИЛИ"}
    if ch in words:
        return hint("sign-of-another-language", sign=ch * (2 if after == ch else 1), word=words[ch])
    if ch == "#":
        return hint("comment-braces")
    import unicodedata
    if unicodedata.category(ch) in ("Cc", "Cf", "Zl", "Zp"):  # copied from a page or a word processor
        return hint("invisible-char", number=f"U+{ord(ch):04X}")
    return None


LATIN_KEYWORDS = {fold_lookalikes(k): k for k in KEYWORDS}  # a keyword with Latin look-alikes: TO for ТО
# The keys of the Russian layout on the Latin one: ПРОЧЕСТЬ typed with the wrong layout is GHJXTCNM.
LATIN_LAYOUT = str.maketrans("qwertyuiop[]asdfghjkl;'zxcvbnm,.`QWERTYUIOP{}ASDFGHJKL:\"ZXCVBNM<>~",
                             "йцукенгшщзхъфывапролджэячсмитьбюёЙЦУКЕНГШЩЗХЪФЫВАПРОЛДЖЭЯЧСМИТЬБЮЁ")
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


OPENED_BY = {"END_IF": ("IF",), "LOOP_END": ("WHILE", "FOR", "DO"), "RPAR": ("LPAR",), "RSQB": ("LSQB",)}


def _blocks(tokens):
    """Each token with the opener it closes (None if it closes none: a closer closes only an
    opener of its own kind, innermost) and the openers still open after it, innermost last
    (one list, changed as the walk goes)."""
    stack: list[Token] = []
    headers = 0
    for tok in tokens:
        closed = None
        if tok.type == "DO" and headers:
            headers -= 1  # the ВЫПОЛНЯТЬ of a ПОКА or ДЛЯ header opens nothing new
        else:
            headers += tok.type in ("WHILE", "FOR")
            if tok.type in CLOSERS:
                stack.append(tok)
            elif stack and stack[-1].type in OPENED_BY.get(tok.type, ()):
                closed = stack.pop()  # a «)» meeting an open ЕСЛИ leaves both open: КОНЕЦ_ЕСЛИ is missing
        yield tok, closed, stack


def _bracket_closed_over(opener: Token, tokens: list[Token]) -> Token | None:
    """The «)» or «]» met while the ЕСЛИ `opener` was the innermost block open in its brackets, if one was."""
    for tok, closed, stack in _blocks(tokens):
        if tok.type in ("RPAR", "RSQB") and closed is None and stack and stack[-1] is opener:
            return tok
    return None


def _innermost_unclosed(tokens: list[Token]) -> Token | None:
    stack = []
    for _, _, stack in _blocks(tokens):
        pass
    return stack[-1] if stack else None


def syntax_error(tok: Token, expected: set[str], tokens: list[Token], source: Source,
                 following: list[Token] = ()) -> StaticError:
    """The message for an unexpected token (`$END` at the end) where the grammar expected one of
    `expected`, among the tokens of the chunk or expression; `following`: the tokens after a
    chunk that was cut off them (a definition begun inside one of its blocks)."""
    over_header = bracket_over_header(tok, tokens, source)  # `ЕСЛИ (1 ТО 2) КОНЕЦ_ЕСЛИ`
    if over_header is not None:
        return over_header
    left_open = _bracket_left_open(tokens[:_index(tokens, tok) + 1])
    if left_open is not None:  # the bracket may be one that closes after the header's keyword
        return bracket_over_header(left_open[0], tokens, source) or _bracket_error(*left_open, source)
    before = tokens[:_index(tokens, tok)]
    opener = _innermost_unclosed(before)
    bracket = _bracket_closed_over(opener, before) if opener is not None and opener.type == "IF" else None
    if bracket is not None:  # `(ЕСЛИ 1 ТО 2 ИНАЧЕ 3)`: the КОНЕЦ_ЕСЛИ belongs before the «)»
        return StaticError([diagnostic("error", "unclosed-block", span_of_token(source, opener),
                                       hint("end-if-before-bracket", line=opener.line, bracket=TERMINALS[bracket.type]),
                                       opener="ЕСЛИ", closer="КОНЕЦ_ЕСЛИ")])
    if tok.type == "$END":
        opener = _innermost_unclosed(tokens)
        if opener is not None and opener.type in ("LPAR", "LSQB"):  # the end of the file, or of the expression
            what, closer = CLOSERS[opener.type]
            return StaticError([diagnostic("error", "bracket-unclosed-end", span_of_token(source, opener),
                                           hint("bracket-unclosed", closer=closer),
                                           opened=what, closer=closer)])
        if opener is not None:
            what, closer = CLOSERS[opener.type]
            lines = [t.line for t in tokens if t.type != "_NL"]
            for t in tokens:  # КОНЕЦ_ЕСИЛ, ВЕРНУТЬСЯ with a Latin В: the block's closer is mistyped
                tip = keyword_hint(t.value) if t.type == "NAME" else None
                if t.type == "NAME" and t.value.upper() in CLOSER_WORDS and lines.count(t.line) == 1:
                    tip = hint("keyword-typo", written=t.value, keyword=closer)  # КОНЕЦ, все alone on a line
                if tip:
                    return StaticError([diagnostic("error", "unclosed-block", span_of_token(source, t), tip,
                                                   opener=what, closer=closer)])
            return StaticError([diagnostic("error", "unclosed-block", span_of_token(source, opener),
                                           _unclosed_hint(opener, [*tokens, *following], source), opener=what,
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
        if tok.type == "PATTERN" and _index(tokens, tok) and tokens[_index(tokens, tok) - 1].line == tok.line \
                and tokens[_index(tokens, tok) - 1].type != "_NL":  # `СООБЩИТЬ «Привет»`, not a header
            return StaticError([diagnostic("error", "pattern-as-string", span,
                                           hint("pattern-as-string", fixed=f"'{tok.value[1:-1]}'"),
                                           pattern=tok.value)])
    words = sorted({TERMINALS.get(x, x) for x in expected
                    if not x.startswith("__") and x not in ("$END", "_NL", "SEMI")})
    if words and len(words) <= 6:
        text += "; ожидалось: " + ", ".join(words)
    return StaticError([Diagnostic("error", "unexpected-token", text, span, _syntax_hint(tok, expected, tokens, source))])


# Tokens that never stand inside brackets: a bracket still open when one comes was never closed
# (a conditional expression's ТО, ИНАЧЕ and КОНЕЦ_ЕСЛИ may, inside its own ЕСЛИ).
OUTSIDE_BRACKETS = {"THEN", "ELSE", "END_IF", "DO", "LOOP_END", "SEMI", "ASSIGN", "PATTERN", "DEF_NAME", "DEF_EQ",
                    "LABEL", "PRINT", "READ", "WHILE", "FOR", "STOP", "GOTO", "USE", "EXIT"}
PAIR = {"RPAR": "LPAR", "RSQB": "LSQB"}


def _bracket_left_open(tokens: list[Token]) -> tuple[Token, Token] | None:
    """The bracket «(» or «[» that `tokens` leave open where a word that cannot stand inside
    brackets comes (КОНЕЦ_ЕСЛИ, ВЕРНУТЬСЯ, a definition's header: the layout took the following
    lines into the open bracket), or that a closer of the other kind closes (`a(i]`), with that
    token; None if every bracket is closed in time."""
    stack: list[Token] = []
    for tok in tokens:
        kind = tok.type
        if kind in ("LPAR", "LSQB"):
            stack.append(tok)
        elif not stack:
            continue
        elif kind == "IF":
            stack.append(tok)
        elif stack[-1].type == "IF":
            if kind == "END_IF":
                stack.pop()
            elif kind in PAIR:  # a conditional expression left open: the other hints say so
                return None
        elif kind in PAIR:
            bracket = stack.pop()
            if bracket.type != PAIR[kind]:
                return bracket, tok
        elif kind in OUTSIDE_BRACKETS:
            return stack[-1], tok
    return None


def _bracket_error(bracket: Token, met: Token, source: Source) -> StaticError:
    """A bracket left open (told at the bracket), or closed by the other kind (told at the closer)."""
    opened, wanted = CLOSERS[bracket.type]
    if met.type in PAIR:
        return StaticError([diagnostic("error", "bracket-mismatch", span_of_token(source, met),
                                       hint("bracket-mismatch"), opened=opened, closed=TERMINALS[met.type],
                                       line=bracket.line, column=bracket.column)])
    where = f"в строке {met.line}" if met.line != bracket.line else "в этой строке"
    return StaticError([diagnostic("error", "bracket-unclosed", span_of_token(source, bracket),
                                   hint("bracket-unclosed", closer=wanted),
                                   opened=opened, closer=wanted, met=describe_token(met), where=where)])


OPERATORS = {"PLUS", "MINUS", "STAR", "SLASH", "CARET", "DIV", "MOD", "AND", "OR", "NOT", "EQ", "NE", "LT", "GT",
             "LE", "GE"}


def _unclosed_hint(opener: Token, tokens: list[Token], source: Source) -> str:
    """Why a block may be open at the end: ИНАЧЕ ЕСЛИ needs a КОНЕЦ_ЕСЛИ of its own, or a
    definition was begun inside the block; else where its closer goes: at the end of its line,
    if the whole statement is on it."""
    after = tokens[tokens.index(opener):]
    for a, b in pairwise(after):
        if opener.type == "IF" and a.type == "ELSE" and b.type == "IF":
            return hint("else-if", line=b.line)
    for i, tok in enumerate(after[1:], start=1):
        if tok.column == 1 and tok.type in ("NAME", "PATTERN") and _looks_like_header(after[i:]):
            what, closer = CLOSERS[opener.type]
            return hint("def-in-block", line=tok.line, name=tok.value, opener=what, opener_line=opener.line,
                        closer=closer)
    what, closer = CLOSERS[opener.type]
    on_line = [t for t in after if t.line == opener.line and t.type != "_NL"]
    if on_line[-1].type not in ("THEN", "ELSE", "DO") and (opener.type == "DO" or any(
            t.type in ("THEN", "DO") for t in on_line)):  # the one-line form: a body after its ТО or ВЫПОЛНЯТЬ
        line = source.line(opener.line)[opener.column - 1:].rstrip()  # `ЕСЛИ x = 1 ТО СООБЩИТЬ x`: closed at its end
        return hint("closer-at-line-end", closer=closer, fixed=f"{line} {closer}")
    return hint("closer-missing", opener=what, line=opener.line, closer=closer)


def _looks_like_header(toks: list[Token]) -> bool:
    """`имя (…) =`, `имя =` or `«…» =` at the start of a line."""
    if len(toks) > 1 and toks[1].type == "EQ":
        return True
    if toks[0].type == "NAME" and len(toks) > 1 and toks[1].type == "LPAR":
        close = next((k for k, t in enumerate(toks) if t.type == "RPAR"), None)
        return close is not None and close + 1 < len(toks) and toks[close + 1].type == "EQ"
    return False


SWAPPED_SIGNS = {"=<": "≤ (или <=)", "=>": "≥ (или >=)", "><": "≠ (или <>)"}


def _signs_hint(tok: Token, expected: set[str], source: Source) -> str | None:
    """A «=» or a label where an assignment was meant, or a keyword with a colon: the hint
    with its statement (on its line, from its first token to its last) written right."""
    last = end_on_line(tok, source)
    keyword = neighbour(last, source, 1)  # a header's ВЫПОЛНЯТЬ or ТО, which ends it
    last = keyword if keyword is not None and keyword.line == last.line and keyword.type in ("THEN", "DO") else last
    start, end = start_on_line(tok, source).start_pos, last.end_pos
    text, at = source.text[start:end], tok.start_pos - start
    if tok.type == "LABEL" and (word := tok.value.rstrip(": \t")) in KEYWORDS:  # `ИНАЧЕ: СООБЩИТЬ 0`
        return hint("keyword-colon", keyword=word, fixed=" ".join(f"{word} {text[tok.end_pos - start:]}".split()))
    signs = assign_sign_hint(text, tok.end_pos - start - 1)
    if signs is None and tok.type == "EQ" and "ASSIGN" in expected:
        signs = hint("assign-expected", fixed=" ".join(f"{text[:at]}:={text[tok.end_pos - start:]}".split()))
    return signs


def _index(tokens: list[Token], tok: Token) -> int:
    return next((i for i, t in enumerate(tokens) if t is tok), len(tokens))


def _syntax_hint(tok: Token, expected: set[str], tokens: list[Token], source: Source) -> str | None:
    before = tokens[:_index(tokens, tok)]
    for other in [*before, tok]:  # a word after `tok` is not what stopped the parser
        where = f" (строка {other.line})" if other.line != tok.line else ""  # the caret is elsewhere
        tip = keyword_hint(other.value, where, in_prose=bool(where)) if other.type == "NAME" else None
        if tip:
            return tip
    after = tokens[_index(tokens, tok) + 1:]
    if before and before[-1].type == "NAME" and _statement_start(before) is before[-1] and tok.line == before[-1].line:
        two_words = name_then_word(before[-1], tok, source)  # `С k := 1`, `мой счёт := 1`
        if two_words is not None:
            return two_words
    if tok.type == "COMMA" and not after and ends_line(tok, source):  # `y := 2,`
        head = start_on_line(tok, source)
        if head is not tok and head.type != "PRINT":
            return hint("trailing-comma", fixed=" ".join(source.text[head.start_pos:tok.start_pos].split()))
    if tok.type in NAME_LIKE and (source.text[tok.end_pos:].lstrip(" \t").startswith((":=", "[")) or
                                  (before and before[-1].type in NAME_BEFORE)):  # `ШАГ := 1`, `ПРОЧЕСТЬ ОСТ`
        return hint("keyword-as-name", keyword=tok.value, name=tok.value.lower())
    comma = _comma_for_semicolon(tok, before, after, source)
    if comma is not None:
        return comma
    line_after = [t for t in after if t.line == tok.line]
    if tok.type == "COMMA" and before and before[-1].type == "RPAR" and _closes_call(before) and \
            sum(t.type == "RPAR" for t in line_after) > sum(t.type == "LPAR" for t in line_after):
        early, text = before[-1], source.text  # `f(1), 2)`: the call closed before its last argument
        head = _file_statement_start(early, source)
        return hint("early-close", fixed=text[head.start_pos:early.start_pos] + text[early.end_pos:line_after[-1].end_pos])
    if tok.type in ("EQ", "LABEL"):  # `ИНАЧЕ: …`, `x : = 1`, `x := = 1`, `ДЛЯ i = 1 ДО 3`: the statement fixed
        signs = _signs_hint(tok, expected, source)
        if signs is not None:
            return signs
    if tok.type == "EQ" and before and before[-1].type == "EQ" and before[-1].end_pos == tok.start_pos:
        return hint("double-equals")  # `x == 1`, as C and Python write it
    if tok.type in COMPARISONS and before and before[-1].type in COMPARISONS and before[-1].end_pos == tok.start_pos \
            and before[-1].value + tok.value in SWAPPED_SIGNS:  # `x =< 1`: the two signs of ≤ the other way round
        return hint("swapped-signs", written=before[-1].value + tok.value, sign=SWAPPED_SIGNS[before[-1].value + tok.value])
    if tok.type in COMPARISONS and (half := half_comparison(tok, source)):
        return half  # `x ≠ 1 И ≠ 2`
    if tok.type == "LSQB" and not before and (listed := list_literal(tok, tokens, source)):
        return listed  # `x := [1, 2]`: a list, as Python writes it
    if tok.type in COMPARISONS and any(t.type in COMPARISONS and t.line == tok.line for t in before):
        return hint("compare-chain")
    waiting = _if_without_then(before)
    if "THEN" in expected and waiting is not None:
        return hint("missing-then", where=f" (строка {waiting.line})" if waiting.line != tok.line else "")
    opener = _innermost_unclosed(before)
    if "DO" in expected and opener is not None and opener.type in ("WHILE", "FOR") \
            and not any(t.type == "DO" for t in before[before.index(opener):]):
        if tok.type == "STEP" and opener.type == "FOR":  # ДЛЯ i := 1 ДО 9 ШАГ 2: ШАГ comes before ДО
            return _step_before_to(opener, tok, tokens, source)
        return hint("missing-do", opener=TERMINALS[opener.type],
                    where=f" (строка {opener.line})" if opener.line != tok.line else "")
    if "TO" in expected and opener is not None and opener.type == "FOR":  # `ДЛЯ i := 1 3 ВЫПОЛНЯТЬ`
        return missing_to(before[_index(before, opener):], tok, source)
    if tok.type == "END_IF" and opener is not None and opener.type in ("FOR", "WHILE", "DO") \
            and not any(t.type == "LOOP_END" for t in after):  # `ДЛЯ … КОНЕЦ_ЕСЛИ`: the loop's closer mistaken
        return hint("loop-end-not-end-if", opener=TERMINALS[opener.type], line=opener.line)
    if tok.type == "END_IF" and "END_IF" not in expected:
        return hint("extra-end-if")
    if tok.type == "COMMA" and before and after and before[-1].type == after[0].type == "NUMBER" \
            and before[-1].end_pos == tok.start_pos and tok.end_pos == after[0].start_pos:  # `x := 3,5`
        return decimal_fraction(before[-1].value, after[0].value)
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
    if opener is not None and opener.type == "IF" and tok.type == "LOOP_END" and _closed_later(opener, tokens):
        return _loop_end_in_if(opener, before, tokens)
    if tok.type == "LOOP_END" and opener is None:
        return _stray_loop_end(tok, tokens, source)
    if opener is not None and opener.type == "IF" and "END_IF" in expected:
        return hint("missing-end-if", line=opener.line)
    if opener is not None and opener.type in ("WHILE", "FOR", "DO") and "LOOP_END" in expected:
        return hint("missing-loop-end", opener=TERMINALS[opener.type], line=opener.line)
    if tok.type == "DEF_EQ":
        return hint("body-dedent")
    if waiting is not None and waiting.line < tok.line:  # its condition ran on, through the lines of its body
        return hint("missing-then", where=f" (строка {waiting.line})")
    return None


# Keywords a pupil may well take for a variable's name (a step, a remainder), and the tokens
# after which a name stands.
NAME_LIKE = {"STEP", "TO", "REZ", "DIV", "MOD"}
NAME_BEFORE = {"READ", "PRINT", "ASSIGN", "COMMA", "LPAR", "LSQB", "FOR"} | OPERATORS


def _comma_for_semicolon(tok: Token, before: list[Token], after: list[Token], source: Source) -> str | None:
    """`x := 1, y := 2`, `x := 2, СООБЩИТЬ x`: a comma where statements are separated, as a
    list is in prose; the hint, or None if what follows the comma is no statement (a comma of
    a list, of a phrase)."""
    if tok.type == "COMMA":
        comma, rest = tok, after
    elif before and before[-1].type == "COMMA" and tok.type in STATEMENT_STARTS:
        comma, rest = before[-1], [tok, *after]
    else:
        return None
    rest = list(takewhile(lambda t: t.line == comma.line and t.type not in ("SEMI", "_NL", "END_IF", "ELSE",
                                                                             "LOOP_END"), rest))
    if not rest or rest[0].type not in STATEMENT_STARTS and not any(t.type == "ASSIGN" for t in rest):
        return None
    head = _statement_start(before[:_index(before, comma)] or [comma])
    if head.type == "PRINT":  # `СООБЩИТЬ x, КОНЕЦ_РАБОТЫ`: the comma keeps the line open (print-comma)
        return None
    return comma_for_semicolon(source, head, comma, rest[-1])


def comma_between_statements(source: Source, toks: list[Token], at: int) -> StaticError:
    """`занять k, k := k + 1`: the comma `toks[at]` stands where a «;» ends the first statement."""
    comma = toks[at]
    return StaticError([diagnostic("error", "unexpected-token", span_of_token(source, comma),
                                   comma_for_semicolon(source, toks[0], comma, toks[-1]), found=unexpected(comma))])


def comma_for_semicolon(source: Source, head: Token, comma: Token, last: Token) -> str:
    """The hint for a comma between two statements: the text from `head` to `last`, the comma a «;»."""
    text = source.text
    return hint("comma-for-semicolon", fixed=" ".join(
        (text[head.start_pos:comma.start_pos].rstrip() + ";" + text[comma.end_pos:last.end_pos]).split()))


def _step_before_to(opener: Token, step: Token, tokens: list[Token], source: Source) -> str | None:
    """`ДЛЯ i := 1 ДО 9 ШАГ 2 ВЫПОЛНЯТЬ`, written as Pascal or BASIC order it: the header
    rewritten in the book's order, on one line («…» for a step not written); None unless the
    header has one ДО and one ШАГ, a bound between them."""
    header = tokens[_index(tokens, opener):]
    at = _index(header, step)
    end = next((i for i, t in enumerate(header) if t.type in ("DO", "_NL") and i > at), len(header))
    words = [t for t in header[:end] if t.type not in ("_NL", "SEMI")]
    to = [i for i, t in enumerate(words) if t.type == "TO"]
    steps = [i for i, t in enumerate(words) if t.type == "STEP"]
    if len(to) != 1 or len(steps) != 1 or steps[0] <= to[0] + 1:
        return None
    to, at = to[0], steps[0]

    def text(a: int, b: int) -> str:
        return text_of_tokens(source, words[a:b]) if b > a else "…"
    return hint("step-before-to", fixed=f"{text(0, to)} ШАГ {text(at + 1, len(words))} ДО {text(to + 1, at)} ВЫПОЛНЯТЬ")


def _stray_loop_end(tok: Token, tokens: list[Token], source: Source) -> str:
    """A ВЕРНУТЬСЯ with no loop open: a second one for a loop closed before it in the same body
    (that loop may be in an earlier chunk of the main program: the file is read again, on this
    path only), or one written for «return»."""
    closed = _loop_closed_before(tok, source)
    if closed is not None:
        opener, end = closed
        return hint("stray-loop-end", opener=TERMINALS[opener.type], line=opener.line, closed=end.line)
    return hint("loop-end-in-definition" if _in_definition(tokens) else "loop-end-in-program", where="")


def _loop_closed_before(tok: Token, source: Source) -> tuple[Token, Token] | None:
    """The opener and the ВЕРНУТЬСЯ of the last outermost loop closed before `tok` in its own
    body: in its chunk before it; else, in the main program, in the chunks of the main program
    before its own (a loop of a definition is not the one a ВЕРНУТЬСЯ here repeats)."""
    from .layout import header_end
    at = chunk_of(tok, source)
    chunk = file_chunks(source)[0][at]
    closed = _last_closed_loop(t for t in chunk if t.start_pos < tok.start_pos)
    if closed is not None or header_end(chunk) is not None:
        return closed
    return _main_loops_closed(source)[at]


@functools.lru_cache(maxsize=4)
def _main_loops_closed(source: Source) -> list[tuple[Token, Token] | None]:
    """For each top-level chunk of the file, the last outermost loop closed in the chunks of
    the main program before it: walked once per file, not once per error (a main program of
    2,000 stray ВЕРНУТЬСЯ was read 2,000 times over)."""
    from .layout import header_end
    out, last = [], None
    for chunk in file_chunks(source)[0]:
        out.append(last)
        if header_end(chunk) is None:
            last = _last_closed_loop(chunk) or last
    return out


def _last_closed_loop(tokens) -> tuple[Token, Token] | None:
    """The opener and the ВЕРНУТЬСЯ of the last outermost loop closed among `tokens`."""
    closed = None
    for tok, opener, stack in _blocks(tokens):
        if tok.type == "LOOP_END" and opener is not None and not stack:
            closed = (opener, tok)
    return closed


def _if_without_then(before: list[Token]) -> Token | None:
    """The innermost ЕСЛИ of `before` still waiting for its ТО (a ТО answers the nearest
    ЕСЛИ before it that has none), if one is."""
    waiting: list[Token] = []
    for tok in before:
        if tok.type == "IF":
            waiting.append(tok)
        elif tok.type == "THEN" and waiting:
            waiting.pop()
    return waiting[-1] if waiting else None


def _closed_later(opener: Token, tokens: list[Token]) -> Token | None:
    """The КОНЕЦ_ЕСЛИ that closes the ЕСЛИ `opener` further on, if one does."""
    depth = 0
    for tok in tokens[_index(tokens, opener):]:
        depth += (tok.type == "IF") - (tok.type == "END_IF")
        if depth == 0:
            return tok if tok.type == "END_IF" else None
    return None


def _loop_end_in_if(opener: Token, before: list[Token], tokens: list[Token]) -> str:
    """ВЕРНУТЬСЯ inside an ЕСЛИ that is closed further on: written for «return»."""
    loop = _innermost_unclosed(before[:_index(before, opener)])
    loop = loop if loop is not None and loop.type in ("WHILE", "FOR", "DO") else None
    where = (f" (здесь — {TERMINALS[loop.type]} со строки {loop.line}, но ЕСЛИ со строки {opener.line} "
             f"закрывается только в строке {_closed_later(opener, tokens).line})") if loop else ""
    return hint("loop-end-in-definition" if _in_definition(tokens) else "loop-end-in-program", where=where)


def _in_definition(tokens: list[Token]) -> bool:
    """Is the chunk a definition (its header first), not main-program statements?"""
    return tokens[0].type in ("DEF_NAME", "PATTERN")


def _statement_start(before: list[Token]) -> Token:
    """The first token of the statement the last token of `before` belongs to."""
    i = len(before) - 1
    while i > 0 and before[i - 1].type not in ("SEMI", "_NL", "THEN", "ELSE", "DO") \
            and before[i - 1].line == before[i].line:
        i -= 1
    return before[i]


def _closes_call(before: list[Token]) -> bool:
    """Does the «)» that ends `before` close a call's arguments (`f(1)`), not a grouping (`(a + b)`)?"""
    depth = 0
    for i in range(len(before) - 1, -1, -1):
        depth += (before[i].type == "RPAR") - (before[i].type == "LPAR")
        if depth == 0:
            return i > 0 and before[i - 1].type == "NAME"
    return False


def _file_statement_start(tok: Token, source: Source) -> Token:
    """The first token of the statement `tok` is in, read from the whole file: the tokens in
    hand may be a slice of it (an assignment's value), and a hint shows the whole statement."""
    chunk = file_chunks(source)[0][chunk_of(tok, source)]
    return _statement_start([t for t in chunk if t.start_pos <= tok.start_pos])


# Keywords that are everyday Russian words too: in lower case in the words of a phrase
# («… на строке k и придать …») they are the phrase's own words, not a keyword in the wrong case.
PROSE_WORDS = {"И", "ИЛИ", "НЕ", "ТО", "ДО", "ДЛЯ", "ПОКА", "ШАГ"}
# What pupils write to close a block, from other school languages (КЦ, ВСЕ: КуМир's).
CLOSER_WORDS = {"КОНЕЦ", "КЦ", "ВСЕ", "ВСЁ", "КОНЕЦ_ЦИКЛА", "КОНЕЦЦИКЛА", "END"}
# The operators as Pascal and Python write them.
OPERATOR_WORDS = {"MOD": "ОСТ", "DIV": "ДЕЛ", "AND": "И", "OR": "ИЛИ", "NOT": "НЕ"}
# What pupils write for the book's reading and printing, from other school languages.
SYNONYMS = {"ПРОЧИТАТЬ": "ПРОЧЕСТЬ", "ЧИТАТЬ": "ПРОЧЕСТЬ", "ВВЕСТИ": "ПРОЧЕСТЬ", "ВВОД": "ПРОЧЕСТЬ",
            "ВЫВЕСТИ": "СООБЩИТЬ", "ВЫВОД": "СООБЩИТЬ", "ПЕЧАТЬ": "СООБЩИТЬ", "НАПЕЧАТАТЬ": "СООБЩИТЬ",
            "ПЕЧАТАТЬ": "СООБЩИТЬ", "НАПИСАТЬ": "СООБЩИТЬ", "ПЕРЕЙТИ": "ПЕРЕЙТИ К", "ИДТИ": "ПЕРЕЙТИ К"}


def keyword_hint(word: str, where: str = "", in_prose: bool = False, first: bool = False,
                 after: str = "") -> str | None:
    """The hint for a name that is a keyword mistyped: in lower case, with Latin letters that
    look like its Cyrillic ones (naming them), typed with the Latin keyboard layout, or misspelt;
    None if it is not one. `in_prose`: the word may be a phrase's own, so a lower-case «и» or
    «до» is no slip; `first`: the word begins a statement, where ВЫВЕСТИ or ВВОД stands for the
    keyword of another language; `after`: the text after the word (СООБЩИТЬ on the Latin layout
    is CJJ<OBNM, a name and a «<»)."""
    typed = re.match(r"[A-Za-z_<>,.;:'\"\[\]{}`~]*", word + after)[0]
    if typed.translate(LATIN_LAYOUT) in KEYWORDS - {"И"}:  # (a Latin B is a name)
        return hint("keyword-layout", written=typed, keyword=typed.translate(LATIN_LAYOUT), where=where)
    if first and word.upper() in SYNONYMS:
        return hint("keyword-typo", written=word, keyword=SYNONYMS[word.upper()], where=where)
    if word.upper() in OPERATOR_WORDS:
        return hint("keyword-typo", written=word, keyword=OPERATOR_WORDS[word.upper()], where=where)
    if word.upper() in KEYWORDS and word != word.upper():
        if in_prose and word.upper() in PROSE_WORDS:
            return None
        return hint("keyword-case", keyword=word.upper(), where=where)
    keyword = LATIN_KEYWORDS.get(fold_lookalikes(word))
    if keyword and keyword != word:
        latin = [(i, a) for i, (a, b) in enumerate(zip(word, keyword)) if a != b]
        if len(latin) == len(word):
            return hint("keyword-latin", written=word, keyword=keyword, where=where)
        letters = ", ".join(f"{a} ({i + 1}-я)" for i, a in latin)
        return hint("keyword-latin-letters", written=word, keyword=keyword, where=where, letters=letters,
                    which="латинская буква" if len(latin) == 1 else "латинские буквы")
    near = nearest_keyword(word)
    return hint("keyword-typo", written=word, keyword=near, where=where) if near else None


def nearest_keyword(word: str) -> str | None:
    """The keyword an uppercase word was probably meant to be (КОНЕЦ_ЕСИЛ → КОНЕЦ_ЕСЛИ)."""
    if not word.isupper() or word in KEYWORDS or len(word) < 3:
        return None
    return nearest(word, sorted(KEYWORDS | {"ПЕРЕЙТИ"}), cutoff=0.75)
