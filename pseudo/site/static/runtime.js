// The runtime: the worker where Pyodide runs pseudo (worker.js), and what the page asks of it.
// With cross-origin isolation (the COOP and COEP headers of `pseudo site serve`) two pieces of
// shared memory join them: Stop sets Python's interrupt, and a program that reads waits in the
// worker (Atomics.wait) until the page writes the typed line. Without it a Stop starts the
// runtime again, and a program that reads ends its run there: the page runs it again with the
// lines typed so far (see app.js).
const LINE = 1, EOF = 2, STOP = 3;
const INPUT_BYTES = 1 << 20;  // the longest line one read takes

export class Runtime {
  // events: ready(python), failed(text), started(id), output(stream, text), ask(), tested(found)
  constructor(events) {
    this.events = events;
    this.isolated = self.crossOriginIsolated === true;
    this.interrupt = this.isolated ? new Int32Array(new SharedArrayBuffer(4)) : null;
    this.input = this.isolated ? new SharedArrayBuffer(8 + INPUT_BYTES) : null;
    this.waiting = new Map();
    this.nextId = 1;
    this.ready = false;
    this.asking = false;          // the program waits in the worker for a typed line
    this.stopping = 0;            // the id of a run asked to stop
    this.start();
  }

  start() {
    this.ready = false;
    this.worker = new Worker("./worker.js", { type: "module" });
    this.worker.onmessage = (event) => this.message(event.data);
    this.worker.postMessage({ type: "setup", interrupt: this.interrupt, input: this.input });
  }

  message(m) {
    if (m.type === "ready") { this.ready = true; this.events.ready(m.python); return; }
    if (m.type === "failed") { this.events.failed(m.text); return; }
    if (m.type === "output") { this.events.output(m.stream, m.text); return; }
    if (m.type === "tested") { this.events.tested(m.found); return; }
    if (m.type === "ask") {
      if (this.stopping) { this.answer(STOP); return; }
      this.asking = true;
      this.events.ask();
      return;
    }
    if (m.type === "started") {
      if (this.stopping === m.id && this.interrupt) Atomics.store(this.interrupt, 0, 2);  // a Stop a check took
      this.events.started(m.id);
      return;
    }
    const done = this.waiting.get(m.id);
    if (done) { this.waiting.delete(m.id); done(m); }
    if (m.fatal) this.restart();
  }

  // a new worker (the old one is ended); what was asked of the old one is answered `result`
  restart(result = { code: 70, out: "", err: "", written: [0, 0] }) {
    this.worker.terminate();
    for (const done of this.waiting.values()) done(result);
    this.waiting.clear();
    this.start();
  }

  // {type: "run" | "command" | "check", …} → the worker's answer
  ask(message) {
    const id = this.nextId++;
    if (this.interrupt) Atomics.store(this.interrupt, 0, 0);  // a Stop from now on is this one's
    this.stopping = 0;
    this.current = id;
    return new Promise((resolve) => { this.waiting.set(id, resolve); this.worker.postMessage({ id, ...message }); });
  }

  // the typed line (without "\n") for the program waiting in the worker; null: end of input
  send(line) { this.answer(line === null ? EOF : LINE, line === null ? "" : line + "\n"); }

  answer(state, text = "") {
    const control = new Int32Array(this.input, 0, 2), bytes = new Uint8Array(this.input, 8);
    const encoded = new TextEncoder().encode(text).subarray(0, INPUT_BYTES);
    bytes.set(encoded);
    control[1] = encoded.length;
    this.asking = false;
    Atomics.store(control, 0, state);
    Atomics.notify(control, 0);
  }

  // Stop the run in progress. Isolated: the program stops at its next step (or its read) with
  // pseudo's own message; true. Otherwise the worker is ended and started again: false.
  stop() {
    if (this.interrupt) {
      this.stopping = this.current;
      Atomics.store(this.interrupt, 0, 2);
      if (this.asking) this.answer(STOP);
      return true;
    }
    this.restart({ code: 130, out: "", err: "", written: [0, 0], restarted: true });
    return false;
  }
}
