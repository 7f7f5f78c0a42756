"""`pseudo graph --flowchart [--proc ИМЯ]`: the flowchart (блок-схема) of the main program or of
one definition, in DOT, with the shapes of ГОСТ 19.701-90 that Russian school courses draw:

    terminator (a rounded box)        начало and конец; a definition's header, and возврат
    process (a box)                   an assignment, a screen phrase; a function's value
    predefined process (a box with    a call of a procedure or a phrase
      double sides)
    data (a parallelogram)            ПРОЧЕСТЬ, СООБЩИТЬ
    decision (a diamond)              the condition of ЕСЛИ (of a conditional expression too)
                                      and of ПОКА, its edges ДА and НЕТ; ПОКА's body goes back to it
    preparation (a hexagon)           the header of ДЛЯ (with its ШАГ): the loop goes through
                                      its body and back; its other edge leaves the loop
    connector (a circle)              a label; a transfer is an edge to it, Я one to конец

The chart is built from the end backwards: each statement is given the node that follows it
and gives the node it begins with, so that branches, loops, КОНЧЕНО and transfers are edges to
nodes that exist. Every text from the program reaches DOT quoted (`_q`) or, in the table of a
predefined process, escaped as HTML.
"""
from __future__ import annotations

import html
import textwrap

from .. import nodes as n
from ..analysis.automaton import FINAL
from .graph import _q
from .trace import statement_text

WIDTH = 30  # characters on a line of a box: longer texts wrap


class Flowchart:
    def __init__(self):
        self.nodes: list[str] = []
        self.edges: list[str] = []
        self.labels: dict[str, str] = {}  # a label's name → its connector
        self.end = ""  # the terminator at the end: where Я, КОНЕЦ_РАБОТЫ and the last statement lead
        self.loops: list[str] = []  # the heads of the loops whose bodies are being drawn

    def node(self, attrs: str) -> str:
        name = f"n{len(self.nodes)}"
        self.nodes.append(f"  {name} [{attrs}];")
        return name

    def box(self, shape: str, text: str, extra: str = "") -> str:
        return self.node(f"shape={shape}{extra}, label={_label(text)}")

    def edge(self, source: str, target: str, label: str | None = None, port: str | None = None) -> None:
        attrs = [f"label={_q(label)}"] if label else []
        if port:
            attrs.append(f"tailport={port}")
        if target in self.loops:  # back up to a loop's head: into its side
            attrs.append("headport=w")
        self.edges.append(f"  {source} -> {target}" + (f" [{', '.join(attrs)}]" if attrs else "") + ";")

    # ---- statements, from the end backwards ----

    def block(self, stmts, following: str, loop_exit: str | None) -> str:
        """The chart of statements followed by `following`: the node they begin with."""
        entry = following
        for s in reversed(stmts):
            entry = self.stmt(s, entry, loop_exit)
        return entry

    def stmt(self, s, following: str, loop_exit: str | None) -> str:
        return self.SHAPE[type(s)](self, s, following, loop_exit)

    def _shape_Assign(self, s, following: str, loop_exit: str | None) -> str:
        return self.then(self.box("box", statement_text(s)), following)

    def _shape_Print(self, s, following: str, loop_exit: str | None) -> str:
        return self.then(self.box("parallelogram", statement_text(s)), following)

    def _shape_CallStmt(self, s: n.CallStmt, following: str, loop_exit: str | None) -> str:
        return self.then(self.predefined(statement_text(s)), following)

    def _shape_If(self, s: n.If, following: str, loop_exit: str | None) -> str:
        decision = self.box("diamond", statement_text(s.cond))
        self.edge(decision, self.block(s.then.stmts, following, loop_exit), "ДА")
        self.edge(decision, self.block(s.else_.stmts, following, loop_exit) if s.else_ else following, "НЕТ")
        return decision

    def _shape_While(self, s: n.While, following: str, loop_exit: str | None) -> str:
        decision = self.box("diamond", statement_text(s.cond))
        self.edge(decision, self.loop(decision, s.body, loop_exit), "ДА")
        self.edge(decision, following, "НЕТ", port="e")
        return decision

    def _shape_For(self, s: n.For, following: str, loop_exit: str | None) -> str:
        head = self.box("hexagon", statement_text(s).removesuffix(" ВЫПОЛНЯТЬ"))
        self.edge(head, self.loop(head, s.body, loop_exit))
        self.edge(head, following, "конец цикла", port="e")
        return head

    def _shape_Loop(self, s: n.Loop, following: str, loop_exit: str | None) -> str:
        head = self.node(f"shape=circle, width=0.2, label=\"\", xlabel={_q('ВЫПОЛНЯТЬ')}")
        self.edge(head, self.loop(head, s.body, following))
        return head

    def _shape_Exit(self, s: n.Exit, following: str, loop_exit: str | None) -> str:
        return loop_exit or following

    def _shape_Stop(self, s: n.Stop, following: str, loop_exit: str | None) -> str:
        return self.end

    def _shape_Goto(self, s: n.Goto, following: str, loop_exit: str | None) -> str:
        return self.end if s.label == FINAL else self.labels.get(s.label, self.end)

    def _shape_Label(self, s: n.Label, following: str, loop_exit: str | None) -> str:
        return self.then(self.labels[s.name], following)

    _shape_Screen = _shape_Assign
    _shape_Read = _shape_Print

    def loop(self, head: str, body: n.Block, loop_exit: str | None) -> str:
        """The chart of a loop's body, which goes back to its head."""
        self.loops.append(head)
        try:
            return self.block(body.stmts, head, loop_exit)
        finally:
            self.loops.pop()

    def then(self, node: str, following: str) -> str:
        self.edge(node, following)
        return node

    def predefined(self, text: str) -> str:
        """ГОСТ's predefined process: a box with a second line inside each side."""
        lines = "<BR/>".join(html.escape(line) for line in _wrapped(text))
        return self.node('shape=plain, label=<<TABLE BORDER="1" CELLBORDER="1" CELLSPACING="0" CELLPADDING="6">'
                         f'<TR><TD SIDES="R" WIDTH="4"></TD><TD BORDER="0">{lines}</TD>'
                         '<TD SIDES="L" WIDTH="4"></TD></TR></TABLE>>')

    # ---- a function's value ----

    def value(self, e, following: str) -> str:
        """The value of a function's body: a decision for a conditional expression, else a box."""
        if isinstance(e, n.IfExpr):
            decision = self.box("diamond", statement_text(e.cond))
            self.edge(decision, self.value(e.then, following), "ДА")
            self.edge(decision, self.value(e.else_, following), "НЕТ")
            return decision
        return self.then(self.box("box", f"РЕЗУЛЬТАТ := {statement_text(e)}"), following)


Flowchart.SHAPE = n.arms("flowchart", Flowchart, "_shape_")


def to_dot(loaded, title: str, definition: str | None = None) -> str:
    """The flowchart of the main program, or of the definition with this key."""
    program = loaded.program
    chart = Flowchart()
    if definition is None:
        body, start, stop = program.main, "начало", "конец"
    else:
        d = program.definitions[definition]
        body, start, stop = d.body, header(d), "возврат"
    first = chart.box("box", start, ", style=rounded")
    chart.end = chart.box("box", stop, ", style=rounded")
    if isinstance(body, n.Block):
        for x in n.walk(body):
            if isinstance(x, n.Label):
                shape = "circle" if len(x.name) <= 3 else "ellipse"  # a long name would make a large circle
                chart.labels[x.name] = chart.node(f"shape={shape}, margin=0.03, label={_q(x.name)}")
        entry = chart.block(body.stmts, chart.end, None)
    else:
        entry = chart.value(body, chart.end)
    chart.edge(first, entry)
    chart.nodes.append(f"  {{ rank=sink; {chart.end} }}")
    head = [f"digraph {_q(title)} {{", "  rankdir=TB; nodesep=0.4; ranksep=0.35;",
            '  node [fontname="DejaVu Sans", fontsize=11, margin="0.15,0.06"];',
            '  edge [fontname="DejaVu Sans", fontsize=10, arrowsize=0.7];']
    return "\n".join(head + chart.nodes + chart.edges + ["}"]) + "\n"


def header(d: n.Definition) -> str:
    """How a definition's header reads: НОД (a, b), «место (k), (i) свободно»."""
    if d.is_phrase:
        return d.name
    return f"{d.name} ({', '.join(p.name for p in d.params)})" if d.params else d.name


def _wrapped(text: str) -> list[str]:
    return textwrap.wrap(text, WIDTH, break_long_words=False, break_on_hyphens=False) or [""]


def _label(text: str) -> str:
    """A label for DOT: quoted, its lines wrapped (`\\n` between them, centred)."""
    return '"' + "\\n".join(_q(line)[1:-1] for line in _wrapped(text)) + '"'
