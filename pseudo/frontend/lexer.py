"""The tokens of a program, cut by hand-written rules that mirror the terminals of
grammar/pseudo.lark exactly as Lark's basic lexer applies them.

Lark's lexer tries the terminals in one fixed order — higher priority first (END_IF, STOP and
GOTO are 3, LABEL is 2), then the terminal that can match the longest text — and takes the
first that matches, not the longest match; a NAME that spells a keyword is retyped to it.
TERMINALS below takes the same decisions. The grammar stays the definition: tests/
test_fast_parser.py compares these tokens with Lark's own on every program and on random
text, and a text with a character no terminal accepts is left to Lark's lexer, whose error
pseudo reports (parser.lex).

Token has the attributes of Lark's token (type, value, start_pos, line, column, end_line,
end_column, end_pos) and its equality, so that a start does not import Lark.
"""
from __future__ import annotations

import re

# (terminal, regular expression). Lark's basic lexer tries the terminals in one order (above);
# this one takes the same decisions: WS, which no other terminal's text begins with, is taken
# before each token; LABEL (priority 2, tried just before NAME) is a NAME followed by `:`; the
# terminals of priority 3 come first, and each of GE, LE, NE before the GT or LT that begins
# it. The others never match the same text, and are in the order of how often they come (the
# regular expression tries them in turn).
SPACES = "[ \t\x0c\r\xa0]"  # WS is one or more
TERMINALS = [
    ("STOP", r"КОНЕЦ(?:_|[ \t]+)РАБОТЫ(?!\w)"),  # priority 3
    ("END_IF", r"КОНЕЦ(?:_|[ \t]+)ЕСЛИ(?!\w)"),
    ("GOTO", r"ПЕРЕЙТИ[ \t]+К(?!\w)"),
    ("NAME", r"[^\W\d_]\w*(?P<LABEL>[ \t]*:(?!=))?"),
    ("_NL", r"\r?\n"),
    ("NUMBER", r"\d+"),
    ("LPAR", r"\("),
    ("RPAR", r"\)"),
    ("ASSIGN", ":="),
    ("COMMA", ","),
    ("LSQB", r"\["),
    ("RSQB", r"\]"),
    ("PLUS", r"\+"),
    ("STAR", r"\*"),
    ("MINUS", "-|−|–"),
    ("GE", ">=|≥"),
    ("LE", "<=|≤"),
    ("NE", "<>|≠"),
    ("EQ", "="),
    ("GT", ">"),
    ("LT", "<"),
    ("SEMI", ";"),
    ("SLASH", "/"),
    ("CARET", r"\^"),
    ("STRING", r"'[^'\n]*'|\"[^\"\n]*\""),
    ("COMMENT", r"\{[^}]*\}"),
    ("PATTERN", r"«[^»]*»"),
    ("DEF_NAME", "\x00DEF_NAME"),
    ("DEF_EQ", "\x00DEF_EQ"),
]

# A NAME that is exactly one of these words is that keyword (Lark: the string terminals that
# NAME's expression also matches).
KEYWORD_TYPES = {
    "ЕСЛИ": "IF", "ТО": "THEN", "ИНАЧЕ": "ELSE", "ПОКА": "WHILE", "ДЛЯ": "FOR", "ШАГ": "STEP", "ДО": "TO",
    "ВЫПОЛНЯТЬ": "DO", "ВЕРНУТЬСЯ": "LOOP_END", "КОНЧЕНО": "EXIT", "СООБЩИТЬ": "PRINT", "ПРОЧЕСТЬ": "READ",
    "ИСПОЛЬЗОВАТЬ": "USE", "И": "AND", "ИЛИ": "OR", "НЕ": "NOT", "ИСТИНА": "TRUE", "ЛОЖЬ": "FALSE",
    "ДЕЛ": "DIV", "ОСТ": "MOD", "РЕЗУЛЬТАТ": "RESULT", "РЕЗ": "REZ",
}

MULTILINE = frozenset({"_NL", "COMMENT", "PATTERN"})  # the only terminals whose text may hold "\n"

# Spaces (never given back), then a token; a character no terminal accepts is the group BAD.
# Every character is matched but the spaces at the very end.
_SCANNER = re.compile(f"{SPACES}*+(?:" + "|".join(f"(?P<{name}>{regex})" for name, regex in TERMINALS)
                      + r"|(?P<BAD>.))", re.DOTALL)
_LABEL = _SCANNER.groupindex["LABEL"]


class Token:
    """A token, with the attributes and the equality of Lark's (which is a `str` of its text):
    equal to its text, and to a token of the same type and text."""

    __slots__ = ("column", "end_column", "end_line", "end_pos", "line", "start_pos", "type", "value")

    def __init__(self, type_: str, value: str, start_pos: int | None = None, line: int | None = None,
                 column: int | None = None, end_line: int | None = None, end_column: int | None = None,
                 end_pos: int | None = None):
        self.type = type_
        self.value = value
        self.start_pos = start_pos
        self.line = line
        self.column = column
        self.end_line = end_line
        self.end_column = end_column
        self.end_pos = end_pos

    @classmethod
    def new_borrow_pos(cls, type_: str, value: str, borrow_t) -> Token:
        return cls(type_, value, borrow_t.start_pos, borrow_t.line, borrow_t.column, borrow_t.end_line,
                   borrow_t.end_column, borrow_t.end_pos)

    def __reduce__(self):
        return (self.__class__, (self.type, self.value, self.start_pos, self.line, self.column, self.end_line,
                                 self.end_column, self.end_pos))

    def __repr__(self) -> str:
        return f"Token({self.type!r}, {self.value!r})"

    def __str__(self) -> str:
        return self.value

    def __eq__(self, other) -> bool:
        if isinstance(other, Token):
            return self.type == other.type and self.value == other.value
        if isinstance(other, str):
            return self.value == other
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.value)


def scan(text: str, keep_whitespace: bool = False) -> list[Token] | None:
    """Every token of the text, comments among them (and spaces too, if asked), with Lark's
    positions; None when a character starts no token (Lark's lexer then says where and why)."""
    tokens: list[Token] = []
    append = tokens.append
    keywords = KEYWORD_TYPES
    line, line_start, end = 1, 0, 0
    for m in _SCANNER.finditer(text):
        kind = m.lastgroup
        value = m[kind]
        end = m.end()
        start = end - len(value)
        if keep_whitespace and start > m.start():
            append(_spaces(text, m.start(), start, line, line_start))
        if kind == "NAME":
            kind = "LABEL" if m.start(_LABEL) >= 0 else keywords.get(value, "NAME")
        elif kind in MULTILINE and "\n" in value:
            column = start - line_start + 1
            first_line = line
            line += value.count("\n")
            line_start = start + value.rindex("\n") + 1
            append(Token(kind, value, start, first_line, column, line, end - line_start + 1, end))
            continue
        elif kind == "BAD":
            return None
        column = start - line_start + 1
        append(Token(kind, value, start, line, column, line, column + end - start, end))
    if keep_whitespace and end < len(text):
        append(_spaces(text, end, len(text), line, line_start))
    return tokens


def _spaces(text: str, start: int, end: int, line: int, line_start: int) -> Token:
    return Token("WS", text[start:end], start, line, start - line_start + 1, line, end - line_start + 1, end)
