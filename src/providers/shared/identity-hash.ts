/**
 * identity_hash of a JSON message/item object (pure): a 64-bit hash of its role and of the raw
 * bytes of every member not excluded (from the key's opening quote to the end of the value), in
 * body order, fed chunk by chunk (no copy). Raw bytes, so any change inside a kept member (a
 * character, an escape, a number form) changes the hash, while removing an excluded member, or
 * the commas/whitespace between members, does not. Lanes and mixing as src/core/hash.ts.
 */
import type { JsonNode } from "./json-scan";

import { Hasher } from "../../core/hash";

/** Bytes `identityHash` feeds for `node` (the included members, key to value end): its cost. */
export function identityBytes(node: Extract<JsonNode, { type: "object" }>, exclude: ReadonlySet<string>): number {
  let n = 0;
  for (const e of node.entries) if (e.key !== "role" && !exclude.has(e.key)) n += e.value.end - e.keyStart;
  return n;
}

/** Hex hash of `role` and every member of `node` whose key is not in `exclude` (the `role` member itself is skipped). */
export function identityHash(bytes: Uint8Array, role: string, node: Extract<JsonNode, { type: "object" }>, exclude: ReadonlySet<string>): string {
  const h = new Hasher().feedText(role);
  for (const e of node.entries) {
    if (e.key === "role" || exclude.has(e.key)) continue;
    h.feedByte(0x01).feed(bytes, e.keyStart, e.value.end);
  }
  return h.digest();
}
