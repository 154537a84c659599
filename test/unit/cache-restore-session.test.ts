/**
 * `sluice_restore` at the session level: the replay's in-process host (tools/replay/sluice/:
 * the gateway's parse with the Anthropic adapter's reference locks, the Session over node:sqlite,
 * the usage report) with a local HTTP engine on 127.0.0.1 that removes every candidate's result.
 * Call 1 removes the old results, the Read of /src/app.ts among them; call 2 appends a Read of
 * the same file answered by Claude Code's "file unchanged … Refer to that earlier tool_result"
 * reply, which locks the first Read's pair (DESIGN §6): Sluice must forward it whole again. The
 * client appended only, so the cold usage of call 2 was Sluice's doing: recorded as
 * sluice_restore at the Read's result message, not as unexplained. The same call 2 with a Read
 * of another file restores nothing, and its cold usage stays unexplained.
 */
import { describe, expect, it } from "vitest";
import { agentHeaders } from "../../tools/replay/agent-headers";
import { createInProcessSluice } from "../../tools/replay/sluice/run-in-process";
import { cacheBreaksSummary } from "../../tools/replay/render-cache-breaks";
import type { ReplayReport } from "../../tools/replay/summarize-report";
import { dropAllEngine } from "../support/drop-all-engine";
import { lines } from "../support/make-view";

const engine = dropAllEngine();

const UNCHANGED = "Wasted call \u2014 file unchanged since your last Read. Refer to that earlier tool_result instead.";
const read = (id: string, file_path: string) => ({ role: "assistant", content: [{ type: "tool_use", id, name: "Read", input: { file_path } }] });
const answer = (id: string, text: string) => ({ role: "user", content: [{ type: "tool_result", tool_use_id: id, content: text }] });

/** Messages 0–2: the task and a Read of /src/app.ts; then 20 turns of a distinct 20,000-byte Bash log. */
const FIRST: unknown[] = [{ role: "user", content: "fix the build" }, read("toolu_read1", "/src/app.ts"), answer("toolu_read1", lines(20_000, "app"))];
for (let i = 0; i < 20; i++) FIRST.push({ role: "assistant", content: [{ type: "tool_use", id: `toolu_bash${i}`, name: "Bash", input: { command: `make step-${i}` } }] }, answer(`toolu_bash${i}`, lines(20_000, `log${i}`)));
const body = (messages: unknown[]) => new TextEncoder().encode(JSON.stringify({ model: "claude-sonnet-4-5", max_tokens: 256, system: "You are a coding agent.", messages }));

/** The gateway's estimate of call 1's messages 2–42 (the Read's 20,000-byte result, then 20 Bash calls and their 20,000-byte logs): what the restore made call 2 write again. */
const TOKENS_FROM_2 = 114_699;

/** Call 1, then call 2 with `next` appended; call 1's usage leaves 60,000 tokens in the cache, call 2 reads none. */
async function twoCalls(next: unknown[]) {
  const host = createInProcessSluice({ env: { COMPACTION_CONFIG: JSON.stringify({ enabled: true, engine: "local", endpoint: `${engine.base()}/verdicts`, timeout_ms: 5_000 }) } });
  const headers = agentHeaders("anthropic", "k", "restore-1");
  const call = (call_index: number, time_ms: number) => ({ provider: "anthropic" as const, session_id: "restore-1", call_index, time_ms });
  const first = await host.transform(body(FIRST), headers, call(1, 1_000_000));
  await first.settle!({ input: 100, cache_read: 0, cache_write: 60_000, output: 50 });
  const second = await host.transform(body([...FIRST, ...next]), headers, call(2, 1_030_000));
  await second.settle!({ input: 100, cache_read: 0, cache_write: 70_000, output: 50 });
  const report = (await host.cacheBreaks("restore-1"))!;
  host.close();
  return { first: new TextDecoder().decode(first.body), second: new TextDecoder().decode(second.body), report };
}

describe("cache diagnostics: a removal undone for a reference reply", () => {
  it("the referred-to Read comes back whole on call 2: its miss is sluice_restore at message 2, not unexplained", async () => {
    const { first, second, report } = await twoCalls([read("toolu_read2", "/src/app.ts"), answer("toolu_read2", UNCHANGED)]);
    // Call 1 forwarded the Read's result cut to a head; call 2 forwards it whole (the lock).
    expect([first.includes(lines(20_000, "app")), second.includes(JSON.stringify(lines(20_000, "app")))]).toEqual([false, true]);
    expect([report.pairs_checked, report.misses]).toEqual([1, 1]);
    expect(report.events.map((e) => [e.call, e.cause, e.message_index, e.tokens_affected, e.confirmed])).toEqual([[2, "sluice_restore", 2, TOKENS_FROM_2, true]]);
    expect(report.causes.sluice_restore).toEqual({ count: 1, tokens: TOKENS_FROM_2 });
    expect(report.causes.unexplained).toEqual({ count: 0, tokens: 0 });
    // claude-sonnet-4-5: $3.75/M cache write (5 min), $0.30/M cache read; the restore rewrites all it replaced.
    expect(report.sluice_restore_cost_usd).toBeCloseTo(TOKENS_FROM_2 * (3.75e-6 - 0.3e-6), 12);
    expect(report.sluice_step_cost_usd).toBe(0);
    // The replay report's section names the cause and says what it means.
    expect(cacheBreaksSummary({ cache_breaks: { "restore-1": report } } as unknown as ReplayReport)).toEqual([
      "Cache breaks (sluice run: what missed the provider cache between consecutive calls, per session):",
      "  restore-1: 1 pairs checked, 1 misses (sluice_restore 1), sluice step cost $0.0000",
      "  sluice_restore: a removal Sluice had made was undone: the pair came back because a later result refers to it, or its result changed",
    ]);
  });

  it("a Read of another file restores nothing: the same cold usage stays unexplained", async () => {
    const { report } = await twoCalls([read("toolu_read2", "/src/other.ts"), answer("toolu_read2", lines(2_000, "other"))]);
    expect(report.events.map((e) => [e.call, e.cause, e.message_index, e.confirmed])).toEqual([[2, "unexplained", null, true]]);
    expect(report.causes.sluice_restore).toEqual({ count: 0, tokens: 0 });
  });
});
