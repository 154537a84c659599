/**
 * Fuzz through the Worker, fixed seed, inside `npm test`: generated conversations
 * and mutated corpus requests (test/support/fuzz/make-case.ts) go through the real Worker with
 * compaction on and every gate as low as the schema allows (heuristic engine, no session
 * header: sessions come from the body's fingerprint, so mutated bodies of one seed share a DO
 * and its ledger). For every case:
 * 1. the gateway answers the upstream stand-in's 200 (never a 5xx of its own);
 * 2. the stand-in received exactly one request, whose body is the client's bytes or an edit
 *    that passes check-forwarded.ts (guarantee checker, provider rules, byte-subsequence,
 *    JSON, independent oracle).
 * The volume run is `npm run fuzz` (Node, pure pipeline); this one proves the same through
 * workerd, the session DO and the forwarder.
 */
import { describe, expect, inject, it } from "vitest";
import { AGGRESSIVE_CONFIG } from "../support/fuzz/fuzz-pipeline";
import { checkForwarded, sameBytes } from "../support/fuzz/check-forwarded";
import { makeCase } from "../support/fuzz/make-case";
import { TEST_API_KEY, bytesOf, gatewayWithEnv, newTestId, received } from "./helpers";

/** Fixed run: seed and count (calibration: ~150 cases keep this file near 20 s in workerd). */
const SEED = 20261130;
const COUNT = 150;
const CONFIG = JSON.stringify({ engine: "heuristic", ...AGGRESSIVE_CONFIG });
const seeds = inject("corpusSeeds");

describe(`fuzz through the Worker (seed ${SEED}, ${COUNT} cases)`, () => {
  it("never a gateway 5xx; the upstream gets the original bytes or a verified edit", async () => {
    const failures: string[] = [];
    const kinds: Record<string, number> = {};
    let edited = 0;
    for (let index = 0; index < COUNT; index++) {
      const c = await makeCase(seeds, SEED, index);
      kinds[c.kind] = (kinds[c.kind] ?? 0) + 1;
      const id = newTestId(`fuzz-${index}`);
      const label = `#${index} ${c.kind} of ${c.base} (${c.provider})`;
      const res = await gatewayWithEnv({ COMPACTION_CONFIG: CONFIG }, c.path, { method: "POST", headers: { "x-api-key": TEST_API_KEY, ...c.headers, "x-test-id": id }, body: c.body });
      const text = await res.text();
      if (res.status !== 200) {
        failures.push(`${label}: status ${res.status} ${text.slice(0, 200)}`);
        continue;
      }
      const recs = await received(id);
      if (recs.length !== 1) {
        failures.push(`${label}: upstream got ${recs.length} requests`);
        continue;
      }
      const forwarded = bytesOf(recs[0]!);
      // A compressed body goes as it came, or decoded and edited as identity (no content-encoding).
      const edit = !sameBytes(forwarded, c.body);
      if (edit) edited++;
      if (edit && c.decoded !== undefined && recs[0]!.headers["content-encoding"] !== undefined) failures.push(`${label}: edited body forwarded with content-encoding ${recs[0]!.headers["content-encoding"]}`);
      const problems = checkForwarded(c.provider, edit && c.decoded !== undefined ? c.decoded : c.body, forwarded);
      if (problems.length > 0) failures.push(`${label}: ${problems.slice(0, 3).join("; ")}`);
    }
    console.log(`fuzz-gateway: ${COUNT} cases, ${edited} forwarded edited, kinds ${JSON.stringify(kinds)}`);
    expect(failures).toEqual([]);
    // The run must reach both outcomes: hostile inputs forwarded as is, and real edits.
    expect(edited).toBeGreaterThan(5);
    expect(Object.keys(kinds).length).toBeGreaterThanOrEqual(12);
  }, 240_000);
});
