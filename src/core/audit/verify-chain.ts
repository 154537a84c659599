/**
 * Verifies a run of chain records (pure apart from Web Crypto), incrementally: pass the tail
 * returned by the previous page to continue. For each record, in order:
 * 1. seq must be tail.seq + 1 (a deleted or inserted row shows as `seq_gap`);
 * 2. prev_hash must equal the tail's hash (`prev_hash_mismatch`);
 * 3. the recomputed hash must equal `hash` (`hash_mismatch`: an edited field, time or kind);
 * 4. `hmac` must verify under the key (`hmac_mismatch`: a rewrite without the key).
 * The first failing record's seq is reported. Truncating the newest records is not detectable
 * from the chain alone (compare the count with an external copy, e.g. an export).
 */
import { GENESIS_HASH, type AuditRecord } from "./audit-record";
import { verifyHmacHex, sha256Hex } from "./digest";
import { recordBodyText, type ChainTail } from "./seal-record";

export type ChainFault = "seq_gap" | "prev_hash_mismatch" | "hash_mismatch" | "hmac_mismatch";

export type VerifyRunResult =
  | { ok: true; tail: ChainTail; checked: number }
  | { ok: false; first_bad_seq: number; reason: ChainFault; checked: number };

/** The tail before the first record. */
export const START_TAIL: ChainTail = { seq: 0, hash: GENESIS_HASH };

/** Checks `records` (ascending seq) after `tail`. `checked` counts records that passed. */
export async function verifyRun(records: readonly AuditRecord[], key: CryptoKey, tail: ChainTail = START_TAIL): Promise<VerifyRunResult> {
  let prev = tail;
  let checked = 0;
  for (const r of records) {
    const bad = (reason: ChainFault): VerifyRunResult => ({ ok: false, first_bad_seq: r.seq, reason, checked });
    if (r.seq !== prev.seq + 1) return bad("seq_gap");
    if (r.prev_hash !== prev.hash) return bad("prev_hash_mismatch");
    if ((await sha256Hex(recordBodyText(r))) !== r.hash) return bad("hash_mismatch");
    if (!(await verifyHmacHex(key, r.hash, r.hmac))) return bad("hmac_mismatch");
    prev = { seq: r.seq, hash: r.hash };
    checked++;
  }
  return { ok: true, tail: prev, checked };
}
