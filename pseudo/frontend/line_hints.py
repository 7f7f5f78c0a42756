"""Hints for a pupil's slips that read the tokens around the error along its line — the
tokens in hand may be a slice of the statement (a value, a condition), so they are read by
their neighbours in the file (whole_file.neighbour), never by reading the chunk again: the
signs of an assignment mistyped (`x :=: 1`, `x : = 1`), a colon for ТО, a label without its
colon, a name typed as two words, a comparison that lost its left side (`x ≠ 1 И ≠ 2`), a
list of values, a ДЛЯ without ДО, a decimal point, a «;» between the values of СООБЩИТЬ.
"""
from __future__ import annotations

import re
from itertools import pairwise

from ..messages import hint
from .raw import Token
from .source import Source, text_of_tokens
from .whole_file import neighbour

COMPARISONS = {"EQ", "NE", "LT", "LE", "GT", "GE"}
STATEMENT_STARTS = {"PRINT", "READ", "IF", "WHILE", "FOR", "GOTO", "STOP", "EXIT", "LABEL"}


def colon_for_keyword(source: Source, line: int, column: int) -> str | None:
    """`ЕСЛИ x = 1: …`, `ПОКА x < 3: …`: a colon, as Python writes it, for ТО or ВЫПОЛНЯТЬ."""
    text = source.line(line)
    words = re.findall(r"\w+", text[:column - 1])
    for opener, keyword in (("ЕСЛИ", "ТО"), ("ПОКА", "ВЫПОЛНЯТЬ"), ("ДЛЯ", "ВЫПОЛНЯТЬ")):
        if opener in words and keyword not in words[len(words) - words[::-1].index(opener):]:
            fixed = f"{text[:column - 1].rstrip()} {keyword} {text[column:].strip()}".strip()
            return hint("colon-for-keyword", keyword=keyword, fixed=" ".join(fixed.split()))
    return None


def assign_sign_hint(text: str, at: int) -> str | None:
    """`x :=: 1`, `x =: 1`, `x : = 1`, `x := = 1`: the signs of an assignment mistyped around
    the place `at` of the statement (or line) `text`; the hint with it written with «:=», or None."""
    start = end = at
    while start > 0 and text[start - 1] in " \t:=":
        start -= 1
    while end < len(text) and text[end] in " \t:=":
        end += 1
    signs = text[start:end]
    if not (":" in signs and "=" in signs) or not text[:start].strip() or signs.strip() == ":=":
        return None
    return hint("assign-signs", written=signs.strip(), fixed=f"{text[:start].strip()} := {text[end:].strip()}")


def ends_line(tok: Token, source: Source) -> bool:
    following = neighbour(tok, source, 1)
    return following is None or following.line != tok.line or following.type == "_NL"


def name_then_word(name: Token, tok: Token, source: Source) -> str | None:
    """A statement that begins with a name and goes on with a word or a statement, the name
    first on its line: a state's label without its colon (`С k := k + 1`, a name in capitals,
    as the book's labels are), or a name typed as two words (`мой счёт := 1`)."""
    previous = neighbour(name, source, -1)
    if previous is not None and previous.line == name.line and previous.type != "_NL":
        return None
    text, end = source.text, end_on_line(tok, source).end_pos
    if name.value.isupper() and (tok.type == "NAME" or tok.type in STATEMENT_STARTS):
        return hint("label-without-colon", name=name.value, fixed=f"{name.value}: {text[tok.start_pos:end]}")
    following = neighbour(tok, source, 1)
    if tok.type == "NAME" and following is not None and following.type == "ASSIGN":
        return hint("name-with-space", fixed=f"{name.value}_{tok.value} {text[following.start_pos:end]}")
    return None


VALUE_ENDS = {"NUMBER", "NAME", "STRING", "RPAR", "RSQB"}


VALUE_STARTS = {"NUMBER", "NAME", "STRING", "LPAR"}


OPERAND_BOUNDS = {"AND", "OR", "NOT", "IF", "WHILE", "THEN", "ELSE", "DO", "LPAR", "RPAR", "SEMI", "_NL", "ASSIGN",
                  "PRINT", "COMMA", "END_IF", "LOOP_END"}


def half_comparison(tok: Token, source: Source) -> str | None:
    """`x ≠ 1 И ≠ 2`: a comparison after И or ИЛИ that lost its left side, as speech drops it;
    the hint with the left side of the comparison before written again."""
    def along(start: Token, step: int):  # the tokens from `start` on, along its line, up to a bound
        k = step
        while (t := neighbour(start, source, k)) is not None and t.line == start.line and t.type not in OPERAND_BOUNDS:
            yield t
            k += step
    conj = neighbour(tok, source, -1)
    if conj is None or conj.type not in ("AND", "OR"):
        return None
    compare = next((t for t in along(conj, -1) if t.type in COMPARISONS), None)
    if compare is None:
        return None
    left = list(along(compare, -1))
    right = list(along(tok, 1))
    if not left or not right:
        return None
    text = source.text
    fixed = f"{text[left[-1].start_pos:conj.end_pos]} {text[left[-1].start_pos:compare.start_pos].strip()} " \
            f"{text[tok.start_pos:right[-1].end_pos]}"
    return hint("half-comparison", conj=conj.value, fixed=" ".join(fixed.split()))


def list_literal(tok: Token, tokens: list[Token], source: Source) -> str | None:
    """`x := [1, 2, 3]`: the elements assigned one by one (the first three)."""
    assign, target = neighbour(tok, source, -1), neighbour(tok, source, -2)
    if assign is None or assign.type != "ASSIGN" or target is None or target.type != "NAME":
        return None
    name = target.value
    inside = tokens[1:-1] if tokens[-1].type == "RSQB" else tokens[1:]
    values, depth, start = [], 0, 0
    for i, t in enumerate([*inside, None]):
        depth += t is not None and (t.type in ("LPAR", "LSQB")) - (t.type in ("RPAR", "RSQB"))
        if t is None or t.type == "COMMA" and depth == 0:
            values.append(text_of_tokens(source, inside[start:i]) if i > start else "…")
            start = i + 1
    shown = "; ".join(f"{name}[{i}] := {v}" for i, v in enumerate(values[:3], start=1))
    return hint("list-literal", fixed=shown + ("; …" if len(values) > 3 else ""))


def missing_to(header: list[Token], tok: Token, source: Source) -> str:
    """`ДЛЯ i := 1 3 ВЫПОЛНЯТЬ`: ДО left out between two values of the header, which is offered
    with it on one line; or, if no two values meet, the form of the header."""
    text = source.text
    meets = [b for a, b in pairwise(header) if a.type in VALUE_ENDS and b.type in VALUE_STARTS
             and not (a.type == "NAME" and b.type == "LPAR")]
    if tok.type != "DO" or len(meets) > 1:
        return hint("missing-to", fixed="ДЛЯ i := … ДО … ВЫПОЛНЯТЬ")
    at = meets[0] if meets else tok
    fixed = f"{text[header[0].start_pos:at.start_pos].rstrip()} ДО {text[at.start_pos:tok.end_pos] if meets else '…'}"
    fixed += "" if meets else " ВЫПОЛНЯТЬ"
    return hint("missing-to", fixed=" ".join(fixed.split()))


def decimal_fraction(whole: str, part: str, key: str = "decimal-comma") -> str:
    """`x := 1,5`, `x := 1.5`: a decimal comma or point, where the language writes a fraction."""
    from fractions import Fraction
    value = Fraction(int(whole + part), 10 ** len(part))
    fixed = str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"
    return hint(key, written=f"{whole}{',' if key == 'decimal-comma' else '.'}{part}", fixed=fixed)


def number_start(text: str, pos: int) -> int:
    """Where the digits before `pos` begin."""
    start = pos
    while start > 0 and text[start - 1].isdigit():
        start -= 1
    return start


STATEMENT_BOUNDS = ("SEMI", "_NL", "THEN", "ELSE", "DO", "END_IF", "LOOP_END")


def start_on_line(tok: Token, source: Source) -> Token:
    """The first token of the statement of `tok` on its line (`tok` if none is before it):
    read back along its statement only, so that the errors of a long line or chunk do not read
    it once each."""
    return _last_along(tok, source, -1)


def end_on_line(tok: Token, source: Source) -> Token:
    """The last token of the statement of `tok` on its line."""
    return _last_along(tok, source, 1)


def _last_along(tok: Token, source: Source, step: int) -> Token:
    k, last = step, tok
    while (t := neighbour(tok, source, k)) is not None and t.line == tok.line and t.type not in STATEMENT_BOUNDS:
        last, k = t, k + step
    return last


def value_as_statement(source: Source, head: Token, text: str) -> str | None:
    """The hint for a value standing as a statement, `head` its first token, `text` its text:
    `x : 5` reads as the label x: and the statement 5 (an assignment with «:» for «:=»);
    `СООБЩИТЬ x; y` as two statements (a «;» for the comma between values)."""
    label = re.fullmatch(r"\s*([^\W\d]\w*)\s*:\s*", source.line(head.line)[:head.column - 1])
    if label:
        return hint("label-as-assign", fixed=f"{label[1]} := {text}")
    semi = neighbour(head, source, -1)
    if semi is None or semi.type != "SEMI" or semi.line != head.line:
        return None
    start = start_on_line(semi, source)
    if start is semi or start.type != "PRINT":
        return None
    return hint("print-semicolon", fixed=f"{source.text[start.start_pos:semi.start_pos].rstrip()}, {text}")
