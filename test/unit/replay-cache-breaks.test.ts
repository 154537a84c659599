/**
 * The replay report's cache-breaks section (tools/replay/render-cache-breaks.ts) on a corpus
 * session: the first 57 calls of cc-cctrace-opus4 replayed against the provider emulator with the
 * in-process Sluice host, the emulator's billed usage handed back to the session's diagnostics
 * (src/observers/cache-diagnostics.ts). What they find there, exactly: the 4 h 22 min pause before
 * call 57; every other pair read the cache. Sluice takes no warm step in these calls (with the seed
 * prior of R at q = 0.1 none pays for its rewrite: src/core/cost/estimate-remaining-calls.ts), so
 * no miss is its own and its step cost is 0 (the sluice_step cause itself: test/unit/diagnose-break.test.ts).
 * The terminal and HTML sections show those counts.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CORPUS_PATH } from "../support/shared-dir";
import { readSessionText } from "../../tools/replay/read-session-text";
import { runReplay } from "../../tools/replay/run-replay";
import { renderTable } from "../../tools/replay/render-table";
import { renderHtml } from "../../tools/replay/render-html";

const ID = "cc-cctrace-opus4";

describe("replay report: cache breaks", () => {
  it(`${ID}, calls 1–57: ttl_expired at call 57, confirmed by the billed usage; no miss of Sluice's own`, async () => {
    const full = readSessionText(readFileSync(join(CORPUS_PATH, `${ID}.json`), "utf8"), `${ID}.json`);
    const session = { ...full, calls: full.calls.slice(0, 57) };
    const out = await runReplay({ sessions: [session], strategies: ["none", "sluice"], sluice: "in-process", emulator: null, gateway: null, concurrency: 1 });
    const r = out.report.cache_breaks![ID]!;
    // 56 pairs; the first two are not judged: calls 1 and 2 are under claude-opus-4's 1,024-token cache minimum, so they left nothing in the cache.
    expect({ pairs: r.pairs_checked, misses: r.misses, events: r.events.map((e) => [e.call, e.cause, e.message_index, e.gap_ms, e.tokens_affected, e.confirmed]) }).toEqual({
      pairs: 54, misses: 1, events: [[57, "ttl_expired", null, 15_705_407, 45_923, true]],
    });
    expect(r.sluice_step_cost_usd).toBe(0);
    expect(Object.entries(r.causes).filter(([, v]) => v.count > 0)).toEqual([["ttl_expired", { count: 1, tokens: 45_923 }]]);
    const text = renderTable(out.report);
    expect(text).toContain("Cache breaks (sluice run: what missed the provider cache between consecutive calls, per session):\n  cc-cctrace-opus4: 54 pairs checked, 1 misses (ttl_expired 1), sluice step cost $0.0000");
    expect(text).toContain("  ttl_expired: the gap since the previous call exceeded the cache lifetime");
    expect(renderHtml(out.report)).toContain('<table id="cache-breaks"><tr><th>session</th><th>pairs checked</th><th>misses</th><th>ttl_expired</th><th>sluice step cost</th></tr><tr><td>cc-cctrace-opus4</td><td>54</td><td>1</td><td>1</td><td>$0.0000</td></tr></table>');
  }, 300_000);
});
