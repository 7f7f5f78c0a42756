"""Resolving a body: its token runs become nodes.

Each run is read, in this order, as an assignment, a transfer to a label, a phrase, or a
call; conditions may also combine phrases with И, ИЛИ, НЕ. One BodyResolver per body — a
definition or the main program — in its own Scope (resolver.py).
"""
from __future__ import annotations

from functools import partial
from itertools import pairwise
from typing import TYPE_CHECKING

from .. import nodes as n
from ..errors import StaticError, diagnostic, static_error
from ..messages import TERMINALS, hint, nearest
from ..runtime.names import RESULT
from .layout import header_end
from .line_hints import value_as_statement
from .parser import RawDef, RawUse, Run, Token, read_expression
from .phrases import (
    BUILTIN_PHRASE_NAMES,
    BUILTIN_PHRASES,
    SCREEN_OPS,
    SCREEN_PHRASES,
    WORD_TYPES,
    reads_as_prose,
    words_of,
)
from .raw import header_text
from .runs import (
    OPERAND_END,
    OPERAND_START,
    closing,
    first_operator,
    is_prose,
    split_commas,
    split_top,
    tokens_span,
    top_level,
)
from .source import Source, Span, fold_lookalikes, span_of_token, text_of_tokens
from .syntax_errors import (
    PROSE_WORDS,
    comma_between_statements,
    keyword_hint,
    unexpected,
)

if TYPE_CHECKING:
    from .resolver import Resolver, Scope


FINAL_STATE = "Я"
BLOCK_WORDS = {n.If: ("ЕСЛИ", "КОНЕЦ_ЕСЛИ"), n.While: ("ПОКА", "ВЕРНУТЬСЯ"), n.For: ("ДЛЯ", "ВЕРНУТЬСЯ"),
               n.Loop: ("ВЫПОЛНЯТЬ", "ВЕРНУТЬСЯ")}
BLOCKS = tuple(BLOCK_WORDS)
# The token types of the keywords that are everyday Russian words too: И → AND.
PROSE_TYPES = {word: kind for kind, word in TERMINALS.items() if word in PROSE_WORDS}


class BodyResolver:
    """Resolves the runs of one body — a definition, or the main program — in its own
    context: its file, its locals, its labels and the loops around the run."""

    def __init__(self, resolver: Resolver, source: Source, scope: Scope):
        self.r, self.source, self.scope = resolver, source, scope

    def guard(self, fn, fallback):
        try:
            return fn()
        except StaticError as e:
            self.r.errors.extend(e.diagnostics)
            return fallback

    # ---- labels ----

    def collect_labels(self, block: n.Block, kind: str = "top") -> None:
        for s in block.stmts:
            if isinstance(s, n.Label):
                if s.name == FINAL_STATE:  # naming Я ends the program: a state of that name could run only by falling in
                    self.r.errors.append(diagnostic("error", "final-label", s.span, hint("final-label")))
                elif s.name in self.scope.labels:
                    line = self.scope.labels[s.name][2].line
                    self.r.errors.append(diagnostic("error", "duplicate-label", s.span, name=s.name, line=line))
                else:
                    self.scope.labels[s.name] = (id(block), kind, s.span)
            for child in n.blocks(s):
                self.collect_labels(child, "if" if isinstance(s, n.If) else "loop")

    def label(self, name: str) -> str | None:
        """The label a name transfers to, allowing look-alike letters; None if none."""
        if name in self.scope.labels:
            return name
        if self.scope.by_fold is None:  # the labels are all collected before the first question
            self.scope.by_fold = {}
            for lab in self.scope.labels:
                self.scope.by_fold.setdefault(fold_lookalikes(lab), []).append(lab)
        folded = self.scope.by_fold.get(fold_lookalikes(name), [])
        return folded[0] if len(folded) == 1 else None

    def goto(self, name: str, span: Span, explicit: bool) -> n.Stmt:
        label = self.label(name)
        if label is not None and label != name:
            self.r.warnings.append(diagnostic("warning", "tol-lookalike", span, written=name, resolved=label))
        if label is None:
            if name == FINAL_STATE:
                return n.Stop(span)
            if name in self.r.broken.labels:  # in a part that did not parse: its error is reported
                return n.Goto(span, name, explicit)
            elsewhere = self.r.all_labels.get(name)
            near = nearest(name, self.scope.labels)
            tip = (hint("label-elsewhere", name=name, line=elsewhere.line) if elsewhere else
                   hint("undefined-label", nearest=near) if near else self.labels_hint(name))
            raise static_error("undefined-label", span, tip, name=name)
        block_id, kind, _ = self.scope.labels[label]
        if block_id not in self.scope.chain:
            what = "цикла" if kind == "loop" else "ветви ЕСЛИ"
            raise static_error("goto-into-block", span, hint("goto-into-block"), name=label, what=what)
        return n.Goto(span, label, explicit)

    # ---- blocks and statements ----

    def labels_hint(self, name: str) -> str:
        """For a transfer to a label far from every label: how a state is named, and the labels
        there are (a near one is offered as such: «может быть, СБ?»); a keyword mistyped, as such."""
        there = [lab for lab in self.scope.labels if lab != FINAL_STATE]
        shown = f"; метки здесь: {', '.join(there[:8])}{', …' if len(there) > 8 else ''}" if there else ""
        if name.upper() == FINAL_STATE:  # `ТО я`: the final state is a capital
            return hint("undefined-label", nearest=FINAL_STATE)
        return keyword_hint(name) or hint("undefined-label-none", name=name, labels=shown)

    def block(self, block: n.Block) -> n.Block:
        self.scope.chain.append(id(block))
        out: list[n.Stmt] = []
        stmts, i = list(block.stmts), 0
        while i < len(stmts):
            s = stmts[i]
            try:
                if isinstance(s, Run):
                    used, resolved = self.stmt_run_joined(stmts, i)
                    out.extend(resolved)
                    i += used
                    continue
                out.append(self.stmt(s))
            except StaticError as e:
                self.r.errors.extend(e.diagnostics)
            i += 1
        self.scope.chain.pop()
        return n.Block(block.span, tuple(out))

    def stmt(self, s) -> n.Stmt:
        if isinstance(s, BLOCKS):
            self.scope.open.append(s)
            try:
                return self.stmt_of_blocks(s)
            finally:
                self.scope.open.pop()
        return self.stmt_of_blocks(s)

    def stmt_of_blocks(self, s) -> n.Stmt:
        if isinstance(s, RawUse):
            raise static_error("use-not-top", s.span, hint("use-not-top"))
        return self.RESOLVE[type(s)](self, s)

    def _resolve_If(self, s: n.If) -> n.Stmt:
        cond, then, else_ = self.parts(lambda: self.test(s.cond, "ЕСЛИ", "ТО"), lambda: self.block(s.then),
                                       lambda: self.block(s.else_) if s.else_ is not None else None)
        return n.If(s.span, cond, then, else_)

    def _resolve_While(self, s: n.While) -> n.Stmt:
        return n.While(s.span, *self.parts(lambda: self.test(s.cond, "ПОКА", "ВЫПОЛНЯТЬ"),
                                           lambda: self.loop_body(s.body, "while")))

    def _resolve_For(self, s: n.For) -> n.Stmt:
        start, step, stop, body = self.parts(lambda: self.cond(s.start), lambda: self.cond(s.step) if s.step else None,
                                             lambda: self.cond(s.stop), lambda: self.loop_body(s.body, "for"))
        return n.For(s.span, s.var, start, step, stop, body)

    @staticmethod
    def parts(*resolvers) -> list:
        """The parts of a compound statement, each resolved: a condition that cannot be read does
        not hide the errors of the blocks it guards (HR without the book's operations)."""
        results, errors = [], []
        for resolve in resolvers:
            try:
                results.append(resolve())
            except StaticError as e:
                errors.extend(e.diagnostics)
                results.append(None)
        if errors:
            raise StaticError(errors)
        return results

    def _resolve_Loop(self, s: n.Loop) -> n.Stmt:
        return n.Loop(s.span, self.loop_body(s.body, "loop"))

    def _resolve_Exit(self, s: n.Exit) -> n.Stmt:
        if "loop" not in self.scope.loops:
            raise static_error("exit-outside-loop", s.span, hint("exit-outside-loop"))
        return s

    def _resolve_Print(self, s: n.Print) -> n.Stmt:
        args = s.args
        if args is None:
            return n.Print(s.span, (), True)
        pieces = split_commas(args.tokens, self.source, "СООБЩИТЬ")
        newline = bool(pieces[-1])
        at = next((i for i, tok in enumerate(args.tokens) if tok.type == "ASSIGN"), None)
        if at is not None:  # `СООБЩИТЬ x, y := 2`: two statements on one line
            after_comma = any(tok.type == "COMMA" for tok in args.tokens[:at])
            raise static_error("unexpected-token", span_of_token(self.source, args.tokens[at]),
                               hint("print-comma") if after_comma else None, found=unexpected(args.tokens[at]))
        return n.Print(s.span.to(args.span), tuple(self.items(args.tokens, [p for p in pieces if p])), newline)

    def _resolve_Read(self, s: n.Read) -> n.Stmt:
        args, toks = s.targets, s.targets.tokens
        # ПРОЧЕСТЬ СТРОКУ s: the word СТРОКУ, then a target (not a variable named СТРОКУ)
        whole_line = len(toks) > 1 and toks[0].type == "NAME" and toks[0].value == "СТРОКУ" and toks[1].type == "NAME"
        if whole_line:
            args = Run(args.tokens[1:], tokens_span(self.source, args.tokens[1:]))
        targets = split_commas(args.tokens, self.source, "ПРОЧЕСТЬ")
        return n.Read(s.span.to(args.span), tuple(self.target(Run(p, args.span), "read-target") for p in targets),
                      whole_line)

    def _resolve_Goto(self, s: n.Goto) -> n.Stmt:
        return self.goto(s.label, s.span, s.explicit)

    def _resolve_Stop(self, s) -> n.Stmt:
        return s

    _resolve_Label = _resolve_Stop
    LEAVES = (n.Assign, n.CallStmt, n.Screen)  # made from a Run, by stmt_run_joined

    def loop_body(self, body: n.Block, kind: str) -> n.Block:
        self.scope.loops.append(kind)
        try:
            return self.block(body)
        finally:
            self.scope.loops.pop()

    def stmt_run_joined(self, stmts: list, i: int) -> tuple[int, list[n.Stmt]]:
        """Resolve a run; a phrase may continue on the following lines."""
        try:
            return 1, self.stmt_run(stmts[i])
        except StaticError as first_error:
            if first_error.first.code not in ("no-phrase", "not-a-statement"):
                raise
            tokens = list(stmts[i].tokens)
            for j in range(i + 1, min(i + 4, len(stmts))):
                nxt = stmts[j]
                if not (isinstance(nxt, Run) and nxt.after_newline):
                    break
                tokens += nxt.tokens
                joined = Run(tokens, stmts[i].span.to(nxt.span))
                try:
                    resolved = self.stmt_run(joined)
                except StaticError:
                    continue
                return j - i + 1, resolved  # the book wraps its phrases: no warning
            raise first_error from None

    def stmt_run(self, run: Run) -> list[n.Stmt]:
        toks = run.tokens
        at = top_level(toks, "ASSIGN")
        if at:
            return [self.assignment(run, at[0])]
        if len(toks) == 1 and toks[0].type in ("NAME", "AND"):
            name = toks[0].value
            if self.label(name) or name == FINAL_STATE and name not in self.r.procs:
                return [self.goto(name, run.span, False)]
            if name not in self.r.procs and (self.scope.labels or name.isupper()):
                return [self.goto(name, run.span, False)]  # an intended transfer: reports the label
        phrase = self.phrase(run)
        if phrase is not None:
            return [n.CallStmt(run.span, phrase)]
        screen = self.screen(run)
        if screen is not None:
            return [screen]
        if len(toks) >= 3 and toks[-2].type == "COMMA" and toks[-1].type in ("NAME", "AND") \
                and (self.label(toks[-1].value) or toks[-1].value == FINAL_STATE):
            label_span = span_of_token(self.source, toks[-1])
            self.r.warnings.append(diagnostic("warning", "tol-label-comma", span_of_token(self.source, toks[-2]),
                                            name=toks[-1].value))
            head = Run(toks[:-2], run.span)
            return self.stmt_run(head) + [self.goto(toks[-1].value, label_span, False)]
        expr = self.lifted(toks)
        if isinstance(expr, n.Call):
            return [n.CallStmt(run.span, expr)]
        if isinstance(expr, StaticError) and not is_prose(toks) and not self.r.phrases.candidates(toks):
            raise expr
        if isinstance(expr, n.Var) and expr.name in self.r.procs:
            return [n.CallStmt(run.span, n.Call(expr.span, expr.name, ()))]
        raise self.not_understood(run, expr)

    def not_understood(self, run: Run, expr) -> StaticError:
        text = text_of_tokens(self.source, run.tokens)
        head = run.tokens[0]
        if head.type == "NAME" and head.value in self.r.procs and len(run.tokens) > 1 \
                and run.tokens[1].type != "LPAR" and self.r.procs[head.value].params:  # ПОКАЗАТЬ 5
            d = self.r.procs[head.value]
            args = run.tokens[1:]
            if len(args) > 2 and args[0].type == "LSQB" and args[-1].type == "RSQB" \
                    and not any(t.type in ("LSQB", "RSQB") for t in args[1:-1]):
                args = args[1:-1]  # `HR[1]`: square brackets for a call's
            call = f"{head.value}({text_of_tokens(self.source, args)})"
            return static_error("call-without-parens", tokens_span(self.source, run.tokens),
                                hint("defined-at", name=d.name, line=d.span.line, header=header_text(d)),
                                name=head.value, call=call, kind="функция" if _is_function(d) else "процедура")
        if self.screen_matches(run.tokens):
            return static_error("screen-not-value", run.span, hint("screen-not-value"), text=text)
        near = self.r.phrases.nearest(run.tokens, also=SCREEN_PHRASES)
        # near a phrase, or in words of prose, its lower-case «и» is the phrase's own word, unless
        # the run is an expression once its lower-case keywords are written in capitals
        in_prose = bool(near) or reads_as_prose(run.tokens) and not self.keywords_in_lower_case(run.tokens)
        for tok in run.tokens:
            tip = keyword_hint(tok.value, in_prose=in_prose, first=tok is head, after=self.source.text[tok.end_pos:][:40]) \
                if tok.type in WORD_TYPES else None
            if tip:
                return static_error("no-phrase", span_of_token(self.source, tok), tip, text=text)
        if isinstance(expr, n.Node):
            tip = hint("assign-equals") if isinstance(expr, n.Compare) and expr.op == "=" else \
                value_as_statement(self.source, head, text)
            return static_error("not-a-statement", run.span, self.definition_in_block(run) or tip, text=text)
        return static_error("no-phrase", run.span, self.r.phrases.near_hint(run.tokens, near), text=text)

    def keywords_in_lower_case(self, toks: list[Token]) -> bool:
        """An expression once its lower-case keywords are capitals: `цвет = 1 и размер > 2`."""
        capitals = [Token.new_borrow_pos(PROSE_TYPES[t.value.upper()], t.value.upper(), t)
                    if t.type == "NAME" and t.value.islower() and t.value.upper() in PROSE_TYPES else t
                    for t in toks]
        return capitals != toks and isinstance(read_expression(capitals, self.source), n.Node)

    def definition_in_block(self, run: Run) -> str | None:
        """A run that reads as a definition's header, inside a block: the definition was begun
        before the block was closed (`f (x) = …` surely; `k = …` from column 1 maybe)."""
        head = run.tokens[0]
        if not self.scope.open or header_end(run.tokens) is None or head.type != "NAME":
            return None
        opener = self.scope.open[-1]
        what, closer = BLOCK_WORDS[type(opener)]
        if run.tokens[1].type == "LPAR":
            return hint("def-in-block", line=head.line, name=head.value, opener=what, opener_line=opener.span.line,
                        closer=closer)
        if head.column == 1:
            return hint("def-or-assign-in-block", line=head.line, name=head.value, opener=what,
                        opener_line=opener.span.line, closer=closer)
        return None

    def assignment(self, run: Run, at: int) -> n.Assign:
        toks = run.tokens
        if (commas := top_level(toks[:at], "COMMA")) and commas[0] > 1:  # `занять k, k := k + 1`
            raise comma_between_statements(self.source, toks, commas[-1])
        self.comma_before_next(toks, at)
        target = self.target(Run(toks[:at], run.span)) if at else None
        if target is None:
            raise static_error("assign-target", span_of_token(self.source, toks[at]), hint("assign-target"))
        if not toks[at + 1:]:
            raise static_error("unexpected-eof", span_of_token(self.source, toks[at]),
                               hint("assign-after", target=text_of_tokens(self.source, toks[:at])))
        value = self.cond(Run(toks[at + 1:], run.span))
        return n.Assign(run.span, target, value)

    def comma_before_next(self, toks: list[Token], at: int) -> None:
        """`x := 1, y := 2`: a comma for the «;» that ends the assignment, told with the whole
        statement; a comma with nothing before it (`x := , y := 2`, `x := 1,, y := 2`) is
        told as unexpected."""
        value = toks[at + 1:]
        later = top_level(value, "ASSIGN")
        commas = [c for c in top_level(value, "COMMA") if later and c < later[0]]
        if not commas:
            return
        stray = next((c for c in commas if c == 0 or value[c - 1].type == "COMMA"), None)
        if stray is not None:
            raise static_error("unexpected-token", span_of_token(self.source, value[stray]),
                               found=unexpected(value[stray]))
        raise comma_between_statements(self.source, toks, at + 1 + commas[-1])

    def target(self, run: Run, wrong: str = "assign-target") -> n.Target:
        """What a value is stored in: a variable or an element; `wrong`, the error of anything else."""
        expr = self.value(run.tokens)  # an index may hold a phrase in parentheses: м[(1 плюс 2)]
        if isinstance(expr, StaticError):
            raise expr
        if isinstance(expr, n.Var | n.Index):
            if expr.name == RESULT and self.scope.name is None:
                raise static_error("result-outside-def", expr.span, hint("result-outside-def"))
            if expr.name in self.r.procs:
                d = self.r.procs[expr.name]
                tip = hint("assign-equals") if not d.params else None
                raise static_error("assign-to-def", expr.span, tip, name=expr.name, line=d.span.line)
            return expr
        raise static_error(wrong, expr.span, hint("read-target" if wrong == "read-target" else "assign-target"))

    # ---- conditions, phrases and expressions ----

    def expression_body(self, body: n.Block) -> n.Expr | None:
        """A body that is one expression (or ЕСЛИ of expressions) makes a function."""
        if len(body.stmts) != 1:
            return None
        s = body.stmts[0]
        if isinstance(s, Run):
            toks = s.tokens
            if top_level(toks, "ASSIGN") or len(toks) == 1 and self.label(toks[0].value):
                return None
            try:
                expr = self.cond(s)
            except StaticError:
                return None
            return expr
        if isinstance(s, n.If) and s.else_ is not None:
            then, else_ = self.expression_body(s.then), self.expression_body(s.else_)
            if then is not None and else_ is not None:
                return n.IfExpr(s.span, self.cond(s.cond), then, else_)
        return None

    def cond(self, run: Run) -> n.Expr:
        """A condition: a phrase, or И / ИЛИ / НЕ of conditions, or an expression."""
        toks = run.tokens
        if not toks:
            raise static_error("empty-condition", run.span, hint("empty-condition"))
        words = words_of(toks)
        candidates = self.r.phrases.candidates_of(words), BUILTIN_PHRASES.candidates_of(words)
        if not any(candidates):
            whole = self.try_expr(toks)
            if isinstance(whole, n.Node):  # no phrase anywhere in it: И, ИЛИ, НЕ split it as the grammar does
                return whole
        else:
            phrase = self.phrase(run, in_condition=True, candidates=candidates)
            if phrase is not None:
                return phrase
        for op in ("OR", "AND"):
            cuts = top_level(toks, op)
            if cuts and cuts[0] > 0 and cuts[-1] < len(toks) - 1 and all(b - a > 1 for a, b in pairwise(cuts)):
                parts, prev = [], 0
                for c in cuts + [len(toks)]:
                    parts.append(self.cond(Run(toks[prev:c], tokens_span(self.source, toks[prev:c]))))
                    prev = c + 1
                left = parts[0]
                for right in parts[1:]:
                    left = n.Logical(left.span.to(right.span), "ИЛИ" if op == "OR" else "И", left, right)
                return left
        if toks[0].type == "NOT" and len(toks) > 1:
            operand = self.cond(Run(toks[1:], tokens_span(self.source, toks[1:])))
            return n.Not(span_of_token(self.source, toks[0]).to(operand.span), operand)
        expr = self.lifted(toks)
        if isinstance(expr, StaticError):
            if candidates[0] or is_prose(toks):
                raise self.not_understood(run, None)
            raise expr
        return expr

    # ---- phrases inside expressions ----

    def items(self, toks: list[Token], pieces: list[list[Token]]) -> list[n.Expr]:
        """Comma-separated values (СООБЩИТЬ's, a call's arguments) where a phrase may itself
        hold commas (`клетка 1, 1 жива`): the longest run of pieces that reads as a phrase is
        one value; any other piece is a value of its own."""
        at = {id(t): k for k, t in enumerate(toks)}
        out, i = [], 0
        while i < len(pieces):
            # pieces i … j hold j − i commas: only a phrase with as many can read as them
            for j in range(min(len(pieces) - 1, i + self.r.phrases.most_commas), i, -1):
                joined = toks[at[id(pieces[i][0])]:at[id(pieces[j][-1])] + 1]
                if not self.r.phrases.candidates(joined):
                    continue
                try:
                    phrase = self.phrase(Run(joined, tokens_span(self.source, joined)), in_condition=True)
                except StaticError:
                    phrase = None
                if phrase is not None:
                    out.append(phrase)
                    i = j + 1
                    break
            else:
                out.append(self.item(pieces[i]))
                i += 1
        return out

    def item(self, toks: list[Token]) -> n.Expr:
        """One of comma-separated values; two side by side, a string among them, are a comma
        forgotten (`СООБЩИТЬ 'Сумма:' s`)."""
        try:
            return self.cond(Run(toks, tokens_span(self.source, toks)))
        except StaticError:
            for k in range(1, len(toks)):
                a, b = toks[k - 1], toks[k]
                if a.type in OPERAND_END and b.type in OPERAND_START and "STRING" in (a.type, b.type) \
                        and all(isinstance(self.try_expr(p), n.Node) for p in (toks[:k], toks[k:])):
                    fixed = f"{text_of_tokens(self.source, toks[:k])}, {text_of_tokens(self.source, toks[k:])}"
                    raise static_error("missing-comma", span_of_token(self.source, b), hint("missing-comma", fixed=fixed),
                                       left=text_of_tokens(self.source, toks[:k]), right=b.value) from None
            raise

    def test(self, run: Run, keyword: str, then: str) -> n.Expr:
        """The condition of ЕСЛИ or ПОКА; `:=` in it was meant as a comparison."""
        at = next((i for i, t in enumerate(run.tokens) if t.type == "ASSIGN"), None)
        if at is not None:
            fixed = text_of_tokens(self.source, run.tokens[:at]) + " = " + text_of_tokens(self.source, run.tokens[at + 1:])
            raise static_error("assign-in-condition", span_of_token(self.source, run.tokens[at]),
                               hint("assign-in-condition", fixed=f"{keyword} {fixed} {then}"), keyword=keyword)
        return self.cond(run)

    def lifted(self, toks: list[Token]):
        """The expression the tokens spell, phrases allowed in parentheses, in a conditional
        expression's parts and in a call's arguments; or the StaticError saying why not. Each
        such part is resolved on its own and stands in the expression as a placeholder name."""
        plain = self.try_expr(toks)
        if isinstance(plain, n.Node) or not any(t.type in ("LPAR", "IF") for t in toks):
            return plain
        try:
            lifted, parts = self.lift(toks)
        except StaticError as e:
            return e
        if not parts:
            return plain
        expr = self.try_expr(lifted)
        if isinstance(expr, StaticError):
            return expr
        return n.rewrite(expr, lambda node: parts.get(node.name, node) if isinstance(node, n.Var) else node)

    def lift(self, toks: list[Token]) -> tuple[list[Token], dict[str, n.Expr]]:
        out: list[Token] = []
        parts: dict[str, n.Expr] = {}
        i = 0
        while i < len(toks):
            tok = toks[i]
            close = closing(toks, i) if tok.type in ("LPAR", "IF") else None
            if close is None:
                out.append(tok)
                i += 1
                continue
            group, inner = toks[i:close + 1], toks[i + 1:close]
            listed = tok.type == "LPAR" and top_level(inner, "COMMA")  # a list of values: not one expression
            if not listed and isinstance(self.try_expr(group if tok.type == "IF" else inner or group), n.Node) \
                    and inner:
                out.extend(group)  # nothing to lift
            elif tok.type == "IF":
                out.append(self.placeholder(group, self.conditional(group), parts))
            elif out and out[-1].type == "NAME":  # a call's arguments
                pieces = split_top(inner, "COMMA")
                out.append(tok)
                for k, value in enumerate(self.items(inner, pieces)):
                    if k:
                        out.append(Token.new_borrow_pos("COMMA", ",", tok))
                    out.append(self.placeholder(inner, value, parts))
                out.append(toks[close])
            elif not inner:  # `()` with no name before it: no value and no call
                raise StaticError([diagnostic("error", "empty-parens", tokens_span(self.source, group),
                                              hint("empty-parens"))])
            else:
                out.append(self.placeholder(group, self.cond(Run(inner, tokens_span(self.source, inner))), parts))
            i = close + 1
        return out, parts

    def conditional(self, group: list[Token]) -> n.Expr:
        """ЕСЛИ c ТО a ИНАЧЕ b КОНЕЦ_ЕСЛИ as an expression, each part a value of its own."""
        depth, cuts = 0, {}
        for k, tok in enumerate(group):
            if tok.type == "IF":
                depth += 1
            elif tok.type == "END_IF":
                depth -= 1
            elif depth == 1 and tok.type in ("THEN", "ELSE") and tok.type not in cuts:
                cuts[tok.type] = k
        if set(cuts) != {"THEN", "ELSE"}:
            raise self.try_expr(group)
        parts = [group[1:cuts["THEN"]], group[cuts["THEN"] + 1:cuts["ELSE"]], group[cuts["ELSE"] + 1:-1]]
        runs = [Run(p, tokens_span(self.source, p or group)) for p in parts]
        cond, then, else_ = self.test(runs[0], "ЕСЛИ", "ТО"), self.cond(runs[1]), self.cond(runs[2])
        return n.IfExpr(tokens_span(self.source, group), cond, then, else_)

    @staticmethod
    def placeholder(toks: list[Token], value: n.Expr, parts: dict) -> Token:
        """A name standing for a resolved part, spanning its tokens."""
        name = f"\x01{len(parts)}"
        parts[name] = value
        token = Token.new_borrow_pos("NAME", name, toks[0])
        token.end_line, token.end_column, token.end_pos = toks[-1].end_line, toks[-1].end_column, toks[-1].end_pos
        return token

    def phrase(self, run: Run, in_condition: bool = False, candidates=(None, None)) -> n.Call | None:
        """The phrase a run spells. In a condition an argument binds tighter than И, ИЛИ, НЕ,
        so `НЕ 7 четно` is НЕ (7 четно) and `a И b четно` is a И (b четно). `candidates`: the
        program's and the built-in phrases that have all their words in the run, if known."""
        toks = run.tokens

        def parses(i: int, j: int) -> bool:
            if i >= j:  # an argument of no tokens (the pattern's end reached at the run's end)
                return False
            if in_condition and (toks[i].type == "NOT" or top_level(toks[i:j], "AND") or top_level(toks[i:j], "OR")):
                return False
            return isinstance(self.value(toks[i:j]), n.Node)
        matches = self.r.phrases.match(toks, parses, candidates[0])
        if not matches:
            builtin = BUILTIN_PHRASES.match(toks, parses, candidates[1]) if in_condition else []
            if len(builtin) == 1:
                self.warn_case(builtin[0])
                return n.BuiltinCall(run.span, BUILTIN_PHRASE_NAMES[builtin[0].pattern.key], ())
            return None
        if len(matches) > 1:
            names = " и ".join(m.pattern.key for m in matches)
            raise static_error("ambiguous-phrase", run.span, hint("ambiguous-phrase"),
                               text=text_of_tokens(self.source, toks), candidates=names)
        m = matches[0]
        if toks[0].type == "NAME" and toks[0].value in self.r.procs and isinstance(self.try_expr(toks), n.Call):
            raise static_error("phrase-or-procedure", run.span, hint("phrase-or-procedure"),
                               text=text_of_tokens(self.source, toks), phrase=m.pattern.key, name=toks[0].value)
        self.warn_case(m)
        if in_condition:
            self.warn_capture(m, run)
        args = tuple(self.value(toks[a:b]) for a, b in m.slices)
        return n.Call(run.span, m.pattern.key, args)

    def warn_capture(self, m, run: Run) -> None:
        """A phrase whose pattern ends with a parameter, standing as a value: its last argument
        takes the operators after it (`квадрат 3 + 1` is квадрат (3 + 1)); if one stands there
        outside brackets, the reader may have meant it for the expression around the phrase.
        The warning is kept for the checker, which drops it where the phrase is a condition
        (`курица на поле r, c + 1` cannot mean a condition plus 1)."""
        toks = run.tokens
        if isinstance(m.pattern.elements[-1], str) or m.slices[-1][1] != len(toks):
            return
        start, end = m.slices[-1]
        at = first_operator(toks[start:end])
        span = tokens_span(self.source, toks)
        where = (span.filename, span.line, span.column)
        if at is None or where in self.r.captures:
            return
        op = start + at
        text = partial(text_of_tokens, self.source)
        self.r.captures[where] = m.pattern.key, diagnostic(
            "warning", "phrase-capture", span,
            hint("phrase-capture", op=toks[op].value, fix=f"({text(toks[:op])}) {text(toks[op:])}",
                 inside=f"{text(toks[:start])} ({text(toks[start:])})"),
            phrase=m.pattern.key, taken=text(toks[start:]), op=toks[op].value)

    def warn_case(self, m) -> None:
        for tok, defined in m.case_differs:
            self.r.warnings.append(diagnostic("warning", "tol-phrase-case", span_of_token(self.source, tok),
                                            written=tok.value, defined=defined))

    def screen_matches(self, toks: list[Token]):
        return SCREEN_PHRASES.match(toks, lambda i, j: isinstance(self.value(toks[i:j]), n.Node))

    def screen(self, run: Run) -> n.Screen | None:
        """A screen phrase, unless a procedure of the program has its first word as name."""
        toks = run.tokens
        if toks[0].type == "NAME" and toks[0].value in self.r.procs and isinstance(self.try_expr(toks), n.Call):
            return None  # `пауза(5)` with the program's own procedure пауза
        matches = self.screen_matches(toks)
        if len(matches) != 1:
            return None
        m = matches[0]
        self.warn_case(m)
        args = tuple(self.value(toks[a:b]) for a, b in m.slices)
        return n.Screen(run.span, SCREEN_OPS[m.pattern.key], args)

    def expr(self, run: Run) -> n.Expr:
        result = self.try_expr(run.tokens)
        if isinstance(result, StaticError):
            raise result
        return result

    def value(self, toks: list[Token]):
        """The value the tokens spell, a phrase in parentheses allowed anywhere in it (`lifted`),
        or the StaticError saying why not (cached: a phrase's match tries many slices)."""
        key = tuple(map(id, toks))
        found = self.r.value_cache.get(key)
        if found is None:
            found = self.r.value_cache[key] = self.lifted(toks)
        return found

    def try_expr(self, toks: list[Token]):
        """The expression the tokens spell, or the StaticError saying why not (cached)."""
        key = tuple(map(id, toks))
        found = self.r.expr_cache.get(key)
        if found is None:
            found = self.r.expr_cache[key] = read_expression(toks, self.source)
        return found



BodyResolver.RESOLVE = n.arms("resolving, a statement", BodyResolver, "_resolve_", BodyResolver.LEAVES)


def _is_function(d: RawDef) -> bool:
    """Does the definition give a value by its body's expression (`КВ (n) = n * n`)? As
    BodyResolver.expression_body decides, but from the text alone: a run without «:=», or
    ЕСЛИ … ИНАЧЕ … of such runs."""
    stmts = d.body.stmts
    if len(stmts) != 1:
        return False
    if isinstance(stmts[0], Run):
        return not top_level(stmts[0].tokens, "ASSIGN")
    return isinstance(stmts[0], n.If) and stmts[0].else_ is not None and \
        _is_function(RawDef(d.name, [], stmts[0].then, d.span, False)) and \
        _is_function(RawDef(d.name, [], stmts[0].else_, d.span, False))
