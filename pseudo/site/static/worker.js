// The playground's worker: Pyodide runs pseudo's own command line here, off the page's thread.
// Messages in: {id, type: "command", argv, stdin, name, text, read: [paths]} | {id, type: "highlight", text}
//              | {id, type: "read", path} | {type: "interrupt", buffer}
// Messages out: {type: "ready"} | {type: "failed", text} | {id, ...result}
import { loadPyodide } from "./pyodide/pyodide.mjs";

const here = (path) => new URL(path, self.location.href).href;
let py = null, api = null, interrupt = null;

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

// a Python KeyboardInterrupt: a Stop (pyodide's PythonError names its Python class in `type`)
const interrupted = (e) => e && (e.type === "KeyboardInterrupt" || /KeyboardInterrupt/.test(String(e.message || e)));

function command(m) {
  // the page clears the interrupt when it asks for the run: a Stop pressed before the run
  // begins is kept, and stops it at once
  postMessage({ type: "started", id: m.id });
  let args = null;
  try {
    if (m.name) py.FS.writeFile("/work/" + m.name, m.text, { encoding: "utf8" });
    args = py.toPy(m.argv);
    const result = api.command(args, m.stdin || "").toJs({ dict_converter: Object.fromEntries });
    for (const path of m.read || []) {
      try { result[path] = py.FS.readFile(path, { encoding: "utf8" }); py.FS.unlink(path); } catch (_) { /* not written */ }
    }
    return result;
  } catch (e) {  // a Stop that came before pseudo itself could catch it
    if (!interrupted(e)) throw e;
    return { code: 130, out: "", err: "pseudo: прервано кнопкой «Стоп»\n" };
  } finally {
    if (args) args.destroy();
  }
}

self.onmessage = async (event) => {
  const m = event.data;
  if (m.type === "interrupt") {
    interrupt = m.buffer;
    if (py) py.setInterruptBuffer(interrupt);
    return;
  }
  await ready;
  if (!api) return;
  try {
    if (m.type === "command") postMessage({ id: m.id, ...command(m) });
    else if (m.type === "highlight") postMessage({ id: m.id, html: api.highlight(m.text) });
    else if (m.type === "read") postMessage({ id: m.id, text: api.read(m.path) });
  } catch (e) {
    // a Stop can only be meant for a run: one that came while this ran waits for the run queued behind
    if (interrupt && m.type !== "command" && interrupted(e)) {
      Atomics.store(interrupt, 0, 2);
    }
    postMessage({ id: m.id, code: 70, out: "", err: "ошибка песочницы: " + String(e && e.message || e) + "\n" });
  }
};
