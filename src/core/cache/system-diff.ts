/**
 * Where a system prompt changed between two bodies, and whether the change looks like a date,
 * a time or an id (pure). Runs in the gateway, which may still hold the session's previous body
 * (src/gateway/scan-cache.ts); only an offset and a kind leave it, never the bytes
 * (DESIGN invariant 7).
 */
import { hashBytes, PREFIX_HASH_CHARS } from "../hash";
import { systemNode, type SystemDiff, type VolatileKind } from "../facts/cache-facts";
import type { JsonNode } from "../../providers/shared/json-scan";

/** Hex digits of the `against` hash: prefix-facts MESSAGE_HASH_CHARS, so it compares with the previous request's member or message hash. */
const AGAINST_CHARS = PREFIX_HASH_CHARS;
/** Longest token examined around a difference, bytes each side: a timestamp or uuid is shorter. */
const TOKEN_REACH = 48;

/** A byte that can be part of a date, time or id token: [0-9A-Za-z] and `-:._+/`. */
function tokenByte(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x2d || c === 0x3a || c === 0x2e || c === 0x5f || c === 0x2b || c === 0x2f;
}

/** The token of `bytes` in [lo, hi) around byte `at` (ASCII: token bytes are ASCII). */
function tokenAt(bytes: Uint8Array, at: number, lo: number, hi: number): string {
  let s = at, e = at;
  while (s > lo && at - s < TOKEN_REACH && tokenByte(bytes[s - 1]!)) s--;
  while (e < hi && e - at < TOKEN_REACH && tokenByte(bytes[e]!)) e++;
  let out = "";
  for (let i = s; i < e; i++) out += String.fromCharCode(bytes[i]!);
  return out;
}

const DATE = /\d{4}-\d{2}-\d{2}|\d{1,2}\/\d{1,2}\/\d{2,4}|\d{4}\/\d{2}\/\d{2}/;
const TIME = /\d{1,2}:\d{2}(:\d{2})?/;
const EPOCH = /^\d{10}(\d{3})?$/;
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;
const HEX_ID = /[0-9a-f]{16,}/i;
/** A letters-and-digits run of 12+ with at least two digits and two letters (request ids, session ids). */
const MIXED_ID = /(?=(?:[^0-9]*[0-9]){2})(?=(?:[^A-Za-z]*[A-Za-z]){2})^[A-Za-z0-9_-]{12,}$/;

/**
 * What the token around a changed byte looks like: "timestamp" (an ISO or slashed date, a
 * clock time, a 10- or 13-digit epoch), "id" (a uuid, 16+ hex digits, a 12+ letters-and-digits
 * run), else null. `token` is the changed token of either body.
 */
export function volatileKindOf(token: string): VolatileKind | null {
  if (DATE.test(token) || TIME.test(token) || EPOCH.test(token)) return "timestamp";
  if (UUID.test(token) || HEX_ID.test(token) || MIXED_ID.test(token)) return "id";
  return null;
}

/**
 * The first difference between the system prompt of `prev` and of `cur` (each a body and its
 * scanned root; `history_key` the adapter's history member), or null when either has none, they
 * sit in different places, or they are byte-identical. The offset counts from the start of the
 * system value's JSON; the kind is judged on the changed token of the current body, else of
 * the previous one. `common`, when known, is the length of the byte prefix the two bodies share
 * (the scan cache measures it): the comparison starts there, so an unchanged prompt costs nothing.
 */
export function systemDiffOf(prev: { bytes: Uint8Array; root: JsonNode }, cur: { bytes: Uint8Array; root: JsonNode }, history_key: string, common = 0): SystemDiff | null {
  const a = systemNode(prev.bytes, prev.root, history_key), b = systemNode(cur.bytes, cur.root, history_key);
  if (a === null || b === null || a.at !== b.at) return null;
  const la = a.node.end - a.node.start, lb = b.node.end - b.node.start;
  const n = Math.min(la, lb);
  let i = a.node.start === b.node.start ? Math.min(n, Math.max(0, common - a.node.start)) : 0;
  while (i < n && prev.bytes[a.node.start + i] === cur.bytes[b.node.start + i]) i++;
  if (i === n && la === lb) return null;
  const kind = volatileKindOf(tokenAt(cur.bytes, b.node.start + i, b.node.start, b.node.end)) ?? volatileKindOf(tokenAt(prev.bytes, a.node.start + i, a.node.start, a.node.end));
  return { against: hashBytes(prev.bytes, a.node.start, a.node.end).slice(0, AGAINST_CHARS), offset: i, volatile: kind };
}
