/**
 * Safe cut points inside a JSON string literal (pure). A cut may only fall between two whole
 * *units* of the literal's raw bytes, where a unit is one UTF-8 encoded character (1–4 bytes), one
 * escape (`\n`, `\"`, `\uXXXX`) or one escaped surrogate pair (`\uD83D\uDE00`, 12 bytes). So a
 * shortened literal never holds half a character, half an escape or a lone surrogate
 * (the splice rule: "cutting only on whole-character boundaries and never inside a JSON escape").
 */
import type { JsonNode } from "./json-scan";

type StringNode = Extract<JsonNode, { type: "string" }>;

/** Byte length of the unit starting at `p` (assumes valid JSON, as produced by scanJson). */
export function unitLength(bytes: Uint8Array, p: number): number {
  const c = bytes[p]!;
  if (c === 0x5c) {
    if (bytes[p + 1] !== 0x75) return 2;
    const cp = hex4(bytes, p + 2);
    // High surrogate followed by an escaped low surrogate: one unit of 12 bytes.
    if (cp >= 0xd800 && cp <= 0xdbff && bytes[p + 6] === 0x5c && bytes[p + 7] === 0x75) {
      const lo = hex4(bytes, p + 8);
      if (lo >= 0xdc00 && lo <= 0xdfff) return 12;
    }
    return 6;
  }
  if (c < 0x80) return 1;
  if (c >= 0xf0) return 4;
  if (c >= 0xe0) return 3;
  return 2;
}

function hex4(bytes: Uint8Array, p: number): number {
  let v = 0;
  for (let k = 0; k < 4; k++) {
    const h = bytes[p + k]!;
    v = v * 16 + (h <= 0x39 ? h - 0x30 : (h | 0x20) - 0x57);
  }
  return v;
}

/**
 * The largest unit boundary `b` with `b <= target`, walking from the literal's start. `target` is an
 * absolute offset; result is clamped to the literal's content range.
 */
export function boundaryAtOrBefore(bytes: Uint8Array, node: StringNode, target: number): number {
  const end = node.end - 1;
  let p = node.start + 1;
  if (target >= end) return end;
  for (;;) {
    const next = p + unitLength(bytes, p);
    if (next > target) return p;
    p = next;
  }
}

/** Whether the unit at `p` is whitespace (space, or the escapes \n \r \t, or raw tab). */
export function isWhitespaceUnit(bytes: Uint8Array, p: number): boolean {
  const c = bytes[p]!;
  if (c === 0x20 || c === 0x09) return true;
  if (c !== 0x5c) return false;
  const e = bytes[p + 1];
  return e === 0x6e || e === 0x72 || e === 0x74;
}

/** The smallest unit boundary `b` with `b >= target` (absolute offsets), clamped to the literal's content range. */
export function boundaryAtOrAfter(bytes: Uint8Array, node: StringNode, target: number): number {
  const end = node.end - 1;
  let p = node.start + 1;
  while (p < target && p < end) p += unitLength(bytes, p);
  return Math.min(p, end);
}
