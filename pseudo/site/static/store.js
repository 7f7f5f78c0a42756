// The pupil's work, kept in the browser (localStorage) across reloads and visits: the program,
// its input, the example it came from; and the programs an example or a link replaced, so
// that none is lost (the newest SAVED, each at most once).
const KEY = "pseudo-playground";
const SAVED = 20;

function read() {
  try { return JSON.parse(localStorage.getItem(KEY)) || {}; } catch (_) { return {}; }
}

function write(state) {
  try { localStorage.setItem(KEY, JSON.stringify(state)); return true; } catch (_) { return false; }  // full, or refused
}

// {text, input, example, mode} of the last visit, or null
export function work() {
  const state = read();
  return typeof state.text === "string" ? state : null;
}

export function keep(current) { return write({ ...read(), ...current }); }

// [{text, input, when}], newest first
export function saved() { return Array.isArray(read().saved) ? read().saved : []; }

// keep a program that is about to be replaced
export function save(text, input) {
  const state = read();
  const list = (state.saved || []).filter((s) => s.text !== text);
  list.unshift({ text, input, when: Date.now() });
  state.saved = list.slice(0, SAVED);
  return write(state);
}
