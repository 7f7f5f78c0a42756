// The output pane, a terminal's screen: text appears as the program prints it; the two
// escape sequences of pseudo's screen phrases are drawn in place (ESC[H ESC[2J «очистить
// экран», ESC[l;cH «курсор в строку l, столбец c»); when the program reads, a line to type
// in appears where the output stops, and what is typed stays there, as a terminal echoes it.
// Only the last KEEP lines are kept, and the pane says so; while the program prints fast, only
// the last TAIL are drawn.
const KEEP = 10000;
const DRAW = 100;  // ms between two drawings of a pane the program writes to fast
const TAIL = 400;  // lines drawn meanwhile
const ESCAPE = /\x1b\[(\d*)(?:;(\d*))?([A-Za-z])/g;

export class Screen {
  constructor(element, { note, messages = false } = {}) {
    this.element = element;
    this.note = note;                        // where "shown: the last … lines of …" is said
    this.messages = messages;                // pseudo's messages: their code excerpts do not wrap
    this.text = element.appendChild(document.createElement("span"));
    this.drawn = 0;
    this.clear();
  }

  clear() {
    this.lines = [""];
    this.row = 0; this.col = 0;              // the cursor
    this.top = 0;                            // the screen's line 1 (cursor addresses count from it)
    this.dropped = 0;                        // lines no longer kept
    this.rest = "";                          // an escape sequence cut between two pieces
    this.changed();
  }

  get content() { return this.lines.join("\n"); }

  write(text) {
    text = this.rest + text;
    this.rest = "";
    const cut = text.lastIndexOf("\x1b");
    if (cut >= 0 && !/^\x1b\[[\d;]*[A-Za-z]/.test(text.slice(cut))) {  // the sequence goes on in the next piece
      this.rest = text.slice(cut);
      text = text.slice(0, cut);
    }
    let at = 0;
    for (const m of text.matchAll(ESCAPE)) {
      this.put(text.slice(at, m.index));
      this.escape(m[3], Number(m[1] || 1), Number(m[2] || 1));
      at = m.index + m[0].length;
    }
    this.put(text.slice(at));
    this.changed();
  }

  escape(code, a, b) {
    if (code === "J" && a === 2) {           // clear the screen: a new one, the old not kept
      this.lines = [""]; this.top = 0; this.row = 0; this.col = 0; this.dropped = 0;
    } else if (code === "H") {               // the cursor to line a, column b of the screen
      this.row = Math.max(0, this.top + a - 1); this.col = b - 1;
    }
  }

  put(text) {
    if (!text) return;
    const parts = text.split("\n"), lines = this.lines;
    for (let k = 0; k < parts.length; k++) {
      if (k > 0) { this.row++; this.col = 0; }
      while (lines.length <= this.row) lines.push("");
      const piece = parts[k];
      if (!piece) continue;
      const line = lines[this.row];
      if (this.col === line.length) lines[this.row] = line + piece;  // as a rule: at the end
      else {
        const padded = line.length < this.col ? line + " ".repeat(this.col - line.length) : line;
        lines[this.row] = padded.slice(0, this.col) + piece + padded.slice(this.col + piece.length);
      }
      this.col += piece.length;
    }
    if (lines.length > KEEP * 1.5) this.trim();
  }

  trim() {
    const gone = this.lines.length - KEEP - 1;  // the line the cursor is on, often empty, is not counted
    this.lines.splice(0, gone);
    this.row -= gone; this.top -= gone; this.dropped += gone;
  }

  // shown soon: a program printing fast is drawn every DRAW ms, not once a piece
  changed() {
    if (this.pending) return;
    const wait = Math.max(0, this.drawn + DRAW - performance.now());
    this.pending = setTimeout(() => this.render(), wait);
  }

  // While the program prints, the last TAIL lines (the pane follows them); all that is kept
  // once it stops or asks (`flush`).
  render(all = false) {
    clearTimeout(this.pending);
    this.pending = 0;
    this.drawn = performance.now();
    if (this.lines.length > KEEP + 1) this.trim();
    const box = this.element, follow = box.scrollTop + box.clientHeight >= box.scrollHeight - 24;
    const text = all || this.lines.length <= TAIL ? this.content : this.lines.slice(-TAIL).join("\n");
    if (this.messages) this.text.replaceChildren(drawMessage(text));
    else this.text.textContent = text;
    if (this.note) {
      this.note.hidden = !this.dropped;
      if (this.dropped) {
        const kept = this.lines.length - (this.lines[this.lines.length - 1] === "" ? 1 : 0);
        this.note.textContent = `показаны последние ${spaced(kept)} строк вывода из ${spaced(this.dropped + kept)}`;
      }
    }
    if (follow) box.scrollTop = box.scrollHeight;
  }

  // drawn now, all of it (before the input line is shown, or when a run ends)
  flush() { this.render(true); }
}

// The line the pupil types into when the program reads: Enter sends it, Ctrl+D ends the input
// (as in a terminal), ↑ and ↓ go through the lines typed before.
export class InputLine {
  constructor(screen) {
    this.screen = screen;
    this.field = screen.element.appendChild(document.createElement("input"));
    this.field.className = "typed";
    this.field.hidden = true;
    this.field.setAttribute("aria-label", "ввод программы");
    this.field.autocomplete = "off"; this.field.spellcheck = false;
    this.field.setAttribute("autocapitalize", "off");
    this.history = []; this.back = 0; this.resolve = null;
    this.field.addEventListener("keydown", (e) => this.key(e));
  }

  get waiting() { return this.resolve !== null; }

  // the typed line (without its "\n"), or null for Ctrl+D
  read() {
    this.screen.flush();
    this.field.hidden = false;
    this.field.value = "";
    this.back = this.history.length;
    this.field.focus();
    this.field.scrollIntoView({ block: "nearest" });
    return new Promise((resolve) => { this.resolve = resolve; });
  }

  key(e) {
    if (!this.resolve) return;
    if (e.key === "Enter") {
      e.preventDefault();
      const line = this.field.value;
      if (line) this.history.push(line);
      this.screen.write(line + "\n");      // the echo, as a terminal shows it
      this.done(line);
    } else if (e.key === "d" && e.ctrlKey) {
      e.preventDefault();
      this.done(null);
    } else if (e.key === "ArrowUp" || e.key === "ArrowDown") {
      e.preventDefault();
      this.back = Math.max(0, Math.min(this.history.length, this.back + (e.key === "ArrowUp" ? -1 : 1)));
      this.field.value = this.history[this.back] || "";
    }
  }

  done(value) {
    const resolve = this.resolve;
    this.resolve = null;
    this.field.hidden = true;
    this.screen.flush();
    resolve(value);
  }

  // the run ended while waiting (Stop): nothing is sent
  cancel() { if (this.resolve) this.done(undefined); }
}

// pseudo's messages as elements: the prose wraps; the lines of a code excerpt ("  16 | …" and
// the caret's "     |    ^") are kept together in a block that does not wrap but scrolls, so
// that the caret stays under its column.
const EXCERPT = /^\s*\d*\s\|( |$)/;
const CARET_LINE = /^\s*\|\s*\^/;  // "      |     ^~~~" (a code line may hold a ^ of its own)
export function drawMessage(text) {
  const root = document.createDocumentFragment();
  let prose = "", excerpt = [];
  for (const line of text.split(/(?<=\n)/)) {
    if (EXCERPT.test(line)) {
      // the block begins a line of its own: the prose's last line end is the block's (or innerText doubles it)
      if (prose) root.appendChild(document.createTextNode(prose.replace(/\n$/, "")));
      prose = "";
      excerpt.push(line.replace(/\n$/, ""));
    } else {
      if (excerpt.length) root.appendChild(codeBlock(excerpt));
      excerpt = [];
      prose += line;
    }
  }
  if (excerpt.length) root.appendChild(codeBlock(excerpt));
  if (prose) root.appendChild(document.createTextNode(prose));
  return root;
}

function codeBlock(lines) {
  const block = document.createElement("span");
  block.className = "excerpt";
  block.textContent = lines.join("\n");
  // a caret past the block's width is scrolled into view, once the block is on the page
  const caret = lines.filter((l) => CARET_LINE.test(l)).map((l) => l.indexOf("^")).pop();
  if (caret !== undefined) requestAnimationFrame(() => {
    if (block.scrollWidth <= block.clientWidth) return;
    const column = block.scrollWidth / Math.max(...lines.map((l) => l.length));  // monospace
    block.scrollLeft = Math.max(0, column * caret - block.clientWidth / 2);
  });
  return block;
}

export function spaced(n) { return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, " "); }
