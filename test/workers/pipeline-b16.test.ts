/**
 * Case B16 (test/fixtures/cases/B16.json, compaction.unstable_prefix_breaks_prompt_cache) through
 * the live pipeline. The case's two requests N and N+1 (N+1 extends N by a closing answer and a
 * new user message) are sent with their "(imagine N KB of … log)" results made real (900, 600
 * and 200 log lines, so the request is over 5 % of the window and a tier can act). Request N
 * comes after a pause past the cache TTL, so it takes a time_based step (the cold cache makes it
 * free). The case's expected property: every message forwarded in N is forwarded byte for byte
 * the same in N+1 (a sliding window would now collapse the `npm test` result, which N+1 made
 * old), and tools and system are identical — unless N+1 is itself a step, which the response
 * header must then say (the deliberate, infrequent re-compaction of the rule). N+1 comes 20 s
 * after N (cache warm) — or, for the re-compaction, after another pause past the TTL: warm, a
 * step whose only pair has just become old waits to gather more (src/core/policy/step-timing.ts).
 */
import { describe, expect, it } from "vitest";
import { inject } from "vitest";
import { getMember, scanJson } from "../../src/providers/shared/json-scan";
import { newTestId, utf8 } from "./helpers";
import { compactionHeader, compactVars, logText, manualClock, send, upstreamBodies } from "./pipeline-harness";

type Body = { messages: { role: string; content: unknown }[] } & Record<string, unknown>;
const CONFIG = { threshold_tokens: 0, preserve_recent_turns: 1, min_result_bytes: 256, head_chars: 200, min_reduction: 0.01, min_remaining_calls: 8 };
type Lines = Record<string, number>;
/**
 * Log lines per command (≈ 7.6 estimated tokens a line; both sets are over 5 % of the 200k
 * window). STABLE: collapsing the npm test log in N+1 would leave under 12 % of the history (the
 * cost model's min keep ratio), so N+1 takes no step. RECOMPACT: a short npm test log that N+1,
 * cold, drops with its call (a step, which must be marked: time_based drops whole every pair first
 * seen before the idle gap).
 */
const STABLE: Lines = { "npm ci": 600, "npm run lint": 300, "npm test": 900 };
const RECOMPACT: Lines = { "npm ci": 900, "npm run lint": 600, "npm test": 200 };

/** The case's request with each imagined log made real (same text head, then the log lines). */
function realised(body: Body, lines: Lines): Uint8Array {
  const copy = JSON.parse(JSON.stringify(body)) as Body;
  const cmdOf = new Map<string, string>();
  for (const m of copy.messages) {
    if (!Array.isArray(m.content)) continue;
    for (const b of m.content as Record<string, unknown>[]) {
      if (b.type === "tool_use") cmdOf.set(String(b.id), String((b.input as { cmd: string }).cmd));
      if (b.type === "tool_result") {
        const cmd = cmdOf.get(String(b.tool_use_id))!;
        b.content = `${String(b.content).split("\n")[0]}\n${logText(cmd, lines[cmd]!)}`;
      }
    }
  }
  return utf8(JSON.stringify(copy));
}

/** Raw bytes of each top-level member other than messages, and of each message, as forwarded. */
function parts(bytes: Uint8Array): { top: string[]; messages: string[] } {
  const dec = new TextDecoder();
  const root = scanJson(bytes);
  if (root.type !== "object") throw new Error("not an object");
  const top = root.entries.filter((e) => e.key !== "messages").map((e) => `${e.key}=${dec.decode(bytes.subarray(e.value.start, e.value.end))}`);
  const msgs = getMember(root, "messages");
  if (msgs?.type !== "array") throw new Error("no messages");
  return { top, messages: msgs.items.map((n) => dec.decode(bytes.subarray(n.start, n.end))) };
}

const b16 = JSON.parse(inject("case:B16" as never) as string) as { request: { turn_n: Body; turn_n_plus_1: Body } };

/** N after a pause past the cache TTL, then N+1 `gapN1` ms later (default 20 s: cache warm). */
async function sendPair(lines: Lines, gapN1 = 20_000) {
  const session = newTestId("b16");
  const clock = manualClock();
  const headers = { "x-test-id": session, "x-sluice-session": session };
  const vars = compactVars(CONFIG);
  // A first request with only the first exchange, then N after a pause past the cache TTL.
  await send(vars, "/anthropic/v1/messages", headers, utf8(JSON.stringify({ ...b16.request.turn_n, messages: b16.request.turn_n.messages.slice(0, 1) })), { now: clock.now });
  clock.advance(400_000);
  const n = await send(vars, "/anthropic/v1/messages", headers, realised(b16.request.turn_n, lines), { now: clock.now });
  clock.advance(gapN1);
  const n1 = await send(vars, "/anthropic/v1/messages", headers, realised(b16.request.turn_n_plus_1, lines), { now: clock.now });
  const [, fN, fN1] = await upstreamBodies(session);
  return { hN: compactionHeader(n.res), hN1: compactionHeader(n1.res), fN: parts(fN!), fN1: parts(fN1!), originalN: parts(realised(b16.request.turn_n, lines)) };
}

describe("B16: compaction is prefix-stable across turns", () => {
  it("N takes a step; N+1 (20 s later, no step) forwards every message of N byte for byte, tools and system identical", async () => {
    const r = await sendPair(STABLE);
    expect([r.hN.tier, r.hN.step, r.hN.pairs_removed]).toEqual(["time_based", "1", "2"]);
    // N really changed what was sent: the two old results were collapsed.
    expect(r.fN.messages[2]).not.toBe(r.originalN.messages[2]);
    expect(r.fN.messages[4]).not.toBe(r.originalN.messages[4]);
    expect(r.fN.messages[6]).toBe(r.originalN.messages[6]);
    // N+1: no re-compaction event; the npm test result (now old) is not touched.
    expect([r.hN1.tier, r.hN1.step]).toEqual(["micro", "none"]);
    expect(r.fN1.top).toEqual(r.fN.top);
    expect(r.fN1.messages.slice(0, r.fN.messages.length)).toEqual(r.fN.messages);
    expect(r.fN1.messages.length).toBe(9);
  });

  it("when N+1 does re-compact, the header names the step (2), and N's collapsed messages still go as in N", async () => {
    const r = await sendPair(RECOMPACT, 400_000);
    expect([r.hN.tier, r.hN.step, r.hN1.tier, r.hN1.step, r.hN1.pairs_removed]).toEqual(["time_based", "1", "time_based", "2", "3"]);
    expect(r.fN1.top).toEqual(r.fN.top);
    // Sticky: N's two collapsed results are forwarded as in N; the newly old npm test pair (N's
    // messages 5 and 6) is gone whole, so N+1's message 5 is its closing answer.
    expect(r.fN1.messages.slice(0, 5)).toEqual(r.fN.messages.slice(0, 5));
    expect([r.fN.messages[5], r.fN1.messages[5]]).toEqual([expect.stringContaining('"cmd":"npm test"'), '{"role":"assistant","content":[{"type":"text","text":"All checks pass."}]}']);
  });
});
