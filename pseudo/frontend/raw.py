"""The raw tree: what the parser gives the resolver — statements with their token runs not
yet resolved, definitions with their bodies, the files a program uses."""
from __future__ import annotations

from dataclasses import dataclass

from .. import nodes as n
from ..errors import Diagnostic
from .lexer import Token
from .source import Source, Span


@dataclass
class Run:
    """A flat run of tokens: an expression, an assignment, a call, a phrase or a transfer."""
    tokens: list[Token]
    span: Span
    after_newline: bool = False  # separated from the previous statement by a line break only


@dataclass
class RawDef:
    name: str  # procedure name, or the «pattern» text
    params: list[n.Param]
    body: n.Block
    span: Span  # the header
    is_phrase: bool


@dataclass
class RawUse:
    path: str
    span: Span


@dataclass
class ParsedFile:
    source: Source
    definitions: list[RawDef]
    main: list  # statements (nodes with Runs inside), RawUse items among them
    comments: list[n.Comment]
    warnings: list[Diagnostic]
    rules_seen: set[str]


# the operators' names in the tree, by terminal
OPS = {"OR": "ИЛИ", "AND": "И", "EQ": "=", "NE": "≠", "LT": "<", "LE": "≤", "GT": ">", "GE": "≥",
       "PLUS": "+", "MINUS": "-", "STAR": "*", "SLASH": "/", "DIV": "ДЕЛ", "MOD": "ОСТ"}
