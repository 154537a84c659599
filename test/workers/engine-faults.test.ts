/**
 * HTTP engine faults through the whole gateway (DESIGN invariant 5): the Worker runs
 * with `engine: "local"` pointing at the reference engine (tools/engine/server.ts) started as a
 * real process by globalSetup — well-behaved, slow past `timeout_ms`, answering 500, answering
 * garbage, resetting the socket — or at a closed port. A real corpus request
 * (cc-cctrace-opus4, call 15) goes through `exports.default.fetch`-equivalent `worker.fetch`,
 * the session DO asks the engine, and the upstream stand-in records what was forwarded.
 *
 * Settings make engine verdicts the ONLY possible removal: `min_result_bytes` at its maximum
 * (micro/time_based never truncate), `auto_context_pct` 1 (auto never fires on this 26k-token
 * request), `idle_seconds` 20 minutes (no time_based). So a failed engine must leave the
 * original bytes, and the good engine's edit is exactly its two verdicts (measured with the
 * reference rules: two superseded reads, drop_result at confidence 0.70 and 0.65 ≥ 0.6).
 *
 * The good engine's verdicts are priced like any step: on a warm cache the cost model declines
 * them here (removing two early reads rewrites the whole 26k-token prompt from the system
 * breakpoint, more than the remaining calls repay), so the tests that apply them send the request
 * again after the 5-minute cache lapsed (a manual clock, 400 s later), when the step costs no
 * cache write.
 */
import { describe, expect, inject, it } from "vitest";
import { env } from "cloudflare:workers";
import { runDurableObjectAlarm } from "cloudflare:test";
import { manualClock, send } from "./pipeline-harness";
import type { EngineName } from "../support/global-setup";
import { applyPlan } from "../../src/core/plan/apply-plan";
import { checkGuarantee } from "../../src/core/plan/check-guarantee";
import type { Env } from "../../src/config/env";
import type { SessionObject } from "../../src/session/session-object";
import { adapterFor } from "../../src/providers/registry";
import { scanJson } from "../../src/providers/shared/json-scan";
import { anthropicInvariants } from "../support/anthropic-invariants";
import { TEST_API_KEY, bytesOf, gatewayWithEnv, newTestId, received, sha256Hex, utf8 } from "./helpers";
import { newCoreCaches } from "../../src/core/caches";

const seed = inject("corpusSeeds").find((s) => s.name === "cc-cctrace-opus4#15")!;
const endpoints = inject("engineEndpoints");
const ORIGINAL = utf8(seed.body);
const adapter = adapterFor("anthropic")!;
const parsed = adapter.read(ORIGINAL, newCoreCaches());
const EST = parsed.view.est_tokens;

/** The two pairs the reference engine removes in this request (superseded reads). */
const DROPPED = ["toolu_01PAx3Wv9mZxmgTCBqCX244J", "toolu_01CyuiL5bXhk6B2eVgPiZZYA"];

/** Compaction config: local engine, aggressive gates, engine verdicts the only removal. */
function configFor(endpoint: string, timeout_ms: number): string {
  return JSON.stringify({
    engine: "local",
    endpoint,
    timeout_ms,
    threshold_tokens: 0,
    min_reduction: 0,
    min_result_bytes: 10_000_000,
    preserve_recent_turns: 1,
    auto_context_pct: 1,
    // The time-based tier waits 20 minutes of idle: the 400-second pause below lapses the cache without it.
    idle_seconds: 1_200,
  });
}

/** Sends the seed through the Worker with `engine` configured; returns what the client and the upstream saw and the DO's counters. `now` replaces the gateway's clock. */
async function sendThrough(engine: EngineName, timeout_ms: number, sessionName?: string, now?: () => number) {
  const id = newTestId(`eng-${engine}`);
  const session = sessionName ?? `engine-faults-${id}`;
  const headers = { "content-type": "application/json", "anthropic-version": "2023-06-01", "x-api-key": TEST_API_KEY, "x-test-id": id, "x-sluice-session": session };
  const vars = { COMPACTION_CONFIG: configFor(endpoints[engine], timeout_ms) };
  const res = now === undefined
    ? await gatewayWithEnv(vars, seed.path, { method: "POST", headers, body: ORIGINAL })
    : (await send(vars, seed.path, headers, ORIGINAL, { now })).res;
  if (now === undefined) await res.arrayBuffer();
  const recs = await received(id);
  const ns = (env as unknown as Env).SESSION as DurableObjectNamespace<SessionObject>;
  const stats = await ns.get(ns.idFromName(session)).stats();
  const counters = Object.fromEntries(
    Object.entries(stats.counters).filter(([k]) => k.startsWith("fail_open_") || k.startsWith("engine_") || ["compacted", "unchanged", "requests"].includes(k)),
  );
  return { res, recs, counters };
}

/** 400 s: past Anthropic's 5-minute cache lifetime, so the next request's step writes no cache the client had. */
const CACHE_LAPSED_MS = 400_000;
const WARM_DECLINED = `compact; tier=micro; step=none; skipped=not_positive; pairs_removed=0; tokens_before=${EST}; tokens_after=${EST}`;

describe("engine faults at the gateway: the original history, byte for byte, and the reason counted", () => {
  const faults: Array<{ engine: EngineName; timeout_ms: number; counter: string }> = [
    // slow answers after 30 s; the 300 ms deadline aborts the engine call.
    { engine: "slow", timeout_ms: 300, counter: "fail_open_engine_timeout" },
    // The others answer at once: a deadline no busy machine reaches keeps them from reading as timeouts.
    { engine: "status500", timeout_ms: 20_000, counter: "fail_open_engine_http_5xx" },
    { engine: "garbage", timeout_ms: 20_000, counter: "fail_open_engine_malformed" },
    { engine: "reset", timeout_ms: 20_000, counter: "fail_open_engine_network" },
    { engine: "closed", timeout_ms: 20_000, counter: "fail_open_engine_network" },
  ];
  for (const { engine, timeout_ms, counter } of faults) {
    it(`${engine} (timeout_ms ${timeout_ms}) → upstream gets the original sha256, ${counter} = 1`, async () => {
      const { res, recs, counters } = await sendThrough(engine, timeout_ms);
      expect(res.status).toBe(200);
      expect(res.headers.get("x-sluice-compaction")).toBe(`compact; tier=micro; step=none; skipped=no_candidates; pairs_removed=0; tokens_before=${EST}; tokens_after=${EST}`);
      expect(recs).toHaveLength(1);
      expect(await sha256Hex(bytesOf(recs[0]!))).toBe(await sha256Hex(ORIGINAL));
      expect(counters).toEqual({ [counter]: 1, requests: 1, unchanged: 1 });
    });
  }
});

describe("the good engine at the gateway", () => {
  it("its verdicts are applied: upstream gets exactly the two results dropped, the body passes the checker and the provider rules", async () => {
    const session = `engine-good-${newTestId("good")}`;
    const clock = manualClock();
    const warm = await sendThrough("good", 20_000, session, clock.now);
    expect([warm.res.headers.get("x-sluice-compaction"), await sha256Hex(bytesOf(warm.recs[0]!))]).toEqual([WARM_DECLINED, await sha256Hex(ORIGINAL)]);
    clock.advance(CACHE_LAPSED_MS);
    const { res, recs, counters } = await sendThrough("good", 20_000, session, clock.now);
    expect(res.status).toBe(200);
    const expected = applyPlan(adapter, parsed, { actions: Object.fromEntries(DROPPED.map((id) => [id, { kind: "drop_result" as const }])) }).bytes;
    expect(recs).toHaveLength(1);
    const got = bytesOf(recs[0]!);
    expect(await sha256Hex(got)).toBe(await sha256Hex(expected));
    expect(got.length).toBeLessThan(ORIGINAL.length);
    expect(checkGuarantee(adapter, ORIGINAL, got)).toMatchObject({ ok: true, violations: [] });
    expect(adapter.checkRules(got, scanJson(got), newCoreCaches())).toEqual([]);
    expect(anthropicInvariants(JSON.parse(new TextDecoder().decode(got)) as { messages: { role: string; content: unknown }[] })).toEqual([]);
    const after = adapter.read(got, newCoreCaches()).view.est_tokens;
    expect(res.headers.get("x-sluice-compaction")).toMatch(new RegExp(`^compact; tier=micro; step=1; pairs_removed=2; tokens_before=${EST}; tokens_after=\\d+$`));
    expect(after).toBeLessThan(EST);
    expect(counters).toEqual({ engine_calls: 2, compacted: 1, unchanged: 1, requests: 2 });
  });
});

describe("idle-time precomputation (DESIGN §6: no request waits on the engine after the idle alarm)", () => {
  it("the idle alarm asks the engine off the request path; the next request uses those verdicts and never calls the engine", async () => {
    const session = `engine-precompute-${newTestId("pre")}`;
    const clock = manualClock();
    const first = await sendThrough("good", 20_000, session, clock.now);
    expect([first.res.headers.get("x-sluice-compaction"), first.counters]).toEqual([WARM_DECLINED, { engine_calls: 1, unchanged: 1, requests: 1 }]);
    const ns = (env as unknown as Env).SESSION as DurableObjectNamespace<SessionObject>;
    const stub = ns.get(ns.idFromName(session));
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    const afterAlarm = (await stub.stats()).counters;
    expect([afterAlarm.engine_calls, afterAlarm.engine_precomputed, afterAlarm.alarms_idle]).toEqual([2, 1, 1]);
    // The second request's config points at a CLOSED port: a live engine call would count
    // fail_open_engine_network. It is never made: the precomputed verdicts cover the step.
    clock.advance(CACHE_LAPSED_MS);
    const second = await sendThrough("closed", 20_000, session, clock.now);
    expect(second.res.status).toBe(200);
    expect(second.counters).toEqual({ engine_calls: 2, engine_precomputed: 1, engine_precomputed_used: 1, compacted: 1, unchanged: 1, requests: 2 });
    // The first step's two removals are re-applied byte for byte (sticky ledger).
    const expected = applyPlan(adapter, parsed, { actions: Object.fromEntries(DROPPED.map((id) => [id, { kind: "drop_result" as const }])) }).bytes;
    expect(await sha256Hex(bytesOf(second.recs[0]!))).toBe(await sha256Hex(expected));
  });
});
