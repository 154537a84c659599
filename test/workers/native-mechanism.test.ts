/**
 * The native mechanism and a gateway's pass-through rules (platform.claude.com
 * "Libraries, proxies, and gateways"), in workerd through the real hook and the real upstream
 * stand-in. A Claude Code-shaped session on claude-opus-5-5 (adaptive thinking, a thinking-only
 * client edit, thinking blocks bound to their prefix): Sluice forwards every message byte for
 * byte and adds one clear_tool_uses edit and the beta; the provider's applied_edits reach the
 * session; an edit it did not apply saves nothing.
 */
import { describe, expect, it } from "vitest";
import { STATUS_BODY, USAGE_ANSWERS } from "../support/scenarios";
import { newTestId, received } from "./helpers";
import { compactionHeader, compactVars, LITERAL_CONFIG, logText, manualClock, send, statsOf, upstreamBodies } from "./pipeline-harness";

const dec = new TextDecoder();
const THINK = (s: string) => ({ type: "thinking", thinking: "", signature: `sig-${s}` });
const CLIENT_EDIT = { type: "clear_thinking_20251015", keep: "all" };
/** Claude Code 2.1.332's shape: its default model, adaptive thinking shown as omitted, the thinking-only edit. */
function claudeCodeBody(extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    model: "claude-opus-5-5",
    max_tokens: 32000,
    thinking: { type: "adaptive", display: "omitted", block_binding: { prefix_mismatch_behavior: "drop_block" } },
    context_management: { edits: [CLIENT_EDIT] },
    tools: [{ name: "shell", description: "stub", input_schema: { type: "object" } }],
    messages: [
      { role: "user", content: "Run the checks." },
      { role: "assistant", content: [THINK("a"), { type: "tool_use", id: "toolu_A", name: "shell", input: { cmd: "make a" } }] },
      { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_A", content: logText("a", 800) }] },
      { role: "system", content: "The user is away; keep going." },
      { role: "assistant", content: [THINK("b"), { type: "tool_use", id: "toolu_B", name: "shell", input: { cmd: "make b" } }] },
      { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_B", content: logText("b", 800) }] },
      { role: "assistant", content: [THINK("c"), { type: "text", text: "Both ran." }] },
      { role: "user", content: "Next, please." },
    ],
    ...extra,
  });
}
const PATH = "/anthropic/v1/messages";
const CLIENT_BETA = "interleaved-thinking-2025-05-14,thinking-binding-controls-2026-08-01";

/**
 * Two calls of one session, the second 400 s later (past the cache TTL: a time_based step pays);
 * `third`: one more call 1 s after the second (it re-applies the step and reports what the
 * provider did with the second's edit).
 */
async function twoCalls(body: string, config: Record<string, unknown>, headers: Record<string, string> = {}, third = false) {
  const session = newTestId("native");
  const clock = manualClock();
  const h = { "x-test-id": session, "x-sluice-session": session, "anthropic-beta": CLIENT_BETA, ...headers };
  await send(compactVars(config), PATH, h, body, { now: clock.now });
  clock.advance(400_000);
  const second = await send(compactVars(config), PATH, h, body, { now: clock.now });
  clock.advance(1_000);
  const next = third ? await send(compactVars(config), PATH, h, body, { now: clock.now }) : null;
  const bodies = await upstreamBodies(session);
  const recs = await received(session);
  return { session, second, next, forwarded: dec.decode(bodies[1]!), upstreamHeaders: recs[1]!.headers, stats: await statsOf(session) };
}

const editJson = (keep: number) => JSON.stringify({ type: "clear_tool_uses_20250919", trigger: { type: "input_tokens", value: 1 }, keep: { type: "tool_uses", value: keep }, clear_tool_inputs: false });

describe("native mechanism (auto on claude-opus-5-5)", () => {
  it("messages byte for byte, one edit after the client's, the beta appended; applied_edits reach the session", async () => {
    const body = claudeCodeBody();
    const r = await twoCalls(body, LITERAL_CONFIG, { "x-test-scenario": "usage:anthropic-native:json" }, true);
    const h = compactionHeader(r.second.res);
    expect([h.mode, h.tier, h.step, h.mechanism, h.cleared_tool_uses, h.provider_cleared_tool_uses]).toEqual(["compact", "time_based", "1", "native", "1", undefined]);
    // The next call re-applies the step and says what the provider reported clearing for the previous one.
    const n = compactionHeader(r.next!.res);
    expect([n.step, n.mechanism, n.cleared_tool_uses, n.provider_cleared_tool_uses, n.provider_cleared_input_tokens]).toEqual(["none", "native", "1", "1", "6000"]);
    // Everything the client wrote is forwarded as it came: messages (the mid-conversation system message in place), thinking with block_binding, tools.
    expect(r.forwarded).toBe(body.replace(`${JSON.stringify(CLIENT_EDIT)}]}`, `${JSON.stringify(CLIENT_EDIT)},${editJson(1)}]}`));
    expect(r.upstreamHeaders["anthropic-beta"]).toBe(`${CLIENT_BETA},context-management-2025-06-27`);
    // The answer, with its applied_edits and input_transformations, goes back unchanged.
    expect(await r.second.text).toBe(USAGE_ANSWERS["anthropic-native:json"]!.body);
    const c = r.stats.counters;
    // Both edited calls (the step and its re-application) were reported applied: 1 tool use, 6,000 tokens each.
    expect([c.native_cleared_tool_uses, c.native_cleared_input_tokens, c.native_not_applied, c.compacted]).toEqual([2, 12000, undefined, 2]);
    // Saved tokens are calibrated (src/core/tokens/calibrate.ts): what both headers report as removed.
    const removed = (x: Record<string, string>) => Number(x.tokens_before) - Number(x.tokens_after);
    expect([c.tokens_saved, removed(h) > 0]).toEqual([removed(h) + removed(n), true]);
  });

  it("a client beta already naming context-management is forwarded unchanged", async () => {
    const beta = "context-management-2025-06-27,interleaved-thinking-2025-05-14";
    const r = await twoCalls(claudeCodeBody(), LITERAL_CONFIG, { "anthropic-beta": beta, "x-test-scenario": "usage:anthropic-native:sse" });
    expect(r.upstreamHeaders["anthropic-beta"]).toBe(beta);
    // The stream's final message_delta reports 2 cleared tool uses where 1 was asked: recorded as such.
    expect([r.stats.counters.native_cleared_tool_uses, r.stats.counters.native_count_mismatch]).toEqual([2, 1]);
  });

  it("an edit the provider did not report applied is recorded as native_not_applied and saves nothing", async () => {
    const r = await twoCalls(claudeCodeBody(), LITERAL_CONFIG, { "x-test-scenario": "usage:anthropic:json" }, true);
    expect(compactionHeader(r.second.res).mechanism).toBe("native");
    expect(compactionHeader(r.next!.res).provider_applied).toBe("no");
    const c = r.stats.counters;
    expect([c.native_not_applied, c.compacted, c.tokens_saved ?? 0, c.native_cleared_tool_uses]).toEqual([2, undefined, 0, undefined]);
  });

  it("mechanism splice on the same model: every earlier pair is locked by its thinking, the bytes go unchanged", async () => {
    const body = claudeCodeBody();
    const r = await twoCalls(body, { ...LITERAL_CONFIG, mechanism: "splice" });
    expect(r.forwarded).toBe(body);
    expect(r.upstreamHeaders["anthropic-beta"]).toBe(CLIENT_BETA);
  });
});

describe("pass-through rules for a gateway", () => {
  it("a client tool-use clearing edit: Sluice stands aside, the body and beta go as they came", async () => {
    const body = claudeCodeBody({ context_management: { edits: [CLIENT_EDIT, { type: "clear_tool_uses_20250919", keep: { type: "tool_uses", value: 3 } }] } });
    const r = await twoCalls(body, LITERAL_CONFIG);
    expect(r.second.res.headers.get("x-sluice-compaction")).toBe("skipped; reason=server_managed");
    expect([r.forwarded, r.upstreamHeaders["anthropic-beta"]]).toEqual([body, CLIENT_BETA]);
  });

  it("a 400 for a thinking block is returned unchanged and never retried with thinking stripped", async () => {
    const session = newTestId("native-400");
    const body = claudeCodeBody();
    const { res, text } = await send(compactVars(LITERAL_CONFIG), PATH, { "x-test-id": session, "x-sluice-session": session, "x-test-scenario": "status:400" }, body);
    expect([res.status, text]).toEqual([400, STATUS_BODY(400)]);
    const recs = await upstreamBodies(session);
    expect(recs.map((b) => dec.decode(b))).toEqual([body]);
  });

  it("splice on a model without the prefix check leaves a role:system message where the caller put it", async () => {
    const body = claudeCodeBody({ model: "claude-sonnet-4-5" });
    const r = await twoCalls(body, LITERAL_CONFIG);
    const sent = JSON.parse(r.forwarded) as { messages: { role: string; content: unknown }[]; thinking: unknown; context_management: unknown };
    expect(compactionHeader(r.second.res).mechanism).toBeUndefined();
    expect(r.forwarded.length).toBeLessThan(body.length);
    const i = sent.messages.findIndex((m) => m.role === "system");
    expect([i, sent.messages[i]!.content, sent.messages[i - 1]!.role]).toEqual([3, "The user is away; keep going.", "user"]);
    expect([sent.thinking, sent.context_management]).toEqual([JSON.parse(body).thinking, { edits: [CLIENT_EDIT] }]);
  });
});
