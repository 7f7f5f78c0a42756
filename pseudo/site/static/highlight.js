// The book's token rules in the browser: tokens.js is written by `pseudo site build` from
// pseudo/tools/highlight.py TOKEN_RULES, and tokens() cuts a text as that module's tokens()
// does — at each place the first rule that matches wins, every character lands in exactly one
// piece, runs of whitespace and of plain text are joined.
import { RULES } from "./tokens.js";

const PATTERN = new RegExp(RULES.map(([source]) => `(${source})`).join("|"), "uy");
export const KINDS = RULES.map(([, kind]) => kind);

// [[kind, from, to], …] over the whole text
export function tokens(text) {
  const out = [];
  let pos = 0;
  while (pos < text.length) {
    PATTERN.lastIndex = pos;
    const m = PATTERN.exec(text);  // never null: the last rule takes any character
    let rule = 1;
    while (m[rule] === undefined) rule++;
    const kind = KINDS[rule - 1], end = pos + m[0].length;
    const last = out[out.length - 1];
    if (last && last[0] === kind && (kind === "whitespace" || kind === "text")) last[2] = end;
    else out.push([kind, pos, end]);
    pos = end;
  }
  return out;
}
