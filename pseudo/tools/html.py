"""`pseudo trace --html`: one self-contained page (no network) that replays a trace.

The events are embedded as compact arrays; the page rebuilds, for any statement, the
variables (changed ones marked), the call stack, the automaton's state and the output so far,
from checkpoints taken every 1000 events, so a trace of 100,000 events stays quick to move in.
"""
from __future__ import annotations

import html
import json

from ..files import write_file
from .views import call_text, target_name


class HtmlView:
    """A sink that collects the events; `finish()` writes the page."""

    def __init__(self, path, sources: dict, main_file: str, title: str, inputs=()):
        self.path = path
        self.inputs = inputs
        self.sources = sources
        self.main_file = main_file
        self.title = title
        self.files = [main_file] + sorted(f for f in sources if f != main_file)
        self.events: list[list] = []

    def __call__(self, e: dict) -> None:
        file = self.files.index(e["file"]) if e["file"] in self.files else 0
        head = [e["line"] or 0, e["depth"], file]
        kind = e["kind"]
        if kind == "stmt":
            self.events.append(["s", *head, e["text"]])
        elif kind == "cond":
            self.events.append(["c", *head, e["text"], e["value"]])
        elif kind == "assign":
            self.events.append(["a", *head, target_name(e), e["new"], bool(e.get("local"))])
        elif kind == "call":
            self.events.append(["C", *head, call_text(e), e["params"], e["args"]])
        elif kind == "return":
            self.events.append(["R", *head, e["name"], e["value"]])
        elif kind == "state":
            self.events.append(["S", *head, e["from"], e["to"], e["condition"]])
        elif kind == "input":
            self.events.append(["i", *head, e["value"]])
        elif kind == "output":
            self.events.append(["o", *head, e["text"]])

    def finish(self) -> None:
        data = {"title": self.title, "files": self.files,
                "sources": [self.sources[f].lines for f in self.files], "events": self.events}
        payload = json.dumps(data, ensure_ascii=False, separators=(",", ":")).replace("</", "<\\/")
        page = PAGE.replace("__TITLE__", html.escape(self.title)).replace("__DATA__", payload)
        write_file(self.path, page, self.inputs)


PAGE = """<!DOCTYPE html>
<html lang="ru">
<head>
<meta charset="utf-8">
<title>Трассировка: __TITLE__</title>
<style>
  body { font-family: "DejaVu Sans", Arial, sans-serif; margin: 0; display: grid;
         grid-template-columns: 1fr 24em; grid-template-rows: auto 1fr; height: 100vh; }
  header { grid-column: 1 / 3; padding: .5em 1em; background: #f0f0f0; border-bottom: 1px solid #ccc; }
  header button { font-size: 1em; min-width: 2.5em; }
  #slider { width: 40%; vertical-align: middle; }
  main { overflow: auto; padding: .5em 1em; }
  aside { overflow: auto; padding: .5em 1em; border-left: 1px solid #ccc; }
  pre { margin: 0; font-family: "DejaVu Sans Mono", monospace; font-size: 14px; }
  #source div { white-space: pre; }
  #source div.current { background: #ffe98a; }
  #source span.no { color: #999; display: inline-block; width: 3em; text-align: right; margin-right: 1em; }
  h2 { font-size: 1em; margin: 1em 0 .3em; }
  table { border-collapse: collapse; font-family: "DejaVu Sans Mono", monospace; font-size: 14px; }
  td { padding: 1px 6px; border-bottom: 1px solid #eee; }
  tr.changed td { background: #c9f2c9; font-weight: bold; }
  tr.local td:first-child { font-style: italic; }
  #output { background: #222; color: #eee; padding: .4em; min-height: 3em; white-space: pre-wrap; }
  #what { color: #555; margin-left: 1em; }
</style>
</head>
<body>
<header>
  <button id="first" title="в начало">|◀</button>
  <button id="prev" title="шаг назад (←)">◀</button>
  <button id="next" title="шаг вперёд (→)">▶</button>
  <button id="last" title="в конец">▶|</button>
  <input id="slider" type="range" min="0" value="0">
  шаг <span id="step">0</span> из <span id="total">0</span>
  <span id="what"></span>
</header>
<main><div id="file"></div><pre id="source"></pre></main>
<aside>
  <h2>Состояние автомата</h2><div id="state">—</div>
  <h2>Стек вызовов</h2><div id="stack"></div>
  <h2>Переменные</h2><table id="vars"></table>
  <h2>Вывод</h2><pre id="output"></pre>
</aside>
<script type="application/json" id="data">__DATA__</script>
<script>
"use strict";
const DATA = JSON.parse(document.getElementById("data").textContent);
const EV = DATA.events;
const STOPS = [];                       // indices of statement events: the positions of the slider
EV.forEach((e, i) => { if (e[0] === "s") STOPS.push(i); });
STOPS.push(EV.length);                  // and the end, after the last event
const EVERY = 1000;                     // a checkpoint every EVERY events
const checkpoints = [];
let outText = "";
const outLen = new Int32Array(EV.length + 1);

// globals, and a frame of locals per active call (parameters, ДЛЯ variables, РЕЗУЛЬТАТ)
function fresh() { return {vars: new Map(), frames: [], stack: [], state: "—", changed: new Set()}; }
function clone(s) {
  return {vars: new Map(s.vars), frames: s.frames.map(f => new Map(f)), stack: s.stack.slice(),
          state: s.state, changed: new Set()};
}
function apply(s, e) {
  switch (e[0]) {
    case "s": s.changed = new Set(); break;
    case "a":
      (e[6] && s.frames.length ? s.frames[s.frames.length - 1] : s.vars).set(e[4], e[5]);
      s.changed.add(e[4]); break;
    case "C": s.stack.push(e[4]); s.frames.push(new Map(e[5].map((p, i) => [p, e[6][i]]))); break;
    case "R": s.stack.pop(); s.frames.pop(); break;
    case "S": s.state = e[5]; break;
  }
}
(function prepare() {
  let s = fresh();
  for (let i = 0; i < EV.length; i++) {
    if (i % EVERY === 0) checkpoints.push(clone(s));
    apply(s, EV[i]);
    if (EV[i][0] === "o") outText += EV[i][4];
    outLen[i + 1] = outText.length;
  }
})();
function stateAt(index) {                // the state after event `index` (-1: before any)
  if (index < 0) return fresh();
  const k = Math.floor(index / EVERY);
  const s = clone(checkpoints[k]);
  for (let i = k * EVERY; i <= index; i++) apply(s, EV[i]);
  return s;
}
function esc(t) { return String(t).replace(/[&<>]/g, c => ({"&": "&amp;", "<": "&lt;", ">": "&gt;"})[c]); }
let shownFile = -1;
function showFile(f) {
  if (f === shownFile) return;
  shownFile = f;
  document.getElementById("file").textContent = DATA.files[f];
  document.getElementById("source").innerHTML = DATA.sources[f].map((line, n) =>
    `<div id="L${n + 1}" data-line="${n + 1}"><span class="no">${n + 1}</span>${esc(line)}</div>`).join("");
}
let pos = 0;
function render() {
  const slider = document.getElementById("slider");
  slider.max = Math.max(0, STOPS.length - 1);
  slider.value = pos;
  document.getElementById("step").textContent = STOPS.length ? pos + 1 : 0;
  document.getElementById("total").textContent = STOPS.length;
  const index = STOPS[pos];
  const e = EV[index];                   // the statement about to run (undefined at the end)
  document.querySelectorAll("#source .current").forEach(el => el.classList.remove("current"));
  if (e) {
    showFile(e[3]);
    const line = document.getElementById("L" + e[1]);
    if (line) { line.classList.add("current"); line.scrollIntoView({block: "nearest"}); }
  }
  document.getElementById("what").textContent = e ? e[4] : "конец программы";
  const s = stateAt(index - 1);          // the values it will see; marked: what the previous one changed
  document.getElementById("state").textContent = s.state;
  document.getElementById("stack").innerHTML = s.stack.length ?
    s.stack.map(x => `<div>${esc(x)}</div>`).join("") : "<div>основная программа</div>";
  const frame = s.frames.length ? s.frames[s.frames.length - 1] : new Map();
  const row = ([k, v], local) =>
    `<tr data-name="${esc(k)}" class="${s.changed.has(k) ? "changed" : ""}${local ? " local" : ""}">` +
    `<td>${esc(k)}</td><td class="value">${esc(v)}</td></tr>`;
  document.getElementById("vars").innerHTML = [...frame.entries()].map(x => row(x, true)).join("") +
    [...s.vars.entries()].filter(([k]) => !frame.has(k)).map(x => row(x, false)).join("");
  document.getElementById("output").textContent = outText.slice(0, outLen[index]);
}
function go(p) { pos = Math.max(0, Math.min(STOPS.length - 1, p)); render(); }
document.getElementById("first").onclick = () => go(0);
document.getElementById("prev").onclick = () => go(pos - 1);
document.getElementById("next").onclick = () => go(pos + 1);
document.getElementById("last").onclick = () => go(STOPS.length - 1);
document.getElementById("slider").oninput = ev => go(Number(ev.target.value));
document.addEventListener("keydown", ev => {
  if (ev.key === "ArrowRight") { go(pos + 1); ev.preventDefault(); }
  if (ev.key === "ArrowLeft") { go(pos - 1); ev.preventDefault(); }
});
render();
</script>
</body>
</html>
"""
