/**
 * Mention keys (pure): short hashes of what an agent's prose names — file paths and backticked
 * spans — and of what a tool call refers to (its file paths, its shell command), so the step
 * facts can say "a later assistant message names this call's file or command" without carrying
 * any text (DESIGN §1, invariant 7). Both sides hash the same normal form, so equal keys mean the
 * same token (up to a 2^-32 collision, which only ever keeps a pair).
 *
 * Tokens of a prose text:
 * - every backticked span (`…`, one line, ≤ MAX_TOKEN_CHARS), trimmed: identifiers, commands,
 *   paths as agents quote them;
 * - every bare path-like word: a run of letters, digits, `_ . / ~ -` with an inner `.` or `/`
 *   that ends in a letter or digit (`src/app.ts`, `styles.css`, `/home/u/x.py`);
 * each normalised as a path (./ and doubled slashes removed: ../engine/read-tool-call.ts
 * normalisePath), and a token with a `/` also adds its last segment, so `src/a.ts` in prose
 * meets a call on `/home/u/proj/src/a.ts` through `a.ts`.
 */
import { hashText } from "../hash";
import { normalisePath, type ToolCallInfo } from "../engine/read-tool-call";

/** Hex characters of a key (32 bits: collisions only make a pair stay). */
export const MENTION_KEY_CHARS = 8;
/** Longest token kept, UTF-16 units (a longer backticked span is code, not a name). */
export const MAX_TOKEN_CHARS = 200;
/** Most keys one message contributes (the first ones in text order): bounds the facts per message. */
export const MAX_KEYS_PER_MESSAGE = 64;

const BACKTICKED = /`([^`\n]{1,200})`/g;
const PATH_LIKE = /[\w~.\/-]*[\w~-][.\/][\w.\/-]*[A-Za-z0-9]/g;

/** The key of one token. */
export function mentionKey(token: string): string {
  return hashText(token).slice(0, MENTION_KEY_CHARS);
}

/** Keys of a file path: the normalised path and, when it has a directory part, its last segment. */
export function pathKeys(path: string): string[] {
  const p = normalisePath(path).replace(/\/+$/, "");
  const slash = p.lastIndexOf("/");
  if (slash < 0 || slash === p.length - 1) return [mentionKey(p)];
  return [mentionKey(p), mentionKey(p.slice(slash + 1))];
}

/** Keys of the tokens a prose text names (unique, in first-seen order, at most MAX_KEYS_PER_MESSAGE). */
export function proseMentionKeys(prose: string): string[] {
  const out = new Set<string>();
  const add = (token: string): void => {
    const t = token.trim();
    if (t.length === 0 || t.length > MAX_TOKEN_CHARS || out.size >= MAX_KEYS_PER_MESSAGE) return;
    if (t.includes("/")) for (const k of pathKeys(t)) out.add(k);
    else out.add(mentionKey(normalisePath(t)));
  };
  for (const m of prose.matchAll(BACKTICKED)) add(m[1]!);
  for (const m of prose.matchAll(PATH_LIKE)) add(m[0]);
  return [...out].slice(0, MAX_KEYS_PER_MESSAGE);
}

/** Mention keys of what a classified call names: each path's pathKeys, and a shell command's own text (a patch's text is not a name). */
export function callMentionKeys(info: ToolCallInfo): string[] {
  const out = new Set<string>();
  if (info.kind !== "other") for (const p of info.paths) for (const k of pathKeys(p)) out.add(k);
  if (info.intent.startsWith("sh:") && info.kind !== "edit") out.add(mentionKey(normalisePath(info.intent.slice(3))));
  return [...out];
}
