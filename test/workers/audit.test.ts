/**
 * The audit trail Durable Object in workerd: append, verify, tamper with one stored row via SQL
 * and see verify name its seq; the admin routes mounted in a test app (not in app.ts).
 */
import { env } from "cloudflare:workers";
import { runInDurableObject } from "cloudflare:test";
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import type { Env } from "../../src/config/env";
import type { AuditEntry, AuditRecord } from "../../src/core/audit/audit-record";
import { importAuditKey } from "../../src/core/audit/digest";
import { verifyRun } from "../../src/core/audit/verify-chain";
import type { AuditObject } from "../../src/do/audit-object";
import { createAdminAuditRoutes } from "../../src/http/routes/admin-audit";

const E = env as unknown as Env;
const textOf = async (res: Response) => new TextDecoder().decode(await res.arrayBuffer());
const stubFor = (name: string) => E.AUDIT.get(E.AUDIT.idFromName(name));

const HASH = "c".repeat(64);
const ENTRIES: AuditEntry[] = [
  { kind: "config_loaded", fields: { config_hash: HASH, mode: "compact", engine: "remote" } },
  { kind: "consent", fields: { scope: "export_prompt", host: "engine.example.com", config_hash: HASH } },
  { kind: "engine_destination", fields: { engine: "remote", host: "engine.example.com" } },
  { kind: "compaction_step", fields: { tier: "micro", tokens_before: 52_000, tokens_after: 31_500, usd: 0.0615, correlation_id: "req-1", session_id: "sess-9" } },
  { kind: "compaction_step", fields: { tier: "time_based", tokens_before: 60_000, tokens_after: 20_000, usd: 0.12, correlation_id: "req-2", session_id: "sess-9" } },
];

async function fill(stub: DurableObjectStub<AuditObject>): Promise<AuditRecord[]> {
  const out: AuditRecord[] = [];
  for (const e of ENTRIES) {
    const r = await stub.append(e);
    if (!r.ok) throw new Error(r.error);
    out.push(r.record as AuditRecord);
  }
  return out;
}

describe("AuditObject", () => {
  it("appends a chain and verifies it; an edited row is named by its seq", async () => {
    const stub = stubFor("audit-tamper");
    const records = await fill(stub);
    expect(records.map((r) => [r.seq, r.kind])).toEqual([[1, "config_loaded"], [2, "consent"], [3, "engine_destination"], [4, "compaction_step"], [5, "compaction_step"]]);
    expect(records.slice(1).every((r, i) => r.prev_hash === records[i]!.hash)).toBe(true);
    expect(await stub.verify()).toEqual({ ok: true, first_bad_seq: null, count: 5 });

    await runInDurableObject(stub, async (_instance: AuditObject, state) => {
      state.storage.sql.exec("UPDATE audit_log SET fields = ? WHERE seq = 4",
        '{"correlation_id":"req-1","session_id":"sess-9","tier":"micro","tokens_after":1000,"tokens_before":52000,"usd":0.0615}');
    });
    expect(await stub.verify()).toEqual({ ok: false, first_bad_seq: 4, reason: "hash_mismatch", count: 3 });
  });

  it("a deleted row shows as a gap at the next seq; unparseable fields as a hash mismatch", async () => {
    const stub = stubFor("audit-delete");
    await fill(stub);
    await runInDurableObject(stub, async (instance: AuditObject, state) => {
      state.storage.sql.exec("DELETE FROM audit_log WHERE seq = 2");
      expect(await instance.verify()).toEqual({ ok: false, first_bad_seq: 3, reason: "seq_gap", count: 1 });
      state.storage.sql.exec("UPDATE audit_log SET fields = 'not json' WHERE seq = 1");
      expect(await instance.verify()).toEqual({ ok: false, first_bad_seq: 1, reason: "hash_mismatch", count: 0 });
    });
  });

  it("refuses entries outside their kind's schema (no text can be written)", async () => {
    const stub = stubFor("audit-refuse");
    const bad = await stub.append({ kind: "compaction_step", fields: { ...ENTRIES[3]!.fields, note: "the user said..." } } as never);
    expect(bad).toEqual({ ok: false, error: 'audit entry refused at fields: Unrecognized key: "note"' });
    const badId = await stub.append({ kind: "compaction_step", fields: { ...ENTRIES[3]!.fields, session_id: "has spaces in it" } } as never);
    expect(badId).toEqual({ ok: false, error: "audit entry refused at fields.session_id: Invalid string: must match pattern /^[A-Za-z0-9._:@-]{1,200}$/" });
    expect(await stub.list(0, 10)).toEqual([]);
  });

  it("consent is recorded once and stays valid after the config changes", async () => {
    const stub = stubFor("audit-consent");
    const first = await stub.appendOnce(ENTRIES[1]!);
    await stub.append({ kind: "config_loaded", fields: { config_hash: "d".repeat(64), mode: "compact", engine: "remote" } });
    const again = await stub.appendOnce(ENTRIES[1]!);
    expect(first.ok && again.ok && [first.created, again.created, again.record.seq, again.record.time === first.record.time]).toEqual([true, false, 1, true]);
    expect(await stub.verify()).toEqual({ ok: true, first_bad_seq: null, count: 2 });
  });
});

describe("admin audit routes (mounted in a test app)", () => {
  const appFor = (name: string) => new Hono<{ Bindings: Env }>().route("/admin", createAdminAuditRoutes(() => stubFor(name)));

  it("exports JSONL after `since`, verifiable offline with the key", async () => {
    const name = "audit-route";
    const records = await fill(stubFor(name));
    const app = appFor(name);
    const res = await app.request("/admin/audit?since=2", {}, E);
    expect([res.status, res.headers.get("content-type"), res.headers.get("x-sluice-audit-next-since")]).toEqual([200, "application/x-ndjson; charset=utf-8", "5"]);
    const text = await textOf(res);
    expect(text).toBe(records.slice(2).map((r) => `${JSON.stringify(r)}\n`).join(""));

    const all = (await textOf(await app.request("/admin/audit", {}, E))).trimEnd().split("\n").map((l) => JSON.parse(l) as AuditRecord);
    const key = await importAuditKey(E.SLUICE_AUDIT_KEY!);
    expect(await verifyRun(all, key)).toEqual({ ok: true, tail: { seq: 5, hash: records[4]!.hash }, checked: 5 });

    const page = await app.request("/admin/audit?since=0&limit=2", {}, E);
    expect([(await textOf(page)).split("\n").length - 1, page.headers.get("x-sluice-audit-next-since")]).toEqual([2, "2"]);
  });

  it("verify answers {ok, first_bad_seq}", async () => {
    const name = "audit-route-verify";
    await fill(stubFor(name));
    const app = appFor(name);
    expect(await (await app.request("/admin/audit/verify", {}, E)).json()).toEqual({ ok: true, first_bad_seq: null, count: 5 });
    await runInDurableObject(stubFor(name), (_i: AuditObject, state) => { state.storage.sql.exec("UPDATE audit_log SET time = ? WHERE seq = 3", "2020-01-01T00:00:00.000Z"); });
    const res = await app.request("/admin/audit/verify", {}, E);
    expect([res.status, await res.json()]).toEqual([200, { ok: false, first_bad_seq: 3, reason: "hash_mismatch", count: 2 }]);
  });

  it("bad query parameters are 400 naming the field", async () => {
    const app = appFor("audit-route-bad");
    const since = await app.request("/admin/audit?since=-1", {}, E);
    expect([since.status, await since.json()]).toEqual([400, { error: { type: "bad_request", field: "since", message: "since must be a non-negative integer (a seq)" } }]);
    const limit = await app.request("/admin/audit?limit=0", {}, E);
    expect([limit.status, await limit.json()]).toEqual([400, { error: { type: "bad_request", field: "limit", message: "limit must be an integer from 1 to 10000" } }]);
  });
});
