"""The parser: source text → tokens → chunks → raw tree (statements with unresolved token runs).

The one parser is the one Lark builds from grammar/pseudo.lark: its basic lexer and its LALR
tables, written into lark_standalone.py by Lark's standalone tool (scripts/build_parser.py), so
that a program is read without Lark installed. The file is lexed once; the layout pass
(layout.py) cuts its tokens into top-level chunks, and each chunk is parsed once, from its
ready tokens (`_Table` drives Lark's table over them). The raw tree is built as the parser
goes: at each reduction of a rule, the callback Lark makes from a method of `_Builder` (as for
its `transformer` option), so no parse tree is made and walked again.

The resolver asks for many slices of the token runs as expressions (`read_expression`), most of
which are read once and many of which are not expressions: the error of such a slice is
worded (syntax_errors.py) only when it is read. A parse error never leaves this module as one
of Lark's exceptions: it is a `StaticError` in Russian, with the place and the hint.
"""
from __future__ import annotations

from copy import copy
from functools import lru_cache

from .. import nodes as n
from ..errors import Diagnostic, StaticError, diagnostic
from ..messages import KEYWORDS, hint
from .lark_standalone import (
    BasicLexer,
    ExpandSingleChild,
    Lark,
    Lark_StandAlone,
    LexerState,
    ParseTreeBuilder,
    Rule,
    Shift,
    TextSlice,
    Tree,
    UnexpectedCharacters,
)
from .layout import HeaderError, cut, header_end, mark, split_at_header
from .raw import OPS, ParsedFile, RawDef, RawUse, Run, Token
from .source import Source, Span, span_of_token
from .syntax_errors import char_error, syntax_error

__all__ = ["OPS", "ParsedFile", "RawDef", "RawUse", "Run", "Token", "grammar_rule_names", "grammar_text",
           "lark_parser", "lex", "parse_expression", "parse_file", "read_expression"]


@lru_cache(maxsize=1)
def lark_parser() -> Lark:
    """The grammar's parser, from the generated tables (Lark itself is not imported); its
    `parse` and `lex` make Lark's trees and tokens, for the tests and tools."""
    return Lark_StandAlone()


@lru_cache(maxsize=1)
def _file_lexer() -> BasicLexer:
    """Lark's basic lexer of the grammar's terminals, keeping the comments (the grammar ignores
    them, like spaces): the program's tree holds them for the emitted Python."""
    conf = copy(lark_parser().lexer_conf)
    conf.ignore = ("WS",)
    return BasicLexer(conf)


def grammar_rule_names() -> set[str]:
    """Every rule and alias of the grammar that makes a node, for the coverage test of the golden
    programs."""
    names = set()
    for rule in lark_parser().rules:
        if rule.options.expand1 and len(rule.expansion) == 1 and not rule.alias:
            continue  # `?rule: other` — inlined, never a node of its own
        name = rule.alias or rule.origin.name
        name = getattr(name, "name", name)
        if not str(name).startswith(("_", "__")):
            names.add(str(name))
    return names


def grammar_text() -> str:
    """The grammar lives in the top-level `grammar/`, installed as the package `pseudo.grammar`."""
    from importlib import resources  # for the tests and tools that read the grammar: not at a start
    try:
        return resources.files("pseudo.grammar").joinpath("pseudo.lark").read_text(encoding="utf-8")
    except ModuleNotFoundError:  # running from a checkout that was not installed
        from pathlib import Path
        return (Path(__file__).resolve().parents[2] / "grammar" / "pseudo.lark").read_text(encoding="utf-8")


def lex(source: Source) -> tuple[list[Token], list[Token]]:
    """All tokens of the file and, apart, its comments."""
    try:
        tokens = list(_file_lexer().lex(LexerState(TextSlice.cast_from(source.text)), None))
    except UnexpectedCharacters as e:
        raise char_error(source, e.pos_in_stream, e.line, e.column) from None
    comments = [t for t in tokens if t.type == "COMMENT"]
    return ([t for t in tokens if t.type != "COMMENT"] if comments else tokens), comments


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
    """Parse every chunk. A chunk that fails gives its syntax error and is passed over, so that
    every broken part of the file is reported at once, and the resolver reports what is wrong
    in the others (`ParsedFile.errors`, `broken`). A block left open takes the definitions
    that follow it into its chunk: they are cut off it and read on their own."""
    tokens, comment_tokens = lex(source)
    parsed = ParsedFile(source, [], [], [], tolerance_warnings(tokens, source))
    chunks = cut(tokens)
    while chunks:
        chunk = chunks.pop(0)
        found = _read(chunk, source, parsed)
        if found is None:
            continue
        chunk, rest = split_at_header(chunk)
        if rest and found and _place(found[0]) > _place(rest[0]):  # the error is in the part cut off:
            del parsed.errors[-len(found):]  # that part tells its own, and the part before too
            found = _read(chunk, source, parsed, following=rest)
        if found is not None:
            _passed_over(chunk, source, parsed, header_lost=not found)
        chunks[:0] = cut(rest)
    parsed.errors = list(dict.fromkeys(parsed.errors))  # a part cut off may find its chunk's error again
    parsed.comments = [n.Comment(span_of_token(source, t), t.value[1:-1].strip()) for t in comment_tokens]
    return parsed


def _read(chunk: list[Token], source: Source, parsed: ParsedFile, following=()) -> list[Diagnostic] | None:
    """Parse a chunk into `parsed`; None, or its error, also added to `parsed.errors` (an empty
    list: its header lost its «)», an error of the layout pass)."""
    try:
        item = _parse(mark(chunk, source), "chunk", source, following)
    except HeaderError as e:
        parsed.errors.append(e.diagnostic)
        return []
    except StaticError as e:
        parsed.errors.extend(e.diagnostics)
        return e.diagnostics
    if isinstance(item, RawDef):
        parsed.definitions.append(item)
    else:
        parsed.main.extend(item.stmts)
    return None


def _place(x) -> tuple[int, int]:
    span = getattr(x, "span", x)  # a diagnostic, or a token
    return (span.line, span.column) if span is not None else (0, 0)


def _passed_over(chunk: list[Token], source: Source, parsed: ParsedFile, header_lost: bool) -> None:
    """What the rest of the program may name in a chunk that did not parse: its definition,
    with an empty body (its header parsed alone, or only its name if the header is wrong too),
    and its labels."""
    parsed.broken.labels.update(t.value.rstrip(": \t") for t in chunk if t.type == "LABEL")
    end, header = header_end(chunk), None
    if end is not None:
        try:
            header = _parse(mark(chunk[:end + 1], source), "chunk", source)
        except StaticError:  # its parameters are wrong too
            pass
    if header is not None:
        header.broken = True
        parsed.definitions.append(header)
    elif end is not None or header_lost:
        parsed.broken.names.add(chunk[0].value)


def parse_expression(tokens: list[Token], source: Source) -> n.Expr:
    """Parse tokens (line breaks among them are passed over) as an expression; tokens that are
    not one raise the StaticError that says why."""
    expr = read_expression([t for t in tokens if t.type != "_NL"], source)
    if isinstance(expr, StaticError):
        raise expr
    return expr


def read_expression(tokens: list[Token], source: Source) -> n.Expr | StaticError:
    """The expression a slice of a run spells (a run holds no line breaks), or the error that
    says why not — returned, not raised: the resolver tries many slices that are not
    expressions."""
    if not tokens:
        return StaticError([diagnostic("error", "unexpected-eof", None)])
    try:
        return _parse(tokens, "expr", source)
    except _Refused as e:
        return LateSyntaxError(e.token, e.expected, tokens, source)


class _Refused(Exception):
    """Lark's parser refused `token` where it expected one of `expected`."""

    def __init__(self, token: Token, expected: set[str]):
        super().__init__()
        self.token, self.expected = token, expected


def _parse(tokens: list[Token], start: str, source: Source, following=()):
    """The raw tree of `chunk` or `expr`; an error of a chunk is worded at once (raised as a
    StaticError; `following`: the tokens after it, which its hint may name), one of an
    expression is left to the caller (`_Refused`)."""
    _BUILDER.begin(source, tokens)
    try:
        return _TABLE.parse(tokens, start)
    except _Refused as e:
        if start == "expr":
            raise
        raise syntax_error(e.token, e.expected, tokens, source, following) from None
    finally:
        _BUILDER.end()


class LateSyntaxError(StaticError):
    """The tokens are not an expression. The resolver tries many slices that are not, and
    reports few of them: the message is written when first read."""

    def __init__(self, token: Token, expected: set[str], tokens: list[Token], source: Source):
        Exception.__init__(self)  # not StaticError's: the diagnostics come later
        self._refused = token, expected, tokens, source
        self._diagnostics: list[Diagnostic] | None = None

    @property
    def diagnostics(self) -> list[Diagnostic]:
        if self._diagnostics is None:
            self._diagnostics = syntax_error(*self._refused).diagnostics
        return self._diagnostics

    def __str__(self) -> str:
        return self.diagnostics[0].text


class _Builder:
    """The raw tree, built as the parser reduces each rule of the grammar: one method per rule
    or alias (its name), given the rule's children — the tokens Lark keeps (not those of
    anonymous terminals or of names that begin with `_`, such as line breaks) and the values
    of its sub-rules. A rule without a method (`_stmt`, `_item`…) is inlined into its parent by
    Lark; a `?rule` of one child gives that child.

    Lark calls these with the children only, so the file and the tokens of the parse in hand
    are kept here (`begin`, `end`): a block's span reaches from the token after the keyword that
    opens it to the token before the one that closes it, over its separators."""

    def __init__(self):  # private names: the others are the grammar's
        self._src: Source | None = None
        self._tokens: list[Token] = []
        self._at: dict[int, int] | None = None

    def begin(self, source: Source, tokens: list[Token]) -> None:
        self._src, self._tokens, self._at = source, tokens, None

    def end(self) -> None:
        self._src, self._tokens, self._at = None, [], None

    def sp(self, tok: Token) -> Span:
        return Span(self._src, tok.line, tok.column, tok.end_line, tok.end_column)

    def stretch(self, first: Token, last: Token) -> Span:
        return Span(self._src, first.line, first.column, last.end_line, last.end_column)

    # ---- chunks and blocks ----

    def chunk(self, c):
        item = c[0]
        if isinstance(item, _Stmts):  # a run of main-program statements: the whole chunk
            return self.block_after(None, item)
        return item

    def proc_def(self, c):
        name, *params, eq, body = c
        return RawDef(name.value, params[0] if params else [], self.block_after(eq, body), self.sp(name), False)

    def phrase_def(self, c):
        pattern, eq, body = c
        return RawDef(pattern.value, [], self.block_after(eq, body), self.sp(pattern), True)

    def params(self, c):
        return [p for p in c if isinstance(p, n.Param)]

    def param(self, c):
        name = c[-1]
        return n.Param(self.stretch(c[0], name), name.value, len(c) == 2)

    def block(self, c):
        """The statements; SEMI tokens among them say which runs follow a line break only."""
        stmts, after_newline = _Stmts(), False
        for child in c:
            if isinstance(child, Token):  # SEMI
                after_newline = False
                continue
            if isinstance(child, Run):
                child.after_newline = after_newline
            stmts.append(child)
            after_newline = True
        return stmts

    def block_after(self, opener: Token | None, stmts: _Stmts, closer: Token | None = None) -> n.Block:
        """The block between two tokens of the parse (None: its start, its end); no span when it
        holds no token."""
        if self._at is None:
            self._at = {id(t): i for i, t in enumerate(self._tokens)}
        first = self._at[id(opener)] + 1 if opener is not None else 0
        last = self._at[id(closer)] - 1 if closer is not None else len(self._tokens) - 1
        span = self.stretch(self._tokens[first], self._tokens[last]) if first <= last else None
        return n.Block(span, tuple(stmts))

    # ---- statements ----

    def if_stmt(self, c):
        kw, cond, then_kw, then, *rest = c  # IF cond THEN block (ELSE block)? END_IF
        end = rest[-1]
        else_ = self.block_after(rest[0], rest[1], end) if len(rest) == 3 else None
        return n.If(self.sp(kw), self.given(cond, kw), self.block_after(then_kw, then, rest[0]), else_)

    def while_stmt(self, c):
        kw, cond, do, body, end = c
        return n.While(self.sp(kw), self.given(cond, kw), self.block_after(do, body, end))

    def for_stmt(self, c):
        kw, var, _assign, start, *rest = c  # … (STEP cond)? TO cond DO block LOOP_END
        step = rest[1] if rest[0].type == "STEP" else None
        _to, stop, do, body, end = rest[-5:]
        return n.For(self.sp(kw), var.value, self.given(start, kw), self.given(step, kw) if step else None,
                     self.given(stop, kw), self.block_after(do, body, end))

    def given(self, cond: Run, kw: Token) -> Run:
        """A condition or bound of the construct `kw` that holds no token (only line breaks):
        the construct's error, at its keyword."""
        if not cond.tokens:
            raise StaticError([diagnostic("error", "empty-condition", self.sp(kw), hint("empty-condition"))])
        return cond

    def loop_stmt(self, c):
        do, body, end = c
        return n.Loop(self.sp(do), self.block_after(do, body, end))

    def exit_stmt(self, c):
        return n.Exit(self.sp(c[0]))

    def print_stmt(self, c):
        return n.Print(self.sp(c[0]), c[1] if len(c) == 2 else None, True)

    def read_stmt(self, c):
        return n.Read(self.sp(c[0]), c[1])

    def stop_stmt(self, c):
        return n.Stop(self.sp(c[0]))

    def use_stmt(self, c):
        kw, path = c
        return RawUse(path.value[1:-1], self.stretch(kw, path))

    def goto_stmt(self, c):
        kw, label = c
        return n.Goto(self.stretch(kw, label), label.value, True)

    def label(self, c):
        name = c[0].value.rstrip(": \t")
        if name in KEYWORDS and name != "И":  # `ИНАЧЕ:` on a line of its own: a colon after a keyword, not
            raise _Refused(c[0], set())      # a state (И is the book's own)
        return n.Label(self.sp(c[0]), name)

    # ---- token runs ----

    def run(self, c):
        toks = _flat(c)
        return Run(toks, self.stretch(toks[0], toks[-1]) if toks else None)  # a condition of line breaks only

    args = cond = run

    def ifgroup(self, c):
        return _flat(c)

    # ---- expressions ----

    def number(self, c):
        return n.Const(self.sp(c[0]), int(c[0].value))

    def string(self, c):
        return n.Const(self.sp(c[0]), c[0].value[1:-1])

    def true(self, c):
        return n.Const(self.sp(c[0]), True)

    def false(self, c):
        return n.Const(self.sp(c[0]), False)

    def var(self, c):
        return n.Var(self.sp(c[0]), c[0].value)

    def index(self, c):
        name, _open, exprs, close = c
        return n.Index(self.stretch(name, close), name.value, tuple(exprs))

    def call(self, c):
        name, close = c[0], c[-1]
        return n.Call(self.stretch(name, close), name.value, tuple(c[2]) if len(c) == 4 else ())

    def paren(self, c):
        return c[1]

    def exprs(self, c):
        return c[::2]  # expr (COMMA expr)*

    def if_expr(self, c):
        kw, cond, _then, then, _else, else_, end = c
        return n.IfExpr(self.stretch(kw, end), cond, then, else_)

    def not_(self, c):
        kw, operand = c
        return n.Not(self.sp(kw).to(operand.span), operand)

    def neg(self, c):
        kw, operand = c
        if isinstance(operand, n.Const) and type(operand.value) is int:
            return n.Const(self.sp(kw).to(operand.span), -operand.value)
        return n.Unary(self.sp(kw).to(operand.span), "-", operand)

    def or_expr(self, c):
        return _chain(n.Logical, c)

    and_expr = or_expr

    def comparison(self, c):
        return _chain(n.Compare, c)

    def sum(self, c):
        return _chain(n.Binary, c)

    term = sum

    def power(self, c):
        base, _caret, exponent = c
        return n.Binary(base.span.to(exponent.span), "^", base, exponent)


class _Stmts(list):
    """A block's statements, before the block knows its span."""


def _flat(items) -> list[Token]:
    """The tokens of a run: its own, and those of the conditions and conditional groups in it."""
    out = []
    for item in items:
        if isinstance(item, Token):
            out.append(item)
        elif isinstance(item, Run):
            out.extend(item.tokens)
        else:
            out.extend(item)
    return out


def _chain(cls, c):
    """`a op b op c …`, left to right."""
    left = c[0]
    for i in range(1, len(c), 2):
        op, right = c[i], c[i + 1]
        left = cls(left.span.to(right.span), OPS[op.type], left, right)
    return left


class _Table:
    """Lark's LALR table of the grammar, each reduction with the callback Lark makes for its rule
    from `_Builder` (the same as its `transformer` option would: `_rule`s inlined, `?rule`s of
    one child passed over, the tokens of anonymous and `_` terminals left out), driven here
    over a list of ready tokens.

    `states[s][symbol]`: for a terminal, the state to shift to (an int) or the reduction (its
    size, its callback — None where the rule's value is its one child's —, the symbol it
    makes); for a rule's symbol, the state to go to."""

    def __init__(self, lark: Lark):
        table = lark.parser.parser._parse_table
        callbacks = ParseTreeBuilder(lark.rules, Tree).create_callback(_BUILDER)
        reductions = {rule: (len(rule.expansion), None if _passes_through(rule, build) else build, rule.origin.name)
                      for rule, build in callbacks.items() if isinstance(rule, Rule)}
        self.states = [{symbol: arg if action == Shift else reductions[arg] for symbol, (action, arg) in
                        table.states[state].items()} for state in range(len(table.states))]
        self.starts, self.ends = table.start_states, table.end_states

    def parse(self, tokens: list[Token], start: str):
        """What Lark's parser does with the tokens (ParserState.feed_token), less the work of its
        general case: the value of the start symbol, or `_Refused`."""
        states, stack, values, final = self.states, [self.starts[start]], [], self.ends[start]
        for tok in tokens + [_END]:
            kind = tok.type
            while True:
                step = states[stack[-1]].get(kind)
                if step.__class__ is int:
                    stack.append(step)
                    values.append(tok)
                    break
                if step is None:
                    expected = {k for k in states[stack[-1]] if k.isupper()}
                    raise _Refused(tok if tok is not _END else Token.new_borrow_pos("$END", "", tokens[-1]), expected)
                size, build, made = step
                if build is None:  # `?sum: term`: the value of the one child is the rule's
                    stack[-1] = states[stack[-2]][made]
                else:
                    children = values[-size:] if size else []
                    del stack[len(stack) - size:], values[len(values) - size:]
                    values.append(build(children))
                    stack.append(states[stack[-1]][made])
                if tok is _END and stack[-1] == final:
                    return values[-1]
        raise AssertionError("the table ends every parse at $END")  # pragma: no cover


def _passes_through(rule: Rule, build) -> bool:
    """Is the rule `?name: one_symbol`, whose value Lark makes the value of that symbol?"""
    return len(rule.expansion) == 1 and isinstance(build, ExpandSingleChild)


_END = Token("$END", "")
_BUILDER = _Builder()
_TABLE = _Table(lark_parser())
