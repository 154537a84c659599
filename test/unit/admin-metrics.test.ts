/**
 * Pure admin code: index updates derived from session-DO outcomes, metric deltas, the
 * Prometheus exposition (whole expected text, then the strict parser), totals, memory search.
 */
import { describe, expect, it } from "vitest";
import { ledgerUpdate, outcomeUpdate, standAsideUpdate, usageUpdate, type OutcomeFacts } from "../../src/admin/index-update";
import type { StoodAside } from "../../src/gateway/prepare-compaction";
import { emptyLedgerDelta } from "../../src/session/contract";
import { buildFamilies, deltasOf, type StoredSeries } from "../../src/admin/metrics-catalog";
import { escapeLabelValue, formatValue, renderExposition } from "../../src/admin/render-exposition";
import { searchMemory } from "../../src/admin/search-memory";
import { totalsOf } from "../../src/admin/summarize-index";
import { buildTierMap } from "../../src/core/memory/build-tier-map";
import type { StepOutput } from "../../src/session/contract";
import { factsOf, makeView } from "../support/make-view";
import { hashText } from "../../src/core/hash";
import { parseExposition, valueOf } from "../support/parse-exposition";

const STEP: StepOutput = { disabled: false, tier: "micro", plan: { actions: {} }, step: 3, tokens_original: 52_000, tokens_after: 31_500, pairs_removed: 4, skipped: null, cost_estimate: 0.0031, new_pair_ids: ["t1"], warnings: [] };
const facts = (o: Partial<OutcomeFacts> = {}): OutcomeFacts => ({
  session_id: "cc:abc", provider: "anthropic", model: "claude-sonnet-4-5", turns: 12, now_ms: 1_700_000_000_000, step: STEP,
  report: { correlation_id: "req-1", outcome: "compacted", rollback_step: null, tokens_original: 52_000, tokens_sent: 31_500, tier: "micro", pairs_removed: 0, would_send: null },
  recorded: { calls: 7, tokens_saved: 20_500, usd_saved: 0.00615 }, step_ms: 42, ...o,
});

/** A memory block as the session returns it, and its estimate (src/core/tokens/estimate.ts). */
const MEMORY_BLOCK = "[sluice: memory of this project's previous session]\nWorking set: the last 4 turns, from turn 9, message 20.";
const MEMORY_BLOCK_TOKENS = 27;

/** Codex asking for compaction with a trailing compaction_trigger item: Sluice stood aside. */
const STOOD: StoodAside = {
  provider: "openai-responses", reason: "server_managed", type: "compaction_trigger", session: { id: "pck:s1", source: "prompt_cache_key" },
  view: { provider: "openai-responses", model: "gpt-5.5-codex", body_bytes: 8_000, est_tokens: 2_000, messages: [], pairs: [], orphans: [], turn_count: 3, server_managed: "compaction_trigger" },
};

describe("standAsideUpdate", () => {
  it("an outcome stood_aside with its reason and type: nothing saved, the client's tokens sent", () => {
    expect(standAsideUpdate(STOOD, 1_700_000_000_900)).toEqual({
      kind: "outcome", session_id: "pck:s1", provider: "openai-responses", model: "gpt-5.5-codex", at_ms: 1_700_000_000_900,
      outcome: "stood_aside", fail_open_reason: null, tier: "none", step_tier: null, turns: 3, calls: null,
      tokens_original: 2_000, tokens_sent: 2_000, tokens_saved: 0, usd_saved: 0, step_ms: null,
      stand_aside: { reason: "server_managed", type: "compaction_trigger" },
    });
  });

  it("a type that is not a snake_case word is labelled other; without a session key nothing is recorded", () => {
    expect(standAsideUpdate({ ...STOOD, reason: "unknown_type", type: "Hologram Block" }, 0)!.stand_aside).toEqual({ reason: "unknown_type", type: "other" });
    expect(standAsideUpdate({ ...STOOD, reason: "unknown_type", type: "x".repeat(49) }, 0)!.stand_aside).toEqual({ reason: "unknown_type", type: "other" });
    expect(standAsideUpdate({ ...STOOD, session: null }, 0)).toBeNull();
  });

  it("the rendered family keeps the 20 most counted types per provider and reason and sums the rest into other", () => {
    const series: StoredSeries[] = [];
    const add = (provider: string, reason: string, type: string, value: number) => series.push({ family: "sluice_stood_aside_total", suffix: "", labels: { provider, reason, type }, value });
    for (let i = 0; i < 25; i++) add("anthropic", "unknown_type", `t${String(i).padStart(2, "0")}`, 100 - i);
    add("anthropic", "unknown_type", "other", 7);
    add("anthropic", "server_managed", "thread", 3);
    const family = buildFamilies(series, 0).find((f) => f.name === "sluice_stood_aside_total")!;
    expect(family.samples.map((x) => [x.labels.reason, x.labels.type, x.value])).toEqual([
      ["server_managed", "thread", 3],
      // t20..t24 (80 + 79 + 78 + 77 + 76) and the stored other (7); series sorted by labels.
      ["unknown_type", "other", 397],
      ...Array.from({ length: 20 }, (_, i) => ["unknown_type", `t${String(i).padStart(2, "0")}`, 100 - i]),
    ]);
  });
});

describe("outcomeUpdate", () => {
  it("a compacted request with a kept step", () => {
    expect(outcomeUpdate(facts())).toEqual({
      kind: "outcome", session_id: "cc:abc", provider: "anthropic", model: "claude-sonnet-4-5", at_ms: 1_700_000_000_000,
      outcome: "compacted", fail_open_reason: null, tier: "micro", step_tier: "micro", turns: 12, calls: 7,
      tokens_original: 52_000, tokens_sent: 31_500, tokens_saved: 20_500, usd_saved: 0.00615, step_ms: 42,
    });
  });

  it("a failed guarantee check rolls the step back: fail_open, no step", () => {
    const u = outcomeUpdate(facts({ report: { correlation_id: "req-2", outcome: "guarantee_check", rollback_step: 3, tokens_original: 52_000, tokens_sent: 52_000, tier: "micro", pairs_removed: 0, would_send: null }, recorded: { calls: 8, tokens_saved: 0, usd_saved: 0 } }));
    expect([u.outcome, u.fail_open_reason, u.step_tier, u.tokens_saved, u.calls]).toEqual(["fail_open", "guarantee_check", null, 0, 8]);
  });

  it("a disabled session is labelled disabled; a DO that did not answer leaves calls and latency null", () => {
    const off = outcomeUpdate(facts({ step: { ...STEP, disabled: true, step: null, tier: "none", pairs_removed: 0 }, report: { correlation_id: "r", outcome: "unchanged", rollback_step: null, tokens_original: 900, tokens_sent: 900, tier: "none", pairs_removed: 0, would_send: null } }));
    expect([off.outcome, off.step_tier]).toEqual(["disabled", null]);
    const dead = outcomeUpdate(facts({ step: null, recorded: null, step_ms: null, report: { correlation_id: "r", outcome: "do_timeout", rollback_step: null, tokens_original: 900, tokens_sent: 900, tier: "none", pairs_removed: 0, would_send: null } }));
    expect([dead.outcome, dead.fail_open_reason, dead.calls, dead.step_ms, dead.usd_saved]).toEqual(["fail_open", "do_timeout", null, null, 0]);
  });

  it("memory_inject: the call that claimed the block carries its estimated tokens; a later call carrying the same block does not", () => {
    const claimed = outcomeUpdate(facts({ step: { ...STEP, memory_block: MEMORY_BLOCK, memory_block_claimed: true } }));
    expect(claimed.memory_injected_tokens).toBe(MEMORY_BLOCK_TOKENS);
    expect("memory_injected_tokens" in outcomeUpdate(facts({ step: { ...STEP, memory_block: MEMORY_BLOCK } }))).toBe(false);
    expect("memory_injected_tokens" in outcomeUpdate(facts())).toBe(false);
  });

  it("a model name that is not an id is dropped (no free text in the index)", () => {
    expect(outcomeUpdate(facts({ model: "my model, see notes" })).model).toBe(null);
  });
});

describe("metrics", () => {
  const stored = (updates: Parameters<typeof deltasOf>[0][]): StoredSeries[] => {
    const m = new Map<string, StoredSeries>();
    for (const d of updates.flatMap(deltasOf)) {
      const k = `${d.family}${d.suffix}${JSON.stringify(d.labels)}`;
      const prev = m.get(k);
      m.set(k, { family: d.family, suffix: d.suffix, labels: d.labels, value: (prev?.value ?? 0) + d.delta });
    }
    return [...m.values()];
  };

  it("renders the whole exposition for two requests, one stand-aside, one usage report and its savings ledger", () => {
    const series = stored([
      standAsideUpdate(STOOD, 1_700_000_000_900)!,
      outcomeUpdate(facts({ step: { ...STEP, memory_block: MEMORY_BLOCK, memory_block_claimed: true } })),
      outcomeUpdate(facts({ step_ms: 1_500, recorded: { calls: 8, tokens_saved: 0, usd_saved: 0 }, report: { correlation_id: "r2", outcome: "do_error", rollback_step: null, tokens_original: 1_000, tokens_sent: 1_000, tier: "none", pairs_removed: 0, would_send: null } })),
      usageUpdate("cc:abc", "anthropic", 1_700_000_000_500, { input_tokens: 1_000, cache_read_input_tokens: 30_000, cache_creation_input_tokens: 500, output_tokens: 200 }),
      ledgerUpdate("cc:abc", "anthropic", 1_700_000_000_500, { ...emptyLedgerDelta("measure"), requests: 1, priced_calls: 1, without_usd: 0.0144, with_usd: 0.0096, loss_usd: 0.003, removals: 4, removals_deterministic: 3, removals_refetched: 1, engine_waits: 1, engine_wait_ms: 250 }),
    ]);
    const text = renderExposition(buildFamilies(series, 1, { scan_hits: 7, scan_misses: 2 }));
    expect(text).toBe(`# HELP sluice_requests_total Chat requests through the compaction pipeline, by provider and outcome (compacted, unchanged, measured, disabled, fail_open, stood_aside).
# TYPE sluice_requests_total counter
sluice_requests_total{provider="anthropic",outcome="compacted"} 1
sluice_requests_total{provider="anthropic",outcome="fail_open"} 1
sluice_requests_total{provider="openai-responses",outcome="stood_aside"} 1
# HELP sluice_compaction_steps_total Compaction steps taken and kept, by tier.
# TYPE sluice_compaction_steps_total counter
sluice_compaction_steps_total{tier="micro"} 1
# HELP sluice_fail_open_total Requests forwarded with their original bytes after a failure, by reason.
# TYPE sluice_fail_open_total counter
sluice_fail_open_total{reason="do_error"} 1
# HELP sluice_tokens_original_total Estimated input tokens of requests as the clients sent them.
# TYPE sluice_tokens_original_total counter
sluice_tokens_original_total 55000
# HELP sluice_tokens_sent_total Estimated input tokens of requests as forwarded upstream.
# TYPE sluice_tokens_sent_total counter
sluice_tokens_sent_total 34500
# HELP sluice_tokens_saved_total Estimated input tokens removed by compaction.
# TYPE sluice_tokens_saved_total counter
sluice_tokens_saved_total 20500
# HELP sluice_usd_saved_total Estimated input cost removed by compaction, US dollars.
# TYPE sluice_usd_saved_total counter
sluice_usd_saved_total 0.00615
# HELP sluice_usage_tokens_total Provider-reported tokens, by provider and kind (input, cache_read, cache_write, output).
# TYPE sluice_usage_tokens_total counter
sluice_usage_tokens_total{provider="anthropic",kind="cache_read"} 30000
sluice_usage_tokens_total{provider="anthropic",kind="cache_write"} 500
sluice_usage_tokens_total{provider="anthropic",kind="input"} 1000
sluice_usage_tokens_total{provider="anthropic",kind="output"} 200
# HELP sluice_engine_latency_seconds Time of the session step (ledger, tier choice, decision engine) as seen by the gateway, seconds.
# TYPE sluice_engine_latency_seconds histogram
sluice_engine_latency_seconds_bucket{le="0.005"} 0
sluice_engine_latency_seconds_bucket{le="0.01"} 0
sluice_engine_latency_seconds_bucket{le="0.025"} 0
sluice_engine_latency_seconds_bucket{le="0.05"} 1
sluice_engine_latency_seconds_bucket{le="0.1"} 1
sluice_engine_latency_seconds_bucket{le="0.25"} 1
sluice_engine_latency_seconds_bucket{le="0.5"} 1
sluice_engine_latency_seconds_bucket{le="1"} 1
sluice_engine_latency_seconds_bucket{le="2.5"} 2
sluice_engine_latency_seconds_bucket{le="5"} 2
sluice_engine_latency_seconds_bucket{le="10"} 2
sluice_engine_latency_seconds_bucket{le="+Inf"} 2
sluice_engine_latency_seconds_sum 1.542
sluice_engine_latency_seconds_count 2
# HELP sluice_ledger_input_cost_without_usd_total Savings ledger: input cost without Sluice (the client's bodies priced with the session's cache behaviour), US dollars, by mode (compact, measure).
# TYPE sluice_ledger_input_cost_without_usd_total counter
sluice_ledger_input_cost_without_usd_total{mode="measure"} 0.0144
# HELP sluice_ledger_input_cost_with_usd_total Savings ledger: input cost with Sluice (compact: the provider's usage; measure: what would have been billed), US dollars, by mode.
# TYPE sluice_ledger_input_cost_with_usd_total counter
sluice_ledger_input_cost_with_usd_total{mode="measure"} 0.0096
# HELP sluice_ledger_engine_cost_usd_total Savings ledger: what decision engines charged, US dollars, by mode.
# TYPE sluice_ledger_engine_cost_usd_total counter
sluice_ledger_engine_cost_usd_total{mode="measure"} 0
# HELP sluice_ledger_worst_case_loss_usd_total Savings ledger: cost of re-sending every removed result once as uncached input, US dollars, by mode.
# TYPE sluice_ledger_worst_case_loss_usd_total counter
sluice_ledger_worst_case_loss_usd_total{mode="measure"} 0.003
# HELP sluice_ledger_priced_calls_total Savings ledger: calls priced from the provider's usage, by mode.
# TYPE sluice_ledger_priced_calls_total counter
sluice_ledger_priced_calls_total{mode="measure"} 1
# HELP sluice_ledger_requests_total Savings ledger: requests whose outcome reached the ledger, by mode.
# TYPE sluice_ledger_requests_total counter
sluice_ledger_requests_total{mode="measure"} 1
# HELP sluice_ledger_removals_total Savings ledger: tool pairs removed (measure: that would have been), by mode and kind (all; deterministic: read-only tools; refetched: the same call issued again later; mentioned: a later call named the same file).
# TYPE sluice_ledger_removals_total counter
sluice_ledger_removals_total{mode="measure",kind="all"} 4
sluice_ledger_removals_total{mode="measure",kind="deterministic"} 3
sluice_ledger_removals_total{mode="measure",kind="mentioned"} 0
sluice_ledger_removals_total{mode="measure",kind="refetched"} 1
# HELP sluice_ledger_engine_waits_total Savings ledger: requests that waited on a decision engine, by mode.
# TYPE sluice_ledger_engine_waits_total counter
sluice_ledger_engine_waits_total{mode="measure"} 1
# HELP sluice_ledger_engine_wait_seconds_total Savings ledger: time requests waited on a decision engine, seconds, by mode.
# TYPE sluice_ledger_engine_wait_seconds_total counter
sluice_ledger_engine_wait_seconds_total{mode="measure"} 0.25
# HELP sluice_memory_injections_total memory_inject: sessions that took their project's previous tier map as a memory block (once per map).
# TYPE sluice_memory_injections_total counter
sluice_memory_injections_total 1
# HELP sluice_memory_block_tokens_total memory_inject: estimated tokens of the memory blocks taken (each block is then carried by every request of its session).
# TYPE sluice_memory_block_tokens_total counter
sluice_memory_block_tokens_total ${MEMORY_BLOCK_TOKENS}
# HELP sluice_stood_aside_total Requests forwarded as the client sent them because Sluice stood aside, by provider, reason (server_managed: the client asked the provider to manage the history; unknown_type: a type Sluice does not model) and type (the feature or the unknown type; other: not a snake_case word).
# TYPE sluice_stood_aside_total counter
sluice_stood_aside_total{provider="openai-responses",reason="server_managed",type="compaction_trigger"} 1
# HELP sluice_sessions Sessions held in the session index.
# TYPE sluice_sessions gauge
sluice_sessions 1
# HELP sluice_scan_cache_lookups_total Scans of received bodies by the isolate answering this scrape, by result (hit: the session's last body was kept and its shared prefix reused; miss).
# TYPE sluice_scan_cache_lookups_total counter
sluice_scan_cache_lookups_total{result="hit"} 7
sluice_scan_cache_lookups_total{result="miss"} 2
`);
    const parsed = parseExposition(text);
    expect(parsed.map((f) => [f.name, f.type])).toEqual([
      ["sluice_requests_total", "counter"], ["sluice_compaction_steps_total", "counter"], ["sluice_fail_open_total", "counter"],
      ["sluice_tokens_original_total", "counter"], ["sluice_tokens_sent_total", "counter"], ["sluice_tokens_saved_total", "counter"],
      ["sluice_usd_saved_total", "counter"], ["sluice_usage_tokens_total", "counter"], ["sluice_engine_latency_seconds", "histogram"],
      ...["input_cost_without_usd", "input_cost_with_usd", "engine_cost_usd", "worst_case_loss_usd", "priced_calls", "requests", "removals", "engine_waits", "engine_wait_seconds"].map((n) => [`sluice_ledger_${n}_total`, "counter"]),
      ["sluice_memory_injections_total", "counter"], ["sluice_memory_block_tokens_total", "counter"],
      ["sluice_stood_aside_total", "counter"], ["sluice_sessions", "gauge"],
      ["sluice_scan_cache_lookups_total", "counter"],
    ]);
    expect(valueOf(parsed, "sluice_engine_latency_seconds_bucket", { le: "+Inf" })).toBe(2);
  });

  it("an empty index still renders every unlabelled family, valid", () => {
    const parsed = parseExposition(renderExposition(buildFamilies([], 0)));
    expect(parsed.map((f) => f.samples.length)).toEqual([0, 0, 0, 1, 1, 1, 1, 0, 14, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 0, 1, 2]);
  });

  it("escapes HELP and label values and formats special floats per the spec", () => {
    expect(escapeLabelValue('a\\b"c\nd')).toBe('a\\\\b\\"c\\nd');
    expect([formatValue(Infinity), formatValue(-Infinity), formatValue(NaN), formatValue(1e-7), formatValue(12)]).toEqual(["+Inf", "-Inf", "NaN", "1e-7", "12"]);
    const text = renderExposition([{ name: "x_total", help: "line\\one\ntwo", type: "counter", samples: [{ suffix: "", labels: { k: 'q"\n\\' }, value: 1 }] }]);
    expect(text).toBe('# HELP x_total line\\\\one\\ntwo\n# TYPE x_total counter\nx_total{k="q\\"\\n\\\\"} 1\n');
    expect(parseExposition(text)[0]).toEqual({ name: "x_total", help: "line\\one\ntwo", type: "counter", samples: [{ name: "x_total", labels: { k: 'q"\n\\' }, value: 1 }] });
    expect(() => renderExposition([{ name: "bad-name", help: "", type: "gauge", samples: [] }])).toThrow("invalid metric name: bad-name");
  });

  it("the strict parser rejects what Prometheus would (or what we never emit)", () => {
    expect(() => parseExposition("# HELP a_total x\n# TYPE a_total counter\na_total 1")).toThrow("last line must end");
    expect(() => parseExposition("# HELP a x\n# TYPE a counter\na 1\n")).toThrow("must end in _total");
    expect(() => parseExposition("# HELP a_total x\n# TYPE a_total counter\na_total{k=\"v\",} 1\n")).toThrow("trailing comma");
    expect(() => parseExposition("# HELP h x\n# TYPE h histogram\nh_bucket{le=\"1\"} 2\nh_bucket{le=\"+Inf\"} 1\nh_sum 1\nh_count 1\n")).toThrow("buckets not cumulative");
    expect(() => parseExposition("# HELP g x\n# TYPE g gauge\ng one\n")).toThrow("bad value");
  });
});

describe("totals and memory search", () => {
  it("totals come from the series: fail-open count, USD saved, cache hit ratio, the ledger's net saving over both modes", () => {
    const series: StoredSeries[] = [
      ...deltasOf(outcomeUpdate(facts())),
      ...deltasOf(usageUpdate("cc:abc", "anthropic", 1, { input_tokens: 1_000, cache_read_input_tokens: 30_000, cache_creation_input_tokens: 500, output_tokens: 200 })),
      ...deltasOf(outcomeUpdate(facts({ report: { correlation_id: "r", outcome: "parse", rollback_step: null, tokens_original: 10, tokens_sent: 10, tier: "none", pairs_removed: 0, would_send: null }, recorded: null }))),
      ...deltasOf(ledgerUpdate("cc:abc", "anthropic", 1, { ...emptyLedgerDelta("compact"), without_usd: 0.5, with_usd: 0.25 })),
      ...deltasOf(ledgerUpdate("cc:def", "anthropic", 1, { ...emptyLedgerDelta("measure"), without_usd: 0.25, with_usd: 0.125 })),
    ].map((d) => ({ family: d.family, suffix: d.suffix, labels: d.labels, value: d.delta }));
    expect(totalsOf(series, 3)).toEqual({
      sessions: 3, requests: 2, compacted: 1, fail_open: 1, tokens_original: 52_010, tokens_sent: 31_510, tokens_saved: 20_500,
      usd_saved: 0.00615, cache_hit_ratio: 30_000 / 31_500, ledger_saved_usd: 0.375,
    });
  });

  it("searches reference keys case-insensitively, by kind", () => {
    const view = makeView({ messages: [
      { role: "user", text: "go" },
      { role: "assistant", calls: [{ id: "a", tool: "Read", input: { file_path: "src/App.ts" } }, { id: "b", tool: "Bash", input: { command: "npm test -- app" } }] },
      { role: "user", results: [{ id: "a", text: "export const app = 1;" }, { id: "b", text: "Error: 2 tests failed", is_error: true }] },
      { role: "assistant", text: "done" },
    ] });
    const map = buildTierMap(factsOf(view), 4);
    // Tool names and error lines by substring; paths and commands (hashed in the facts) by their exact text.
    expect(searchMemory(map, "READ", null).matches.map((e) => `${e.kind}:${e.key}`)).toEqual(["tool:Read"]);
    expect(searchMemory(map, "app", "path").total).toBe(0);
    expect(searchMemory(map, "./src/App.ts", "path")).toEqual({ q: "./src/App.ts", kind: "path", total: 1, matches: [{ kind: "path", key: hashText("src/App.ts"), pair_ids: ["a"], first_message: 1, last_message: 1, count: 1 }] });
    expect(searchMemory(map, "npm test -- app", "command").matches.map((e) => e.pair_ids)).toEqual([["b"]]);
    expect(searchMemory(map, "", "error").matches.map((e) => e.key)).toEqual(["Error: 2 tests failed"]);
  });
});
