/**
 * Each session's net saving in the sharded index (workerd): the savings ledger's updates of two
 * sessions add up, per session, to `net_usd_saved` in GET /admin/sessions (without − with, USD,
 * negative kept), beside the gross `usd_saved`; and a shard whose `sessions` table predates the
 * column gains it when its object starts, its old rows reading 0.
 */
import { runInDurableObject } from "cloudflare:test";
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { indexShardName } from "../../src/admin/index-shards";
import { ledgerUpdate, type IndexUpdate } from "../../src/admin/index-update";
import { shardedIndex, type IndexShard } from "../../src/admin/sharded-index";
import type { IndexTotals, SessionSummary } from "../../src/admin/summarize-index";
import type { Env } from "../../src/config/env";
import { SessionIndex } from "../../src/do/index-object";
import { createAdminApp, defaultAdminDeps } from "../../src/http/routes/admin";
import { emptyLedgerDelta, type LedgerMode } from "../../src/session/contract";
import { AUTH, E, envWith, indexStub } from "./admin-seed";

/** A ledger update of `session_id` with these input costs (USD); every other figure 0 but requests and priced_calls. */
const ledger = (session_id: string, at_ms: number, without_usd: number, with_usd: number, mode: LedgerMode = "compact"): IndexUpdate =>
  ledgerUpdate(session_id, "anthropic", at_ms, { ...emptyLedgerDelta(mode), requests: 1, priced_calls: 1, without_usd, with_usd });

const outcome = (session_id: string, at_ms: number, usd_saved: number): IndexUpdate => ({
  kind: "outcome", session_id, provider: "anthropic", model: "claude-sonnet-4-5", at_ms, outcome: "compacted", fail_open_reason: null, tier: "micro", step_tier: "micro",
  turns: 3, calls: 3, tokens_original: 4_000, tokens_sent: 1_000, tokens_saved: 3_000, usd_saved, step_ms: 5,
});

describe("per-session net saving", () => {
  it("two sessions' ledger updates → each session's exact net in GET /admin/sessions, gross beside it, totals the sum", async () => {
    const index = shardedIndex((i) => indexStub(`net-a-${indexShardName(i)}`) as unknown as IndexShard);
    // Session A: a compacted call (gross $0.75) whose ledger reports net +$0.125, then a call that cost $0.0625 more: net $0.0625.
    // Session B: measure mode, one call Sluice would have made $0.125 dearer (cache writes): net −$0.125, gross 0.
    await index.recordMany([outcome("cc:net-a", 1_000, 0.75), ledger("cc:net-a", 1_000, 0.5, 0.375), ledger("cc:net-b", 1_500, 0.125, 0.25, "measure")]);
    await index.recordMany([ledger("cc:net-a", 2_000, 0.25, 0.3125)]);

    const app = new Hono<{ Bindings: Env }>().route("/admin", createAdminApp({ ...defaultAdminDeps, index: () => index }));
    const res = await app.request("/admin/sessions", { headers: AUTH }, envWith());
    const body = (await res.json()) as { totals: IndexTotals; sessions: SessionSummary[] };
    expect(body.sessions.map((s) => [s.id, s.net_usd_saved, s.usd_saved, s.requests, s.last_activity_ms])).toEqual([
      ["cc:net-a", 0.0625, 0.75, 1, 2_000],
      ["cc:net-b", -0.125, 0, 0, 1_500],
    ]);
    expect([body.totals.ledger_saved_usd, body.totals.usd_saved]).toEqual([-0.0625, 0.75]);
    expect((await index.get("cc:net-b"))?.net_usd_saved).toBe(-0.125);
  });

  it("a shard created before the column: the object adds it on start, the old row reads 0, then accumulates", async () => {
    const stub = indexStub("net-migrate");
    const listed = await runInDurableObject(stub, async (_old: SessionIndex, state) => {
      const sql = state.storage.sql;
      // The sessions table as the index created it before net_usd_saved, with one row.
      sql.exec("DROP TABLE sessions");
      sql.exec(`CREATE TABLE sessions (
        id TEXT PRIMARY KEY, provider TEXT, model TEXT, turns INTEGER NOT NULL DEFAULT 0, calls INTEGER NOT NULL DEFAULT 0,
        requests INTEGER NOT NULL DEFAULT 0, compacted INTEGER NOT NULL DEFAULT 0, fail_open INTEGER NOT NULL DEFAULT 0,
        tokens_original REAL NOT NULL DEFAULT 0, tokens_sent REAL NOT NULL DEFAULT 0, tokens_saved REAL NOT NULL DEFAULT 0,
        usd_saved REAL NOT NULL DEFAULT 0, usage_input REAL NOT NULL DEFAULT 0, usage_cache_read REAL NOT NULL DEFAULT 0,
        usage_cache_write REAL NOT NULL DEFAULT 0, last_tier TEXT, last_outcome TEXT, last_activity_ms INTEGER,
        disabled INTEGER NOT NULL DEFAULT 0)`);
      sql.exec("INSERT INTO sessions (id, provider, requests, usd_saved, last_activity_ms) VALUES ('cc:old-a', 'anthropic', 4, 0.5, 100), ('cc:old-b', 'anthropic', 2, 0.25, 50)");
      const before = sql.exec<{ name: string }>("PRAGMA table_info(sessions)").toArray().map((c) => c.name);
      const fresh = new SessionIndex(state as unknown as DurableObjectState, E);
      const answer = await fresh.recordMany([ledger("cc:old-a", 200, 0.5, 0.4375)]);
      return { before: before.includes("net_usd_saved"), answer, rows: (await fresh.list(10)).map((s) => [s.id, s.net_usd_saved, s.usd_saved, s.requests]) };
    });
    expect(listed).toEqual({ before: false, answer: { ok: true }, rows: [["cc:old-a", 0.0625, 0.5, 4], ["cc:old-b", 0, 0.25, 2]] });
  });
});
