/**
 * Used after removal, piece by piece (tools/replay/project-tokens.ts, common-vocabulary.ts,
 * used-after-removal.ts, removal-rules.ts): which tokens are project-specific, which are the
 * corpus's common vocabulary, which calls used a removed one and which removed pair held it, and
 * the per-rule figures — exact values on small hand-made inputs.
 */
import { describe, expect, it } from "vitest";
import { createBodyTokenCache } from "../../tools/replay/body-tokens";
import { commonVocabulary, projectOf, sessionTokens } from "../../tools/replay/common-vocabulary";
import { isTokenShaped, jsonTexts, jsonTokens, projectTokens } from "../../tools/replay/project-tokens";
import { ruleStatsOf, sumRuleStats } from "../../tools/replay/removal-rules";
import { answerCandidates, holdersOf, usedAfterRemoval } from "../../tools/replay/used-after-removal";
import { driveReplay } from "../../tools/replay/drive-replay";
import { parseArgs } from "../../tools/replay/parse-args";
import { renderHtml } from "../../tools/replay/render-html";
import { renderTable } from "../../tools/replay/render-table";
import { noneStrategy } from "../../tools/replay/strategies/none";
import { createObservationMask } from "../../tools/replay/strategies/observation-mask";
import { createSluiceStrategy } from "../../tools/replay/strategies/sluice-slot";
import { summarizeReport } from "../../tools/replay/summarize-report";
import type { CallRecord, JsonObject, Strategy } from "../../tools/replay/types";
import { createFakeSender } from "../support/replay-fake-sender";
import { anthropicSession } from "../support/replay-lit-session";

describe("project-specific tokens", () => {
  it("keeps paths with a line (and their file name with it), code-shaped identifiers, long numbers, hashes and codes", () => {
    const text = "Call evaluateBoard() in ./src/app.js:42:7 and this.kingOffsets; MAX_DEPTH=5, HTTPServer, sha b8d8edf1, at 1700000000, flight HAT136, board King utf8 12:30 app.js";
    expect(projectTokens(text)).toEqual(["src/app.js:42", "app.js:42", "evaluateBoard", "kingOffsets", "MAX_DEPTH", "HTTPServer", "b8d8edf1", "1700000000", "HAT136"]);
  });

  it("reads a word after a backslash without its escape letters", () => {
    expect(projectTokens(String.raw`"prompt": "Check it.\n\nEachProject has\tkingOffsets and \u001bredAlert"`)).toEqual(["EachProject", "kingOffsets", "redAlert"]);
  });

  it("leaves out plain words, short numbers, hex words without a digit and snake case under 4 characters", () => {
    const cases = ["board", "King", "README", "1234", "12345", "deadbeef", "abc1234", "task02", "utf8", "a_b", "__init__", "URLs", "JSONDecoder", "macOS"];
    expect(cases.filter(isTokenShaped)).toEqual(["12345", "abc1234", "task02", "JSONDecoder", "macOS"]);
  });

  it("reads JSON text inside strings (tool arguments) and skips ids and signatures", () => {
    const item = { type: "function_call", call_id: "call_Ab12Cd34", name: "apply_patch", arguments: JSON.stringify({ input: "*** Update File: app.js\n+function evaluateBoard(x) {" }) };
    expect(jsonTexts(item)).toEqual(["apply_patch", "*** Update File: app.js\n+function evaluateBoard(x) {"]);
    // The escaped newline before the name does not glue onto it ("nevaluateBoard").
    expect([...jsonTokens(item)]).toEqual(["apply_patch", "evaluateBoard"]);
    expect([...jsonTokens({ type: "thinking", thinking: "use kingOffsets", signature: "EqRk9ZbLp2Qx" })]).toEqual(["kingOffsets"]);
  });
});

/** An Anthropic session of one call: a Write of app.js, a Read whose result names kingOffsets, then the answer `answer`. */
function sessionWith(id: string, project: string | undefined, answer: string, extra = "") {
  const s = anthropicSession(id, [
    { role: "user", content: `fix the engine ${extra}` },
    { role: "assistant", content: [{ type: "tool_use", id: "t1", name: "Write", input: { file_path: "app.js", content: "function evaluateBoard() { return readFileSync(p) }" } }] },
    { role: "user", content: [{ type: "tool_result", tool_use_id: "t1", content: "ok" }] },
    { role: "assistant", content: [{ type: "tool_use", id: "t2", name: "Read", input: { file_path: "board.js" } }] },
    { role: "user", content: [{ type: "tool_result", tool_use_id: "t2", content: "const kingOffsets = [1, 7, 8, 9];" }] },
    { role: "assistant", content: [{ type: "text", text: answer }] },
  ]);
  return project === undefined ? s : { ...s, project };
}

describe("common vocabulary", () => {
  it("is the tokens of sessions of at least two projects; two sessions of one project share none", () => {
    const a = sessionWith("a", "chess", "Calling evaluateBoard with kingOffsets");
    const b = sessionWith("b", "chess", "done");
    const c = anthropicSession("c", [{ role: "user", content: "read it with readFileSync and JSONDecoder" }, { role: "assistant", content: "ok" }]);
    expect([projectOf(a), projectOf(c)]).toEqual(["chess", "c"]);
    // Keys (file_path) are not text: values only.
    expect([...sessionTokens(a)].sort()).toEqual(["20250929", "evaluateBoard", "kingOffsets", "readFileSync"]);
    // The model id's date is in both projects' requests, readFileSync in both projects' texts; evaluateBoard in the two chess sessions only.
    expect([...commonVocabulary([a, b, c])].sort()).toEqual(["20250929", "readFileSync"]);
    expect([...commonVocabulary([a, b])]).toEqual([]);
  });
});

describe("a call used after removal", () => {
  const session = sessionWith("s", undefined, "Now evaluateBoard uses kingOffsets and readFileSync at app.js:3");
  const call = session.calls[2]!;
  const original = call.body;
  const messages = original.messages as JsonObject[];
  // The strategy dropped the Write pair whole (call and result), kept the Read.
  const forwarded: JsonObject = { ...original, messages: [messages[0]!, ...messages.slice(3)] };
  const cache = createBodyTokenCache();

  it("counts the answer's tokens that the original held, the forwarded did not, and that are not common vocabulary", () => {
    const candidates = answerCandidates(call.reply, cache.partsOf("anthropic", original), new Set(["readFileSync"]));
    // app.js:3 is in no request: the agent wrote it, it did not read it.
    expect(candidates).toEqual(["evaluateBoard", "kingOffsets"]);
    expect(usedAfterRemoval(candidates, cache.partsOf("anthropic", forwarded))).toEqual(["evaluateBoard"]);
    expect(usedAfterRemoval(candidates, cache.partsOf("anthropic", original))).toEqual([]);
  });

  it("charges each token to the removed pairs whose call input or result held it", () => {
    expect(holdersOf("anthropic", original, ["t1"], ["evaluateBoard", "kingOffsets"])).toEqual({ evaluateBoard: ["t1"], kingOffsets: [] });
    expect(holdersOf("anthropic", original, ["t1", "t2"], ["kingOffsets"])).toEqual({ kingOffsets: ["t2"] });
  });
});

describe("removals by rule", () => {
  const call = (index: number, removed_ids: string[], extra: Partial<CallRecord> = {}): CallRecord => ({
    index, time_ms: 0, status: 200, usage: { input: 0, cache_read: 0, cache_write: 0, output: 0 }, cost_usd: 0, input_cost_usd: 0, latency_ms: 0, transform_ms: 0, engine_cost_usd: 0, rejected: null, removed_ids, ...extra,
  });
  const calls = [
    call(0, []),
    call(1, ["a", "b"], { new_removals: [{ key: "a", rule: "superseded_edit", tokens: 100 }, { key: "b", rule: "age", tokens: 40 }] }),
    call(2, ["a", "b", "c"], { new_removals: [{ key: "c", rule: null, tokens: 5 }], used_after_removal: [{ token: "evaluateBoard", pairs: ["a"] }, { token: "kingOffsets", pairs: ["a", "b"] }] }),
    call(3, ["a", "c"], { used_after_removal: [{ token: "HAT136", pairs: [] }, { token: "idxToSquare", pairs: ["c"] }] }),
  ];

  it("counts pairs, tokens removed once and per call sent without them, and the calls each rule's removals were used after", () => {
    expect(ruleStatsOf(calls)).toEqual({
      age: { pairs_removed: 1, tokens_removed: 40, tokens_not_sent: 80, uar_calls: 1, uar_tokens: 1 },
      superseded_edit: { pairs_removed: 1, tokens_removed: 100, tokens_not_sent: 300, uar_calls: 1, uar_tokens: 2 },
      unattributed: { pairs_removed: 0, tokens_removed: 0, tokens_not_sent: 0, uar_calls: 1, uar_tokens: 1 },
      unknown: { pairs_removed: 1, tokens_removed: 5, tokens_not_sent: 10, uar_calls: 1, uar_tokens: 1 },
    });
  });

  it("is null for a strategy that names no rule, and sums sessions", () => {
    expect(ruleStatsOf([call(0, ["a"], { new_removals: [{ key: "a", rule: null, tokens: 3 }] })])).toBeNull();
    const one = ruleStatsOf(calls);
    expect(sumRuleStats([one, null, one])!.superseded_edit).toEqual({ pairs_removed: 2, tokens_removed: 200, tokens_not_sent: 600, uar_calls: 2, uar_tokens: 4 });
    expect(sumRuleStats([null, null])).toBeNull();
  });
});

describe("the replay measures it per strategy and charges it to Sluice's rules", () => {
  const session = sessionWith("uar-1", undefined, "Now evaluateBoard uses kingOffsets");
  /** At the last call, a Sluice stand-in drops the Write pair whole (messages 1 and 2) and names the rule, as the in-process host does. */
  const sluice = createSluiceStrategy(async (bytes, _h, call) => {
    if (call.call_index < 2) return { body: bytes, info: {} };
    const body = JSON.parse(new TextDecoder().decode(bytes)) as JsonObject;
    const messages = body.messages as JsonObject[];
    const sent = { ...body, messages: [messages[0]!, ...messages.slice(3)] };
    return { body: new TextEncoder().encode(JSON.stringify(sent)), info: { removal_rules: [{ pair_id: "t1", rule: "superseded_edit" }] } };
  });

  it("prints the removals by rule in the terminal only when asked (--by-rule)", () => {
    expect([parseArgs(["--by-rule", "a.json"]).by_rule, parseArgs(["a.json"]).by_rule]).toEqual([true, false]);
    expect(() => parseArgs(["--by-rule=yes", "a.json"])).toThrow(/^--by-rule: takes no value/);
  });

  it("records the used tokens, the removed pair and its rule; the report counts calls and rules; the renderers show them", async () => {
    const { send } = createFakeSender(() => ({ input: 1000, cache_read: 0, cache_write: 0, output: 10 }));
    const runs = await driveReplay({ sessions: [session], strategies: [noneStrategy as Strategy, createObservationMask({ keep: 1 }) as Strategy, sluice], send, run_id: "r", now: () => 0 });
    // The mask cut t1's result ("ok") only: evaluateBoard stays in the Write's input.
    expect(runs.map((r) => [r.strategy, r.calls.map((c) => c.used_after_removal ?? [])])).toEqual([
      ["none", [[], [], []]],
      ["observation-mask", [[], [], []]],
      ["sluice", [[], [], [{ token: "evaluateBoard", pairs: ["t1"] }]]],
    ]);
    // The Write's input (86 characters of JSON) and its result "ok": 27 + 1 estimated tokens (src/core/tokens/estimate.ts).
    expect(runs[2]!.calls[2]!.new_removals).toEqual([{ key: "t1", rule: "superseded_edit", tokens: 28 }]);
    expect(runs[1]!.calls[2]!.new_removals).toEqual([{ key: "t1", rule: null, tokens: 0 }]);
    const report = summarizeReport(runs);
    const s = report.total.sluice!;
    expect([s.used_after_removal_calls, s.used_after_removal_pct, report.total["observation-mask"]!.by_rule]).toEqual([1, 33.33, null]);
    expect(s.by_rule).toEqual({ superseded_edit: { pairs_removed: 1, tokens_removed: 28, tokens_not_sent: 28, uar_calls: 1, uar_tokens: 1 } });
    const lines = renderTable(report, { byRule: true }).split("\n");
    const at = lines.indexOf("Removals by rule, sluice, all sessions:");
    expect(lines.slice(at, at + 8)).toEqual([
      "Removals by rule, sluice, all sessions:",
      "  rule             pairs removed  tokens removed  tokens not sent  uar calls  uar tokens",
      "  superseded_edit              1              28               28          1           1",
      "  all                          1              28               28          1           1",
      "Removals by rule, sluice, uar-1:",
      "  rule             pairs removed  tokens removed  tokens not sent  uar calls  uar tokens",
      "  superseded_edit              1              28               28          1           1",
      "  all                          1              28               28          1           1",
    ]);
    // The rule's meaning, wrapped to the terminal's 120 characters.
    const meaning = lines.indexOf("  superseded_edit: an edit whose every file was read or edited again later (pair whole, the patch or written content");
    expect(lines[meaning + 1]).toBe("    included)");
    expect(renderTable(report).split("\n")).not.toContain("Removals by rule, sluice, all sessions:");
    expect(lines.find((l) => l.startsWith("  sluice "))).toBe("  sluice             0.0%        0.01         0.01      1 (33.3%)     0.0%  0.0%         1        0         0");
    const html = renderHtml(report);
    expect(html).toContain(
      `<h2>Removals by rule (all sessions)</h2><p class="note">tokens removed: estimated tokens each removal took out of the request, each pair once; tokens not sent: the same summed over every call that went without them (input tokens kept out before prompt caching); uar calls / tokens: calls used after removal with a token a pair of this rule held, and those tokens per call. A token two rules' pairs held counts for both, so the rules' uar calls can add up to more than the strategy's.</p><h3>sluice</h3><table class="rules"><thead><tr><th>rule</th><th>pairs removed</th><th>tokens removed</th><th>tokens not sent</th><th>uar calls</th><th>uar tokens</th></tr></thead><tbody><tr><th>superseded_edit</th><td>1</td><td>28</td><td>28</td><td>1</td><td>1</td></tr><tr><th>all</th><td>1</td><td>28</td><td>28</td><td>1</td><td>1</td></tr></tbody></table>`,
    );
    expect(html).toContain("<li>sluice: saved 0.0% ($0.00 of $0.01, net of cache writes); 1 session, 3 calls; used after removal: 1 call (33.3%)</li>");
  });
});
