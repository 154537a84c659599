/**
 * GET /admin/metrics in workerd: the exposition parses strictly (test/support/parse-exposition.ts)
 * and its values equal what the session index was told; HELP/TYPE for every family; the
 * content type is the 0.0.4 text format's.
 */
import { describe, expect, it } from "vitest";
import { parseExposition, valueOf } from "../support/parse-exposition";
import { AUTH, CALLS, FAIL_OPEN, USAGE, adminAppFor, envWith, seedSession } from "./admin-seed";

describe("admin metrics", () => {
  it("valid Prometheus text with the seeded values", async () => {
    await seedSession("adm-met-1", "idx-met");
    await seedSession("adm-met-2", "idx-met");
    const res = await adminAppFor("idx-met").request("/admin/metrics", { headers: AUTH }, envWith());
    expect([res.status, res.headers.get("content-type")]).toEqual([200, "text/plain; version=0.0.4; charset=utf-8"]);
    const f = parseExposition(await res.text());
    expect(f.map((x) => x.name)).toEqual([
      "sluice_requests_total", "sluice_compaction_steps_total", "sluice_fail_open_total", "sluice_tokens_original_total", "sluice_tokens_sent_total",
      "sluice_tokens_saved_total", "sluice_usd_saved_total", "sluice_usage_tokens_total", "sluice_engine_latency_seconds",
      ...["input_cost_without_usd", "input_cost_with_usd", "engine_cost_usd", "worst_case_loss_usd", "priced_calls", "requests", "removals", "engine_waits", "engine_wait_seconds"].map((n) => `sluice_ledger_${n}_total`),
      "sluice_memory_injections_total", "sluice_memory_block_tokens_total", "sluice_stood_aside_total", "sluice_sessions", "sluice_scan_cache_lookups_total",
    ]);
    const v = (name: string, labels: Record<string, string> = {}) => valueOf(f, name, labels);
    expect([
      v("sluice_requests_total", { provider: "anthropic", outcome: "compacted" }),
      v("sluice_requests_total", { provider: "anthropic", outcome: "unchanged" }),
      v("sluice_requests_total", { provider: "anthropic", outcome: "fail_open" }),
      v("sluice_fail_open_total", { reason: FAIL_OPEN.reason }),
      v("sluice_tokens_original_total"),
      v("sluice_tokens_saved_total"),
      v("sluice_usage_tokens_total", { provider: "anthropic", kind: "cache_read" }),
      v("sluice_engine_latency_seconds_bucket", { le: "0.01" }),
      v("sluice_engine_latency_seconds_bucket", { le: "0.05" }),
      v("sluice_engine_latency_seconds_count"),
      v("sluice_engine_latency_seconds_sum"),
      v("sluice_sessions"),
    ]).toEqual([
      2, 2, 2, 2,
      2 * (CALLS[0].tokens_original + CALLS[1].tokens_original + FAIL_OPEN.tokens),
      2 * (CALLS[0].tokens_original - CALLS[0].tokens_sent),
      2 * USAGE.cache_read_input_tokens,
      0, 4, 4, 0.012 + 0.03 + 0.012 + 0.03, 2,
    ]);
    expect(f.find((x) => x.name === "sluice_compaction_steps_total")!.samples).toEqual([]);
  });

  it("the index refuses an update carrying free text (zod at the DO boundary)", async () => {
    const { indexStub } = await import("./admin-seed");
    const bad = await indexStub("idx-met-bad").recordMany([{ kind: "usage", session_id: "s", provider: "anthropic", at_ms: 1, input_tokens: 1, cache_read_input_tokens: 0, cache_creation_input_tokens: 0, output_tokens: 0, note: "the user said" } as never]);
    expect(bad).toEqual({ ok: false, error: 'index update refused at (root): Unrecognized key: "note"' });
    const reason = await indexStub("idx-met-bad").recordMany([{ kind: "outcome", session_id: "s", provider: "anthropic", model: null, at_ms: 1, outcome: "fail_open", fail_open_reason: "Error: ENOENT src/x", tier: "none", step_tier: null, turns: 0, calls: null, tokens_original: 0, tokens_sent: 0, tokens_saved: 0, usd_saved: 0, step_ms: null } as never]);
    expect(reason.ok).toBe(false);
    const res = await adminAppFor("idx-met-bad").request("/admin/metrics", { headers: AUTH }, envWith());
    expect(await res.text()).toContain("sluice_sessions 0\n");
  });
});
