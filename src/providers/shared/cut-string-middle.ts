/**
 * Cutting the middle out of a JSON string literal in place (pure). Sizes count the bytes of the
 * literal's content as written in the body (between the quotes, escapes counted as written), so
 * "head_bytes" is exactly what stays on the wire. A cut lands only on a token boundary: never
 * inside a multi-byte UTF-8 character, never inside an escape (`\n`, `\u00e9`), and never
 * between the two `\uXXXX` escapes of a surrogate pair (which would leave a lone surrogate).
 */
import type { ByteRange } from "../../core/view/types";
import type { JsonNode } from "./json-scan";


/** Length in bytes of the token starting at `i` of `raw` (an escape, a UTF-8 character or a byte). */
function tokenLength(raw: Uint8Array, i: number): number {
  const c = raw[i]!;
  if (c === 0x5c) {
    if (raw[i + 1] !== 0x75) return 2;
    const code = parseInt(String.fromCharCode(raw[i + 2]!, raw[i + 3]!, raw[i + 4]!, raw[i + 5]!), 16);
    if (code >= 0xd800 && code <= 0xdbff && raw[i + 6] === 0x5c && raw[i + 7] === 0x75) {
      const low = parseInt(String.fromCharCode(raw[i + 8]!, raw[i + 9]!, raw[i + 10]!, raw[i + 11]!), 16);
      if (low >= 0xdc00 && low <= 0xdfff) return 12;
    }
    return 6;
  }
  if (c >= 0xf0) return 4;
  if (c >= 0xe0) return 3;
  if (c >= 0xc0) return 2;
  return 1;
}

/** Content length of a string literal node, in bytes (quotes excluded). */
export function literalContentBytes(node: JsonNode): number {
  return node.end - node.start - 2;
}

/**
 * The deletion that keeps a head of at most `headBytes` and a tail of at most `tailBytes` of the
 * string literal `node`, both rounded inwards to token boundaries. Returns null when nothing
 * would be removed. When both kept parts would be empty, the first token is kept, unless
 * `allowEmpty` (then the whole content may go, leaving `""`).
 */
export function cutStringMiddle(bytes: Uint8Array, node: JsonNode, headBytes: number, tailBytes = 0, allowEmpty = false): ByteRange | null {
  if (node.type !== "string") throw new TypeError(`expected a string node, got ${node.type}`);
  const from = node.start + 1;
  const raw = bytes.subarray(from, node.end - 1);
  const len = raw.length;
  const head = Math.max(0, Math.floor(headBytes));
  const tail = Math.max(0, Math.floor(tailBytes));
  if (head + tail >= len) return null;
  // 1. Walk tokens once: last boundary <= head, first boundary >= len - tail.
  let headCut = 0;
  let tailCut = len;
  const tailStart = len - tail;
  let i = 0;
  while (i < len) {
    const next = i + tokenLength(raw, i);
    if (next <= head) headCut = next;
    if (i >= tailStart) {
      tailCut = i;
      break;
    }
    i = next;
  }
  // 2. Never leave the literal empty unless allowed.
  if (!allowEmpty && headCut === 0 && tailCut === len && len > 0) headCut = tokenLength(raw, 0);
  if (tailCut <= headCut) return null;
  return { start: from + headCut, end: from + tailCut };
}
