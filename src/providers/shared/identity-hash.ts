/**
 * identity_hash of a JSON message/item object (pure): a 64-bit hash of its role and of the raw
 * bytes of every member not excluded (from the key's opening quote to the end of the value), in
 * body order, fed chunk by chunk (no copy). Raw bytes, so any change inside a kept member (a
 * character, an escape, a number form) changes the hash, while removing an excluded member, or
 * the commas/whitespace between members, does not. Lanes and mixing as src/core/hash.ts.
 */
import type { JsonNode } from "./json-scan";

const encoder = new TextEncoder();

/** Hex hash of `role` and every member of `node` whose key is not in `exclude` (the `role` member itself is skipped). */
export function identityHash(bytes: Uint8Array, role: string, node: Extract<JsonNode, { type: "object" }>, exclude: ReadonlySet<string>): string {
  let h1 = 0x811c9dc5 | 0;
  let h2 = 0x9747b28c | 0;
  let len = 0;
  const feed = (b: Uint8Array, start: number, end: number) => {
    for (let i = start; i < end; i++) {
      const c = b[i]!;
      h1 = Math.imul(h1 ^ c, 0x01000193);
      h2 = Math.imul(h2 ^ c, 0x5bd1e995);
    }
    len += end - start;
  };
  const r = encoder.encode(role);
  feed(r, 0, r.length);
  for (const e of node.entries) {
    if (e.key === "role" || exclude.has(e.key)) continue;
    feed(SEPARATOR, 0, 1);
    feed(bytes, e.keyStart, e.value.end);
  }
  return fmix(h1 ^ len).toString(16).padStart(8, "0") + fmix(h2 ^ len).toString(16).padStart(8, "0");
}

const SEPARATOR = new Uint8Array([0x01]);

function fmix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}
