"""Lark parser: source text → chunks → raw tree (statements with unresolved token runs).

Lark exceptions never leave this module: they become `StaticError`s in Russian.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from itertools import pairwise
from pathlib import Path

from .. import nodes as n
from ..errors import Diagnostic, StaticError, diagnostic
from ..messages import KEYWORDS, TERMINALS, hint, message, nearest
from .lark_standalone import (
    Lark,
    Lark_StandAlone,
    Token,
    Transformer,
    UnexpectedCharacters,
    UnexpectedInput,
    UnexpectedToken,
    VisitError,
    v_args,
)
from .layout import split_chunks
from .source import Source, Span, fold_lookalikes, span_of_token


@lru_cache(maxsize=1)
def lark_parser() -> Lark:
    """The one parser for every program, built once from the tables that Lark's standalone tool
    wrote from grammar/pseudo.lark (scripts/build_parser.py): a start does not import Lark."""
    return Lark_StandAlone()


def grammar_text() -> str:
    """The grammar lives in the top-level `grammar/`, installed as the package `pseudo.grammar`."""
    try:
        return resources.files("pseudo.grammar").joinpath("pseudo.lark").read_text(encoding="utf-8")
    except ModuleNotFoundError:  # running from a checkout that was not installed
        return (Path(__file__).resolve().parents[2] / "grammar" / "pseudo.lark").read_text(encoding="utf-8")


def grammar_rule_names() -> set[str]:
    """Every rule and alias of the grammar, for the coverage test of the golden programs."""
    names = set()
    for rule in lark_parser().rules:
        if rule.options.expand1 and len(rule.expansion) == 1 and not rule.alias:
            continue  # `?rule: other` — inlined, never a node of its own
        name = rule.alias or rule.origin.name
        name = getattr(name, "name", name)
        if not str(name).startswith(("_", "__")):
            names.add(str(name))
    return names


# ---- raw tree pieces that the resolver turns into nodes ----

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


def lex(source: Source) -> tuple[list[Token], list[Token]]:
    """All tokens of the file and, apart, its comments."""
    comments: list[Token] = []
    parser = lark_parser()
    try:
        tokens = []
        for tok in parser.lex(source.text, dont_ignore=True):
            if tok.type == "COMMENT":
                comments.append(tok)
            elif tok.type != "WS":
                tokens.append(tok)
        return tokens, comments
    except UnexpectedCharacters as e:
        raise _char_error(source, e) from None


def _char_error(source: Source, e: UnexpectedCharacters) -> StaticError:
    span = Span(source, e.line, e.column, e.line, e.column + 1)
    ch = source.text[e.pos_in_stream] if e.pos_in_stream < len(source.text) else ""
    if ch == "{":
        return StaticError([diagnostic("error", "unclosed-comment", span)])
    if ch in "'\"":
        return StaticError([diagnostic("error", "unclosed-string", span)])
    if ch == "«":
        return StaticError([diagnostic("error", "bad-pattern", span, detail="нет закрывающей «»»")])
    after_digit = e.pos_in_stream > 0 and source.text[e.pos_in_stream - 1].isdigit()
    tip = hint("two-numbers") if ch in ".," and after_digit else None
    return StaticError([diagnostic("error", "unexpected-char", span, tip, char=ch)])


def tolerance_warnings(tokens: list[Token], source: Source) -> list[Diagnostic]:
    """The printed book's defects that are accepted, each with a warning. The book's own signs
    (− – ≤ ≥ ≠) are the language's signs: no warning."""
    out = []
    for tok in tokens:
        if tok.type in ("END_IF", "STOP") and "_" not in tok.value:
            keyword = "КОНЕЦ_ЕСЛИ" if tok.type == "END_IF" else "КОНЕЦ_РАБОТЫ"
            out.append(diagnostic("warning", "tol-space-keyword", span_of_token(source, tok), text=tok.value,
                                  keyword=keyword))
    return out


def parse_file(source: Source) -> ParsedFile:
    """Parse every chunk; collect all syntax errors (one per chunk) before giving up."""
    tokens, comment_tokens = lex(source)
    chunks, errors = split_chunks(tokens, source)
    definitions, main, rules = [], [], set()
    for chunk in chunks:
        try:
            tree = _parse_tokens(chunk, "chunk", source)
        except StaticError as e:
            errors.extend(e.diagnostics)
            continue
        rules.update(t.data for t in tree.iter_subtrees())
        item = _transform(tree, source)
        if isinstance(item, RawDef):
            definitions.append(item)
        else:
            main.extend(item.stmts)
    if errors:
        raise StaticError(errors)
    comments = [n.Comment(span_of_token(source, t), t.value[1:-1].strip()) for t in comment_tokens]
    return ParsedFile(source, definitions, main, comments, tolerance_warnings(tokens, source),
                      {str(r) for r in rules})


def parse_expression(tokens: list[Token], source: Source, rules_seen: set | None = None) -> n.Expr:
    """Parse a slice of a run as an expression (used by the resolver)."""
    tree = _parse_tokens([t for t in tokens if t.type != "_NL"], "expr", source)
    if rules_seen is not None:
        rules_seen.update(str(t.data) for t in tree.iter_subtrees())
    return _transform(tree, source)


def _parse_tokens(tokens: list[Token], start: str, source: Source):
    if not tokens:
        raise StaticError([diagnostic("error", "unexpected-eof", None)])
    ip = lark_parser().parse_interactive(start=start)
    try:
        for tok in tokens:
            ip.feed_token(tok)
        return ip.feed_eof(tokens[-1])
    except UnexpectedToken as e:
        raise _syntax_error(e, tokens, source) from None
    except UnexpectedInput as e:  # pragma: no cover - the other Lark input errors
        span = Span(source, e.line, e.column, e.line, e.column + 1)
        raise StaticError([diagnostic("error", "unexpected-eof", span)]) from None


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


def _syntax_error(e: UnexpectedToken, tokens: list[Token], source: Source) -> StaticError:
    tok = e.token
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
                                           _unclosed_hint(opener, tokens), opener=what, closer=closer)])
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
    expected = sorted({TERMINALS.get(x, x) for x in e.expected
                       if not x.startswith("__") and x not in ("$END", "_NL", "SEMI")})
    if expected and len(expected) <= 6:
        text += "; ожидалось: " + ", ".join(expected)
    return StaticError([Diagnostic("error", "unexpected-token", text, span, _syntax_hint(tok, e.expected, tokens))])


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


def _transform(tree, source: Source):
    try:
        return _Builder(source).transform(tree)
    except VisitError as e:
        if isinstance(e.orig_exc, StaticError):
            raise e.orig_exc from None
        raise


def _span(source: Source, first: Token, last: Token) -> Span:
    return Span(source, first.line, first.column, last.end_line, last.end_column)


def _tokens_of(items) -> list[Token]:
    out = []
    for item in items:
        if isinstance(item, Token):
            out.append(item)
        elif isinstance(item, Run):
            out.extend(item.tokens)
        else:
            out.extend(item)
    return out


@v_args(inline=True)
class _Builder(Transformer):
    """Lark tree → raw tree. One small method per form."""

    def __init__(self, source: Source):
        super().__init__()
        self.src = source

    def sp(self, tok: Token) -> Span:
        return span_of_token(self.src, tok)

    # ---- chunks ----
    def chunk(self, item):
        return item

    def proc_def(self, name, *rest):
        params = rest[0] if len(rest) == 3 else []
        body = rest[-1]
        return RawDef(name.value, params, body, self.sp(name), False)

    def phrase_def(self, pattern, _eq, body):
        return RawDef(pattern.value, [], body, self.sp(pattern), True)

    def params(self, *items):
        return [p for p in items if isinstance(p, n.Param)]

    def param(self, *toks):
        name = toks[-1]
        return n.Param(self.sp(toks[0]).to(self.sp(name)), name.value, len(toks) == 2)

    @v_args(inline=False, meta=True)
    def block(self, meta, children):
        stmts, after_newline = [], False
        for child in children:
            if isinstance(child, Token):  # SEMI
                after_newline = False
                continue
            if isinstance(child, Run):
                child.after_newline = after_newline
            stmts.append(child)
            after_newline = True
        span = Span(self.src, meta.line, meta.column, meta.end_line, meta.end_column) if not meta.empty else None
        return n.Block(span, tuple(stmts))

    # ---- statements ----
    def if_stmt(self, kw, cond, _then, then, *rest):
        else_ = rest[1] if len(rest) == 3 else None
        return n.If(self.sp(kw), cond, then, else_)

    def while_stmt(self, kw, cond, _do, body, _end):
        return n.While(self.sp(kw), cond, body)

    def for_stmt(self, kw, var, _assign, start, *rest):
        step = rest[1] if rest[0].type == "STEP" else None
        _to, stop, _do, body, _end = rest[-5:]
        return n.For(self.sp(kw), var.value, start, step, stop, body)

    def loop_stmt(self, kw, body, _end):
        return n.Loop(self.sp(kw), body)

    def exit_stmt(self, kw):
        return n.Exit(self.sp(kw))

    def print_stmt(self, kw, args=None):
        return n.Print(self.sp(kw), args, True)

    def read_stmt(self, kw, args):
        return n.Read(self.sp(kw), args)

    def stop_stmt(self, kw):
        return n.Stop(self.sp(kw))

    def use_stmt(self, kw, path):
        return RawUse(path.value[1:-1], self.sp(kw).to(self.sp(path)))

    def goto_stmt(self, kw, label):
        return n.Goto(self.sp(kw).to(self.sp(label)), label.value, True)

    def label(self, tok):
        return n.Label(self.sp(tok), tok.value.rstrip(": \t"))

    # ---- runs ----
    def _run(self, *items):
        toks = _tokens_of(items)
        return Run(toks, _span(self.src, toks[0], toks[-1]))

    run = args = cond = _run

    def ifgroup(self, *items):
        return _tokens_of(items)

    # ---- expressions ----
    def number(self, tok):
        return n.Const(self.sp(tok), int(tok.value))

    def string(self, tok):
        return n.Const(self.sp(tok), tok.value[1:-1])

    def true(self, tok):
        return n.Const(self.sp(tok), True)

    def false(self, tok):
        return n.Const(self.sp(tok), False)

    def var(self, tok):
        return n.Var(self.sp(tok), tok.value)

    def index(self, name, _l, exprs, close):
        return n.Index(self.sp(name).to(self.sp(close)), name.value, tuple(exprs))

    def call(self, name, _l, *rest):
        args = rest[0] if len(rest) == 2 else []
        return n.Call(self.sp(name).to(self.sp(rest[-1])), name.value, tuple(args))

    def paren(self, _l, expr, _r):
        return expr

    def exprs(self, *items):
        return [x for x in items if not isinstance(x, Token)]

    def if_expr(self, kw, cond, _t, then, _e, else_, end):
        return n.IfExpr(self.sp(kw).to(self.sp(end)), cond, then, else_)

    def not_(self, kw, operand):
        return n.Not(self.sp(kw).to(operand.span), operand)

    def neg(self, kw, operand):
        if isinstance(operand, n.Const) and type(operand.value) is int:
            return n.Const(self.sp(kw).to(operand.span), -operand.value)
        return n.Unary(self.sp(kw).to(operand.span), "-", operand)

    def _chain(self, cls, *items):
        left = items[0]
        for i in range(1, len(items), 2):
            op, right = items[i], items[i + 1]
            left = cls(left.span.to(right.span), OPS[op.type], left, right)
        return left

    def or_expr(self, *items):
        return self._chain(n.Logical, *items)

    and_expr = or_expr

    def comparison(self, *items):
        return self._chain(n.Compare, *items)

    def sum(self, *items):
        return self._chain(n.Binary, *items)

    term = sum

    def power(self, base, _caret, exponent):
        return n.Binary(base.span.to(exponent.span), "^", base, exponent)


OPS = {"OR": "ИЛИ", "AND": "И", "EQ": "=", "NE": "≠", "LT": "<", "LE": "≤", "GT": ">", "GE": "≥",
       "PLUS": "+", "MINUS": "-", "STAR": "*", "SLASH": "/", "DIV": "ДЕЛ", "MOD": "ОСТ"}
