// A task opened from a link (`pseudo site link ЗАДАЧА`, #task=…): its statement beside the
// editor, and «Проверить», which the page runs in the worker with `pseudo test`'s own code
// (pseudo/site/task.py): one line per visible test, passed or not, and under a failure what
// `pseudo test` shows of it. The data is what a pupil may see (tasks.for_pupils): title,
// statement (Markdown), compare, max_steps, time_limit and the visible tests.
import { drawMessage } from "./console.js";

export class TaskPane {
  constructor(element) {
    this.element = element;
    this.title = element.querySelector(".task-title");
    this.statement = element.querySelector(".statement");
    this.results = element.querySelector(".results");
    this.summary = element.querySelector(".summary");
    this.data = null;
  }

  get open() { return this.data !== null; }

  show(data) {
    this.data = data;
    this.title.textContent = data.title || "Задача";
    const statement = data.statement || "";  // its heading is the pane's title
    const heading = "# " + (data.title || "") + "\n";
    this.statement.replaceChildren(markdown(statement.startsWith(heading) ? statement.slice(heading.length) : statement));
    this.statement.scrollTop = 0;
    this.clear();
    this.element.hidden = false;
    document.body.classList.add("task-mode");
  }

  hide() {
    this.data = null;
    this.element.hidden = true;
    document.body.classList.remove("task-mode");
  }

  clear() {
    this.results.replaceChildren();
    this.results.hidden = true;
    this.summary.className = "summary";
    this.summary.textContent = `открытых тестов: ${this.data.tests.length} — «Проверить» выполнит на них программу из редактора`;
  }

  // one test's result: {test, status: passed | failed | error | limit, lines}
  add(found) {
    const item = this.results.appendChild(document.createElement("li"));
    item.className = found.status;
    item.dataset.test = found.test;
    const [first, ...rest] = found.lines;
    item.appendChild(document.createElement("strong")).textContent = first.trim();
    if (rest.length) item.appendChild(drawMessage(rest.map((l) => l.replace(/^ {8}/, "")).join("\n")));
    this.results.hidden = false;
  }

  done(result) {
    if (result.error !== undefined) this.summary.textContent = "программа не выполнялась: она с ошибкой (ниже)";
    else if (result.stopped) this.summary.textContent = `проверка прервана кнопкой «Стоп»: пройдено ${result.passed} из ${result.tests}`;
    else if (result.tests !== undefined) {
      this.summary.textContent = `пройдено ${result.passed} из ${result.tests}` + (result.passed === result.tests ? " ✓" : "");
    } else this.summary.textContent = "проверка прервана";
    this.summary.className = "summary " + (result.tests && result.passed === result.tests ? "passed" : "failed");
    const failed = this.results.querySelector("li:not(.passed)");  // the first failure in sight
    this.results.scrollTop = failed ? failed.offsetTop - this.results.offsetTop : 0;
  }
}

// The statement: Markdown's headings, paragraphs, lists, code blocks, `code` and **bold** —
// built as elements from text, never as HTML.
function markdown(text) {
  const root = document.createDocumentFragment();
  const lines = text.replace(/\r\n?/g, "\n").split("\n");
  let block = null, list = null;
  const end = () => { block = null; list = null; };
  for (let k = 0; k < lines.length; k++) {
    const line = lines[k];
    if (/^```/.test(line)) {
      end();
      const code = [];
      while (++k < lines.length && !/^```/.test(lines[k])) code.push(lines[k]);
      root.appendChild(document.createElement("pre")).textContent = code.join("\n");
    } else if (/^#{1,6}\s/.test(line)) {
      end();
      inline(root.appendChild(document.createElement(line.startsWith("# ") ? "h3" : "h4")), line.replace(/^#+\s*/, ""));
    } else if (/^\s*([-*]|\d+[.)])\s/.test(line)) {
      const ordered = /^\s*\d/.test(line);
      if (!list || list.ordered !== ordered) {
        end();
        list = root.appendChild(document.createElement(ordered ? "ol" : "ul"));
        list.ordered = ordered;
      }
      block = inline(list.appendChild(document.createElement("li")), line.replace(/^\s*([-*]|\d+[.)])\s+/, ""));
    } else if (!line.trim()) end();
    else if (block) inline(block, " " + line.trim());
    else block = inline(root.appendChild(document.createElement("p")), line.trim());
  }
  return root;
}

function inline(element, text) {
  for (const part of text.split(/(`[^`]+`|\*\*[^*]+\*\*)/)) {
    if (part.startsWith("`") && part.length > 1) element.appendChild(document.createElement("code")).textContent = part.slice(1, -1);
    else if (part.startsWith("**") && part.length > 3) element.appendChild(document.createElement("strong")).textContent = part.slice(2, -2);
    else if (part) element.appendChild(document.createTextNode(part));
  }
  return element;
}
