/**
 * References between results: a reference reply (Claude Code's "file unchanged … Refer to that
 * earlier tool_result") points at the latest earlier full result of the same read, which is then
 * locked for every tier, the engine, the ledger and the plan compiler; a reference reply never
 * supersedes a read. Exact ids kept and removed.
 */
import { describe, expect, it } from "vitest";
import { REFERENCE_REPLIES, isReferenceReply } from "../../src/core/engine/reference-replies";
import { referencedResults, REFERENCED_LOCK, lockReferencedResults } from "../../src/core/engine/referenced-results";
import { fileViews } from "../../src/core/engine/file-views";
import { ruleSupersededRead } from "../../src/core/engine/rule-superseded-read";
import { runHeuristicEngine, pairsInCallOrder } from "../../src/core/engine/run-heuristic-engine";
import { reapplyLedger, ledgerKey, EMPTY_LEDGER } from "../../src/core/policy/ledger";
import { checkGuarantee } from "../../src/core/plan/check-guarantee";
import { factsOf, makeView, type MessageSpec } from "../support/make-view";
import { openaiChatAdapter } from "../../src/providers/openai-chat";
import { openaiResponsesAdapter } from "../../src/providers/openai-responses";
import { anthropicAdapter, assistant, bodyBytes, result, run, text, use, user } from "../support/anthropic-bodies";
import { newCoreCaches } from "../../src/core/caches";
import { ToolCallMemo } from "../../src/core/engine/read-tool-call-memo";

const SHORT = REFERENCE_REPLIES[0]!.text;
const LONG = REFERENCE_REPLIES[1]!.text;
const content = (n: number) => Array.from({ length: n }, (_, i) => `${i + 1}\tconst line${i + 1} = ${i};`).join("\n");

/** One Read call + result per entry, in order, then two plain turns. */
function reads(entries: Array<{ id: string; input: unknown; text: string; is_error?: boolean; tool?: string }>): MessageSpec[] {
  const out: MessageSpec[] = [{ role: "user", text: "task" }];
  for (const e of entries) {
    out.push({ role: "assistant", calls: [{ id: e.id, tool: e.tool ?? "Read", input: e.input }] });
    out.push({ role: "user", results: [{ id: e.id, text: e.text, is_error: e.is_error }] });
  }
  out.push({ role: "assistant", text: "ok" }, { role: "user", text: "go on" }, { role: "assistant", text: "ok" }, { role: "user", text: "go on" });
  return out;
}

describe("reference replies", () => {
  it("recognises the two exact Claude Code texts (leading whitespace aside), nothing else", () => {
    expect(isReferenceReply({ result_bytes: SHORT.length + 2, result_text: SHORT })).toBe(true);
    expect(isReferenceReply({ result_bytes: LONG.length + 2, result_text: `\n${LONG}` })).toBe(true);
    expect(isReferenceReply({ result_bytes: 200, result_text: "file unchanged since your last Read." })).toBe(false);
    expect(isReferenceReply({ result_bytes: 5000, result_text: SHORT })).toBe(false);
    expect(SHORT).toBe("Wasted call — file unchanged since your last Read. Refer to that earlier tool_result instead.");
  });

  it("points each reply at the latest earlier full result of the same read: same range first, failed results and replies skipped", () => {
    const view = makeView({ messages: reads([
      { id: "r1", input: { file_path: "/p/a.ts" }, text: content(40) },
      { id: "r2", input: { file_path: "/p/a.ts", offset: 10, limit: 5 }, text: content(5) },
      { id: "r3", input: { file_path: "/p/a.ts" }, text: "Error: EACCES", is_error: true },
      { id: "r4", input: { file_path: "/p/a.ts" }, text: SHORT },
      { id: "r5", input: { file_path: "/p/a.ts", offset: 10, limit: 5 }, text: LONG },
      { id: "r6", input: { file_path: "/p/c.ts" }, text: SHORT },
      { id: "r7", input: { file_path: "/p/a.ts" }, text: SHORT },
      { id: "r8", input: { file_path: "/p/b.ts", offset: 3, limit: 2 }, text: content(2) },
      { id: "r9", input: { file_path: "/p/b.ts" }, text: SHORT },
      { id: "x1", tool: "Bash", input: { command: "echo hi" }, text: SHORT },
    ]) });
    expect([...referencedResults(view.pairs, new ToolCallMemo())]).toEqual([["r1", ["r4", "r7"]], ["r2", ["r5"]], ["r8", ["r9"]]]);
    expect(lockReferencedResults(view.pairs, new ToolCallMemo())).toEqual(["r1", "r2", "r8"]);
    expect(view.pairs.map((p) => [p.id, p.locked])).toEqual([
      ["r1", REFERENCED_LOCK], ["r2", REFERENCED_LOCK], ["r3", null], ["r4", null], ["r5", null], ["r6", null], ["r7", null], ["r8", REFERENCED_LOCK], ["r9", null], ["x1", null],
    ]);
  });

  it("a reply never supersedes a read; only a later full copy does", () => {
    const view = makeView({ messages: reads([
      { id: "r1", input: { file_path: "/p/a.ts" }, text: content(40) },
      { id: "r2", input: { file_path: "/p/a.ts" }, text: SHORT },
      { id: "r3", input: { file_path: "/p/b.ts" }, text: content(30) },
      { id: "r4", input: { file_path: "/p/b.ts" }, text: LONG },
      { id: "r5", input: { file_path: "/p/b.ts" }, text: content(30) },
    ]) });
    const pairs = pairsInCallOrder(factsOf(view).pairs);
    const infos = pairs.map((p) => p.call_class);
    const verdicts = ruleSupersededRead(pairs, infos, fileViews(pairs, infos, pairs.map((p) => p.looks_failed)));
    // r1 stays (a reply follows it, no copy); r3 and the reply r4 are superseded by the full copy r5.
    expect(verdicts).toEqual({ r3: { kind: "drop_pair", confidence: 0.9, rule: "superseded_read" }, r4: { kind: "drop_pair", confidence: 0.9, rule: "superseded_read" } });
    // With the locks the adapters apply, the engine keeps every result a reply points at, r3 included.
    lockReferencedResults(view.pairs, new ToolCallMemo());
    const run = runHeuristicEngine(factsOf(view), { exclude_tools: [], min_result_bytes: 2048 });
    expect(run.hits.locked).toEqual(["r1", "r3"]);
    expect(Object.entries(run.verdicts).filter(([, v]) => v.kind !== "keep").map(([id]) => id)).toEqual(["r4"]);
  });
});

describe("a referred-to result through the Anthropic adapter", () => {
  const M = "claude-opus-4-8";
  const read = (id: string, path: string) => use(id, { file_path: path }, "Read");
  const body = {
    model: M,
    messages: [
      user("fix it"),
      assistant([text("Reading."), read("r1", "/w/app.ts")]), user([result("r1", content(60))]),
      assistant([read("r2", "/w/lib.ts")]), user([result("r2", content(60))]),
      assistant([read("r3", "/w/app.ts")]), user([result("r3", SHORT)]),
      assistant("done"), user("next"),
    ],
  };

  it("is locked in the view; plans to drop or cut it are refused with the lock's reason; others still apply", () => {
    const r = run(bodyBytes(body), { r1: { kind: "drop_pair" }, r2: { kind: "drop_pair" } });
    expect(r.parsed.view.pairs.map((p) => [p.id, p.locked])).toEqual([["r1", REFERENCED_LOCK], ["r2", null], ["r3", null]]);
    expect(r.refused).toEqual({ r1: REFERENCED_LOCK });
    const kept = { ...body, messages: [...body.messages.slice(0, 3), ...body.messages.slice(5)] };
    expect(r.text).toBe(JSON.stringify(kept));
    expect(r.check.violations).toEqual([]);
    expect(run(bodyBytes(body), { r1: { kind: "truncate_result", head_bytes: 10 } }).refused).toEqual({ r1: REFERENCED_LOCK });
  });

  it("a ledger removal made before the reply appeared is not re-applied once it is in the history", () => {
    const bytes = bodyBytes(body);
    const view = anthropicAdapter.read(bytes, newCoreCaches()).view;
    const r1 = view.pairs[0]!;
    const ledger = { ...EMPTY_LEDGER, entries: { [ledgerKey("r1", r1.result_hash)]: { pair_id: "r1", result_hash: r1.result_hash, action: { kind: "drop_pair" as const }, step: 1, first_seen_ms: 0 } } };
    expect(reapplyLedger(factsOf(view), ledger, { preserve_recent_turns: 0, exclude_tools: [] })).toEqual({ actions: {}, skipped: { r1: `locked: ${REFERENCED_LOCK}` } });
  });

  it("the checker refuses an output that cut it", () => {
    const cut = { ...body, messages: body.messages.map((m, i) => (i === 2 ? user([result("r1", content(60).slice(0, 40))]) : m)) };
    const check = checkGuarantee(anthropicAdapter, bodyBytes(body), bodyBytes(cut));
    expect(check.violations).toContain(`pair r1 is locked (${REFERENCED_LOCK}) but changed`);
  });
});

describe("a referred-to result through the OpenAI adapters (the compilers screen their own pairs)", () => {
  it("Chat: the plan compiler refuses it with the lock's reason", () => {
    const call = (id: string, path: string) => ({ role: "assistant", content: null, tool_calls: [{ id, type: "function", function: { name: "Read", arguments: JSON.stringify({ file_path: path }) } }] });
    const body = { model: "gpt-5", messages: [{ role: "user", content: "go" }, call("c1", "/w/a.ts"), { role: "tool", tool_call_id: "c1", content: content(50) }, call("c2", "/w/a.ts"), { role: "tool", tool_call_id: "c2", content: SHORT }, { role: "assistant", content: "done" }, { role: "user", content: "next" }] };
    const parsed = openaiChatAdapter.read(bodyBytes(body), newCoreCaches());
    expect(parsed.view.pairs.map((p) => [p.id, p.locked])).toEqual([["c1", REFERENCED_LOCK], ["c2", "last_assistant_turn"]]);
    expect(openaiChatAdapter.compile(parsed, { actions: { c1: { kind: "drop_pair" } } })).toEqual({ deletions: [], refused: { c1: REFERENCED_LOCK } });
  });

  it("Responses: the plan compiler refuses it with the lock's reason", () => {
    const call = (id: string, path: string) => ({ type: "function_call", call_id: id, name: "Read", arguments: JSON.stringify({ file_path: path }) });
    const out = (id: string, output: string) => ({ type: "function_call_output", call_id: id, output });
    const msg = (role: string, t: string) => ({ type: "message", role, content: [{ type: role === "user" ? "input_text" : "output_text", text: t }] });
    const body = { model: "gpt-5", input: [msg("user", "go"), call("c1", "/w/a.ts"), out("c1", content(50)), call("c2", "/w/a.ts"), out("c2", LONG), msg("assistant", "done"), msg("user", "next")] };
    const parsed = openaiResponsesAdapter.read(bodyBytes(body), newCoreCaches());
    expect(parsed.view.pairs.map((p) => [p.id, p.locked])).toEqual([["c1", REFERENCED_LOCK], ["c2", "last_assistant_turn"]]);
    expect(openaiResponsesAdapter.compile(parsed, { actions: { c1: { kind: "drop_result" } } })).toEqual({ deletions: [], refused: { c1: REFERENCED_LOCK } });
  });
});
