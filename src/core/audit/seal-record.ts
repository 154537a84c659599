/**
 * Seals an entry into the next chain record (pure apart from Web Crypto): seq = previous + 1,
 * prev_hash = previous hash (GENESIS_HASH for the first), hash over the canonical record body,
 * hmac over the hash. `time` is supplied by the caller (the DO owns the clock).
 */
import { GENESIS_HASH, type AuditEntry, type AuditRecord } from "./audit-record";
import { canonicalJson, type JsonValue } from "./canonical-json";
import { hmacHex, sha256Hex } from "./digest";

/** The tail of a chain: the last record's seq and hash (null for an empty chain). */
export interface ChainTail {
  seq: number;
  hash: string;
}

/** The exact text whose SHA-256 is a record's hash. */
export function recordBodyText(r: Pick<AuditRecord, "seq" | "time" | "kind" | "fields" | "prev_hash">): string {
  return canonicalJson({ seq: r.seq, time: r.time, kind: r.kind, fields: r.fields as JsonValue, prev_hash: r.prev_hash });
}

/** Builds the record that follows `tail`. The entry must already match its kind's schema. */
export async function sealRecord(tail: ChainTail | null, entry: AuditEntry, time: string, key: CryptoKey): Promise<AuditRecord> {
  const body = {
    seq: (tail?.seq ?? 0) + 1,
    time,
    kind: entry.kind,
    fields: entry.fields as AuditRecord["fields"],
    prev_hash: tail?.hash ?? GENESIS_HASH,
  };
  const hash = await sha256Hex(recordBodyText(body));
  return { ...body, hash, hmac: await hmacHex(key, hash) };
}
