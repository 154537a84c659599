/**
 * The sharded session index in workerd: updates of many sessions reach only their own shard's
 * object; the admin list, totals and metrics merge every shard exactly; and the real hook writes
 * a pipeline request's index rows to the shard of its session (src/do/index-object.ts
 * sessionIndexOf).
 */
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { INDEX_SHARDS, indexShardName, indexShardOf } from "../../src/admin/index-shards";
import type { IndexUpdate } from "../../src/admin/index-update";
import { shardedIndex, type IndexShard } from "../../src/admin/sharded-index";
import type { SessionSummary } from "../../src/admin/summarize-index";
import type { Env } from "../../src/config/env";
import { createAdminApp, defaultAdminDeps } from "../../src/http/routes/admin";
import { parseExposition, valueOf } from "../support/parse-exposition";
import { AUTH, envWith, indexStub } from "./admin-seed";
import { compactVars, LITERAL_CONFIG, literalTwoCalls } from "./pipeline-harness";

const usage = (session_id: string, at_ms: number, input_tokens: number): IndexUpdate =>
  ({ kind: "usage", session_id, provider: "anthropic", at_ms, input_tokens, cache_read_input_tokens: 0, cache_creation_input_tokens: 0, output_tokens: 0 });

/** A session's outcome at its `calls`-th call, whose history holds `turns` model turns (default: the calls before this one). */
const outcome = (session_id: string, at_ms: number, calls: number, turns = calls - 1): IndexUpdate => ({
  kind: "outcome", session_id, provider: "anthropic", model: null, at_ms, outcome: "unchanged", fail_open_reason: null, tier: "none", step_tier: null,
  turns, calls, tokens_original: 1, tokens_sent: 1, tokens_saved: 0, usd_saved: 0, step_ms: 1,
});

describe("sharded index", () => {
  it("40 sessions: each row only in its shard; list, totals and metrics are the merge of all shards", async () => {
    const shardOf = (i: number) => indexStub(`shards-a-${indexShardName(i)}`) as unknown as IndexShard;
    const index = shardedIndex(shardOf);
    const ids = Array.from({ length: 40 }, (_, i) => `cc:shard-session-${i}`);
    // One batch as the index buffer sends it: two usage updates per session.
    await index.recordMany(ids.flatMap((id, i) => [usage(id, 1_000 + i, 10), usage(id, 1_000 + i, 5)]));

    const perShard = await Promise.all(Array.from({ length: INDEX_SHARDS }, (_, i) => shardOf(i).list(1_000)));
    for (const [i, rows] of perShard.entries()) expect(rows.map((r) => r.id).sort()).toEqual(ids.filter((id) => indexShardOf(id) === i).sort());
    expect(perShard.filter((rows) => rows.length > 0).length).toBeGreaterThan(8);

    const app = new Hono<{ Bindings: Env }>().route("/admin", createAdminApp({ ...defaultAdminDeps, index: () => index }));
    const listed = (await (await app.request("/admin/sessions?limit=5", { headers: AUTH }, envWith())).json()) as { totals: Record<string, unknown>; sessions: SessionSummary[] };
    expect(listed.sessions.map((s) => s.id)).toEqual([ids[39], ids[38], ids[37], ids[36], ids[35]]);
    expect(listed.totals).toMatchObject({ sessions: 40, requests: 0 });
    expect((await index.get(ids[7]!))?.id).toBe(ids[7]);

    const text = await (await app.request("/admin/metrics", { headers: AUTH }, envWith())).text();
    const families = parseExposition(text);
    expect(valueOf(families, "sluice_sessions", {})).toBe(40);
    expect(valueOf(families, "sluice_usage_tokens_total", { provider: "anthropic", kind: "input" })).toBe(40 * 15);
  });

  it("lengths: the call counts of sessions last active before the cut, merged over the shards", async () => {
    const index = shardedIndex((i) => indexStub(`shards-len-${indexShardName(i)}`) as unknown as IndexShard);
    // 30 sessions: lengths 5, 12 and 40 (10 each), finished at 1,000..1,029; 5 more still active at 9,000; one with no call count.
    const finished = Array.from({ length: 30 }, (_, i) => outcome(`cc:len-${i}`, 1_000 + i, [5, 12, 40][i % 3]!));
    const active = Array.from({ length: 5 }, (_, i) => outcome(`cc:len-active-${i}`, 9_000, 3));
    // And one that reached Sluice at its 58th call: 3 calls seen, 59 turns in its last request → 60 calls long.
    await index.recordMany([...finished, ...active, usage("cc:len-usage-only", 1_000, 7), outcome("cc:len-midway", 1_000, 3, 59)]);
    expect(await index.lengths(5_000)).toEqual([[5, 10], [12, 10], [40, 10], [60, 1]]);
    expect(await index.lengths(10_000)).toEqual([[3, 5], [5, 10], [12, 10], [40, 10], [60, 1]]);
  });

  it("the real hook writes a request's rows to its session's shard and no other", async () => {
    const r = await literalTwoCalls(compactVars(LITERAL_CONFIG));
    const home = indexShardOf(r.session);
    const found = await Promise.all(Array.from({ length: INDEX_SHARDS }, (_, i) => indexStub(indexShardName(i)).get(r.session)));
    expect(found.map((row, i) => [i, row?.requests ?? 0])).toEqual(Array.from({ length: INDEX_SHARDS }, (_, i) => [i, i === home ? 2 : 0]));
  });
});
