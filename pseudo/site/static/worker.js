// The playground's worker: Pyodide runs pseudo's own command line here, off the page's thread
// (pseudo/site/browser.py). Messages in:
//   {type: "setup", interrupt, input}     shared memory for Stop and for typed lines (or null)
//   {id, type: "run", argv, name, text, stdin, typed, skip, stopAtRead}
//                                         a run shown as it goes: {type: "output", stream, text},
//                                         {type: "ask"} when it waits for a typed line
//   {id, type: "command", argv, name, text, stdin, read: [paths]}   a command whose output is kept
//   {id, type: "check", name, text, task, depth}  a task's visible tests (pseudo/site/task.py):
//                                         {type: "tested", found} after each test
// Messages out: {type: "ready", python} | {type: "failed", text} | {type: "started", id} | {id, ...result}
//   (result.fatal: Pyodide failed for good, and this worker can do no more)
import { loadPyodide } from "./pyodide/pyodide.mjs";

const here = (path) => new URL(path, self.location.href).href;
let py = null, api = null, interrupt = null, input = null;
const LINE = 1, EOF = 2, STOP = 3;  // input[0]: what the page answered (0: nothing yet)

const ready = (async () => {
  const site = await (await fetch(here("./site.json"))).json();
  py = await loadPyodide({ indexURL: here("./pyodide/") });
  await py.loadPackage(here("./" + site.wheel), { messageCallback: () => {} });
  py.FS.mkdirTree("/work");
  const examples = await (await fetch(here("./examples.zip"))).arrayBuffer();
  if (examples.byteLength) py.unpackArchive(examples, "zip", { extractDir: "/work" });
  py.runPython("import os; os.chdir('/work')");
  api = py.pyimport("pseudo.site.browser");
  if (interrupt) py.setInterruptBuffer(interrupt);
  postMessage({ type: "ready", python: py.version });
})().catch((e) => postMessage({ type: "failed", text: String(e && e.message || e) }));

// What browser.py calls: the page's side of a terminal.
const page = {
  write(stream, text) { postMessage({ type: "output", stream, text }); },
  tested(found) { postMessage({ type: "tested", found: JSON.parse(found) }); },
  read() {
    if (!input) return ["later", ""];  // nothing to wait on: the page runs the program again with the line
    const control = new Int32Array(input, 0, 2), bytes = new Uint8Array(input, 8);
    if (!(interrupt && Atomics.load(interrupt, 0) === 2)) {  // not when a Stop is already on its way
      postMessage({ type: "ask" });
      Atomics.wait(control, 0, 0);
    }
    const state = interrupt && Atomics.load(interrupt, 0) === 2 ? STOP : Atomics.load(control, 0);
    const text = state === LINE ? new TextDecoder().decode(bytes.slice(0, control[1])) : "";
    Atomics.store(control, 0, 0);
    if (state === STOP && interrupt) Atomics.store(interrupt, 0, 0);  // the read raises it: not twice
    return [state === LINE ? "line" : state === EOF ? "eof" : "stop", text];
  },
};

// a Python KeyboardInterrupt: a Stop (pyodide's PythonError names its Python class in `type`)
const interrupted = (e) => e && (e.type === "KeyboardInterrupt" || /KeyboardInterrupt/.test(String(e.message || e)));

function withProgram(m, work) {
  // the page clears the interrupt when it asks for the run: a Stop pressed before the run
  // begins is kept, and stops it at once
  postMessage({ type: "started", id: m.id });
  const proxies = [];
  const py_ = (value) => { const p = py.toPy(value); proxies.push(p); return p; };
  try {
    if (m.name) py.FS.writeFile("/work/" + m.name, m.text, { encoding: "utf8" });
    return work(py_);
  } catch (e) {  // a Stop that came before pseudo itself could catch it
    if (!interrupted(e)) throw e;
    return { code: 130, out: "", err: "pseudo: прервано кнопкой «Стоп»\n", written: [0, 0], stopped: true };
  } finally {
    for (const p of proxies) p.destroy();
  }
}

function run(m) {
  return withProgram(m, (toPy) => {
    const result = api.run.callKwargs(toPy(m.argv), page, {
      stdin: m.stdin === null ? undefined : m.stdin, typed: toPy(m.typed || []), skip: toPy(m.skip || [0, 0]), stop_at_read: !!m.stopAtRead,
    });
    const out = result.toJs({ dict_converter: Object.fromEntries });
    result.destroy();
    return out;
  });
}

function command(m) {
  return withProgram(m, (toPy) => {
    const proxy = api.command(toPy(m.argv), m.stdin || "");
    const result = proxy.toJs({ dict_converter: Object.fromEntries });
    proxy.destroy();
    for (const path of m.read || []) {
      try { result[path] = py.FS.readFile(path, { encoding: "utf8" }); py.FS.unlink(path); } catch (_) { /* not written */ }
    }
    return result;
  });
}

function checkTask(m) {
  return withProgram(m, () => {
    const proxy = api.check_task(JSON.stringify(m.task), m.name, m.depth, page);
    const result = proxy.toJs({ dict_converter: Object.fromEntries });
    proxy.destroy();
    return result;
  });
}

self.onmessage = async (event) => {
  const m = event.data;
  if (m.type === "setup") {
    interrupt = m.interrupt;
    input = m.input;
    if (py && interrupt) py.setInterruptBuffer(interrupt);
    return;
  }
  await ready;
  if (!api) return;
  try {
    if (m.type === "run") postMessage({ id: m.id, ...run(m) });
    else if (m.type === "command") postMessage({ id: m.id, ...command(m) });
    else if (m.type === "check") postMessage({ id: m.id, ...checkTask(m) });
  } catch (e) {
    // the browser's stack overflowed below Python (Pyodide cannot go on): the page starts another worker
    const fatal = e instanceof RangeError || /fatally failed/.test(String(e && e.message));
    postMessage({ id: m.id, code: 70, out: "", err: "ошибка песочницы: " + String(e && e.message || e) + "\n",
                  written: [0, 0], fatal });
  }
};
