"""`pseudo graph`: the program's state diagram (or, without labels, its call graph) in DOT."""
from __future__ import annotations

from .. import nodes as n
from ..analysis.automaton import END, FINAL, Automaton

MAIN = "программа"
MAIN_ID = "__программа"  # the node of the main program: no definition can be named so


def to_dot(loaded, title: str) -> str:
    """The state diagram of the program's automata, or its call graph when it has none; every
    text from the program (names, conditions, the title) reaches DOT quoted (`_q`)."""
    program, machines = loaded.program, loaded.facts.top_automata()
    if machines:
        body = [line for i, a in enumerate(machines) for line in _automaton(a, i, len(machines) > 1)]
    else:
        body = _call_graph(program)
    head = [f"digraph {_q(title)} {{", "  rankdir=TB;",
            '  node [shape=box, style=rounded, fontname="DejaVu Sans"];',
            '  edge [fontname="DejaVu Sans", fontsize=10];']
    return "\n".join(head + body + ["}"]) + "\n"


def _automaton(a: Automaton, index: int, several: bool) -> list[str]:
    prefix = f"{index}:" if several else ""
    ident = lambda name: _q(prefix + name)
    lines = []
    if several:
        lines.append(f"  subgraph {_q('cluster_' + str(index))} {{ label={_q(a.owner or MAIN)};")
    start = _q(prefix + "__вход")
    lines.append(f"  {start} [shape=point, width=0.15];")
    lines.append(f"  {start} -> {ident(a.entry)};")
    for s in a.states:
        attrs = ' [peripheries=2]' if s.name == a.entry else ""
        lines.append(f"  {ident(s.name)}{attrs};")
    targets = {e.target for e in a.edges}
    if FINAL in targets:
        lines.append(f"  {ident(FINAL)} [shape=doublecircle];")
    if END in targets:
        lines.append(f"  {ident(END)} [shape=doublecircle, label={_q('конец')}];")
    for e in a.edges:
        attrs = []
        if e.condition:
            attrs.append(f"label={_q(e.condition)}")
        if e.kind == "fall":
            attrs.append("style=dashed")
        suffix = f" [{', '.join(attrs)}]" if attrs else ""
        lines.append(f"  {ident(e.source)} -> {ident(e.target)}{suffix};")
    if several:
        lines.append("  }")
    return lines


def _call_graph(program: n.Program) -> list[str]:
    lines = [f"  {_q(MAIN_ID)} [label={_q(MAIN)}, peripheries=2];"]
    edges: dict[tuple[str, str], int] = {}
    bodies = [(MAIN_ID, program.main)] + [(k, d.body) for k, d in program.definitions.items()]
    for key in program.definitions:
        lines.append(f"  {_q(key)};")
    for caller, body in bodies:
        for node in n.walk(body):
            if isinstance(node, n.Call):
                edges[(caller, node.name)] = edges.get((caller, node.name), 0) + 1
    for (caller, callee), count in edges.items():
        label = f" [label={_q(f'{count}×')}]" if count > 1 else ""
        lines.append(f"  {_q(caller)} -> {_q(callee)}{label};")
    return lines


def _q(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'
