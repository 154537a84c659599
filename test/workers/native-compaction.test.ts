/**
 * The native summarising step at `guarantee_level: "rewrite"` through the Worker, the session DO
 * and the upstream stand-in: a Claude Code-shaped session on claude-opus-5-5 whose history is the
 * assistant's prose (clearing tool results would save almost nothing). The step request carries
 * the messages byte for byte plus exactly one `compact_20260112` edit with Sluice's trigger and
 * the compaction beta; the answer's compaction iteration reaches the session; the next request,
 * echoing the compaction block, is read from that block on (not stood aside) and carries no
 * compaction edit; a client that drops the block is never sent another. With thinking on, the
 * answer [compaction, thinking, text, tool_use] echoed whole passes the emulator's checks.
 */
import { describe, expect, it } from "vitest";
import { canonicalContent } from "../../tools/emulator/anthropic/validate-request";
import { validateMessagesRequest } from "../../tools/emulator/anthropic/validate-messages";
import { newTestId, received } from "./helpers";
import { USAGE_ANSWERS } from "../support/scenarios";
import { compactionHeader, compactVars, LITERAL_CONFIG, logText, manualClock, send, statsOf, upstreamBodies } from "./pipeline-harness";

const dec = new TextDecoder();
const PATH = "/anthropic/v1/messages";
const CLIENT_BETA = "interleaved-thinking-2025-05-14";
const CLIENT_EDIT = { type: "clear_thinking_20251015", keep: "all" };
const THINK = (s: string) => ({ type: "thinking", thinking: "", signature: `sig-${s}` });
const CONFIG = { ...LITERAL_CONFIG, guarantee_level: "rewrite", auto_context_pct: 0.05 };
const COMPACT_EDIT = JSON.stringify({ type: "compact_20260112", trigger: { type: "input_tokens", value: 50_000 } });
/** The block the stand-in's `anthropic-compaction:json` answer starts with. */
const BLOCK = { type: "compaction", content: "Summary of 30 messages.", encrypted_content: null };

/** 14 turns of long assistant prose around tiny tool results (≈ 310,000 estimated tokens: on a first call, where R is the seed 8, a summary pays from about 250,000), then `tail`. */
function history(tail: unknown[] = []): unknown[] {
  const m: unknown[] = [{ role: "user", content: "Review the design." }];
  for (let i = 0; i < 14; i++) {
    m.push({ role: "assistant", content: [THINK(`${i}`), { type: "text", text: logText(`note${i}`, 2_200) }, { type: "tool_use", id: `toolu_${i}`, name: "shell", input: { cmd: `ls ${i}` } }] });
    m.push({ role: "user", content: [{ type: "tool_result", tool_use_id: `toolu_${i}`, content: "ok" }] });
  }
  return [...m, ...tail];
}
const bodyOf = (messages: unknown[]): string => JSON.stringify({
  model: "claude-opus-5-5", max_tokens: 32000, thinking: { type: "adaptive" }, context_management: { edits: [CLIENT_EDIT] },
  tools: [{ name: "shell", description: "stub", input_schema: { type: "object" } }], messages,
});
const withCompactEdit = (body: string): string => body.replace(`${JSON.stringify(CLIENT_EDIT)}]}`, `${JSON.stringify(CLIENT_EDIT)},${COMPACT_EDIT}]}`);

/** Sends `bodies` in order in one new session, 1 s apart, each with its scenario. */
async function session(calls: { body: string; scenario: string }[]) {
  const id = newTestId("native-compact");
  const clock = manualClock();
  const headers: Record<string, string>[] = [];
  const responses = [];
  for (const c of calls) {
    const h = { "x-test-id": id, "x-sluice-session": id, "anthropic-beta": CLIENT_BETA, "x-test-scenario": c.scenario };
    responses.push(await send(compactVars(CONFIG), PATH, h, c.body, { now: clock.now }));
    clock.advance(1_000);
  }
  for (const r of await received(id)) headers.push(r.headers);
  return { responses, forwarded: (await upstreamBodies(id)).map((b) => dec.decode(b)), headers, stats: await statsOf(id) };
}

describe("native compaction at rewrite (claude-opus-5-5)", () => {
  const first = bodyOf(history([{ role: "user", content: "Go on." }]));
  it("the step request: messages byte for byte, exactly the compact edit after the client's, the compaction beta; the next request reads from the echoed block", async () => {
    const echoed = bodyOf(history([{ role: "user", content: "Go on." }, { role: "assistant", content: [BLOCK, { type: "text", text: "ok" }] }, { role: "user", content: "Next." }]));
    const r = await session([{ body: first, scenario: "usage:anthropic-compaction:json" }, { body: echoed, scenario: "usage:anthropic:json" }]);
    const h = compactionHeader(r.responses[0]!.res);
    expect([h.mode, h.tier, h.step, h.mechanism, h.compaction_trigger, h.pairs_removed]).toEqual(["compact", "auto", "1", "native", "50000", "0"]);
    expect(r.forwarded[0]).toBe(withCompactEdit(first));
    expect(r.headers[0]!["anthropic-beta"]).toBe(`${CLIENT_BETA},compact-2026-01-12`);
    // The answer's compaction iteration settled the step and priced the summary.
    const c = r.stats.counters;
    expect([c.native_compactions, c.native_compaction_input_tokens, c.native_compaction_output_tokens, c.native_not_applied]).toEqual([1, 81_000, 2_900, undefined]);
    // Next request: not stood aside, no compaction edit, the history counted from the block on.
    // The session reads it from the block on: a few hundred tokens, under the auto tier's 5 % of 1M, so micro is
    // selected and finds nothing (a history read whole would select auto; one stood aside would say server_managed).
    const n = compactionHeader(r.responses[1]!.res);
    expect([n.mode, n.tier, n.skipped, n.mechanism, n.compaction_trigger]).toEqual(["compact", "micro", "no_candidates", "native", undefined]);
    // What the provider reads (and what the header and the calibration count) is the part from the block on.
    expect([Number(n.estimated_tokens_before) < 1_000, n.estimated_tokens_after === n.estimated_tokens_before]).toEqual([true, true]);
    expect(r.forwarded[1]).toBe(echoed);
    expect(r.headers[1]!["anthropic-beta"]).toBe(CLIENT_BETA);
    expect(r.stats.counters.native_compaction_dropped).toBeUndefined();
    // Both calls report the client's whole body as original (without Sluice's compaction the provider reads all
    // of it) and what the provider reads as sent: the step call the history after the expected summary, the
    // echoed call from the block on. So the savings ledger credits the compaction on the calls after it too.
    expect([c.tokens_original, c.tokens_sent]).toEqual([657_235, 3_241]);
  });

  it("thinking on: the answer [compaction, thinking, text, tool_use] echoed whole is forwarded as sent, passes the emulator's checks, and no compaction edit is sent again", async () => {
    const answer = JSON.parse(USAGE_ANSWERS["anthropic-compaction-thinking:json"]!.body).content as unknown[];
    expect((answer as { type: string }[]).map((b) => b.type)).toEqual(["compaction", "thinking", "text", "tool_use"]);
    const result = { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_after", content: "a.ts" }] };
    const echoed = bodyOf(history([{ role: "user", content: "Go on." }, { role: "assistant", content: answer }, result]));
    const r = await session([{ body: first, scenario: "usage:anthropic-compaction-thinking:json" }, { body: echoed, scenario: "usage:anthropic:json" }]);
    expect(r.forwarded[0]).toBe(withCompactEdit(first));
    expect(r.responses.map((x) => x.res.status)).toEqual([200, 200]);
    expect(r.forwarded[1]).toBe(echoed);
    expect(r.forwarded[1]).not.toContain("compact_20260112");
    expect(compactionHeader(r.responses[1]!.res).compaction_trigger).toBeUndefined();
    // What the API checks on the forwarded body: the thinking rules read the message after the block,
    // and the answer's blocks after it are as issued (A14).
    const issued = new Map([["sig-after", canonicalContent(answer.slice(1) as never)]]);
    // The beta the client's own clear_thinking edit needs is added: this stand-in client leaves it out.
    const betas = `${r.headers[1]!["anthropic-beta"]},context-management-2025-06-27`;
    const verdict = validateMessagesRequest(JSON.parse(r.forwarded[1]!), { "anthropic-beta": betas }, { issuedThinking: issued });
    expect(verdict.ok ? "accepted" : verdict.rejection.message).toBe("accepted");
  });

  it("a client that does not send the block back: recorded, and no compaction edit again although the pressure stays", async () => {
    const dropped = bodyOf(history([{ role: "user", content: "Go on." }, { role: "assistant", content: [{ type: "text", text: "ok" }] }, { role: "user", content: "Next." }]));
    const r = await session([{ body: first, scenario: "usage:anthropic-compaction:json" }, { body: dropped, scenario: "usage:anthropic:json" }]);
    expect(r.forwarded[0]).toBe(withCompactEdit(first));
    expect(r.forwarded[1]).not.toContain("compact_20260112");
    expect(compactionHeader(r.responses[1]!.res).compaction_trigger).toBeUndefined();
    expect(r.stats.counters.native_compaction_dropped).toBe(1);
  });

  it("strict (the default): the same session gets no compaction edit", async () => {
    const id = newTestId("native-compact-strict");
    await send(compactVars({ ...CONFIG, guarantee_level: "strict" }), PATH, { "x-test-id": id, "x-sluice-session": id, "anthropic-beta": CLIENT_BETA }, first);
    const [sent] = await upstreamBodies(id);
    expect(dec.decode(sent)).toBe(first);
  });
});
