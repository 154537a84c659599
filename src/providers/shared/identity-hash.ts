/**
 * identity_hash of a JSON message/item object (pure): hash (src/core/hash.ts) of its role and of
 * every member not excluded, each as 0x01, key, 0x00, raw value bytes, in body order. Raw bytes,
 * so any change inside a kept member (a character, an escape, a number form) changes the hash,
 * while removing an excluded member, or commas/whitespace between members, does not.
 */
import { hashBytes } from "../../core/hash";
import type { JsonNode } from "./json-scan";

const encoder = new TextEncoder();

/** Hash of `role` and every member of `node` whose key is not in `exclude` (the `role` member itself is skipped). */
export function identityHash(bytes: Uint8Array, role: string, node: Extract<JsonNode, { type: "object" }>, exclude: ReadonlySet<string>): string {
  const chunks: Uint8Array[] = [encoder.encode(role)];
  for (const e of node.entries) {
    if (exclude.has(e.key) || e.key === "role") continue;
    chunks.push(encoder.encode(`\u0001${e.key}\u0000`), bytes.subarray(e.value.start, e.value.end));
  }
  let len = 0;
  for (const c of chunks) len += c.length;
  const all = new Uint8Array(len);
  let at = 0;
  for (const c of chunks) {
    all.set(c, at);
    at += c.length;
  }
  return hashBytes(all);
}
