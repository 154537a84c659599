/**
 * The pure halves of the compaction pipeline shared by the Worker and the replay
 * (src/gateway/prepare-compaction.ts, src/gateway/decide-forward.ts): literal request in, whole
 * decision out.
 */
import { describe, expect, it } from "vitest";
import type { StepOutput } from "../../src/session/contract";
import { decideForward } from "../../src/gateway/decide-forward";
import { prepareCompaction } from "../../src/gateway/prepare-compaction";
import { anthropicAdapter } from "../../src/providers/anthropic-messages";
import { newCoreCaches } from "../../src/core/caches";

const body = JSON.stringify({
  model: "claude-sonnet-4-5",
  max_tokens: 100,
  tools: [{ name: "Read", input_schema: { type: "object" } }],
  messages: [
    { role: "user", content: "read a" },
    { role: "assistant", content: [{ type: "tool_use", id: "t1", name: "Read", input: { p: "a" } }] },
    { role: "user", content: [{ type: "tool_result", tool_use_id: "t1", content: "0123456789\nabcdefghij\n" }] },
    { role: "assistant", content: "ok" },
    { role: "user", content: "next" },
  ],
});
const bytes = new TextEncoder().encode(body);
const headers = new Headers({ "x-sluice-session": "s-1" });

const step = (over: Partial<StepOutput>): StepOutput => ({
  disabled: false, tier: "micro", plan: { actions: {} }, step: null, skipped: null, tokens_original: 100, tokens_after: 100, pairs_removed: 0, cost_estimate: 0, new_pair_ids: [], warnings: [], ...over,
});

describe("prepareCompaction", () => {
  it("skips on the opt-out header, a route without adapter, and a body that does not parse", () => {
    expect(prepareCompaction("anthropic", new Headers({ "x-sluice-compaction": " OFF " }), bytes)).toEqual({ kind: "skip", note: "off; reason=client_header", reason: "client_header" });
    expect(prepareCompaction(undefined, headers, bytes)).toEqual({ kind: "skip", note: "skipped; reason=no_adapter", reason: "no_adapter" });
    expect(prepareCompaction("anthropic", headers, new TextEncoder().encode("{"))).toEqual({ kind: "skip", note: "skipped; reason=parse", reason: "parse" });
  });
  it("names the session from x-sluice-session and slims the view", () => {
    const p = prepareCompaction("anthropic", headers, bytes);
    if (p.kind !== "ready") throw new Error(p.note);
    expect([p.provider, p.session, p.parsed.view.pairs.map((x) => x.id)]).toEqual(["anthropic", { id: "s-1", source: "header" }, ["t1"]]);
  });
});

describe("decideForward", () => {
  const ready = prepareCompaction("anthropic", headers, bytes);
  if (ready.kind !== "ready") throw new Error("not ready");
  // Token figures are the estimator's count of the bytes actually forwarded, not the DO's plan estimate (100).
  const est = ready.parsed.view.est_tokens;
  const base = { correlation_id: "c-1", rollback_step: null, tokens_original: est, tokens_sent: est, pairs_removed: 0, would_send: null };
  const truncated = body.replace("0123456789\\nabcdefghij\\n", "0123456789");
  const truncatedEst = anthropicAdapter.read(new TextEncoder().encode(truncated), newCoreCaches()).view.est_tokens;

  it("forwards the original bytes when the session is disabled or the plan is empty", () => {
    expect(decideForward(ready, bytes, step({ disabled: true }), "compact", "c-1")).toEqual({ kind: "original", body: bytes, note: "off; reason=session_disabled", report: { ...base, outcome: "unchanged", tier: "none" } });
    expect(decideForward(ready, bytes, step({ skipped: "under_threshold" }), "compact", "c-1")).toEqual({
      kind: "original", body: bytes, note: `compact; tier=micro; step=none; skipped=under_threshold; pairs_removed=0; tokens_before=${est}; tokens_after=${est}`, report: { ...base, outcome: "unchanged", tier: "micro" },
    });
  });

  it("measurement mode applies and checks the plan, forwards the original, reports what would have been sent", () => {
    const plan = { actions: { t1: { kind: "truncate_result" as const, head_bytes: 10 } } };
    const measured = decideForward(ready, bytes, step({ plan, step: 1, pairs_removed: 1, tokens_after: 90 }), "measure", "c-1");
    expect(measured).toEqual({
      kind: "original", body: bytes, note: `measure; tier=micro; step=1; pairs_removed=1; tokens_before=${est}; tokens_after=${truncatedEst}`,
      report: { ...base, outcome: "measured", tier: "micro", pairs_removed: 1, would_send: truncatedEst },
    });
  });

  it("applies a plan that passes the guarantee check", () => {
    const plan = { actions: { t1: { kind: "truncate_result" as const, head_bytes: 10 } } };
    const d = decideForward(ready, bytes, step({ plan, step: 1, pairs_removed: 1, tokens_after: 95 }), "compact", "c-1");
    expect(d.kind).toBe("edited");
    expect(new TextDecoder().decode(d.body)).toBe(truncated);
    expect(truncatedEst).toBeLessThan(est);
    expect(d.report).toEqual({ ...base, outcome: "compacted", tokens_sent: truncatedEst, tier: "micro", pairs_removed: 1 });
    expect(d.note).toBe(`compact; tier=micro; step=1; pairs_removed=1; tokens_before=${est}; tokens_after=${truncatedEst}`);
  });

  it("fails open and rolls the step back when applying throws (an action kind the adapter does not know)", () => {
    const plan = { actions: { t1: { kind: "bogus" } } } as unknown as StepOutput["plan"];
    const d = decideForward(ready, bytes, step({ plan, step: 4 }), "compact", "c-1");
    expect(d).toEqual({ kind: "original", body: bytes, note: "skipped; reason=apply_error", report: { ...base, outcome: "apply_error", rollback_step: 4, tier: "micro" } });
  });
});
