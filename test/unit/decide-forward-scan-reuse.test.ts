/**
 * The guarantee check's output scan reusing the session's last forwarded body
 * (src/gateway/decide-forward.ts `scanEdited`, src/core/plan/check-guarantee.ts `scanOutput`):
 * over consecutive calls of real corpus sessions whose ledger removes the same results on every
 * call, the decision with the scan cache equals the decision without it, field for field, while
 * the cache really reuses the last forwarded body, and a corrupted body is refused with the same
 * violations; a scanner that throws fails open as a failed check.
 */
import { describe, expect, it } from "vitest";
import type { EditPlan } from "../../src/core/plan/types";
import { checkGuarantee } from "../../src/core/plan/check-guarantee";
import type { StepOutput } from "../../src/do/step-types";
import { decideForward } from "../../src/gateway/decide-forward";
import { prepareCompaction } from "../../src/gateway/prepare-compaction";
import { ScanCache } from "../../src/gateway/scan-cache";
import { anthropicRequest, callPrefixes, openaiRequest, sessions } from "../support/corpus";

const step = (plan: EditPlan): StepOutput => ({
  disabled: false, tier: "micro", plan, step: null, skipped: null, tokens_original: 0, tokens_after: 0, pairs_removed: 0, cost_estimate: 0, new_pair_ids: [], warnings: [],
});

describe("decideForward with the forwarded-body scan cache", () => {
  for (const [provider, id] of [["anthropic", "cc-cctrace-opus4"], ["openai-chat", "codex-rtchess-01"]] as const) {
    it(`${id}: 12 consecutive compacted calls decide exactly as with a fresh scan, reusing the last forwarded body`, () => {
      const s = sessions(provider).find((x) => x.id === id)!;
      const ends = callPrefixes(s);
      const received = new ScanCache();
      const sent = new ScanCache();
      let plan: EditPlan | null = null;
      let prev: Uint8Array | null = null;
      let edited = 0;
      for (const end of ends.slice(Math.floor(ends.length / 2), Math.floor(ends.length / 2) + 12)) {
        const bytes = provider === "anthropic" ? anthropicRequest(s, end) : openaiRequest(s, end);
        const ready = prepareCompaction(provider, new Headers({ "x-sluice-session": id }), bytes, undefined, (b) => received.scan(id, b));
        if (ready.kind !== "ready") throw new Error(ready.note);
        // The ledger of the first call: drop the results of its first 4 pairs of ≥ 1000 bytes; re-applied on every later call.
        plan ??= { actions: Object.fromEntries(ready.parsed.view.pairs.filter((p) => p.result_bytes >= 1000).slice(0, 4).map((p) => [p.id, { kind: "drop_result" as const }])) };
        expect(Object.keys(plan.actions)).toHaveLength(4);
        const fresh = decideForward(ready, bytes, step(plan), "compact", "c");
        const reused = decideForward(ready, bytes, step(plan), "compact", "c", (b) => sent.scan(id, b));
        // Bodies compared as bytes (Buffer.equals: toEqual walks a Uint8Array element by element), the rest field by field.
        expect(Buffer.from(reused.body).equals(Buffer.from(fresh.body))).toBe(true);
        expect({ ...reused, body: null }).toEqual({ ...fresh, body: null });
        expect(reused.kind).toBe("edited");
        expect(reused.report.pairs_removed).toBe(4);
        // Each forwarded body starts with the last one but for its closing bytes: the scan reused all of it.
        if (prev === null) expect(sent.lastPrefix).toBe(0);
        else expect(sent.lastPrefix).toBeGreaterThan(prev.length - 64);
        // A corrupted output (one letter changed in the newest message, past the reused prefix) is refused alike, with the same violations.
        const bad = reused.body.slice();
        const at = bad.lastIndexOf(0x65 /* e */);
        bad[at] = 0x45; /* E */
        const opts = { input: ready.parsed };
        const beside = new ScanCache(); // seeded with the last good forwarded body, as the gateway's cache is
        if (prev !== null) beside.scan("k", prev);
        const refused = checkGuarantee(ready.adapter, bytes, bad, { ...opts, scanOutput: (b) => beside.scan("k", b) });
        expect(refused.ok).toBe(false);
        if (prev !== null) expect(beside.lastPrefix).toBeGreaterThan(prev.length - 64);
        expect(refused.violations).toEqual(checkGuarantee(ready.adapter, bytes, bad, opts).violations);
        prev = reused.body;
        edited++;
      }
      expect(edited).toBe(12);
    });
  }

  it("a scanner that throws is a failed check: the original bytes go, and the step is rolled back", () => {
    const s = sessions("anthropic").find((x) => x.id === "cc-cctrace-opus4")!;
    const bytes = anthropicRequest(s, callPrefixes(s)[10]!);
    const ready = prepareCompaction("anthropic", new Headers(), bytes);
    if (ready.kind !== "ready") throw new Error(ready.note);
    const pair = ready.parsed.view.pairs.find((p) => p.result_bytes >= 100)!;
    const plan: EditPlan = { actions: { [pair.id]: { kind: "drop_result" } } };
    const boom = () => { throw new Error("scan failed"); };
    const check = checkGuarantee(ready.adapter, bytes, new TextEncoder().encode("{}"), { scanOutput: boom });
    expect(check).toEqual({ ok: false, violations: ["output is not valid JSON: scan failed"] });
    const d = decideForward(ready, bytes, { ...step(plan), step: 3 }, "compact", "c", boom);
    expect(d.body).toBe(bytes);
    expect([d.kind, d.note, d.report.outcome, d.report.rollback_step]).toEqual(["original", "skipped; reason=guarantee_check", "guarantee_check", 3]);
  });
});
