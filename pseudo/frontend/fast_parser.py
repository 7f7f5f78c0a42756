"""The parser's fast path: a hand-written recursive-descent reading of the two start symbols
of grammar/pseudo.lark, `chunk` and `expr`.

The grammar stays the definition of the language, and Lark's LALR parser built from it
(grammar_parser.py) stays the parser of record for every error. This module accepts exactly
what the grammar accepts and builds exactly the raw tree that grammar_parser's builder makes
from Lark's tree — the same nodes, spans, tokens and names of the rules used. On anything
else it gives up (`parse_chunk` and `parse_expr` return None) without saying why, and
parser.py asks Lark, whose error message is the one reported. tests/test_fast_parser.py holds
the two to each other: every program of the repository, random expressions, token soups and
grammar-shaped programs must give equal trees, or a refusal here where Lark reports an error.

The grammar is LALR(1) without conflicts, so reading it top-down with one token of lookahead
takes the same decisions: a run, an argument list or a condition takes every token that may
continue it, a block ends at the first token that starts neither a statement nor a separator.
"""
from __future__ import annotations

from .. import nodes as n
from .lexer import Token
from .raw import OPS, RawDef, RawUse, Run
from .source import Source, Span

# the terminals of `_first`: a run begins with one of these
FIRST = frozenset({"NAME", "NUMBER", "STRING", "LPAR", "RPAR", "LSQB", "RSQB", "COMMA", "ASSIGN", "PLUS", "MINUS",
                   "STAR", "SLASH", "CARET", "DIV", "MOD", "EQ", "NE", "LT", "LE", "GT", "GE", "AND", "OR", "NOT",
                   "TRUE", "FALSE", "RESULT"})
ITEM = FIRST | {"IF"}  # `_item`: IF opens an ifgroup
SEPARATORS = frozenset({"_NL", "SEMI"})

# binary operators of `expr`: the level of the rule each belongs to, loosest first
LEVEL = {"OR": 1, "AND": 2, "EQ": 4, "NE": 4, "LT": 4, "LE": 4, "GT": 4, "GE": 4,
         "PLUS": 5, "MINUS": 5, "STAR": 6, "SLASH": 6, "DIV": 6, "MOD": 6}
NOT_LEVEL, COMPARISON = 3, 4
RULE = {1: "or_expr", 2: "and_expr", 4: "comparison", 5: "sum", 6: "term"}
NODE = {1: n.Logical, 2: n.Logical, 4: n.Compare, 5: n.Binary, 6: n.Binary}
CONSTANTS = {"TRUE": ("true", True), "FALSE": ("false", False)}

_END = Token("$END", "")


class Refused(Exception):
    """The tokens are not what the grammar accepts here (Lark says why)."""


def parse_chunk(tokens: list[Token], source: Source) -> tuple[RawDef | n.Block, set[str]] | None:
    """A definition or a block of main-program statements, and the grammar's rules it used;
    None if the grammar would not accept the tokens."""
    reader = _Reader(tokens, source)
    try:
        return reader.chunk(), reader.rules
    except Refused:
        return None


def parse_expr(tokens: list[Token], source: Source) -> tuple[n.Expr, set[str]] | None:
    """An expression (the start symbol `expr`) and the rules it used; None if not one."""
    reader = _Reader(tokens, source)
    try:
        expr = reader.atom() if len(tokens) == 1 else reader.expr(1)  # one token: a name, a number…
    except Refused:
        return None
    return (expr, reader.rules) if reader.i == len(tokens) else None


class _Reader:
    """One pass over a list of tokens; `i` is the next one."""

    def __init__(self, tokens: list[Token], source: Source):
        self.toks, self.i, self.end, self.src = tokens, 0, len(tokens), source
        self.rules: set[str] = set()

    # ---- tokens ----

    def peek(self) -> str:
        return self.toks[self.i].type if self.i < self.end else "$END"

    def take(self, type_: str) -> Token:
        if self.i < self.end and self.toks[self.i].type == type_:
            self.i += 1
            return self.toks[self.i - 1]
        raise Refused

    def sp(self, tok: Token) -> Span:
        return Span(self.src, tok.line, tok.column, tok.end_line, tok.end_column)

    def stretch(self, first: Token, last: Token) -> Span:
        return Span(self.src, first.line, first.column, last.end_line, last.end_column)

    def reach(self, first: Token, last: Span) -> Span:
        return Span(self.src, first.line, first.column, last.end_line, last.end_column)

    # ---- chunks and blocks ----

    def chunk(self):
        self.rules.add("chunk")
        head = self.peek()
        item = self.proc_def() if head == "DEF_NAME" else self.phrase_def() if head == "PATTERN" else self.block()
        if self.i != self.end:
            raise Refused
        return item

    def proc_def(self) -> RawDef:
        self.rules.add("proc_def")
        name = self.take("DEF_NAME")
        params = self.params() if self.peek() == "LPAR" else []
        self.take("DEF_EQ")
        return RawDef(name.value, params, self.block(), self.sp(name), False)

    def phrase_def(self) -> RawDef:
        self.rules.add("phrase_def")
        pattern = self.take("PATTERN")
        self.take("DEF_EQ")
        return RawDef(pattern.value, [], self.block(), self.sp(pattern), True)

    def params(self) -> list[n.Param]:
        self.rules.add("params")
        self.take("LPAR")
        params = [self.param()]
        while self.peek() == "COMMA":
            self.i += 1
            params.append(self.param())
        self.take("RPAR")
        return params

    def param(self) -> n.Param:
        self.rules.add("param")
        first = self.toks[self.i] if self.i < self.end else _END
        by_ref = first.type == "REZ"
        if by_ref:
            self.i += 1
        name = self.take("NAME")
        return n.Param(self.stretch(first, name), name.value, by_ref)

    def block(self) -> n.Block:
        """`_seps? (_stmt (_seps _stmt)* _seps?)?`; the span reaches over the separators too,
        as Lark's positions do; an empty block has none."""
        self.rules.add("block")
        toks, start = self.toks, self.i
        stmts: list = []
        separated, after_newline = True, False
        while self.i < self.end:
            kind = toks[self.i].type
            if kind in SEPARATORS:
                self.i += 1
                separated = True
                if kind == "SEMI":
                    after_newline = False
                continue
            statement = STATEMENTS.get(kind) or (_Reader.run if kind in FIRST else None)
            if statement is None:
                break
            if not separated:
                raise Refused
            stmt = statement(self)
            if isinstance(stmt, Run):
                stmt.after_newline = after_newline
            stmts.append(stmt)
            separated, after_newline = False, True
        span = self.stretch(toks[start], toks[self.i - 1]) if self.i > start else None
        return n.Block(span, tuple(stmts))

    # ---- statements ----

    def if_stmt(self) -> n.If:
        self.rules.add("if_stmt")
        kw = self.take("IF")
        cond = self.cond()
        self.take("THEN")
        then = self.block()
        else_ = None
        if self.peek() == "ELSE":
            self.i += 1
            else_ = self.block()
        self.take("END_IF")
        return n.If(self.sp(kw), cond, then, else_)

    def while_stmt(self) -> n.While:
        self.rules.add("while_stmt")
        kw = self.take("WHILE")
        cond = self.cond()
        self.take("DO")
        body = self.block()
        self.take("LOOP_END")
        return n.While(self.sp(kw), cond, body)

    def for_stmt(self) -> n.For:
        self.rules.add("for_stmt")
        kw = self.take("FOR")
        var = self.take("NAME")
        self.take("ASSIGN")
        start = self.cond()
        step = None
        if self.peek() == "STEP":
            self.i += 1
            step = self.cond()
        self.take("TO")
        stop = self.cond()
        self.take("DO")
        body = self.block()
        self.take("LOOP_END")
        return n.For(self.sp(kw), var.value, start, step, stop, body)

    def loop_stmt(self) -> n.Loop:
        self.rules.add("loop_stmt")
        kw = self.take("DO")
        body = self.block()
        self.take("LOOP_END")
        return n.Loop(self.sp(kw), body)

    def exit_stmt(self) -> n.Exit:
        self.rules.add("exit_stmt")
        return n.Exit(self.sp(self.take("EXIT")))

    def print_stmt(self) -> n.Print:
        self.rules.add("print_stmt")
        kw = self.take("PRINT")
        args = self.items("args") if self.peek() in ITEM else None
        return n.Print(self.sp(kw), args, True)

    def read_stmt(self) -> n.Read:
        self.rules.add("read_stmt")
        kw = self.take("READ")
        if self.peek() not in ITEM:
            raise Refused
        return n.Read(self.sp(kw), self.items("args"))

    def stop_stmt(self) -> n.Stop:
        self.rules.add("stop_stmt")
        return n.Stop(self.sp(self.take("STOP")))

    def use_stmt(self) -> RawUse:
        self.rules.add("use_stmt")
        kw = self.take("USE")
        path = self.take("STRING")
        return RawUse(path.value[1:-1], self.stretch(kw, path))

    def goto_stmt(self) -> n.Goto:
        self.rules.add("goto_stmt")
        kw = self.take("GOTO")
        label = self.take("AND") if self.peek() == "AND" else self.take("NAME")
        return n.Goto(self.stretch(kw, label), label.value, True)

    def label(self) -> n.Label:
        self.rules.add("label")
        tok = self.take("LABEL")
        return n.Label(self.sp(tok), tok.value.rstrip(": \t"))

    # ---- token runs ----

    def run(self) -> Run:
        return self.items("run")

    def items(self, rule: str) -> Run:
        """`run: _first _item*` and `args: _item+`: every item that follows, on this line."""
        self.rules.add(rule)
        out = self.gather([], newlines=False)
        return Run(out, self.stretch(out[0], out[-1]))

    def cond(self) -> Run:
        """`cond: (_item | _NL)+`: the line breaks are not kept among the tokens."""
        out = self.cond_tokens([])
        if not out:
            raise Refused  # line breaks only: the grammar's builder reports the empty condition
        return Run(out, self.stretch(out[0], out[-1]))

    def cond_tokens(self, out: list[Token]) -> list[Token]:
        self.rules.add("cond")
        first = self.i
        self.gather(out, newlines=True)
        if self.i == first:
            raise Refused  # not even a line break: not a condition
        return out

    def gather(self, out: list[Token], newlines: bool) -> list[Token]:
        """The items from here on into `out`; with `newlines`, passing over line breaks."""
        toks, i, end = self.toks, self.i, self.end  # a local index: most tokens are taken here
        while i < end:
            kind = toks[i].type
            if kind in FIRST:
                out.append(toks[i])
                i += 1
            elif kind == "IF":
                self.i = i
                self.ifgroup(out)
                i = self.i
            elif newlines and kind == "_NL":
                i += 1
            else:
                break
        self.i = i
        return out

    def ifgroup(self, out: list[Token]) -> None:
        """`ifgroup: IF cond THEN cond ELSE cond END_IF`, its tokens flat into the run."""
        self.rules.add("ifgroup")
        out.append(self.take("IF"))
        self.cond_tokens(out)
        out.append(self.take("THEN"))
        self.cond_tokens(out)
        out.append(self.take("ELSE"))
        self.cond_tokens(out)
        out.append(self.take("END_IF"))

    # ---- expressions ----

    def expr(self, least: int) -> n.Expr:
        """The operators of `least` and tighter, by precedence climbing: `or_expr` (1),
        `and_expr` (2), `not_expr` (3, prefix НЕ), `comparison` (4, at most one), `sum` (5),
        `term` (6); `factor` and `power` below."""
        toks = self.toks
        if least <= NOT_LEVEL and self.i < self.end and toks[self.i].type == "NOT":
            self.rules.add("not_")
            kw = toks[self.i]
            self.i += 1
            operand = self.expr(NOT_LEVEL)
            left = n.Not(self.reach(kw, operand.span), operand)
        else:
            left = self.factor()
        while self.i < self.end:
            op = toks[self.i]
            level = LEVEL.get(op.type)
            if level is None or level < least:
                break
            self.i += 1
            right = self.expr(level + 1)
            self.rules.add(RULE[level])
            left = NODE[level](left.span.to(right.span), OPS[op.type], left, right)
            if level == COMPARISON and self.i < self.end and LEVEL.get(toks[self.i].type) == COMPARISON:
                raise Refused  # `a < b < c`: a comparison takes two sums
        return left

    def factor(self) -> n.Expr:
        toks = self.toks
        if self.i < self.end and toks[self.i].type == "MINUS":
            self.rules.add("neg")
            kw = toks[self.i]
            self.i += 1
            operand = self.factor()
            span = self.reach(kw, operand.span)
            if isinstance(operand, n.Const) and type(operand.value) is int:
                return n.Const(span, -operand.value)
            return n.Unary(span, "-", operand)
        base = self.atom()
        if self.i < self.end and toks[self.i].type == "CARET":
            self.rules.add("power")
            self.i += 1
            exponent = self.factor()
            return n.Binary(base.span.to(exponent.span), "^", base, exponent)
        return base

    def atom(self) -> n.Expr:
        if self.i >= self.end:
            raise Refused
        tok = self.toks[self.i]
        self.i += 1
        kind = tok.type
        if kind in ("NAME", "RESULT"):
            after = self.toks[self.i].type if self.i < self.end else "$END"
            if after == "LSQB" or after == "LPAR" and kind == "NAME":
                return self.name(tok)
            self.rules.add("var")
            return n.Var(Span(self.src, tok.line, tok.column, tok.end_line, tok.end_column), tok.value)
        if kind == "NUMBER":
            self.rules.add("number")
            return n.Const(Span(self.src, tok.line, tok.column, tok.end_line, tok.end_column), int(tok.value))
        if kind == "STRING":
            self.rules.add("string")
            return n.Const(self.sp(tok), tok.value[1:-1])
        if kind in CONSTANTS:
            rule, value = CONSTANTS[kind]
            self.rules.add(rule)
            return n.Const(self.sp(tok), value)
        if kind == "LPAR":
            self.rules.add("paren")
            inner = self.expr(1)
            self.take("RPAR")
            return inner
        if kind == "IF":
            return self.if_expr(tok)
        raise Refused

    def name(self, tok: Token) -> n.Expr:
        """`index` (NAME or РЕЗУЛЬТАТ followed by `[`) and `call` (NAME followed by `(`); a name
        alone, `var`, is read by `atom`."""
        if self.toks[self.i].type == "LSQB":
            self.rules.add("index")
            self.i += 1
            indices = self.exprs()
            close = self.take("RSQB")
            return n.Index(self.stretch(tok, close), tok.value, tuple(indices))
        self.rules.add("call")
        self.i += 1
        args = self.exprs() if self.peek() != "RPAR" else []
        close = self.take("RPAR")
        return n.Call(self.stretch(tok, close), tok.value, tuple(args))

    def exprs(self) -> list[n.Expr]:
        self.rules.add("exprs")
        out = [self.expr(1)]
        while self.peek() == "COMMA":
            self.i += 1
            out.append(self.expr(1))
        return out

    def if_expr(self, kw: Token) -> n.IfExpr:
        self.rules.add("if_expr")
        cond = self.expr(1)
        self.take("THEN")
        then = self.expr(1)
        self.take("ELSE")
        else_ = self.expr(1)
        end = self.take("END_IF")
        return n.IfExpr(self.stretch(kw, end), cond, then, else_)


STATEMENTS = {"IF": _Reader.if_stmt, "WHILE": _Reader.while_stmt, "FOR": _Reader.for_stmt, "DO": _Reader.loop_stmt,
              "EXIT": _Reader.exit_stmt, "PRINT": _Reader.print_stmt, "READ": _Reader.read_stmt,
              "STOP": _Reader.stop_stmt, "USE": _Reader.use_stmt, "GOTO": _Reader.goto_stmt, "LABEL": _Reader.label}
