import { describe, expect, it } from "vitest";
import { readToolCall, resultLooksFailed } from "../../src/core/engine/read-tool-call";
import { runHeuristicEngine } from "../../src/core/engine/run-heuristic-engine";
import { factsOf, lines, makeView, type MessageSpec } from "../support/make-view";

const cfg = { exclude_tools: [] as string[], min_result_bytes: 2048 };
/** The guard on a current view of a file (src/core/engine/file-views.ts). */
const WORKING_SET = { kind: "keep", confidence: 1, rule: "working_set" };
/** One assistant call + its result per entry, in order, then `pad` empty turns. */
function seq(entries: Array<{ id: string; tool: string; input: unknown; text: string; is_error?: boolean; locked?: string }>, pad = 0): MessageSpec[] {
  const out: MessageSpec[] = [{ role: "user", text: "task" }];
  for (const e of entries) {
    out.push({ role: "assistant", calls: [{ id: e.id, tool: e.tool, input: e.input }] });
    out.push({ role: "user", results: [{ id: e.id, text: e.text, is_error: e.is_error, locked: e.locked }] });
  }
  for (let i = 0; i < pad; i++) out.push({ role: "assistant", text: "ok" }, { role: "user", text: "go on" });
  return out;
}

describe("readToolCall", () => {
  it("reads paths and ranges from the tools agents use", () => {
    expect(readToolCall({ tool_name: "Read", input_text: '{"file_path":"/a/b.py","offset":20,"limit":50}' })).toEqual({ kind: "read", paths: ["/a/b.py"], range: { from: 20, to: 69 }, readonly: true, intent: "read:/a/b.py" });
    expect(readToolCall({ tool_name: "shell_command", input_text: '{"command":"sed -n \'272,340p\' app.js","workdir":"."}' })).toMatchObject({ kind: "read", paths: ["app.js"], range: { from: 272, to: 340 } });
    expect(readToolCall({ tool_name: "Bash", input_text: '{"command":"cat ./README.md"}' })).toMatchObject({ kind: "read", paths: ["README.md"], range: { from: 1, to: Infinity } });
    expect(readToolCall({ tool_name: "apply_patch", input_text: "*** Begin Patch\n*** Update File: ui.js\n@@\n-a\n+b\n*** End Patch" })).toEqual({ kind: "edit", paths: ["ui.js"], whole: false, readonly: false, intent: "patch:ui.js" });
    expect(readToolCall({ tool_name: "apply_patch", input_text: "*** Begin Patch\n*** Add File: ui.js\n+b\n*** Add File: x.js\n+c\n*** End Patch" })).toEqual({ kind: "edit", paths: ["ui.js", "x.js"], whole: true, readonly: false, intent: "patch:ui.js,x.js" });
    expect(readToolCall({ tool_name: "apply_patch", input_text: "*** Begin Patch\n*** Add File: ui.js\n+b\n*** Update File: x.js\n@@\n-a\n+c\n*** End Patch" })).toMatchObject({ kind: "edit", whole: false });
    expect(readToolCall({ tool_name: "Write", input_text: '{"file_path":"/x.md","content":"a"}' })).toMatchObject({ kind: "edit", paths: ["/x.md"], whole: true });
    expect(readToolCall({ tool_name: "shell_command", input_text: JSON.stringify({ command: "apply_patch <<'PATCH'\n*** Begin Patch\n*** Delete File: app.js\n*** End Patch\nPATCH" }) })).toMatchObject({ kind: "edit", paths: ["app.js"], whole: false });
    expect(readToolCall({ tool_name: "Edit", input_text: '{"file_path":"/x.md","old_string":"a","new_string":"b"}' })).toMatchObject({ kind: "edit", paths: ["/x.md"], whole: false });
    expect(readToolCall({ tool_name: "mcp__serena__read_memory", input_text: '{"memory_file_name":"overview"}' })).toMatchObject({ kind: "read", paths: ["memory:overview"] });
    expect(readToolCall({ tool_name: "shell_command", input_text: '{"command":"rg -n \\"x\\" app.js | head"}' })).toMatchObject({ kind: "other", readonly: true });
    expect(readToolCall({ tool_name: "Bash", input_text: '{"command":"sed -i s/a/b/ f"}' })).toMatchObject({ kind: "other", readonly: false });
    expect(readToolCall({ tool_name: "Bash", input_text: '{"command":"git status > out.txt"}' })).toMatchObject({ kind: "other", readonly: false });
  });
  it("reads the shell reads of other agents: PowerShell Get-Content under a cd, numbered line windows, OpenCode's patchText", () => {
    const sh = (command: string) => readToolCall({ tool_name: "shell_command", input_text: JSON.stringify({ command }) });
    expect(sh("cd repo; Get-Content -Path frontend/src/pages/BookingsPage.jsx -TotalCount 400")).toMatchObject({ kind: "read", paths: ["repo/frontend/src/pages/BookingsPage.jsx"], range: { from: 1, to: 400 }, readonly: true });
    expect(sh("cd repo; Get-Content backend/internal/config/config.go")).toMatchObject({ kind: "read", paths: ["repo/backend/internal/config/config.go"], range: { from: 1, to: Infinity } });
    expect(sh("cd repo; Get-Content -Tail 200 frontend/src/pages/InspectionsPage.jsx")).toMatchObject({ kind: "read", range: null });
    expect(sh("cd repo && cat /abs/a.py")).toMatchObject({ kind: "read", paths: ["/abs/a.py"], range: { from: 1, to: Infinity } });
    expect(sh("nl -ba django/core/serializers/python.py | sed -n '1,240p'")).toMatchObject({ kind: "read", paths: ["django/core/serializers/python.py"], range: { from: 1, to: 240 } });
    expect(sh("cat -n a.py | sed -n '10,20p'")).toMatchObject({ kind: "read", paths: ["a.py"], range: { from: 10, to: 20 } });
    expect(sh("$p='x.go'; Get-Content $p")).toMatchObject({ kind: "other" });
    expect(sh("cd repo; Get-Content a.txt | Remove-Item")).toMatchObject({ kind: "other", readonly: false });
    expect(sh("cd repo; Select-String -Path a.jsx -Pattern x")).toMatchObject({ kind: "other", readonly: true });
    expect(readToolCall({ tool_name: "apply_patch", input_text: JSON.stringify({ patchText: "*** Begin Patch\n*** Add File: app/models.py\n+x\n*** End Patch" }) })).toEqual({ kind: "edit", paths: ["app/models.py"], whole: true, readonly: false, intent: "patch:app/models.py" });
  });
  it("detects failures; rg exit 1 is 'no match'", () => {
    const f = (tool_name: string, command: string, result_text: string) => resultLooksFailed({ tool_name, input_text: JSON.stringify({ command }), result_text, result_is_error: false });
    expect(f("shell_command", "ls x", "Exit code: 1\nWall time: 0.1 seconds\nOutput:\n")).toBe(true);
    expect(f("shell_command", "rg onDrag app.js", "Exit code: 1\nWall time: 0.1 seconds\nOutput:\n")).toBe(false);
    expect(f("shell_command", "ls", "Exit code: 0\nOutput:\n")).toBe(false);
    expect(f("apply_patch", "", "apply_patch verification failed: Failed to find expected lines")).toBe(true);
    expect(f("Edit", "", "<tool_use_error>String to replace not found in file.</tool_use_error>")).toBe(true);
  });
});

describe("heuristic rules — exact verdicts", () => {
  it("superseded_read: by a covering re-read or a whole write (0.9); not by an edit; a narrower re-read does not supersede", () => {
    const view = makeView({ messages: seq([
      { id: "r1", tool: "Read", input: { file_path: "/p/a.ts" }, text: "A1" },
      { id: "r2", tool: "Read", input: { file_path: "/p/a.ts", offset: 1, limit: 10 }, text: "A2" },
      { id: "r3", tool: "Read", input: { file_path: "/p/a.ts" }, text: "A3" },
      { id: "r4", tool: "Read", input: { file_path: "/p/b.ts" }, text: "B" },
      { id: "e1", tool: "Edit", input: { file_path: "/p/b.ts", old_string: "x", new_string: "y" }, text: "ok" },
      { id: "r5", tool: "Read", input: { file_path: "/p/c.ts" }, text: "C" },
      { id: "w1", tool: "Write", input: { file_path: "/p/c.ts", content: "C2" }, text: "ok" },
    ]) });
    const { verdicts, hits } = runHeuristicEngine(factsOf(view), cfg);
    expect(verdicts).toEqual({
      r1: { kind: "drop_pair", confidence: 0.9, rule: "superseded_read" },
      r2: { kind: "drop_pair", confidence: 0.9, rule: "superseded_read" },
      r3: WORKING_SET,
      r4: WORKING_SET,
      e1: WORKING_SET,
      r5: { kind: "drop_pair", confidence: 0.9, rule: "superseded_read" },
      w1: WORKING_SET,
    });
    expect(hits.superseded_read).toEqual(["r1", "r2", "r5"]);
  });
  it("duplicate_result: same call and result (≥1024 B) → drop_pair 0.95; same result only (≥256 B) → drop_result 0.7", () => {
    const big = lines(300);
    const log = lines(1100, "lint");
    const view = makeView({ messages: seq([
      { id: "d1", tool: "shell_command", input: { command: "npm run lint" }, text: log },
      { id: "d7", tool: "shell_command", input: { command: "node --check app.js" }, text: "Exit code: 0" },
      { id: "d8", tool: "shell_command", input: { command: "node --check app.js" }, text: "Exit code: 0" },
      { id: "d2", tool: "shell_command", input: { command: "git log" }, text: big },
      { id: "d3", tool: "shell_command", input: { command: "npm run lint" }, text: log },
      { id: "d4", tool: "shell_command", input: { command: "git log -5" }, text: big },
      { id: "d5", tool: "update_plan", input: { plan: 1 }, text: "Plan updated" },
      { id: "d6", tool: "update_plan", input: { plan: 2 }, text: "Plan updated" },
    ]) });
    const { verdicts } = runHeuristicEngine(factsOf(view), cfg);
    expect(verdicts.d1).toEqual({ kind: "drop_pair", confidence: 0.95, rule: "duplicate_result" });
    expect(verdicts.d2).toEqual({ kind: "drop_result", confidence: 0.7, rule: "duplicate_result" });
    // update_plan writes the plan whole: the later plan supersedes the earlier one.
    expect(verdicts.d5).toEqual({ kind: "drop_pair", confidence: 0.8, rule: "superseded_edit" });
    expect(verdicts.d6).toEqual(WORKING_SET);
    // A small repeat (input + result < 1024 B) stays: the agent re-runs such checks whatever its context holds.
    expect(verdicts.d7).toEqual({ kind: "keep", confidence: 0, rule: "none" });
    expect([verdicts.d3!.kind, verdicts.d4!.kind, verdicts.d6!.kind]).toEqual(["keep", "keep", "keep"]);
  });
  it("failed_then_retried: drop_pair 0.85 only when a later same-intent call succeeds", () => {
    const view = makeView({ messages: seq([
      { id: "f1", tool: "shell_command", input: { command: "ls exported-session.jsonl" }, text: "Exit code: 1\nOutput:\nNo such file" },
      { id: "f2", tool: "apply_patch", input: "*** Begin Patch\n*** Update File: index.js\n@@\n-a\n+b\n*** End Patch", text: "apply_patch verification failed: Failed to find expected lines" },
      { id: "f3", tool: "Edit", input: { file_path: "/n.md", old_string: "q", new_string: "r" }, text: "<tool_use_error>String to replace not found in file.</tool_use_error>", is_error: true },
      { id: "f4", tool: "apply_patch", input: "*** Begin Patch\n*** Update File: index.js\n@@\n-c\n+b\n*** End Patch", text: '{"output":"Success. Updated the following files:\\nM index.js\\n","metadata":{"exit_code":0}}' },
      { id: "f5", tool: "shell_command", input: { command: "ls exported-session.jsonl" }, text: "Exit code: 0\nOutput:\nexported-session.jsonl" },
    ]) });
    const { verdicts } = runHeuristicEngine(factsOf(view), cfg);
    expect(verdicts.f1).toEqual({ kind: "drop_pair", confidence: 0.85, rule: "failed_then_retried" });
    expect(verdicts.f2).toEqual({ kind: "drop_pair", confidence: 0.85, rule: "failed_then_retried" });
    // f3, a failed edit no later edit redid, is the agent's draft: in its working set.
    expect(verdicts.f3).toEqual(WORKING_SET);
  });
  it("stale_large_output: read-only and ≥ 4096 B and ≥ 12 turns old → drop_result 0.65", () => {
    const big = lines(5000);
    const view = makeView({ messages: seq([
      { id: "s1", tool: "Grep", input: { pattern: "x" }, text: big },
      { id: "s2", tool: "Bash", input: { command: "npm install" }, text: big },
      { id: "s3", tool: "Glob", input: { pattern: "*" }, text: lines(3000) },
    ], 10) });
    // turn_count = 13: s1 turn 0 (age 13), s2 turn 1, s3 turn 2 (age 11 < 12 but also small)
    const { verdicts, hits } = runHeuristicEngine(factsOf(view), cfg);
    expect(view.turn_count).toBe(13);
    expect(verdicts.s1).toEqual({ kind: "drop_result", confidence: 0.65, rule: "stale_large_output" });
    expect(verdicts.s2).toEqual({ kind: "keep", confidence: 0, rule: "none" });
    expect(verdicts.s3).toEqual({ kind: "keep", confidence: 0, rule: "none" });
    expect(hits.stale_large_output).toEqual(["s1"]);
  });
  it("never touches exclude_tools or locked pairs", () => {
    const view = makeView({ messages: seq([
      { id: "x1", tool: "Read", input: { file_path: "/a" }, text: "1" },
      { id: "x2", tool: "Read", input: { file_path: "/b" }, text: "1", locked: "cache_control" },
      { id: "x3", tool: "Read", input: { file_path: "/a" }, text: "2" },
      { id: "x4", tool: "Read", input: { file_path: "/b" }, text: "2" },
    ]) });
    const { verdicts, hits } = runHeuristicEngine(factsOf(view), { ...cfg, exclude_tools: ["Read"] });
    expect(Object.values(verdicts).every((v) => v.kind === "keep" && v.rule === "exclude_tools")).toBe(true);
    const r2 = runHeuristicEngine(factsOf(view), cfg);
    expect(r2.verdicts.x1).toEqual({ kind: "drop_pair", confidence: 0.9, rule: "superseded_read" });
    expect(r2.verdicts.x2).toEqual({ kind: "keep", confidence: 1, rule: "locked" });
    expect(hits.exclude_tools).toEqual(["x1", "x2", "x3", "x4"]);
  });
});
