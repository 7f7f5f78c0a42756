// The playground's page: the editor, the examples, Run and Stop, the output as it is printed
// and the lines typed for the program, the messages, the trace page and the state diagram.
// Everything is computed by pseudo itself in the worker (runtime.js); this script sends it the
// commands, shows what they print, and keeps the pupil's work (store.js).
import { InputLine, Screen } from "./console.js";
import { Runtime } from "./runtime.js";
import * as store from "./store.js";
import { TaskPane } from "./task.js";

const $ = (id) => document.getElementById(id);
const FILE = "программа.pseudo";        // the edited program, next to the examples and their lib/
const TRACE = "/work/трассировка.html";
const BROWSER_DEPTH = "2000";           // deeper recursion would overflow the browser's own stack
const CHECK_AFTER = 400;                // ms of quiet typing before `pseudo check` runs
const ui = { stdin: $("stdin"), inputBox: $("input-box"), exit: $("exit"), status: $("status"),
             examples: $("examples"), mode: $("mode"), problems: $("problems"), notice: $("notice") };
const buttons = ["run", "trace", "graph", "check-task"].map($);

const out = new Screen($("out"), { note: $("kept") });
const typing = new InputLine(out);
const messages = new Screen($("err"), { messages: true });
const task = new TaskPane($("task"));
let site = { examples: [] }, busy = false;
let origin = { example: "", text: "" };  // what the editor was given (an example, a link, a saved program)
let editor = null;                       // CodeMirror, once its modules are loaded
let lastTyped = [];                      // the lines typed in the last run ("\n" ended): the trace reads them again
let checkTimer = 0, checkWaits = false, checking = false;  // `pseudo check` of the text as it is typed
let checked = null;                      // the text the problems shown are of

const runtime = new Runtime({
  ready(python) {
    ui.status.title = "Pyodide " + python;
    setBusy(false, "готово");
    checkWaits = true;
    if (editor) check();
  },
  failed(text) { setStatus("среда выполнения не загрузилась: " + text); },
  started() { if (busy) setStatus("выполняется…"); },
  output(stream, text) { (stream === "out" ? out : messages).write(text); },
  ask() {  // the program waits in the worker for a line
    setStatus("ждёт ввода");
    typing.read().then((line) => {
      if (line === undefined) return;  // a Stop: runtime.stop() has answered
      lastTyped.push(line === null ? "" : line + "\n");  // "": the end of input, as readline() says it
      runtime.send(line);
      setStatus("выполняется…");
    });
  },
  tested(found) { task.add(found); },
});
// the worker is loading Pyodide by now; the editor's modules load meanwhile
const { Editor } = await import("./editor.js");
editor = new Editor($("editor"), { onChange: edited, onRun: () => run() });

function setStatus(text) { ui.status.textContent = text; }

function setBusy(on, text) {
  busy = on;
  buttons.forEach((b) => { b.disabled = on || !runtime.ready; });
  $("stop").disabled = !on;
  if (text) setStatus(text);
}

// ---- running ----

function limits() { return ["--max-depth", BROWSER_DEPTH]; }

function begin() {
  out.clear(); messages.clear(); ui.exit.textContent = "";
  if (editor.text !== checked) {  // the problems shown are of the text before the last keys: not of this one
    clearTimeout(checkTimer);
    showProblems([]);
    checked = null;
    checkWaits = true;            // checked when this ends
  }
  ui.notice.hidden = true;  // the replaced work stays in the menu's «Сохранённые»
  editor.markError(null);
  setBusy(true, "запускается…");
  return performance.now();
}

function end(result, started) {
  if (result.restarted) messages.write("pseudo: прервано кнопкой «Стоп»; среда выполнения загружается заново\n");
  if (result.fatal) messages.write("среда выполнения загружается заново\n");
  out.flush(); messages.flush();
  const seconds = ((performance.now() - started) / 1000).toFixed(2).replace(".", ",");  // 0,28 с
  ui.exit.textContent = `код выхода ${result.code} · ${seconds} с`;
  editor.markError(runtimeError(messages.content));
  const status = result.code === 0 ? "готово" : result.code === 130 ? "остановлено" : "ошибка";
  setBusy(false, result.restarted || result.fatal ? status + "; среда выполнения загружается заново…" : status);
  if (checkWaits) check();
}

// A run as in a terminal: the output as it is printed; the input box's text as a file, or the
// lines the pupil types when the program asks. Without shared memory a run that asks ends
// there ({input: true}) and is run again with the lines typed so far, its output already
// shown not shown again (and its random numbers the same: one --seed for the whole run).
async function run() {
  if (busy || !runtime.ready) return;
  closeView();  // the output, and the line the program may ask for, are under it
  const started = begin();
  const stdin = ui.stdin.value === "" ? null : ui.stdin.value;
  const argv = ["run", ...(ui.mode.value ? [ui.mode.value] : []), ...limits()];
  if (stdin === null && !runtime.isolated) argv.push("--seed", String(Math.floor(Math.random() * 2 ** 31)));
  const program = { type: "run", argv: [...argv, FILE], name: FILE, text: editor.text, stdin };
  lastTyped = [];
  let result = await runtime.ask(program);
  while (result.input) {
    setStatus("ждёт ввода");
    const line = await typing.read();
    const again = { ...program, typed: lastTyped, skip: result.written };
    if (line === undefined) { result = await runtime.ask({ ...again, stopAtRead: true }); break; }  // Stop
    lastTyped.push(line === null ? "" : line + "\n");  // "": the end of input, as readline() says it
    setStatus("выполняется…");
    result = await runtime.ask(again);
  }
  if (result.err) messages.write(result.err);  // not pseudo's: a Stop before the run began, a fault of the page
  end(result, started);
}

// A command whose output is shown when it ends (the trace page, the diagram).
async function command(argv, read = []) {
  const started = begin();
  const stdin = ui.stdin.value || lastTyped.join("");
  const result = await runtime.ask({ type: "command", argv, name: FILE, text: editor.text, stdin, read });
  out.write(result.out);
  messages.write(result.err);
  end(result, started);
  return result;
}

// «Проверить»: the program on the task's visible tests, in the worker, as `pseudo test` runs them
async function checkTask() {
  if (busy || !runtime.ready || !task.open) return;
  const started = begin();
  task.clear();
  setStatus("проверяю…");
  const result = await runtime.ask({ type: "check", name: FILE, text: editor.text, task: task.data,
                                     depth: Number(BROWSER_DEPTH) });
  if (result.error) messages.write(result.error + "\n");
  if (result.err) messages.write(result.err);  // a Stop before the check began, a fault of the page
  task.done(result);
  const code = result.error ? 65 : result.stopped ? 130 : result.code !== undefined ? result.code
    : result.passed === result.tests ? 0 : 1;
  end({ ...result, code }, started);
  if (!result.restarted && !result.fatal && code !== 130) setStatus(result.error ? "ошибка" : "проверено");
}
$("check-task").onclick = checkTask;
$("leave-task").onclick = () => leaveTask();

function openTask(data) {
  task.show(data);
  store.keep({ task: data });
}
function leaveTask() {
  if (!task.open) return;
  task.hide();
  store.keep({ task: null });
}

$("stop").onclick = () => {
  if (!busy) return;
  if (typing.waiting && !runtime.isolated) { typing.cancel(); return; }  // run() asks for pseudo's own message
  runtime.stop();
  typing.cancel();
};
$("run").onclick = () => run();

// "программа.pseudo:2:10: ошибка: …", then the line and the caret: where a run stopped
function runtimeError(text) {
  const found = diagnostics(text).find((d) => d.severity === "error" && d.file === FILE);
  return found ? { line: found.line, column: found.column, endColumn: found.endColumn } : null;
}

// ---- `pseudo check` while the pupil types ----

const HEADER = /^(.+?):(\d+):(\d+): (ошибка|предупреждение): /;
const SEVERITY = { "ошибка": "error", "предупреждение": "warning" };

// pseudo's messages as drawn for a terminal: header, line, caret, hint, …
function diagnostics(text) {
  const list = [];
  for (const line of text.split("\n")) {
    const m = HEADER.exec(line) || /^(ошибка|предупреждение): /.exec(line);
    if (m) {
      const placed = m.length > 2;
      list.push({ file: placed ? m[1] : null, line: placed ? Number(m[2]) : 0, column: placed ? Number(m[3]) : 0,
                  severity: SEVERITY[placed ? m[4] : m[1]], lines: [line] });
    } else if (list.length && line && !/^ошибок/.test(line)) list[list.length - 1].lines.push(line);
  }
  for (const d of list) {
    const caret = d.lines.length > 2 && !/\| …/.test(d.lines[1]) && /^\s+\| [\s]*([\^~]+)$/.exec(d.lines[2]);
    d.endColumn = caret ? d.column + caret[1].length : d.column + 1;
    d.message = d.lines.join("\n");
  }
  return list;
}

let uncheckable = null;  // a text whose check the runtime did not survive: not checked again
function check() {
  clearTimeout(checkTimer);
  checkWaits = false;
  if (!runtime.ready || busy || checking) { checkWaits = true; return; }
  const text = editor.text;
  if (text === uncheckable) return;
  checking = true;
  runtime.ask({ type: "command", argv: ["check", FILE], name: FILE, text, stdin: "" }).then((result) => {
    checking = false;
    if (result.fatal) {
      uncheckable = text;
      showProblems([{ file: null, line: 0, column: 0, severity: "error",
                      lines: ["pseudo check не смог проверить эту программу в браузере: " + result.err.trim()] }]);
      setBusy(false, "среда выполнения загружается заново…");
      return;
    }
    if (editor.text !== text || result.code === 130) { check(); return; }  // typed meanwhile, or a Stop took it
    showProblems(diagnostics(result.err));
    checked = text;
    if (checkWaits) check();
  });
}

function showProblems(list) {
  editor.showDiagnostics(list.filter((d) => d.file === FILE));
  ui.problems.replaceChildren(...list.map((d) => {
    const item = document.createElement("li");
    item.className = d.severity;
    const button = item.appendChild(document.createElement("button"));
    button.type = "button";
    button.textContent = d.lines[0].replace(FILE + ":", "");
    button.title = d.message || d.lines[0];
    if (d.file === FILE) button.onclick = () => editor.goTo(d.line, d.column);
    return item;
  }));
  ui.problems.hidden = list.length === 0;
}

// ---- the trace page and the diagram ----

async function trace() {
  if (busy || !runtime.ready) return;
  const result = await command(["trace", "-q", "--html", "-o", TRACE, ...limits(), FILE], [TRACE]);
  messages.clear();
  messages.write(result.err.replace(/^pseudo: страница трассировки записана.*\n/m, ""));  // it is shown here
  messages.flush();
  if (result[TRACE]) show("Трассировка", () => {
    const frame = newFrame();
    frame.hidden = false;
    frame.addEventListener("load", () => frame.focus(), { once: true });  // its step keys work at once
    frame.srcdoc = withPosition(result[TRACE]);
  });
}

// Each trace page gets a frame of its own: a frame that had been hidden behind the diagram
// (or emptied while hidden) laid the next page out at zero size in Chromium — a blank panel.
function newFrame() {
  const old = $("trace-frame"), frame = old.cloneNode(false);
  frame.removeAttribute("srcdoc");
  frame.hidden = true;
  old.replaceWith(frame);
  return frame;
}

// The trace page tells this page the line it is at, which the editor then shows: a script
// added at its end watches its marked line ([data-out=source] .cur, and the <mark> in it).
const POSITION = `<script>(() => {
  const send = () => {
    const line = document.querySelector('[data-out="source"] .cur'), file = document.querySelector('[data-out="file"]');
    if (!line) return parent.postMessage({ tracePosition: null }, "*");
    const mark = line.querySelector("mark"), number = line.querySelector(".no");
    let column = 1, width = 0;
    if (mark) {
      const before = document.createRange();
      before.setStart(line, 0); before.setEndBefore(mark);
      column = before.toString().length - (number ? number.textContent.length : 0) + 1;
      width = mark.textContent.length;
    }
    parent.postMessage({ tracePosition: { file: file && file.textContent, line: Number(line.dataset.line),
                                          column, endColumn: column + width } }, "*");
  };
  new MutationObserver(send).observe(document.body, { subtree: true, childList: true, attributes: true,
                                                      attributeFilter: ["class"] });
  send();
})();<\/script>`;

function withPosition(page) {
  const at = page.lastIndexOf("</body>");
  return at < 0 ? page + POSITION : page.slice(0, at) + POSITION + page.slice(at);
}

addEventListener("message", (event) => {
  if (event.source !== $("trace-frame").contentWindow || !("tracePosition" in event.data)) return;
  const place = event.data.tracePosition;
  editor.markStep(place && place.file === FILE ? place : null);
});

let viz = null;
async function graph() {
  if (busy || !runtime.ready) return;
  const flowchart = $("diagram-kind").value === "--flowchart", proc = $("proc").value.trim();
  const result = await command(["graph", ...(flowchart ? ["--flowchart", ...(proc ? ["--proc", proc] : [])] : []), FILE]);
  if (result.code !== 0) return;
  setStatus("рисую диаграмму…");
  viz = viz || await (await import("./viz.js")).instance();
  const svg = viz.renderSVGElement(result.out);
  const title = flowchart ? "Блок-схема " + (proc || "программы") : "Диаграмма состояний";
  show(title, () => { const d = $("diagram"); d.hidden = false; d.replaceChildren(svg); });
  setStatus("готово");
}

function show(title, fill) {
  $("trace-frame").hidden = true; $("diagram").hidden = true;
  $("view-title").textContent = title;
  fill();
  $("view").hidden = false;
  cover();
}
function closeView() {
  if ($("view").hidden) return;
  $("view").hidden = true;
  newFrame();  // the page and its data are let go
  editor.markStep(null);
  cover();
}
$("close-view").onclick = closeView;
$("wide").onclick = () => {
  const wide = document.body.classList.toggle("wide-view");
  $("wide").setAttribute("aria-pressed", String(wide));
  cover();
};
// What the view covers (the output's side; in the whole window, or on a phone, everything) is
// inert while it is open: Tab does not lead the keyboard to controls no one can see.
function cover() {
  const open = !$("view").hidden;
  const whole = open && getComputedStyle($("view")).position === "fixed";
  for (const part of $("right").children) if (part.id !== "view") part.inert = open;
  document.querySelector("header").inert = whole;
  $("left").inert = whole;
}
addEventListener("resize", cover);
$("trace").onclick = trace;
$("graph").onclick = graph;
$("diagram-kind").onchange = () => { $("proc").hidden = $("diagram-kind").value !== "--flowchart"; };

// ---- the pupil's work: kept, never lost to an example or a link ----

let keepTimer = 0;
function edited() {
  clearTimeout(keepTimer);
  keepTimer = setTimeout(keep, 300);
  clearTimeout(checkTimer);
  checkTimer = setTimeout(check, CHECK_AFTER);
  if (ui.examples.value && editor.text !== origin.text) ui.examples.value = "";
  if (location.hash) history.replaceState(null, "", location.pathname + location.search);  // the link was of the old text
}
function keep() {
  clearTimeout(keepTimer);
  store.keep({ text: editor.text, input: ui.stdin.value, example: origin.example,
               unchanged: editor.text === origin.text, mode: ui.mode.value });
}
ui.stdin.addEventListener("input", () => { clearTimeout(keepTimer); keepTimer = setTimeout(keep, 300); });
ui.mode.addEventListener("change", keep);
addEventListener("pagehide", keep);

// Is the editor's text the pupil's own work (not an example or a link as it came)?
function ownWork() {
  const text = editor.text;
  return text.trim() !== "" && text !== origin.text;
}

// Put a program in the editor; the pupil's own work it replaces is saved and can be brought back.
function replace(text, input, example) {
  if (ownWork()) {
    const mine = { text: editor.text, input: ui.stdin.value };
    store.save(mine.text, mine.input);
    fillSaved();
    const notice = ui.notice;
    notice.querySelector("span").textContent = "Ваша программа сохранена (меню «Пример» → «Сохранённые»).";
    notice.querySelector("button").onclick = () => { notice.hidden = true; replace(mine.text, mine.input, ""); };
    notice.hidden = false;
  }
  origin = { example, text };
  editor.text = text;
  ui.stdin.value = input || "";
  ui.inputBox.open = Boolean(input);
  ui.examples.value = example;
  editor.markError(null);
  keep();
  check();
}

function example(file) { return site.examples.find((e) => e.file === file); }

ui.examples.onchange = () => {
  const value = ui.examples.value;
  if (value.startsWith("saved:")) {
    const entry = store.saved()[Number(value.slice(6))];
    if (entry) replace(entry.text, entry.input, "");
    ui.examples.value = "";
  } else if (value) {
    const entry = example(value);
    if (entry) { leaveTask(); replace(entry.text, entry.input, entry.file); }
  }
};

function fillSaved() {
  let group = $("saved");
  const list = store.saved();
  if (!list.length) { if (group) group.remove(); return; }
  if (!group) {
    group = ui.examples.appendChild(document.createElement("optgroup"));
    group.id = "saved";
    group.label = "Сохранённые (заменённые примером или ссылкой)";
  }
  group.replaceChildren(...list.map((s, k) => {
    const first = s.text.split("\n").find((l) => l.trim()) || "";
    const when = new Date(s.when).toLocaleString("ru-RU", { day: "numeric", month: "short", hour: "2-digit", minute: "2-digit" });
    return new Option(`${when} · ${first.trim().slice(0, 40)}`, "saved:" + k);
  }));
}

// ---- links ----

function encode(text) {
  const bytes = new TextEncoder().encode(text);
  let s = ""; bytes.forEach((b) => { s += String.fromCharCode(b); });
  return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}
function decode(text) {
  const s = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  return new TextDecoder().decode(Uint8Array.from(s, (c) => c.charCodeAt(0)));
}
$("share").onclick = async () => {
  const params = new URLSearchParams({ p: encode(editor.text) });
  if (ui.stdin.value) params.set("in", encode(ui.stdin.value));
  history.replaceState(null, "", "#" + params.toString());  // until the next edit
  try { await navigator.clipboard.writeText(location.href); setStatus("ссылка скопирована"); }
  catch (_) { setStatus("ссылка — в адресной строке"); }
};

// the program of a link (#p=…&in=…), or its task (#task=…, `pseudo site link`), or null; the
// address loses it once it is read
function fromLink() {
  const params = new URLSearchParams(location.hash.slice(1));
  if (!params.get("p") && !params.get("task")) return null;
  history.replaceState(null, "", location.pathname + location.search);
  try {
    if (params.get("task")) return { task: JSON.parse(decode(params.get("task"))) };
    return { text: decode(params.get("p")), input: params.get("in") ? decode(params.get("in")) : "" };
  } catch (_) { setStatus("ссылка повреждена: прочесть из неё ничего нельзя"); return null; }
}

// A link's program replaces the editor's; a task's link shows its statement, and the editor
// starts empty — unless that task is open already (the pupil's solution stays where it is).
function follow(link) {
  if (!link.task) { replace(link.text, link.input, ""); return; }
  const same = task.open && JSON.stringify(task.data) === JSON.stringify(link.task);
  openTask(link.task);
  if (!same) replace("", "", "");
}

addEventListener("hashchange", () => {  // a link opened in the page already open
  const link = fromLink();
  if (link) follow(link);
});

async function main() {
  site = await (await fetch("./site.json")).json();
  const book = $("book");
  for (const e of site.examples) book.appendChild(new Option(`${e.title} (${e.file})`, e.file));
  fillSaved();
  const last = store.work();
  if (last) {  // the last visit's work, as it was left
    const from = example(last.example || "");
    origin = { example: from ? from.file : "", text: last.unchanged ? last.text : from ? from.text : "" };
    editor.text = last.text;
    ui.stdin.value = last.input || "";
    ui.inputBox.open = Boolean(last.input);
    ui.mode.value = last.mode || "";
    ui.examples.value = last.unchanged && from ? from.file : "";
    if (last.task) task.show(last.task);
  }
  const link = fromLink();
  if (link) follow(link);
  else if (!last) {
    const first = example("queens_recursive.pseudo") || site.examples[0];
    if (first) replace(first.text, first.input, first.file);
  }
  if ("serviceWorker" in navigator) {  // caches the site; update(): a new build is used from the next visit
    navigator.serviceWorker.register("./sw.js").then((r) => r.update()).catch(() => {});
  }
}
main();
