"""The parser of record: Lark's LALR parser of grammar/pseudo.lark, from the tables that Lark's
standalone tool wrote into lark_standalone.py (scripts/build_parser.py), and the builder from
Lark's tree to the raw tree.

parser.py reads a program by the fast path (lexer.py, fast_parser.py) and comes here for what
the fast path refuses: the grammar's parser then reports the error — or, should the fast path
ever refuse what the grammar accepts, reads the text all the same. Importing this module
imports lark_standalone, which a valid program never needs. The tests hold the fast path to
this one (tests/test_fast_parser.py).
"""
from __future__ import annotations

from functools import lru_cache

from .. import nodes as n
from ..errors import StaticError, diagnostic
from ..messages import hint
from . import parser
from .lark_standalone import (
    Lark,
    Lark_StandAlone,
    Transformer,
    UnexpectedCharacters,
    UnexpectedInput,
    UnexpectedToken,
    VisitError,
    v_args,
)
from .lark_standalone import Token as LarkToken
from .lexer import Token
from .raw import OPS, RawDef, RawUse, Run
from .source import Source, Span, span_of_token


@lru_cache(maxsize=1)
def lark_parser() -> Lark:
    """The grammar's parser, built once from the generated tables (Lark itself is not imported)."""
    return Lark_StandAlone()


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


def lark_tokens(source: Source, keep_ignored: bool = False) -> list[Token]:
    """The tokens by Lark's lexer (comments among them), or the StaticError of the character
    that starts no token."""
    try:
        return [_ours(t) for t in lark_parser().lex(source.text, dont_ignore=True)
                if keep_ignored or t.type != "WS"]
    except UnexpectedCharacters as e:
        raise parser.char_error(source, e.pos_in_stream, e.line, e.column) from None


def parse(tokens: list[Token], start: str, source: Source):
    """The raw tree of `chunk` or `expr` and the names of the rules used, or the StaticError
    that says what is wrong."""
    theirs = [_lark(t) for t in tokens]
    tree = _parse_tokens(theirs, start, source)
    rules = {str(t.data) for t in tree.iter_subtrees()}
    originals = {id(lark): tok for lark, tok in zip(theirs, tokens)}  # runs keep the lexer's own tokens
    return _transform(tree, source, originals), rules


def _lark(tok: Token) -> LarkToken:
    return LarkToken(tok.type, tok.value, tok.start_pos, tok.line, tok.column, tok.end_line, tok.end_column,
                     tok.end_pos)


def _ours(tok: LarkToken) -> Token:
    return Token(tok.type, tok.value, tok.start_pos, tok.line, tok.column, tok.end_line, tok.end_column,
                 tok.end_pos)


def _parse_tokens(tokens: list[LarkToken], start: str, source: Source):
    if not tokens:
        raise StaticError([diagnostic("error", "unexpected-eof", None)])
    ip = lark_parser().parse_interactive(start=start)
    try:
        for tok in tokens:
            ip.feed_token(tok)
        return ip.feed_eof(tokens[-1])
    except UnexpectedToken as e:
        raise parser.syntax_error(e.token, e.expected, tokens, source) from None
    except UnexpectedInput as e:  # pragma: no cover - the other Lark input errors
        span = Span(source, e.line, e.column, e.line, e.column + 1)
        raise StaticError([diagnostic("error", "unexpected-eof", span)]) from None


def _transform(tree, source: Source, originals: dict[int, Token]):
    try:
        return _Builder(source, originals).transform(tree)
    except VisitError as e:
        if isinstance(e.orig_exc, StaticError):
            raise e.orig_exc from None
        raise


def _span(source: Source, first: LarkToken, last: LarkToken) -> Span:
    return Span(source, first.line, first.column, last.end_line, last.end_column)


def _tokens_of(items) -> list[LarkToken]:
    out = []
    for item in items:
        if isinstance(item, LarkToken):
            out.append(item)
        elif isinstance(item, Run):
            out.extend(item.tokens)
        else:
            out.extend(item)
    return out


@v_args(inline=True)
class _Builder(Transformer):
    """Lark tree → raw tree. One small method per form."""

    def __init__(self, source: Source, originals: dict[int, Token]):
        super().__init__()
        self.src = source
        self.originals = originals

    def sp(self, tok: LarkToken) -> Span:
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
            if isinstance(child, LarkToken):  # SEMI
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
        return n.If(self.sp(kw), self.given(cond, kw), then, else_)

    def while_stmt(self, kw, cond, _do, body, _end):
        return n.While(self.sp(kw), self.given(cond, kw), body)

    def for_stmt(self, kw, var, _assign, start, *rest):
        step = rest[1] if rest[0].type == "STEP" else None
        _to, stop, _do, body, _end = rest[-5:]
        return n.For(self.sp(kw), var.value, self.given(start, kw), self.given(step, kw) if step else None,
                     self.given(stop, kw), body)

    def given(self, cond: Run, kw) -> Run:
        """A condition or bound of the construct `kw` that holds no token (only line breaks):
        the construct's error, at its keyword."""
        if not cond.tokens:
            raise StaticError([diagnostic("error", "empty-condition", self.sp(kw), hint("empty-condition"))])
        return cond

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
        toks = [self.originals[id(t)] if isinstance(t, LarkToken) else t for t in _tokens_of(items)]
        return Run(toks, _span(self.src, toks[0], toks[-1]) if toks else None)  # a condition of line breaks only

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
        return [x for x in items if not isinstance(x, LarkToken)]

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
