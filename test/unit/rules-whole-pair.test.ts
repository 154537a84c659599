/**
 * The whole-pair rules on small hand-built histories, exact verdicts per pair id:
 * superseded_edit (an edit whose files all have a later full read or whole write), superseded_command (a
 * command run again later), and the mentioned_later guard (a pair whose file or command a later
 * assistant message names, and no later call does, stays).
 */
import { describe, expect, it } from "vitest";
import { runHeuristicEngine } from "../../src/core/engine/run-heuristic-engine";
import { REFERENCE_REPLIES } from "../../src/core/engine/reference-replies";
import { mentionKey, pathKeys, proseMentionKeys } from "../../src/core/text/mention-keys";
import { factsOf, lines, makeView, proseMentions, type MessageSpec } from "../support/make-view";

const cfg = { exclude_tools: [] as string[], min_result_bytes: 2048 };
type Entry = { id: string; tool: string; input: unknown; text: string; is_error?: boolean };
/** One assistant call + its result per entry, in order; a string entry is an assistant message with that prose. */
function seq(entries: Array<Entry | string>, pad = 0): MessageSpec[] {
  const out: MessageSpec[] = [{ role: "user", text: "task" }];
  for (const e of entries) {
    if (typeof e === "string") {
      out.push({ role: "assistant", text: e }, { role: "user", text: "go on" });
      continue;
    }
    out.push({ role: "assistant", calls: [{ id: e.id, tool: e.tool, input: e.input }] });
    out.push({ role: "user", results: [{ id: e.id, text: e.text, is_error: e.is_error }] });
  }
  for (let i = 0; i < pad; i++) out.push({ role: "assistant", text: "ok" }, { role: "user", text: "go on" });
  return out;
}
const run = (messages: MessageSpec[], config: typeof cfg & { working_set_turns?: number | null } = cfg) => runHeuristicEngine(factsOf(makeView({ messages }), {}, proseMentions(messages)), config);
/** No working set (src/core/engine/file-views.ts): the guard below is seen alone. */
const noWorkingSet = { ...cfg, working_set_turns: 0 };
const patch = (body: string) => `*** Begin Patch\n${body}\n*** End Patch`;
const ok = '{"output":"Success. Updated the following files:\\nM a.js\\n","metadata":{"exit_code":0}}';

describe("superseded_edit", () => {
  it("drops a patch only when every file it changed has a later full read, a whole write when a full read or whole write follows; a later edit or partial read is not enough", () => {
    const { verdicts, hits } = run(seq([
      { id: "e1", tool: "apply_patch", input: patch("*** Add File: a.js\n+x"), text: ok },
      { id: "e2", tool: "apply_patch", input: patch("*** Update File: a.js\n@@\n-x\n+y"), text: ok },
      { id: "r1", tool: "shell_command", input: { command: "sed -n 1,20p a.js" }, text: "y" },
      { id: "e3", tool: "apply_patch", input: patch("*** Update File: a.js\n@@\n-y\n+z\n*** Update File: c.js\n@@\n-1\n+2"), text: ok },
      { id: "r2", tool: "shell_command", input: { command: "cat a.js" }, text: "z" },
      { id: "w1", tool: "Write", input: { file_path: "/p/b.ts", content: "b" }, text: "File created" },
      { id: "e4", tool: "Edit", input: { file_path: "/p/b.ts", old_string: "b", new_string: "c" }, text: "ok" },
      { id: "w2", tool: "Write", input: { file_path: "/p/b.ts", content: "d" }, text: "ok" },
      { id: "f1", tool: "Edit", input: { file_path: "/p/d.ts", old_string: "q", new_string: "r" }, text: "<tool_use_error>String to replace not found in file.</tool_use_error>", is_error: true },
      { id: "r3", tool: "Read", input: { file_path: "/p/d.ts" }, text: "d" },
      { id: "e5", tool: "Edit", input: { file_path: "/p/e.ts", old_string: "q", new_string: "r" }, text: "ok" },
      { id: "r4", tool: "Read", input: { file_path: "/p/e.ts" }, text: REFERENCE_REPLIES[0]!.text },
      { id: "e6", tool: "Edit", input: { file_path: "/p/f.ts", old_string: "q", new_string: "r" }, text: "ok" },
      { id: "r5", tool: "Read", input: { file_path: "/p/f.ts", offset: 1, limit: 50 }, text: "f" },
    ]));
    // e1, e2: the full read r2 of a.js; w1: the whole rewrite w2; f1: the full read r3.
    expect(hits.superseded_edit).toEqual(["e1", "e2", "w1", "f1"]);
    for (const id of hits.superseded_edit) expect(verdicts[id]).toEqual({ kind: "drop_pair", confidence: 0.8, rule: "superseded_edit" });
    // r1 (lines 1–20 of a.js): the full read r2 covers it.
    expect(hits.superseded_read).toEqual(["r1"]);
    // e3: c.js has no newer view; e4: only a whole rewrite (w2) follows, which does not show what the patch wrote;
    // e5: only a reference reply (no content) follows; e6: only a partial read (offset/limit) follows.
    expect([verdicts.e3!.kind, verdicts.e4!.kind, verdicts.e5!.kind, verdicts.e6!.kind]).toEqual(["keep", "keep", "keep", "keep"]);
  });
  it("a file the agent keeps patching keeps its patches; a failed whole write supersedes nothing", () => {
    const { verdicts, hits } = run(seq([
      { id: "e1", tool: "Edit", input: { file_path: "/p/a.ts", old_string: "1", new_string: "2" }, text: "ok" },
      { id: "e2", tool: "MultiEdit", input: { file_path: "/p/a.ts", edits: [] }, text: "ok" },
      { id: "e3", tool: "apply_patch", input: patch("*** Update File: p/a.ts\n@@\n-2\n+3"), text: ok },
      { id: "e4", tool: "Write", input: { file_path: "/p/a.ts", content: "x" }, text: "Error: permission denied", is_error: true },
    ]));
    expect(hits.superseded_edit).toEqual([]);
    expect([verdicts.e1!.kind, verdicts.e2!.kind, verdicts.e3!.kind]).toEqual(["keep", "keep", "keep"]);
  });
  it("deleting a file is no newer view of it (the agent writes the new file from the old views); adding it again is not either for the patches before it, a full read is (codex-rtchess-01, calls 59–60)", () => {
    const entries = [
      { id: "e1", tool: "apply_patch", input: patch("*** Update File: app.js\n@@\n-a\n+b"), text: ok },
      { id: "d1", tool: "apply_patch", input: patch("*** Delete File: app.js"), text: ok },
    ];
    expect(run(seq(entries)).hits.superseded_edit).toEqual([]);
    const added = [...entries, { id: "w1", tool: "apply_patch", input: patch("*** Add File: app.js\n+b"), text: ok }];
    expect(run(seq(added)).hits.superseded_edit).toEqual([]);
    expect(run(seq([...added, { id: "r1", tool: "shell_command", input: { command: "cat app.js" }, text: "b" }])).hits.superseded_edit).toEqual(["e1", "d1", "w1"]);
  });
});

describe("superseded_command", () => {
  it("drops a shell command or read-only call (≥ 1024 B) run again later without failing; never other tools", () => {
    const out = (tag: string) => lines(1100, tag);
    const { verdicts, hits } = run(seq([
      { id: "c1", tool: "shell_command", input: { command: "npm test" }, text: out("3 failing") },
      { id: "g1", tool: "Glob", input: { pattern: "*.ts" }, text: out("a.ts") },
      { id: "m1", tool: "mcp__kg__create_entities", input: { name: "a" }, text: out("created") },
      { id: "b1", tool: "BashOutput", input: { bash_id: "x" }, text: out("line") },
      { id: "s1", tool: "shell_command", input: { command: "git status -sb" }, text: "## main" },
      { id: "c2", tool: "shell_command", input: { command: "npm test" }, text: out("all passing") },
      { id: "g2", tool: "Glob", input: { pattern: "*.ts" }, text: out("b.ts") },
      { id: "m2", tool: "mcp__kg__create_entities", input: { name: "a" }, text: out("created more") },
      { id: "b2", tool: "BashOutput", input: { bash_id: "x" }, text: out("more lines") },
      { id: "s2", tool: "shell_command", input: { command: "git status -sb" }, text: "## main...origin/main" },
      { id: "c3", tool: "shell_command", input: { command: "npm test" }, text: "Exit code: 1\nOutput:\nboom" },
    ]));
    // s1: a small repeat (input + result < 1024 B) stays.
    expect(hits.superseded_command).toEqual(["c1", "g1"]);
    expect(verdicts.c1).toEqual({ kind: "drop_pair", confidence: 0.75, rule: "superseded_command" });
    expect(verdicts.g1).toEqual({ kind: "drop_pair", confidence: 0.75, rule: "superseded_command" });
    // c2 is kept: the only later run (c3) failed.
    expect([verdicts.c2!.kind, verdicts.m1!.kind, verdicts.b1!.kind, verdicts.s1!.kind]).toEqual(["keep", "keep", "keep", "keep"]);
  });
});

describe("mentioned_later guard", () => {
  const big = lines(5000);
  it("keeps a stale large read the agent names later; without the mention it goes", () => {
    const entries: Array<Entry | string> = [
      { id: "r1", tool: "Read", input: { file_path: "/home/u/proj/src/big.ts" }, text: big },
      { id: "r2", tool: "Read", input: { file_path: "/home/u/proj/src/other.ts" }, text: big },
      { id: "g1", tool: "Bash", input: { command: "git log --stat" }, text: big },
    ];
    const plain = run(seq(entries, 14), noWorkingSet);
    expect(plain.hits.stale_large_output).toEqual(["r1", "r2", "g1"]);
    const named = run(seq([...entries, "The loader lives in `src/big.ts`; `git log --stat` shows who changed it."], 14), noWorkingSet);
    expect(named.hits.mentioned_later).toEqual(["r1", "g1"]);
    expect(named.verdicts.r1).toEqual({ kind: "keep", confidence: 1, rule: "mentioned_later" });
    expect(named.verdicts.g1).toEqual({ kind: "keep", confidence: 1, rule: "mentioned_later" });
    expect(named.verdicts.r2).toEqual({ kind: "drop_result", confidence: 0.65, rule: "stale_large_output" });
  });
  it("guards only the newest call naming the file: older edits of it still go once a full read follows", () => {
    const { verdicts, hits } = run(seq([
      { id: "e1", tool: "apply_patch", input: patch("*** Add File: web/app.js\n+x"), text: ok },
      { id: "e2", tool: "apply_patch", input: patch("*** Update File: web/app.js\n@@\n-x\n+y"), text: ok },
      "Updated app.js to draw the board.",
      { id: "r1", tool: "shell_command", input: { command: "cat web/app.js" }, text: "y" },
    ]));
    expect(hits.mentioned_later).toEqual([]);
    expect(hits.superseded_edit).toEqual(["e1", "e2"]);
    expect(verdicts.r1).toEqual({ kind: "keep", confidence: 1, rule: "working_set" });
  });
  it("a mention before the result does not count", () => {
    const { hits } = run(seq(["I will read `src/big.ts` now.", { id: "r1", tool: "Read", input: { file_path: "/home/u/proj/src/big.ts" }, text: big }], 14), noWorkingSet);
    expect(hits.mentioned_later).toEqual([]);
    expect(hits.stale_large_output).toEqual(["r1"]);
  });
});

describe("mention keys", () => {
  it("hash backticked spans and path-like words; a path also gives its last segment", () => {
    expect(proseMentionKeys("See `node --check app.js` and src/core/x.ts, e.g. README.md.")).toEqual([
      mentionKey("node --check app.js"), mentionKey("app.js"), ...pathKeys("src/core/x.ts"), mentionKey("e.g"), mentionKey("README.md"),
    ]);
    expect(pathKeys("./src//a.ts")).toEqual([mentionKey("src/a.ts"), mentionKey("a.ts")]);
    expect(pathKeys("a.ts")).toEqual([mentionKey("a.ts")]);
    expect(mentionKey("a.ts")).toMatch(/^[0-9a-f]{8}$/);
  });
});
