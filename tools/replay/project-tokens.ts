/**
 * The tokens of a text that could only have come from the project an agent works on (pure), for
 * the used-after-removal measure (./used-after-removal.ts; definition in docs/replay.md). A token
 * is one of:
 * - a path with a line number: `src/app.js:42` (a file name with an extension, then `:` and
 *   digits; a column after it is left out). Its file name alone with the line (`app.js:42`) is a
 *   token too, so an answer that shortens the path still matches the request's long form;
 * - an identifier shaped like code: at least 4 characters of `[A-Za-z0-9_]` holding a letter,
 *   and a camelCase hump (`evaluateBoard`: a lower-case letter then an upper-case one), an
 *   acronym before a word (`HTTPServer`: two capitals then two lower-case letters) or an
 *   underscore between letters or digits (`king_offsets`, `MAX_DEPTH`);
 * - a long number: 5 digits or more (`1700000000`);
 * - a hash: 7 hex digits or more, all lower-case or all upper-case, with a digit and a letter
 *   (`b8d8edf`, the parts of a UUID of 8 or 12 digits);
 * - a code: 5 letters and digits or more with both (`ZFA04Y`, `HAT136`).
 * Plain words (`board`, `King`), short numbers and paths without a line are not tokens: they
 * are the language every session shares. Words split at any character outside `[A-Za-z0-9_]`
 * (`this.kingOffsets` holds `kingOffsets`); a word right after a backslash loses its escape
 * letters (a quoted `\nEach` is `Each`). Whether a token is common vocabulary across the
 * sessions is ./common-vocabulary.ts's question, not this module's.
 *
 * Texts come from JSON values (`jsonTexts`): every string value, except the values of keys that
 * hold opaque data rather than text (ids, signatures, encrypted reasoning); a string that is
 * itself a JSON object or array (a tool call's `arguments`) is read as the value it encodes, so
 * its escapes (`\n` before a name) never glue onto a word.
 */
import type { Json } from "./types";

/** Keys whose string values are opaque (ids, signatures, encrypted content), never text the agent reads or writes. */
export const OPAQUE_KEYS: ReadonlySet<string> = new Set(["id", "call_id", "tool_use_id", "tool_call_id", "signature", "encrypted_content", "data", "type", "role", "status"]);

/** `:` and a line number; the path before it is found by scanning back (a regex with the path in front backtracks quadratically on long runs of path characters). */
const COLON_LINE = /:(\d+)/g;
const PATH_CHAR = /[A-Za-z0-9_.~\/-]/;
/** A file name with an extension (a path's last part). */
const FILE_NAME = /^[A-Za-z0-9_-][A-Za-z0-9_.-]*\.[A-Za-z][A-Za-z0-9]*$/;
const WORD = /[A-Za-z0-9_]+/g;

/** True when `word` (a run of `[A-Za-z0-9_]`) has the shape of a project-specific token (see the module header). */
export function isTokenShaped(word: string): boolean {
  if (/^\d+$/.test(word)) return word.length >= 5;
  const letter = /[A-Za-z]/.test(word);
  const digit = /\d/.test(word);
  if (word.length >= 7 && letter && digit && (/^[0-9a-f]+$/.test(word) || /^[0-9A-F]+$/.test(word))) return true;
  if (word.length >= 5 && letter && digit && /^[A-Za-z0-9]+$/.test(word)) return true;
  return word.length >= 4 && letter && (/[a-z][A-Z]/.test(word) || /[A-Z]{2}[a-z]{2}/.test(word) || /[A-Za-z0-9]_[A-Za-z0-9]/.test(word));
}

/** The project-specific tokens of `text`, each once, in order of first appearance. */
export function projectTokens(text: string): string[] {
  const out = new Set<string>();
  for (const m of text.matchAll(COLON_LINE)) {
    let start = m.index;
    while (start > 0 && PATH_CHAR.test(text[start - 1]!)) start--;
    const path = text.slice(start, m.index).replace(/^(?:\.?\/)+/, "");
    const file = path.slice(path.lastIndexOf("/") + 1);
    if (!FILE_NAME.test(file)) continue;
    // A path of one name is its own file name: `app.js:42` once.
    out.add(`${path}:${m[1]}`);
    out.add(`${file}:${m[1]}`);
  }
  for (const m of text.matchAll(WORD)) {
    const word = m.index > 0 && text[m.index - 1] === "\\" ? unescaped(m[0]) : m[0];
    if (isTokenShaped(word)) out.add(word);
  }
  return [...out];
}

/**
 * A word that follows a backslash without its escape letters: a text that quotes code or JSON
 * holds `\nEach` or `\u001b[0m` as characters, and the word is `Each`, not `nEach`.
 */
function unescaped(word: string): string {
  if (/^u[0-9a-fA-F]{4}/.test(word)) return word.slice(5);
  return /^[nrtbfv0]/.test(word) ? word.slice(1) : word;
}

/** Every text inside a JSON value, in document order (see the module header for what is left out and what is decoded). */
export function jsonTexts(value: Json | undefined, out: string[] = []): string[] {
  if (typeof value === "string") {
    const decoded = decodeJsonText(value);
    if (decoded === undefined) out.push(value);
    else jsonTexts(decoded, out);
  } else if (Array.isArray(value)) {
    for (const v of value) jsonTexts(v, out);
  } else if (typeof value === "object" && value !== null) {
    for (const [k, v] of Object.entries(value)) if (!(OPAQUE_KEYS.has(k) && typeof v === "string")) jsonTexts(v, out);
  }
  return out;
}

/** The JSON object or array a string encodes, or undefined when it encodes none. */
function decodeJsonText(s: string): Json | undefined {
  const t = s.trimStart();
  if (!t.startsWith("{") && !t.startsWith("[")) return undefined;
  try {
    const v = JSON.parse(s) as Json;
    return typeof v === "object" && v !== null ? v : undefined;
  } catch {
    return undefined;
  }
}

/** The project-specific tokens of a JSON value (every text in it). */
export function jsonTokens(value: Json | undefined): Set<string> {
  const out = new Set<string>();
  for (const text of jsonTexts(value)) for (const t of projectTokens(text)) out.add(t);
  return out;
}
