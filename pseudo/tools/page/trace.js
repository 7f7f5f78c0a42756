"use strict";
/* The trace page: PseudoTrace.show(element, data) builds it inside the element from a data object
   (the format: docs/trace.md). Events are a flat array of integers; what the page shows at any
   position is read from histories built once (each variable's and element's assignments, each
   call's start and end), so moving anywhere costs a few binary searches, never a replay. */
var PseudoTrace = (function () {
  const ARITY = [3, 4, 7, 4, 4, 7, 4, 4, 5];  // integers per event, by kind
  const STMT = 0, ASSIGN = 2, CALL = 3, RET = 4, STATE = 5, OUTPUT = 7, EXPR = 8;
  const BRANCH = ["", "ветвь ТО: ", "ветвь ИНАЧЕ: "];  // an expr event's role: body, then, else (3: value)
  const SPEEDS = [1, 2, 3, 5, 8, 12, 20, 40, 80, 160, 400];  // statements per second when playing
  const SPAN = 20000;      // changes are marked over a move of at most this many events
  const KIDS = 10;         // calls shown at first under a node of the call tree
  const CELLS = 400;       // cells shown at most per array

  const TEMPLATE = `
<header class="bar">
  <div class="row">
    <button data-act="first" title="в начало (Home)">|◀</button>
    <button data-act="back" title="шаг назад (←)">◀ назад</button>
    <button data-act="play" title="проигрывать и остановить (пробел)">▶ пуск</button>
    <button data-act="into" title="следующая инструкция, заходя в вызовы (→)">шаг ▶</button>
    <button data-act="over" title="следующая инструкция, не заходя в вызовы (↓)">через вызов ↷</button>
    <button data-act="out" title="выполнить до выхода из текущего вызова (↑)">из вызова ⤴</button>
    <button data-act="output" title="до следующего вывода программы">к выводу ⏎</button>
    <button data-act="last" title="в конец (End)">▶|</button>
    <button data-act="big" title="крупный шрифт для проектора">Крупно</button>
  </div>
  <div class="row">
    <input type="range" data-ctl="slider" min="0" value="0" aria-label="позиция в трассировке">
    <span class="where">шаг <b data-out="pos">0</b> из <span data-out="total">0</span></span>
    <label class="speed" title="скорость проигрывания: инструкций в секунду">скорость
      <input type="range" data-ctl="speed" min="0" max="10" value="3"> <span data-out="speed"></span></label>
    <form data-ctl="goto" title="перейти к строке (номер), к состоянию автомата или к вызову процедуры (имя); Esc — снова шагать стрелками">
      <input type="text" data-ctl="target" placeholder="строка, состояние…" aria-label="перейти к">
      <button type="submit">перейти</button></form>
  </div>
  <div class="row status" data-out="status" role="status"></div>
</header>
<div class="col left">
  <section class="src"><h2 data-out="file"></h2><div class="body" data-out="scroll"><div class="code" data-out="source"></div></div>
    <div class="what" data-out="what"></div></section>
  <section class="frames"><h2>Переменные
    <label title="все вызовы стека рядом, слева направо, как их видит рекурсия"><input type="checkbox" data-ctl="cards"> все вызовы рядом</label></h2>
    <div class="body"><div class="stack" data-out="stack"></div>
    <div data-out="frames"></div></div></section>
</div>
<div class="col right">
  <section class="arrays" data-out="arrays-panel"><h2>Массивы</h2><div class="body" data-out="arrays"></div></section>
  <section class="state" data-out="state-panel"><h2>Автомат</h2><div class="body" data-out="state"></div></section>
  <section class="output"><h2>Вывод</h2><div class="body" data-out="output-scroll"><pre data-out="output"></pre></div></section>
  <section class="tree" data-out="tree-panel"><h2>Дерево вызовов
    <label title="показывать вызовы фраз"><input type="checkbox" data-ctl="phrases"> с фразами</label></h2>
    <div class="body" data-out="tree"></div></section>
</div>
<section class="handout" data-out="handout"></section>`;

  function esc(t) {
    return String(t).replace(/[&<>"]/g, c => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;"})[c]);
  }
  function last(h, p) {  // the last entry of the sorted history h that is < p, or -1
    let lo = 0, hi = h.length - 1, found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (h[mid] < p) { found = h[mid]; lo = mid + 1; } else hi = mid - 1;
    }
    return found;
  }
  function below(a, x) {  // how many entries of the sorted array a are < x
    let lo = 0, hi = a.length;
    while (lo < hi) { const mid = (lo + hi) >> 1; if (a[mid] < x) lo = mid + 1; else hi = mid; }
    return lo;
  }
  function plural(n, one, few, many) {
    const m10 = n % 10, m100 = n % 100;
    return m10 === 1 && m100 !== 11 ? one : m10 >= 2 && m10 <= 4 && (m100 < 12 || m100 > 14) ? few : many;
  }
  function spaced(n) { return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, " "); }

  // ---- the model: histories built in one pass over the events ----

  function prepare(data) {
    const S = data.strings, ev = Int32Array.from(data.events);
    let n = 0;
    for (let o = 0; o < ev.length; o += ARITY[ev[o]]) n++;
    const off = new Int32Array(n + 1), callOf = new Int32Array(n + 1), outLen = new Int32Array(n + 1);
    const stops = [];
    const cStart = [], cEnd = [], cParent = [], cCall = [], cDepth = [], cKids = [], cShown = [];
    const rootKids = [], rootShown = [];
    const globals = new Map(), locals = new Map(), arrays = new Map(), states = new Map(), outputs = [];
    const byDepth = [-1], pieces = [];
    const phraseCall = c => data.defs[data.calls[c][0]][2] === 1;
    let cur = -1, size = 0;
    for (let i = 0, o = 0; i < n; o += ARITY[ev[o]], i++) {
      off[i] = o; callOf[i] = cur; outLen[i] = size;
      const kind = ev[o];
      if (kind === STMT || kind === EXPR) stops.push(i);  // a statement, or a step inside an expression
      else if (kind === ASSIGN) {
        const name = ev[o + 3], key = ev[o + 4], frame = ev[o + 6];
        let map, slot;
        if (key >= 0) { map = arrays.get(name); if (!map) arrays.set(name, map = new Map()); slot = key; }
        else if (frame >= 0) {
          const inst = frame < byDepth.length ? byDepth[frame] : cur;
          map = locals.get(inst); if (!map) locals.set(inst, map = new Map()); slot = name;
        } else { map = globals; slot = name; }
        let h = map.get(slot);
        if (!h) map.set(slot, h = []);
        h.push(i);
      } else if (kind === CALL) {
        const c = cStart.length, depth = ev[o + 2] + 1, call = ev[o + 3];
        cStart.push(i); cEnd.push(n); cParent.push(cur); cCall.push(call); cDepth.push(depth);
        cKids.push([]); cShown.push([]);
        (cur < 0 ? rootKids : cKids[cur]).push(c);
        // without phrases, a call hangs under its nearest caller that is not a phrase
        let up = cur;
        while (up >= 0 && phraseCall(cCall[up])) up = cParent[up];
        if (!phraseCall(call)) (up < 0 ? rootShown : cShown[up]).push(c);
        byDepth[depth] = c;
        byDepth.length = depth + 1;
        cur = c;
      } else if (kind === RET) {
        if (cur >= 0) { cEnd[cur] = i; cur = cParent[cur]; callOf[i] = cur; }
      } else if (kind === STATE) {
        let h = states.get(cur);
        if (!h) states.set(cur, h = []);
        h.push(i);
      } else if (kind === OUTPUT) {
        outputs.push(i);
        const t = S[ev[o + 3]];
        pieces.push(t); size += t.length;
      }
    }
    off[n] = ev.length; callOf[n] = -1; outLen[n] = size;
    stops.push(n);  // and the end, after the last event
    const stopAt = Int32Array.from(stops), stopDepth = new Int32Array(stops.length);
    for (let q = 0; q < stops.length - 1; q++) stopDepth[q] = ev[off[stopAt[q]] + 2];
    const stateNames = new Map();  // per automaton (the definition it runs in, -1 for the program): its states
    for (const [inst, h] of states) {
      const owner = inst < 0 ? -1 : data.calls[cCall[inst]][0];
      let names = stateNames.get(owner);
      if (!names) stateNames.set(owner, names = []);
      for (const i of h) { const to = ev[off[i] + 4]; if (!names.includes(to)) names.push(to); }
    }
    return {data, S, ev, n, off, callOf, outLen, stops: stopAt, stopDepth, outputs, output: pieces.join(""),
            calls: {start: cStart, end: cEnd, parent: cParent, call: cCall, depth: cDepth, kids: cKids,
                    shown: cShown, rootKids, rootShown},
            globals, locals, arrays, states, stateNames};
  }

  // ---- the page ----

  function show(root, data) {
    const T = prepare(data);
    const D = data, S = T.S, ev = T.ev, off = T.off, C = T.calls;
    root.classList.add("pt");
    root.innerHTML = TEMPLATE;
    const el = name => root.querySelector(`[data-out="${name}"]`);
    const ctl = name => root.querySelector(`[data-ctl="${name}"]`);
    const stops = T.stops, END = stops.length - 1;
    let pos = 0, shownAt = 0, shownFile = -1, marked = null, selected = null, playing = null;
    const open = new Set(), shut = new Set(), more = new Map();
    const keyParts = new Map();
    const hasCalls = C.start.length > 0, hasStates = T.states.size > 0;
    ctl("phrases").checked = !D.defs.some(d => d[2] === 0);
    el("total").textContent = spaced(stops.length);
    el("tree-panel").hidden = !hasCalls;
    el("state-panel").hidden = !hasStates;
    const slider = ctl("slider");
    slider.max = END;
    if (D.end.outcome === "error") {  // the end is where the class looks first
      const last = root.querySelector('[data-act="last"]');
      last.textContent = "▶| к ошибке";
      last.title = `к ошибке выполнения в строке ${D.end.line} (End)`;
    }

    const place = i => D.places[ev[off[i] + 1]] || [0, 0, 0, 0, -1];
    const depthOf = i => i < T.n ? ev[off[i] + 2] : 0;
    function callText(c) {
      const call = D.calls[C.call[c]], def = D.defs[call[0]];
      const args = call.slice(1).map(a => a < 0 ? "—" : S[a]);
      const name = S[def[0]];
      if (!def[2]) return `${name}(${args.join(", ")})`;
      let k = 0;
      return name.replace(/…/g, () => k < args.length ? args[k++] : "…");
    }
    function stepText(i, pl) {  // what the step at event i does
      const o = off[i], text = pl[4] >= 0 ? S[pl[4]] : "";
      if (ev[o] !== EXPR) return text;
      if (ev[o + 3] === 3) return `значение ${callText(T.callOf[i])} = ${ev[o + 4] >= 0 ? S[ev[o + 4]] : "—"}`;
      return BRANCH[ev[o + 3]] + text;
    }
    function stackAt(i) {  // the calls in progress at event i, outermost first
      const out = [];
      for (let c = T.callOf[i]; c >= 0; c = C.parent[c]) out.unshift(c);
      return out;
    }
    function cellText(v) { return v === "ИСТИНА" ? "И" : v === "ЛОЖЬ" ? "Л" : v; }
    function cellClass(v) { return v === "ИСТИНА" ? "t" : v === "ЛОЖЬ" ? "f" : ""; }
    function shortened(v) { return v.length > 8 ? v.slice(0, 7) + "…" : v; }
    function parts(keySid) {
      let p = keyParts.get(keySid);
      if (!p) keyParts.set(keySid, p = S[keySid].split(", ").map(Number));
      return p;
    }

    // ---- the source ----

    function lineHTML(f, ln, from, to) {
      const text = D.sources[f][ln - 1] || "";
      const toks = D.tokens ? D.tokens[f][ln - 1] : [-1, text];
      let html = `<span class="no" data-line="${ln}" title="перейти к строке ${ln}">${ln}</span>`, col = 1, inside = false;
      for (let k = 0; k < toks.length; k += 2) {
        const cls = toks[k] >= 0 && D.kinds ? D.kinds[toks[k]] : "", piece = toks[k + 1];
        const start = col, end = col + piece.length;
        const cuts = [start];
        if (from > start && from < end) cuts.push(from);
        if (to > start && to < end) cuts.push(to);
        cuts.push(end);
        for (let c = 0; c + 1 < cuts.length; c++) {
          const a = cuts[c], b = cuts[c + 1], seg = esc(piece.slice(a - start, b - start));
          let h = cls && cls !== "whitespace" && cls !== "text" && cls !== "name" ? `<span class="hl-${cls}">${seg}</span>` : seg;
          const mark = from > 0 && a >= from && b <= to;
          if (mark !== inside) { html += mark ? "<mark>" : "</mark>"; inside = mark; }
          html += h;
        }
        col = end;
      }
      return inside ? html + "</mark>" : html;
    }
    function showSource(f) {
      if (f === shownFile) return;
      shownFile = f; marked = null;
      el("file").textContent = D.files[f].split(/[\\/]/).pop();  // the name; the whole path on hover
      el("file").title = D.files[f];
      el("source").innerHTML = D.sources[f].map((_, k) =>
        `<div data-line="${k + 1}">${lineHTML(f, k + 1, 0, 0)}</div>`).join("");
    }
    function markLine(f, ln, from, to) {
      const box = el("source");
      if (marked) {
        const old = box.children[marked - 1];
        if (old) { old.classList.remove("cur"); old.innerHTML = lineHTML(f, marked, 0, 0); }
      }
      marked = null;
      const div = box.children[ln - 1];
      if (!div) return;
      div.classList.add("cur");
      div.innerHTML = lineHTML(f, ln, from, to);
      marked = ln;
    }
    function inView() {  // the marked statement with a line above and below it (a long line wraps: it may be far down)
      const div = marked && el("source").children[marked - 1];
      if (!div) return;
      const scroll = el("scroll"), seen = scroll.getBoundingClientRect(), h = div.firstElementChild.offsetHeight;
      const r = (div.querySelector("mark") || div).getBoundingClientRect();
      if (r.top - h < seen.top || r.bottom + h > seen.bottom) {  // a third down, or as low as it fits whole
        const at = Math.max(0, Math.min(scroll.clientHeight / 3, scroll.clientHeight - r.height - h));
        scroll.scrollTop = Math.max(0, scroll.scrollTop + r.top - seen.top - at);
      }
    }

    function reveal(box, item) {  // the item scrolled into its box's view, the box alone: never the page
      const b = box.getBoundingClientRect(), r = item.getBoundingClientRect();
      const by = (lo, hi, top, end) => lo < top ? lo - top : hi > end ? Math.min(hi - end, lo - top) : 0;
      box.scrollTop += by(r.top, r.bottom, b.top, b.bottom); box.scrollLeft += by(r.left, r.right, b.left, b.right);
    }

    // ---- what changed since the last position shown ----

    function changes(from, to) {
      const out = new Set();
      for (let i = Math.max(0, from); i < to; i++) {
        const o = off[i];
        if (ev[o] !== ASSIGN) continue;
        const name = ev[o + 3], key = ev[o + 4], frame = ev[o + 6];
        if (key >= 0) out.add(`a${name}:${key}`);
        else if (frame >= 0) out.add(`l${name}`);
        else out.add(`g${name}`);
      }
      return out;
    }

    // ---- the variables ----

    function rows(entries, changed, prefix) {
      return entries.map(([name, value, cls]) =>
        `<tr data-name="${esc(S[name])}" class="${cls || ""}${changed.has(prefix + name) ? " chg" : ""}">` +
        `<td>${esc(S[name])}</td><td class="value">${esc(value)}</td></tr>`).join("");
    }
    function frameEntries(c, p) {
      const out = [], seen = new Set();
      if (c >= 0) {
        const call = D.calls[C.call[c]], def = D.defs[call[0]];
        const own = T.locals.get(c);
        def[1].forEach((param, k) => {
          const h = own && own.get(param), at = h ? last(h, p) : -1;
          const v = at >= 0 ? S[ev[off[at] + 5]] : call[k + 1] < 0 ? "—" : S[call[k + 1]];
          out.push([param, v, "param"]); seen.add(param);
        });
        if (own) for (const [name, h] of own) {
          if (seen.has(name)) continue;
          const at = last(h, p);
          if (at >= 0) out.push([name, S[ev[off[at] + 5]], ""]);
        }
      }
      return out;
    }
    function globalEntries(p) {
      const g = [];
      for (const [name, h] of T.globals) { const at = last(h, p); if (at >= 0) g.push([name, S[ev[off[at] + 5]], ""]); }
      return g;
    }
    function renderCards(p, changed, stack) {  // every frame of the stack side by side, the current one last
      const card = (c, title, entries, cur) => `<div class="card${cur ? " cur" : ""}" data-card="${c}"><h3>${esc(title)}</h3>` +
        (entries.length ? `<table class="vars">${rows(entries, cur || c < 0 ? changed : new Set(), c < 0 ? "g" : "l")}</table>` :
         `<div class="empty">${c < 0 ? "пока нет" : "нет переменных"}</div>`) + "</div>";
      el("frames").innerHTML = `<div class="cards" data-out="cards">` + card(-1, "глобальные", globalEntries(p), !stack.length) +
        stack.map((c, k) => card(c, callText(c), frameEntries(c, p), k === stack.length - 1)).join("") + "</div>";
      const cards = el("cards");
      cards.scrollLeft = cards.scrollWidth;
    }
    function renderFrames(p, changed) {
      const stack = stackAt(Math.min(p, T.n));
      if (ctl("cards").checked) {
        el("stack").innerHTML = "";
        return renderCards(p, changed, stack);
      }
      if (selected !== null && selected !== -1 && !stack.includes(selected)) selected = null;
      const chosen = selected === null ? (stack.length ? stack[stack.length - 1] : -1) : selected;
      el("stack").innerHTML = [-1, ...stack].map(c =>
        `<button data-inst="${c}" class="${c === chosen ? "sel" : ""}" title="показать переменные этого вызова">` +
        `${esc(c < 0 ? "основная программа" : callText(c))}</button>`).join(" › ");
      let html = "";
      if (chosen >= 0) {
        const entries = frameEntries(chosen, p);
        const here = chosen === (stack.length ? stack[stack.length - 1] : -1);
        html += `<div class="frame" data-frame="call"><h3>${here ? "текущий вызов" : "вызов"} <b>${esc(callText(chosen))}</b>` +
          ` · глубина ${C.depth[chosen]}</h3>` + (entries.length ?
          `<table class="vars">${rows(entries, here ? changed : new Set(), "l")}</table>` :
          `<div class="empty">нет параметров и своих переменных</div>`) + "</div>";
      }
      const g = globalEntries(p);
      html += `<div class="frame" data-frame="globals"><h3>глобальные переменные</h3>` + (g.length ?
        `<table class="vars">${rows(g, changed, "g")}</table>` : `<div class="empty">пока нет</div>`) + "</div>";
      el("frames").innerHTML = html;
    }

    // ---- the arrays ----

    function renderArrays(p, changed) {
      let html = "", booleans = false;
      for (const [name, elements] of T.arrays) {
        const cells = [];
        for (const [key, h] of elements) {
          const at = last(h, p);
          if (at >= 0) cells.push([key, S[ev[off[at] + 5]]]);
        }
        if (!cells.length) continue;
        if (cells.some(([, v]) => v === "ИСТИНА" || v === "ЛОЖЬ")) booleans = true;
        const dims = parts(cells[0][0]).length, same = cells.every(([k]) => parts(k).length === dims);
        const title = esc(S[name]);
        const td = (key, v, tag) => {
          const cls = `${cellClass(v)}${changed.has(`a${name}:${key}`) ? " chg" : ""}`;
          return tag === "td" ? `<td data-key="${esc(S[key])}" class="${cls}" title="${title}[${esc(S[key])}] = ${esc(v)}">${esc(shortened(cellText(v)))}</td>`
            : `<div class="cell ${cls}" data-key="${esc(S[key])}" title="${title}[${esc(S[key])}] = ${esc(v)}"><i>${esc(S[key])}</i><b>${esc(shortened(cellText(v)))}</b></div>`;
        };
        cells.sort((a, b) => { const x = parts(a[0]), y = parts(b[0]); for (let k = 0; k < x.length; k++) if (x[k] !== y[k]) return x[k] - y[k]; return 0; });
        let body = "";
        if (same && dims === 2) {
          const rowsOf = [...new Set(cells.map(([k]) => parts(k)[0]))], colsOf = [...new Set(cells.map(([k]) => parts(k)[1]))].sort((a, b) => a - b);
          const r0 = Math.min(...rowsOf), r1 = Math.max(...rowsOf), c0 = Math.min(...colsOf), c1 = Math.max(...colsOf);
          if (r1 - r0 < 40 && c1 - c0 < 40) {
            const at = new Map(cells.map(([k, v]) => [parts(k).join(","), [k, v]]));
            body = `<table class="grid"><tr><th></th>`;
            for (let c = c0; c <= c1; c++) body += `<th>${c}</th>`;
            body += "</tr>";
            for (let r = r0; r <= r1; r++) {
              body += `<tr><th>${r}</th>`;
              for (let c = c0; c <= c1; c++) { const x = at.get(r + "," + c); body += x ? td(x[0], x[1], "td") : "<td></td>"; }
              body += "</tr>";
            }
            body += "</table>";
          }
        }
        if (!body) {
          const shown = cells.slice(0, CELLS);
          let prev = null;
          body = `<div class="cells">`;
          for (const [k, v] of shown) {
            const x = parts(k);
            if (dims === 1 && prev !== null && x[0] > prev + 1) body += `<span class="gap" title="элементов между ними нет">…</span>`;
            prev = x[0];
            body += td(k, v, "div");
          }
          body += "</div>";
          if (cells.length > CELLS) body += `<div class="legend">показаны ${CELLS} элементов из ${spaced(cells.length)}</div>`;
        }
        html += `<div class="arr" data-name="${title}"><div class="aname">${title}</div><div>${body}</div></div>`;
      }
      if (booleans) html += `<div class="legend">И — ИСТИНА, Л — ЛОЖЬ; зелёным — что изменилось за последний шаг или переход</div>`;
      el("arrays-panel").hidden = !html;
      el("arrays").innerHTML = html;
    }

    // ---- the automaton ----

    function renderState(p) {
      if (!hasStates) return;
      const stack = [-1, ...stackAt(Math.min(p, T.n))];
      for (let k = stack.length - 1; k >= 0; k--) {
        const h = T.states.get(stack[k]);
        const at = h ? last(h, p) : -1;
        if (at < 0) continue;
        const o = off[at], from = ev[o + 3], to = ev[o + 4], cond = ev[o + 5], how = ev[o + 6];
        const owner = stack[k] < 0 ? -1 : D.calls[C.call[stack[k]]][0];
        const why = how === 0 ? "вход" : how === 2 ? `из ${S[from]}, без перехода` :
          `из ${S[from]}` + (cond >= 0 ? `, потому что ${S[cond]}` : "");
        el("state").innerHTML = `состояние <b data-out="current-state">${esc(S[to])}</b> <span class="legend">(${esc(why)})</span>` +
          `<div class="chips">${(T.stateNames.get(owner) || []).map(s =>
            `<span class="chip${s === to ? " cur" : ""}">${esc(S[s])}</span>`).join("")}</div>`;
        return;
      }
      el("state").innerHTML = `<span class="empty">автомат ещё не начал работу</span>`;
    }

    // ---- the call tree ----

    function renderTree(p) {
      if (!hasCalls) return;
      const phrases = ctl("phrases").checked;
      const started = below(C.start, p);  // calls begun before p: numbered 0 … started - 1
      const path = new Set(stackAt(Math.min(p, T.n)));
      const now = T.callOf[Math.min(p, T.n)];
      let shownNow = now;
      if (!phrases) while (shownNow >= 0 && D.defs[D.calls[C.call[shownNow]][0]][2] === 1) shownNow = C.parent[shownNow];
      const kidsOf = c => phrases ? (c < 0 ? C.rootKids : C.kids[c]) : (c < 0 ? C.rootShown : C.shown[c]);
      function node(c) {
        const all = kidsOf(c), count = below(all, started);
        const isOpen = c < 0 || (path.has(c) ? !shut.has(c) : open.has(c));
        const done = c >= 0 && C.end[c] < p;
        let ret = "";
        if (done && C.end[c] < T.n) { const v = ev[off[C.end[c]] + 3]; if (v >= 0) ret = ` <span class="ret">= ${esc(S[v])}</span>`; }
        let html = `<li data-inst="${c}" class="${path.has(c) || c < 0 ? "path" : ""}${c === shownNow ? " now" : ""}${done ? " done" : ""}">`;
        html += count ? `<button class="fold" data-fold="${c}" aria-expanded="${isOpen}" title="${isOpen ? "свернуть" : "раскрыть"}">${isOpen ? "▾" : "▸"}</button>` : `<span class="fold"></span>`;
        html += `<button class="node" data-go="${c}" title="перейти к началу вызова">${esc(c < 0 ? "основная программа" : callText(c))}</button>${ret}`;
        if (count && isOpen) {
          const limit = more.get(c) || KIDS, from = Math.max(0, count - limit);
          html += "<ul>";
          if (from > 0) html += `<li><button class="more" data-more="${c}">… ещё ${spaced(from)} ${plural(from, "вызов", "вызова", "вызовов")} раньше</button></li>`;
          for (let k = from; k < count; k++) html += node(all[k]);
          html += "</ul>";
        }
        return html + "</li>";
      }
      el("tree").innerHTML = `<ul class="calls">${node(-1)}</ul>`;
      const here = el("tree").querySelector("li.now > .node");
      if (here) reveal(el("tree"), here);
    }

    // ---- the whole page at a position ----

    // A control of the stack or of the call tree is drawn anew at each move: the keyboard's focus on
    // it goes to its new self (or, gone, to the current call), not to the start of the document.
    function focused() {  // [the focused button, its key, the key's value], if it is one of those
      const a = document.activeElement, key = a && a.tagName === "BUTTON" && root.contains(a) &&
        ["inst", "go", "fold", "more"].find(k => a.dataset[k] !== undefined);
      return key ? [a, key, a.dataset[key]] : null;
    }
    function refocus(was) {
      if (!was || root.contains(was[0])) return;
      const again = root.querySelector(`button[data-${was[1]}="${was[2]}"]`) ||
        (was[1] === "inst" ? el("stack").querySelector(".sel") : el("tree").querySelector("li.now > .node"));
      if (again) again.focus({preventScroll: true});
    }
    function redrawTree() { const was = focused(); renderTree(stops[pos]); refocus(was); }

    function render(keep) {  // keep: mark what changed since the position shown before, not only the last statement
      const was = focused();
      const p = stops[pos];
      slider.value = pos;
      el("pos").textContent = spaced(pos + 1);
      const what = el("what");
      what.className = "what";
      if (p < T.n) {
        const pl = place(p);
        showSource(pl[0]);
        markLine(pl[0], pl[1], pl[2], pl[3]);
        what.textContent = `строка ${pl[1]}` + (depthOf(p) ? ` · глубина ${depthOf(p)}` : "") + `: ${stepText(p, pl)}`;
      } else {
        const e = D.end;
        if (e.outcome === "error") {
          showSource(e.file);
          markLine(e.file, e.line, e.column, e.end_column || e.column + 1);
          what.textContent = `ошибка выполнения в строке ${e.line}: ${e.message}`;
          what.classList.add("error");
        } else if (e.outcome === "trace-limit" && T.n > 0 && place(T.n - 1)[1] > 0) {  // where the program was stopped
          const pl = place(T.n - 1);
          showSource(pl[0]);
          markLine(pl[0], pl[1], pl[2], pl[3]);
          what.textContent = `трассировка остановлена после ${spaced(e.limit)} событий, на строке ${pl[1]}`;
          what.classList.add("end");
        } else {
          if (marked) markLine(shownFile, 0, 0, 0);
          what.textContent = e.outcome === "trace-limit" ?
            `трассировка остановлена после ${spaced(e.limit)} событий` : "конец программы";
          what.classList.add("end");
        }
      }
      const from = keep && p > shownAt && p - shownAt <= SPAN ? shownAt : pos > 0 ? stops[pos - 1] : 0;
      const changed = changes(from, p);
      renderFrames(p, changed);
      renderArrays(p, changed);
      renderState(p);
      renderTree(p);
      const start = T.outLen[Math.min(from, p)], end = T.outLen[Math.min(p, T.n)];
      el("output").innerHTML = esc(T.output.slice(0, start)) + (end > start ? `<span class="new">${esc(T.output.slice(start, end))}</span>` : "");
      const box = el("output-scroll");
      box.scrollTop = box.scrollHeight;
      inView();  // once every panel is drawn: the source's own box has its height
      refocus(was);
      shownAt = p;
      clearTimeout(handoutTimer);
      handoutTimer = setTimeout(renderHandout, 300);  // once the moves stop: a handout when printed
    }

    // ---- the handout: what printing the page gives ----

    const HANDOUT = 200;  // steps in its table at most: the last ones (four printed pages)
    let handoutTimer = 0;
    function effects(q) {  // what the step at stop q did: its assignments and calls, and what it printed
      const parts = [];
      let printed = "";
      for (let i = stops[q] + 1; i < stops[q + 1]; i++) {
        const o = off[i], kind = ev[o];
        if (kind === ASSIGN) parts.push(`${S[ev[o + 3]]}${ev[o + 4] >= 0 ? `[${S[ev[o + 4]]}]` : ""} := ${S[ev[o + 5]]}`);
        else if (kind === CALL) parts.push("→ " + callText(below(C.start, i)));
        else if (kind === OUTPUT) printed += S[ev[o + 3]];
      }
      return [parts.join("; "), printed.replace(/\n/g, "⏎")];
    }
    function renderHandout() {
      const from = Math.max(0, pos - HANDOUT + 1);
      let html = `<h2>${esc(D.title)}: шаги ${spaced(from + 1)}–${spaced(pos + 1)} из ${spaced(stops.length)}</h2>` +
        (from ? `<p>показаны последние ${HANDOUT} шагов</p>` : "") +
        `<table class="steps"><tr><th>шаг</th><th>строка</th><th>глуб.</th><th>инструкция</th><th>что сделала</th><th>вывод</th></tr>`;
      for (let q = from; q <= pos; q++) {
        const i = stops[q];
        if (i >= T.n) { html += `<tr><td>${q + 1}</td><td colspan="5">${esc(el("what").textContent)}</td></tr>`; break; }
        const pl = place(i), [did, printed] = q < pos ? effects(q) : ["(следующая)", ""];
        html += `<tr${q === pos ? ' class="cur"' : ""}><td>${q + 1}</td><td>${pl[1]}</td><td>${depthOf(i)}</td>` +
          `<td>${esc(stepText(i, pl))}</td><td>${esc(did)}</td><td>${esc(printed)}</td></tr>`;
      }
      el("handout").innerHTML = html + "</table>";
    }

    function say(text) { el("status").textContent = text || ""; }
    function go(q, message, keep) {
      pos = Math.max(0, Math.min(END, q));
      say(message);
      render(keep);
      return pos;
    }
    const jump = q => go(q, "", true);
    function find(from, test) {  // the first stop after `from` that passes `test`, or -1
      for (let q = from + 1; q <= END; q++) if (test(q)) return q;
      return -1;
    }
    function firstStopAfter(i) { return below(stops, i + 1); }

    const moves = {
      first: () => go(0),
      last: () => go(END),
      back: () => pos > 0 ? go(pos - 1) : say("это первая инструкция"),
      into: () => pos < END ? go(pos + 1) : say("программа закончилась"),
      over() {
        if (pos >= END) return say("программа закончилась");
        const d = T.stopDepth[pos];
        jump(find(pos, q => q === END || T.stopDepth[q] <= d));
      },
      out() {
        if (pos >= END) return say("программа закончилась");
        const d = T.stopDepth[pos];
        if (d === 0) return say("это основная программа: выходить некуда");
        jump(find(pos, q => q === END || T.stopDepth[q] < d));
      },
      output() {
        const k = below(T.outputs, stops[pos]);
        if (k >= T.outputs.length) return say("программа больше ничего не выводит");
        jump(firstStopAfter(T.outputs[k]));
      },
      play() { playing ? stop() : start(); },
      big() { root.classList.toggle("big"); root.querySelector('[data-act="big"]').classList.toggle("on"); render(); },
    };

    function goTo(text) {
      text = text.trim();
      if (!text) return say("напишите номер строки, имя состояния или процедуры");
      if (/^\d+$/.test(text)) {
        const line = Number(text), f = shownFile < 0 ? 0 : shownFile, count = D.sources[f].length;
        if (line < 1 || line > count)
          return say(`в файле ${D.files[f]} нет строки ${line}: в нём ${count} ${plural(count, "строка", "строки", "строк")}`);
        const q = find(pos, q => q < END && place(stops[q])[0] === f && place(stops[q])[1] === line);
        if (q >= 0) return jump(q);
        const ever = stops.some((s, k) => k < END && place(s)[0] === f && place(s)[1] === line);
        return say(ever ? `строка ${line} больше не выполняется` : `строка ${line} не выполняется ни разу`);
      }
      const sid = S.indexOf(text);
      const isState = sid >= 0 && [...T.stateNames.values()].some(names => names.includes(sid));
      if (isState) {
        for (let i = stops[pos] + 1; i < T.n; i++)
          if (ev[off[i]] === STATE && ev[off[i] + 4] === sid) return jump(firstStopAfter(i));
        return say(`в состояние ${text} программа больше не входит`);
      }
      const spelling = t => t.replace(/[«»()…,]/g, " ").split(/\s+/).filter(Boolean).join(" ");
      const typed = spelling(text);
      const defs = D.defs.map((d, k) => [k, d]).filter(([, d]) => spelling(S[d[0]]) === typed ||
        spelling(S[d[3]]) === typed).map(([k]) => k);
      if (defs.length) {
        for (let c = below(C.start, stops[pos] + 1); c < C.start.length; c++)
          if (defs.includes(D.calls[C.call[c]][0])) return jump(firstStopAfter(C.start[c]));
        const d = D.defs[defs[0]];
        return say(`${d[2] ? "фраза" : "процедура"} ${S[d[0]]} больше не вызывается`);
      }
      say(`«${text}» — не номер строки, не состояние автомата и не процедура`);
    }

    // ---- playing ----

    function speed() { return SPEEDS[Number(ctl("speed").value)]; }
    function start() {
      if (pos >= END) go(0);
      const button = root.querySelector('[data-act="play"]');
      button.textContent = "❚❚ пауза"; button.classList.add("on");
      let before = performance.now(), owed = 0;
      const tick = now => {
        if (!playing) return;
        owed += (now - before) * speed() / 1000; before = now;
        if (owed >= 1) {
          const k = Math.floor(owed); owed -= k;
          jump(pos + k);
          if (pos >= END) return stop();
        }
        playing = requestAnimationFrame(tick);
      };
      playing = requestAnimationFrame(tick);
    }
    function stop() {
      if (playing) cancelAnimationFrame(playing);
      playing = null;
      const button = root.querySelector('[data-act="play"]');
      button.textContent = "▶ пуск"; button.classList.remove("on");
    }

    // ---- wiring ----

    root.addEventListener("click", ev => {
      const t = ev.target.closest("[data-act],[data-line],[data-inst],[data-fold],[data-go],[data-more]");
      if (!t || !root.contains(t)) return;
      if (t.dataset.act) { if (t.dataset.act !== "play") stop(); moves[t.dataset.act](); return; }
      stop();
      if (t.dataset.line && t.classList.contains("no")) return goTo(t.dataset.line);
      if (t.dataset.fold !== undefined) {
        const c = Number(t.dataset.fold), onPath = t.closest("li").classList.contains("path");
        if (onPath) shut.has(c) ? shut.delete(c) : shut.add(c); else open.has(c) ? open.delete(c) : open.add(c);
        return redrawTree();
      }
      if (t.dataset.more !== undefined) {
        const c = Number(t.dataset.more);
        more.set(c, (more.get(c) || KIDS) + 50);
        return redrawTree();
      }
      if (t.dataset.go !== undefined) {
        const c = Number(t.dataset.go);
        return c < 0 ? go(0) : go(firstStopAfter(C.start[c]));
      }
      if (t.dataset.inst !== undefined) { selected = Number(t.dataset.inst); render(); }
    });
    ctl("goto").addEventListener("submit", e => { e.preventDefault(); stop(); goTo(ctl("target").value); });
    slider.addEventListener("input", () => { stop(); go(Number(slider.value)); });
    ctl("speed").addEventListener("input", () => { el("speed").textContent = `${speed()}/с`; });
    ctl("phrases").addEventListener("change", redrawTree);
    ctl("cards").addEventListener("change", () => render());
    window.addEventListener("beforeprint", renderHandout);
    el("speed").textContent = `${speed()}/с`;
    const keys = {ArrowRight: "into", ArrowLeft: "back", ArrowDown: "over", ArrowUp: "out", Home: "first", End: "last",
                  " ": "play"};
    document.addEventListener("keydown", e => {
      if (!root.isConnected || e.altKey || e.ctrlKey || e.metaKey) return;
      const t = e.target;
      if (e.key === "Escape" && t === ctl("target")) return t.blur();  // the keys move through the trace again
      if (t && (t.tagName === "TEXTAREA" || (t.tagName === "INPUT" && t.type === "text"))) return;
      // a focused control keeps its keys: the space presses a button or ticks a box, the arrows move a slider
      if (t && (e.key === " " ? t.tagName === "BUTTON" || t.type === "checkbox" : t.type === "range")) return;
      const act = keys[e.key];
      if (!act) return;
      e.preventDefault();
      if (act !== "play") stop();
      moves[act]();
    });
    render();
    return {
      go: q => go(q), position: () => pos, stops: () => stops.length, goTo, play: start, pause: stop,
      playing: () => playing !== null, move: name => moves[name](), model: T,
    };
  }

  return {show, prepare};
})();
