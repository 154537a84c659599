/**
 * Guarantee level `rewrite` through the Worker (workerd, the session DO, the upstream stub): under
 * context pressure (`auto_context_pct` 0.05 puts this 6-pair conversation, ≈ 7 % of
 * claude-sonnet-4-5's 200,000-token window, over the auto trigger) the auto tier summarises the
 * stretch of old tool pairs: the first pair keeps its call and its result becomes the summary
 * block, the other five pairs go whole, the prose stays. The summary (the in-process extractive
 * summariser: no `summarizer` configured) is kept in the session's ledger, so the next request
 * forwards the identical bytes.
 */
import { runInDurableObject } from "cloudflare:test";
import { StateTx } from "../../src/session/state";
import { describe, expect, it } from "vitest";
import { summaryBlockText } from "../../src/core/plan/summary-block";
import { loadLedger } from "../../src/session/compaction-ledger";
import type { SessionObject } from "../../src/session/session-object";
import { compactionHeader, compactVars, logText, manualClock, send, sessionStub, statsOf, upstreamBodies } from "./pipeline-harness";
import { newTestId } from "./helpers";

const dec = new TextDecoder();
const IDS = ["toolu_1", "toolu_2", "toolu_3", "toolu_4", "toolu_5", "toolu_6"];

/**
 * User prose, six Bash runs with 300-line logs, then the assistant's prose with a seventh run, in
 * the last turn (recent: never edited; it also keeps the step above the cost model's minimum kept
 * share of the history, 12 %).
 */
function conversation(): Record<string, unknown> {
  const messages: Record<string, unknown>[] = [{ role: "user", content: "Run the checks." }];
  IDS.forEach((id, i) => {
    messages.push({ role: "assistant", content: [{ type: "tool_use", id, name: "Bash", input: { command: `make check-${i + 1}` } }] });
    messages.push({ role: "user", content: [{ type: "tool_result", tool_use_id: id, content: logText(`c${i + 1}`, 300) }] });
  });
  messages.push(
    { role: "assistant", content: [{ type: "text", text: "All six ran; one more." }, { type: "tool_use", id: "toolu_7", name: "Bash", input: { command: "make report" } }] },
    { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_7", content: logText("r", 300) }] },
  );
  return { model: "claude-sonnet-4-5", max_tokens: 1024, tools: [{ name: "Bash", description: "stub", input_schema: { type: "object" } }], messages };
}

/** The body the summarising step must forward, for the summary `text`. */
function expectedBody(text: string): string {
  const c = conversation() as { messages: Record<string, unknown>[] };
  const block = summaryBlockText(6, text);
  const host = { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_1", content: block }] };
  return JSON.stringify({ ...c, messages: [c.messages[0], c.messages[1], host, ...c.messages.slice(13)] });
}

const CONFIG = { guarantee_level: "rewrite", auto_context_pct: 0.05, threshold_tokens: 0, preserve_recent_turns: 1, min_reduction: 0.01 };

describe("guarantee_level rewrite", () => {
  it("the auto step summarises toolu_1–toolu_6 into toolu_1's result; the next request forwards the same bytes", async () => {
    const session = newTestId("rewrite");
    const clock = manualClock();
    const vars = compactVars(CONFIG);
    const headers = { "x-test-id": session, "x-sluice-session": session };
    const body = JSON.stringify(conversation());
    const first = await send(vars, "/anthropic/v1/messages", headers, body, { now: clock.now });
    expect(compactionHeader(first.res).step).toBe("1");
    let text = "";
    await runInDurableObject(sessionStub(session), (_o: SessionObject, state) => {
      const entries = Object.values(loadLedger(new StateTx(state.storage.sql)).entries).sort((a, b) => a.pair_id.localeCompare(b.pair_id));
      const host = entries[0]!;
      expect(host.pair_id).toBe("toolu_1");
      expect(host.action.kind === "summarize" && host.action.covers).toEqual(IDS);
      text = host.action.kind === "summarize" ? host.action.text ?? "" : "";
      expect(entries.slice(1).map((e) => [e.pair_id, e.action])).toEqual(IDS.slice(1).map((id) => [id, { kind: "drop_pair" }]));
    });
    // The extractive summary lists the six commands verbatim.
    for (let i = 1; i <= 6; i++) expect(text).toContain(`make check-${i}`);
    clock.advance(10_000);
    const second = await send(vars, "/anthropic/v1/messages", headers, body, { now: clock.now });
    expect(compactionHeader(second.res).step).toBe("none");
    const [a, b] = (await upstreamBodies(session)).map((x) => dec.decode(x));
    expect(a).toBe(expectedBody(text));
    expect(b).toBe(a);
    const stats = await statsOf(session);
    expect(stats.summaries).toEqual({ written: 1, failed: 0, input_tokens: 0, output_tokens: 0, cost_usd: 0 });
  });

  it("strict: the same conversation forwards no summary", async () => {
    const session = newTestId("rewrite-strict");
    const headers = { "x-test-id": session, "x-sluice-session": session };
    await send(compactVars({ ...CONFIG, guarantee_level: "strict" }), "/anthropic/v1/messages", headers, JSON.stringify(conversation()), { now: manualClock().now });
    const [a] = (await upstreamBodies(session)).map((x) => dec.decode(x));
    expect(a).not.toContain("[sluice:");
  });
});
