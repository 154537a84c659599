/**
 * The pure audit chain in Node. Expected hashes and HMACs are recomputed here with node:crypto
 * (an independent implementation) from the documented record body.
 */
import { createHash, createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { AUDIT_FIELDS, GENESIS_HASH, stepTermFields, type AuditEntry, type AuditRecord } from "../../../src/core/audit/audit-record";
import { canonicalJson } from "../../../src/core/audit/canonical-json";
import { importAuditKey } from "../../../src/core/audit/digest";
import { sealRecord } from "../../../src/core/audit/seal-record";
import { verifyRun } from "../../../src/core/audit/verify-chain";

const SECRET = "test-audit-key";
const ENTRIES: AuditEntry[] = [
  { kind: "config_loaded", fields: { config_hash: "a".repeat(64), mode: "compact", engine: "remote" } },
  { kind: "consent", fields: { scope: "export_prompt", host: "engine.example.com", config_hash: "a".repeat(64) } },
  { kind: "engine_destination", fields: { engine: "remote", host: "engine.example.com" } },
  { kind: "compaction_step", fields: { tier: "micro", tokens_before: 52_000, tokens_after: 31_500, usd: 0.0615, correlation_id: "req-1", session_id: "sess-9" } },
];

async function chain(secret = SECRET): Promise<AuditRecord[]> {
  const key = await importAuditKey(secret);
  const out: AuditRecord[] = [];
  for (const [i, e] of ENTRIES.entries()) out.push(await sealRecord(out.at(-1) ?? null, e, `2026-11-20T10:00:0${i}.000Z`, key));
  return out;
}

describe("compaction_step fields", () => {
  const base = { tier: "micro", tokens_before: 52_000, tokens_after: 31_500, usd: 0.0615, correlation_id: "req-1", session_id: "sess-9" } as const;
  const terms = { future_savings: 0.09, cache_miss: 0.03, request_cost: 0.001, distortion: 0.012, quality_gain: 0.004, net: 0.05, remaining_calls: 35, remaining_calls_source: "deployment", avg_request_tokens: 41_000, removed_tokens: 20_000, rewritten_tokens: 9_000 } as const;
  it("carry a step's five terms, R and avg (USD, calls, tokens); H and K stay in the session's stats", () => {
    const fields = { ...base, ...stepTermFields(terms) };
    expect(fields).toEqual({ ...base, remaining_calls: 35, remaining_calls_source: "deployment", avg_request_tokens: 41_000, future_savings_usd: 0.09, cache_miss_usd: 0.03, request_cost_usd: 0.001, distortion_usd: 0.012, quality_gain_usd: 0.004, net_usd: 0.05 });
    expect(AUDIT_FIELDS.compaction_step.safeParse(fields).success).toBe(true);
    expect(AUDIT_FIELDS.compaction_step.safeParse(base).success).toBe(true);
    expect(AUDIT_FIELDS.compaction_step.safeParse({ ...fields, net_usd: -0.2 }).success).toBe(true);
    expect(AUDIT_FIELDS.compaction_step.safeParse({ ...fields, remaining_calls: -1 }).success).toBe(false);
    expect(AUDIT_FIELDS.compaction_step.safeParse({ ...fields, cache_miss_usd: Number.POSITIVE_INFINITY }).success).toBe(false);
    expect(AUDIT_FIELDS.compaction_step.safeParse({ ...fields, removed_tokens: 1 }).success).toBe(false);
  });
});

describe("canonicalJson", () => {
  it("sorts keys at every depth, no whitespace", () => {
    expect(canonicalJson({ b: 1, a: [{ d: true, c: null }], "é": "x", A: 0.5 })).toBe('{"A":0.5,"a":[{"c":null,"d":true}],"b":1,"é":"x"}');
  });
  it("refuses non-finite numbers", () => {
    expect(() => canonicalJson({ a: Number.NaN })).toThrow("canonicalJson: non-finite number");
  });
});

describe("audit chain", () => {
  it("seals records: seq, prev_hash links, SHA-256 body hash, HMAC over the hash", async () => {
    const records = await chain();
    let prev = GENESIS_HASH;
    records.forEach((r, i) => {
      const body = `{"fields":${canonicalJson(ENTRIES[i]!.fields)},"kind":"${ENTRIES[i]!.kind}","prev_hash":"${prev}","seq":${i + 1},"time":"2026-11-20T10:00:0${i}.000Z"}`;
      const hash = createHash("sha256").update(body).digest("hex");
      expect(r).toEqual({ seq: i + 1, time: `2026-11-20T10:00:0${i}.000Z`, kind: ENTRIES[i]!.kind, fields: ENTRIES[i]!.fields,
        prev_hash: prev, hash, hmac: createHmac("sha256", SECRET).update(hash).digest("hex") });
      prev = hash;
    });
  });

  it("verifies an intact chain, also page by page", async () => {
    const records = await chain();
    const key = await importAuditKey(SECRET);
    const whole = await verifyRun(records, key);
    expect(whole).toEqual({ ok: true, tail: { seq: 4, hash: records[3]!.hash }, checked: 4 });
    const first = await verifyRun(records.slice(0, 2), key);
    expect(first.ok && (await verifyRun(records.slice(2), key, first.tail))).toEqual(whole.ok && { ...whole, checked: 2 });
  });

  it("names the first bad seq for each kind of tampering", async () => {
    const key = await importAuditKey(SECRET);
    const records = await chain();
    const edited = records.map((r) => (r.seq === 4 ? { ...r, fields: { ...r.fields, tokens_after: 1 } } : r));
    expect(await verifyRun(edited, key)).toEqual({ ok: false, first_bad_seq: 4, reason: "hash_mismatch", checked: 3 });
    const retimed = records.map((r) => (r.seq === 2 ? { ...r, time: "2026-01-01T00:00:00.000Z" } : r));
    expect(await verifyRun(retimed, key)).toEqual({ ok: false, first_bad_seq: 2, reason: "hash_mismatch", checked: 1 });
    expect(await verifyRun([records[0]!, records[2]!, records[3]!], key)).toEqual({ ok: false, first_bad_seq: 3, reason: "seq_gap", checked: 1 });
    const relinked = records.map((r) => (r.seq === 3 ? { ...r, prev_hash: GENESIS_HASH } : r));
    expect(await verifyRun(relinked, key)).toEqual({ ok: false, first_bad_seq: 3, reason: "prev_hash_mismatch", checked: 2 });
  });

  it("a chain rebuilt without the key fails on the HMAC of its first record", async () => {
    const forged = await chain("attacker-guess");
    expect(await verifyRun(forged, await importAuditKey(SECRET))).toEqual({ ok: false, first_bad_seq: 1, reason: "hmac_mismatch", checked: 0 });
  });
});
