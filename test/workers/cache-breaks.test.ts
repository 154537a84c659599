/**
 * Cache-breaker diagnostics through the gateway in workerd (src/observers/cache-diagnostics.ts): two
 * Anthropic requests of one session, the first answered with usage that left 930 tokens in the
 * cache, the second with a cold usage (0 read). GET /admin/sessions/:id/cache must name the cause
 * exactly: a timestamp in the system prompt at its exact byte offset (the isolate held the
 * previous body) or, from another isolate, at its 256-byte chunk; the tools reordered; or a miss the bytes do not explain; a second call that
 * read the cache records nothing; without the first call's usage the diagnosis is unconfirmed.
 */
import { describe, expect, it } from "vitest";
import { newTestId } from "./helpers";
import { compactVars, send } from "./pipeline-harness";
import { ScanCache } from "../../src/gateway/scan-cache";
import type { PipelineDeps } from "../../src/gateway/compaction-pipeline";
import { AUTH, adminAppFor, envWith } from "./admin-seed";
import type { CacheReport } from "../../src/observers/cache-diagnostics";

const PATH = "/anthropic/v1/messages";
const SYSTEM = "You are a careful coding agent. Current time: 2026-12-03T11:35:17Z. Answer briefly.";
const TOOLS = [
  { name: "Read", description: "Reads a file", input_schema: { type: "object" } },
  { name: "Bash", description: "Runs a command", input_schema: { type: "object" } },
];
const body = (system: string, tools: unknown[], turns: number) =>
  JSON.stringify({
    model: "claude-sonnet-4-5", max_tokens: 64, system, tools,
    messages: Array.from({ length: turns * 2 - 1 }, (_, i) => ({ role: i % 2 === 0 ? "user" : "assistant", content: i % 2 === 0 ? `question ${i}` : `answer ${i}` })),
  });

async function twoCalls(second: string, scenario = "usage:anthropic-cold:json", first = "usage:anthropic:json", firstBody = body(SYSTEM, TOOLS, 1), secondDeps: Partial<PipelineDeps> = {}): Promise<{ session: string; report: CacheReport & { session_id: string } }> {
  const session = newTestId("cache-breaks");
  const headers = { "x-test-id": session, "x-sluice-session": session };
  await send(compactVars({}), PATH, { ...headers, "x-test-scenario": first }, firstBody);
  await send(compactVars({}), PATH, { ...headers, "x-test-scenario": scenario }, second, secondDeps);
  const res = await adminAppFor("idx-cache").request(`/admin/sessions/${session}/cache`, { headers: AUTH }, envWith());
  expect(res.status).toBe(200);
  return { session, report: (await res.json()) as CacheReport & { session_id: string } };
}

const ZERO = { count: 0, tokens: 0 };

describe("GET /admin/sessions/:id/cache", () => {
  it("a timestamp changed in the system prompt: timestamp_in_prefix at the exact byte offset, confirmed by the cold usage", async () => {
    const { session, report } = await twoCalls(body(SYSTEM.replace("11:35:17", "11:52:40"), TOOLS, 2));
    // The system value's JSON starts with its quote; "35:17" → "52:40" differs at its first digit.
    const offset = 1 + SYSTEM.indexOf("35:17");
    expect(report.session_id).toBe(session);
    expect([report.pairs_checked, report.misses, report.sluice_step_cost_usd]).toEqual([1, 1, 0]);
    const [event, ...rest] = report.events;
    expect(rest).toEqual([]);
    expect(event).toMatchObject({ call: 2, cause: "timestamp_in_prefix", byte_offset: offset, offset_exact: true, message_index: null, tools: null, members: [], confirmed: true, cost_usd: null });
    expect(report.causes.timestamp_in_prefix).toEqual({ count: 1, tokens: event!.tokens_affected });
    expect(event!.tokens_affected).toBeGreaterThan(0);
    expect(Object.entries(report.causes).filter(([k]) => k !== "timestamp_in_prefix").every(([, v]) => v.count === 0 && v.tokens === 0)).toBe(true);
    // Counts and offsets only: no text of the prompt in the answer.
    expect(JSON.stringify(report)).not.toContain("careful");
  });

  it("served by an isolate without the previous body: system_changed at the start of the first differing 256-byte chunk", async () => {
    const long = `${"Follow the repository's conventions. ".repeat(15)}${SYSTEM}`;
    const changed = long.replace("11:35:17", "11:52:40");
    // A fresh scan cache stands for another isolate: the previous body is not at hand, only the hashes the DO kept.
    const { report } = await twoCalls(body(changed, TOOLS, 2), "usage:anthropic-cold:json", "usage:anthropic:json", body(long, TOOLS, 1), { scanCache: new ScanCache() });
    const exact = 1 + long.indexOf("35:17");
    expect(exact).toBeGreaterThan(512);
    expect(report.events.map((e) => [e.cause, e.byte_offset, e.offset_exact])).toEqual([["system_changed", Math.floor(exact / 256) * 256, false]]);
  });

  it("the tools reordered: tools_changed with reordered 2, nothing added, removed or changed", async () => {
    const { report } = await twoCalls(body(SYSTEM, [TOOLS[1], TOOLS[0]], 2));
    expect(report.events.map((e) => [e.cause, e.tools, e.byte_offset, e.confirmed])).toEqual([["tools_changed", { added: 0, removed: 0, changed: 0, reordered: 2 }, null, true]]);
    expect(report.causes.tools_changed.count).toBe(1);
    expect(report.causes.system_changed).toEqual(ZERO);
  });

  it("a cold call the bytes do not explain (same prefix, history appended): unexplained, the whole previous request affected", async () => {
    const { report } = await twoCalls(body(SYSTEM, TOOLS, 2));
    expect([report.pairs_checked, report.misses, report.events.map((e) => [e.call, e.cause, e.confirmed])]).toEqual([1, 1, [[2, "unexplained", true]]]);
    expect(report.causes.unexplained.tokens).toBe(report.events[0]!.tokens_affected);
  });

  it("without usage for the earlier call there is nothing to compare with: the diagnosis stands unconfirmed", async () => {
    const { report } = await twoCalls(body(SYSTEM.replace("11:35:17", "11:52:40"), TOOLS, 2), "usage:anthropic-cold:json", "");
    expect([report.pairs_checked, report.misses, report.events.map((e) => [e.cause, e.confirmed])]).toEqual([0, 0, [["timestamp_in_prefix", false]]]);
  });

  it("a changed prompt whose next call still read the cache records no event (the usage did not show a miss)", async () => {
    const { report } = await twoCalls(body(SYSTEM.replace("11:35:17", "11:52:40"), TOOLS, 2), "usage:anthropic:json");
    expect([report.pairs_checked, report.misses, report.events]).toEqual([1, 0, []]);
  });
});
