// The playground's page: the editor, the examples, Run and Stop, the output and the messages,
// the trace page and the state diagram. Everything is computed by pseudo itself in the worker;
// this script only sends commands and shows what they printed.
const $ = (id) => document.getElementById(id);
const FILE = "программа.pseudo";        // the edited program, next to the examples and their lib/
const TRACE = "/work/трассировка.html";
const BROWSER_DEPTH = "2000";           // deeper recursion would overflow the browser's own stack
const ui = { code: $("code"), shade: $("shade"), stdin: $("stdin"), out: $("out"), err: $("err"),
             exit: $("exit"), status: $("status"), examples: $("examples"), mode: $("mode") };
const buttons = ["run", "trace", "graph"].map($);

let worker = null, ready = false, busy = false, waiting = new Map(), nextId = 1, site = null;
let pendingExample = null;              // the example to show once the runtime is ready
const interrupt = self.crossOriginIsolated ? new Int32Array(new SharedArrayBuffer(4)) : null;

function startWorker() {
  ready = false;
  worker = new Worker("./worker.js", { type: "module" });
  worker.onmessage = (event) => {
    const m = event.data;
    if (m.type === "ready") { ready = true; whenReady(m.python); return; }
    if (m.type === "failed") { setStatus("среда выполнения не загрузилась: " + m.text); return; }
    if (m.type === "started") { setStatus("выполняется…"); return; }
    const done = waiting.get(m.id);
    if (done) { waiting.delete(m.id); done(m); }
  };
  if (interrupt) worker.postMessage({ type: "interrupt", buffer: interrupt });
}

// "готово" only once the first example is in the editor: Run never runs an empty program
async function whenReady(python) {
  const file = pendingExample;
  pendingExample = null;
  if (file) await loadExample(file); else paint();
  setBusy(false, "готово (Pyodide " + python + ")");
}

function ask(message) {
  const id = nextId++;
  return new Promise((resolve) => { waiting.set(id, resolve); worker.postMessage({ id, ...message }); });
}

function setStatus(text) { ui.status.textContent = text; }

function setBusy(on, text) {
  busy = on;
  buttons.forEach((b) => { b.disabled = on || !ready; });
  $("stop").disabled = !on;
  if (text) setStatus(text);
}

// ---- the editor: a textarea over its own text coloured by pseudo's token rules ----
let painted = 0;
async function paint() {
  const text = ui.code.value, mine = ++painted;
  if (!ready) { ui.shade.textContent = text + "\n"; return; }
  const answer = await ask({ type: "highlight", text });
  if (mine === painted && answer.html !== undefined) ui.shade.innerHTML = answer.html + "\n";  // not when a Stop cut it short
}
let timer = 0;
ui.code.addEventListener("input", () => {
  ui.shade.textContent = ui.code.value + "\n";
  clearTimeout(timer);
  timer = setTimeout(paint, 120);
});
ui.code.addEventListener("scroll", () => { ui.shade.scrollTop = ui.code.scrollTop; ui.shade.scrollLeft = ui.code.scrollLeft; });
ui.code.addEventListener("keydown", (e) => {
  if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) { e.preventDefault(); run(); }
  if (e.key === "Tab") { e.preventDefault(); document.execCommand("insertText", false, "    "); }
});

// ---- running ----
async function command(argv, read = []) {
  ui.out.textContent = ""; ui.err.textContent = ""; ui.exit.textContent = "";
  const started = performance.now();
  setBusy(true, "запускается…");
  if (interrupt) Atomics.store(interrupt, 0, 0);  // a Stop from now on is this run's, even before it begins
  const result = await ask({ type: "command", argv, stdin: ui.stdin.value, name: FILE, text: ui.code.value, read });
  const seconds = ((performance.now() - started) / 1000).toFixed(2);
  ui.out.textContent = result.out;
  ui.err.textContent = result.err;
  ui.exit.textContent = `код выхода ${result.code} · ${seconds} с`;
  setBusy(false, result.code === 0 ? "готово" : result.code === 130 ? "остановлено" : "ошибка");
  return result;
}

function limits() { return ["--max-depth", BROWSER_DEPTH]; }

async function run() {
  if (busy || !ready) return;
  const mode = ui.mode.value ? [ui.mode.value] : [];
  await command(["run", ...mode, ...limits(), FILE]);
}

async function trace() {
  if (busy || !ready) return;
  const result = await command(["trace", "-q", "--html", "-o", TRACE, ...limits(), FILE], [TRACE]);
  ui.err.textContent = result.err.replace(/^pseudo: страница трассировки записана.*\n/m, "");  // it is shown here
  if (result[TRACE]) show("Трассировка", () => { $("trace-frame").hidden = false; $("trace-frame").srcdoc = result[TRACE]; });
}

let viz = null;
async function graph() {
  if (busy || !ready) return;
  const flowchart = $("diagram-kind").value === "--flowchart", proc = $("proc").value.trim();
  const result = await command(["graph", ...(flowchart ? ["--flowchart", ...(proc ? ["--proc", proc] : [])] : []), FILE]);
  if (result.code !== 0) return;
  ui.out.textContent = result.out;
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
}
$("close-view").onclick = () => { $("view").hidden = true; $("trace-frame").srcdoc = ""; };

$("stop").onclick = () => {
  if (!busy) return;
  if (interrupt) { Atomics.store(interrupt, 0, 2); return; }  // SIGINT: the program's own «прервано»
  worker.terminate();                                          // no shared memory here: start again
  for (const done of waiting.values()) done({ code: 130, out: "", err: "остановлено: среда выполнения загружается заново\n" });
  waiting.clear();
  setBusy(false);
  startWorker();
  setStatus("остановлено; среда выполнения загружается заново…");
};
$("run").onclick = run;
$("trace").onclick = trace;
$("graph").onclick = graph;
$("diagram-kind").onchange = () => { $("proc").hidden = $("diagram-kind").value !== "--flowchart"; };

// ---- examples and links ----
async function loadExample(file) {
  const entry = site.examples.find((e) => e.file === file);
  if (!entry) return;
  if (!ready) { pendingExample = file; return; }
  ui.code.value = (await ask({ type: "read", path: "/work/" + file })).text;
  ui.stdin.value = entry.input || "";
  paint();
}
ui.examples.onchange = () => { if (ui.examples.value) loadExample(ui.examples.value); };

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
  const params = new URLSearchParams({ p: encode(ui.code.value) });
  if (ui.stdin.value) params.set("in", encode(ui.stdin.value));
  location.hash = params.toString();
  try { await navigator.clipboard.writeText(location.href); setStatus("ссылка скопирована"); }
  catch (_) { setStatus("ссылка — в адресной строке"); }
};
function fromLink() {
  const params = new URLSearchParams(location.hash.slice(1));
  if (!params.get("p")) return false;
  try {
    ui.code.value = decode(params.get("p"));
    ui.stdin.value = params.get("in") ? decode(params.get("in")) : "";
  } catch (_) { setStatus("ссылка повреждена: программу из неё прочесть нельзя"); return false; }
  ui.shade.textContent = ui.code.value + "\n";
  return true;
}

async function main() {
  site = await (await fetch("./site.json")).json();
  for (const e of site.examples) ui.examples.add(new Option(`${e.title} (${e.file})`, e.file));
  startWorker();
  if (!fromLink()) {
    const first = site.examples.find((e) => e.file === "queens_recursive.pseudo") || site.examples[0];
    if (first) { ui.examples.value = first.file; loadExample(first.file); }
  }
  if ("serviceWorker" in navigator) {  // caches the site; update(): a new build is used from the next visit
    navigator.serviceWorker.register("./sw.js").then((r) => r.update()).catch(() => {});
  }
}
main();
