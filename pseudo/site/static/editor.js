// The program's editor: CodeMirror 6 with line numbers, undo and redo, Tab and Shift+Tab to
// indent and outdent (Esc, then Tab, leaves the editor), the book's colours (highlight.js),
// `pseudo check`'s errors and warnings at their place, the line of a runtime error, and the
// line the trace is at.
import { EditorSelection, EditorState, RangeSetBuilder, StateEffect, StateField } from "@codemirror/state";
import { Decoration, EditorView, ViewPlugin, drawSelection, highlightActiveLineGutter, keymap,
         lineNumbers } from "@codemirror/view";
import { defaultKeymap, history, historyKeymap, indentWithTab, insertNewlineKeepIndent } from "@codemirror/commands";
import { indentUnit } from "@codemirror/language";
import { lintGutter, setDiagnostics } from "@codemirror/lint";
import { drawMessage } from "./console.js";
import { tokens } from "./highlight.js";

const PLAIN = new Set(["whitespace", "text", "name"]);  // left in the text's colour, as on the trace page
const marks = new Map();
const markOf = (kind) => marks.get(kind) || marks.set(kind, Decoration.mark({ class: "hl-" + kind })).get(kind);

// the book's colours over the lines in view; the whole text is cut once per change (a comment
// may begin many lines above)
const colours = ViewPlugin.fromClass(class {
  constructor(view) { this.cut = tokens(view.state.doc.toString()); this.decorations = this.paint(view); }
  update(u) {
    if (u.docChanged) this.cut = tokens(u.state.doc.toString());
    if (u.docChanged || u.viewportChanged) this.decorations = this.paint(u.view);
  }
  paint(view) {
    const out = new RangeSetBuilder(), cut = this.cut;
    for (const { from, to } of view.visibleRanges) {
      let lo = 0, hi = cut.length;
      while (lo < hi) { const mid = (lo + hi) >> 1; if (cut[mid][2] <= from) lo = mid + 1; else hi = mid; }
      for (let k = lo; k < cut.length && cut[k][1] < to; k++) {
        const [kind, a, b] = cut[k];
        if (!PLAIN.has(kind)) out.add(Math.max(a, from), Math.min(b, to), markOf(kind));
      }
    }
    return out.finish();
  }
}, { decorations: (plugin) => plugin.decorations });

// A place in the text shown by a class on its line and a mark over its columns: the line of a
// runtime error, the line the trace is at. It follows the text as it is edited.
function placeMark(lineClass, markClass) {
  const set = StateEffect.define();
  const field = StateField.define({
    create: () => Decoration.none,
    update(marks, tr) {
      marks = marks.map(tr.changes);
      for (const e of tr.effects) if (e.is(set)) marks = e.value ? decorate(tr.state.doc, e.value) : Decoration.none;
      return marks;
    },
    provide: (f) => EditorView.decorations.from(f),
  });
  function decorate(doc, { line, column, endColumn }) {
    const l = doc.line(Math.min(Math.max(1, line), doc.lines));
    const from = Math.min(l.from + Math.max(0, column - 1), l.to);
    const to = Math.min(l.from + Math.max(column, endColumn || column + 1) - 1, l.to);
    const ranges = [Decoration.line({ class: lineClass }).range(l.from)];
    if (to > from) ranges.push(Decoration.mark({ class: markClass }).range(from, to));
    return Decoration.set(ranges);
  }
  return { set, field };
}
const errorLine = placeMark("cm-error-line", "cm-error-mark");
const stepLine = placeMark("cm-step-line", "cm-step-mark");

export class Editor {
  // onChange(text) after each edit; onRun() for Ctrl+Enter
  constructor(parent, { onChange, onRun }) {
    this.extensions = [
      lineNumbers(), highlightActiveLineGutter(), history(), drawSelection(), lintGutter(),
      EditorState.tabSize.of(4), indentUnit.of("    "),
      keymap.of([{ key: "Mod-Enter", run: () => { onRun(); return true; } },
                 { key: "Enter", run: insertNewlineKeepIndent },
                 indentWithTab, ...defaultKeymap, ...historyKeymap]),
      colours, errorLine.field, stepLine.field,
      EditorView.contentAttributes.of({ "aria-label": "программа", spellcheck: "false", autocapitalize: "off",
                                        autocorrect: "off" }),
      EditorView.updateListener.of((u) => { if (u.docChanged) onChange(u.state.doc.toString()); }),
    ];
    this.view = new EditorView({ parent, state: EditorState.create({ doc: "", extensions: this.extensions }) });
  }

  get text() { return this.view.state.doc.toString(); }

  // a new text (an example, a link, a saved program): the old one's undo history goes with it
  set text(text) {
    this.view.setState(EditorState.create({ doc: text, extensions: this.extensions }));
  }

  focus() { this.view.focus(); }

  // `pseudo check`'s messages: [{severity, line, column, endLine, endColumn, message}]
  showDiagnostics(list) {
    const doc = this.view.state.doc;
    const at = (line, column) => {
      const l = doc.line(Math.min(Math.max(1, line), doc.lines));
      return Math.min(l.from + Math.max(0, column - 1), l.to);
    };
    const diagnostics = list.map((d) => {
      const from = at(d.line, d.column);
      let to = at(d.endLine || d.line, d.endColumn || d.column + 1);
      if (to <= from) to = Math.min(from + 1, doc.length);
      return { from, to, severity: d.severity, message: d.message, source: "pseudo check",
               renderMessage: () => { const box = document.createElement("span"); box.append(drawMessage(d.message)); return box; } };
    });
    this.view.dispatch(setDiagnostics(this.view.state, diagnostics));
  }

  // the line of a runtime error ({line, column, endColumn}), or null
  markError(place) { this.view.dispatch({ effects: errorLine.set.of(place) }); }

  // the line the trace is at ({line, column, endColumn}), its marked statement scrolled into
  // view (across too: at the end of a long line it is far from the line's start); or null
  markStep(place) {
    const effects = [stepLine.set.of(place)];
    if (place) {
      const line = this.view.state.doc.line(Math.min(Math.max(1, place.line), this.view.state.doc.lines));
      const at = (column) => Math.min(line.from + Math.max(0, column - 1), line.to);
      effects.push(EditorView.scrollIntoView(EditorSelection.range(at(place.endColumn), at(place.column)), { y: "center" }));
    }
    this.view.dispatch({ effects });
  }

  // put the cursor at a line and column (a message clicked)
  goTo(line, column) {
    const doc = this.view.state.doc, l = doc.line(Math.min(Math.max(1, line), doc.lines));
    const pos = Math.min(l.from + Math.max(0, column - 1), l.to);
    this.view.dispatch({ selection: { anchor: pos }, scrollIntoView: true });
    this.view.focus();
  }
}
