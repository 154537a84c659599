import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { assignCallTimes } from "../../tools/replay/assign-call-times";
import { DEFAULT_START_MS } from "../../tools/replay/defaults";
import { readClaudeCode } from "../../tools/replay/read-claude-code";
import { readCodexRollout } from "../../tools/replay/read-codex-rollout";
import { readCorpus } from "../../tools/replay/read-corpus";
import { readSessionText } from "../../tools/replay/read-session-text";
import { callStarts } from "../../tools/replay/split-calls";
import type { RecordedCall } from "../../tools/replay/types";
import { CORPUS_PATH } from "../support/shared-dir";

const CORPUS = CORPUS_PATH;
const corpus = (id: string) => readCorpus(readFileSync(`${CORPUS}/${id}.json`, "utf8"), id);
const fixture = (name: string) => readFileSync(fileURLToPath(new URL(`../fixtures/${name}`, import.meta.url).href), "utf8");

describe("corpus reader", () => {
  // Model-call counts from corpus/seed/MANIFEST.md.
  const MANIFEST_CALLS: Record<string, number> = {
    "codex-rtchess-01": 351,
    "cc-brain-explore-cleanup": 97,
    "cc-brain-explore-ies-thinking": 84,
    "cc-brain-explore-subagent-bashpoll": 195,
    "cc-cctrace-opus4": 144,
    "codex-rtchess-01-responses": 351,
    "tau-airline-gpt4o-task02": 30,
    "tau-airline-gpt4o-task09": 30,
    "sweagent-gpt4-pydicom-1458": 12,
  };

  it("finds the MANIFEST's model-call count in every session (1,294 in total)", () => {
    let total = 0;
    for (const [id, n] of Object.entries(MANIFEST_CALLS)) {
      const s = corpus(id);
      expect([s.id, s.calls.length]).toEqual([id, n]);
      total += s.calls.length;
    }
    expect(total).toBe(1294);
  });

  it("takes each session's project from its source repository (two sessions of one Codex rollout share it)", () => {
    expect(["codex-rtchess-01", "codex-rtchess-01-responses", "cc-cctrace-opus4", "tau-airline-gpt4o-task02"].map((id) => corpus(id).project)).toEqual([
      "pinouchon/rtchess", "pinouchon/rtchess", "yigitkonur/cctrace-js", "sierra-research/tau-bench",
    ]);
  });

  it("reproduces the Responses file's call_starts with the output-item rule", () => {
    const raw = JSON.parse(readFileSync(`${CORPUS}/codex-rtchess-01-responses.json`, "utf8"));
    expect(callStarts("openai-responses", raw.messages)).toEqual(raw.call_starts);
    expect(corpus("codex-rtchess-01-responses").notes).toEqual([]);
  });

  it("builds the Chat request as [system] + messages before the call, with stub tools for the names used", () => {
    const raw = JSON.parse(readFileSync(`${CORPUS}/sweagent-gpt4-pydicom-1458.json`, "utf8"));
    const s = corpus("sweagent-gpt4-pydicom-1458");
    expect(s.calls[0]!.body).toEqual({ model: "gpt-4-1106-preview", messages: [{ role: "system", content: raw.system }, raw.messages[0], raw.messages[1]] });
    expect(s.calls[0]!.reply).toEqual(raw.messages[2]);
    expect(s.calls[0]!.timestamp_ms).toBeNull();
    const tau = corpus("tau-airline-gpt4o-task02");
    expect(tau.tools.map((t) => (t.function as { name: string }).name)).toEqual(["get_user_details", "think", "get_reservation_details", "search_direct_flight", "calculate", "update_reservation_flights"]);
  });

  it("defaults a missing model, keeps a recorded one, and reads zone-less local times as UTC", () => {
    expect(corpus("cc-brain-explore-cleanup").model).toBe("claude-sonnet-4-5-20250929");
    expect(corpus("cc-brain-explore-cleanup").calls[0]!.timestamp_ms).toBe(Date.parse("2025-12-01T15:36:30Z"));
    const cc = corpus("cc-cctrace-opus4");
    expect(cc.model).toBe("claude-opus-4-20250514");
    expect(cc.calls[0]!.timestamp_ms).toBe(Date.parse("2025-07-02T20:06:59.614Z"));
    expect(cc.tools[0]).toEqual({ name: "WebFetch", input_schema: { type: "object" } });
  });

  it("names the field of a malformed corpus file", () => {
    expect(() => readCorpus(JSON.stringify({ id: "x", provider: "gemini", model: null, system: null, tools: [], messages: [], timestamps: [] }), "bad.json")).toThrow(
      /bad\.json: corpus field provider/,
    );
  });
});

const TOOLS_CC = [
  { name: "Read", input_schema: { type: "object" } },
  { name: "Edit", input_schema: { type: "object" } },
  { name: "Bash", input_schema: { type: "object" } },
];
const THINKING = { type: "thinking", thinking: "The user wants a typo fixed. Read the README first.", signature: "EqQBCkYIBxgCKkBfakeSignatureForFixture==" };
const READ_1 = { type: "tool_use", id: "toolu_01", name: "Read", input: { file_path: "/home/dev/app/README.md" } };

describe("Claude Code transcript reader", () => {
  const s = readClaudeCode(fixture("claude-code-session.jsonl"), "test/fixtures/claude-code-session.jsonl");

  it("merges block lines into messages, drops sidechain and synthetic lines, one call per assistant message", () => {
    expect(s.id).toBe("5f0c2a1e-7b3d-4c2a-9e51-0d8f6a4b3c21");
    expect(s.model).toBe("claude-sonnet-4-5-20250929");
    expect(s.project).toBe("/home/dev/app");
    expect(s.calls.length).toBe(6);
    expect(s.notes).toEqual(["dropped 2 sidechain line(s)", "dropped 1 synthetic assistant line(s)"]);
    expect(s.tools).toEqual(TOOLS_CC);
    expect(s.calls.map((c) => c.timestamp_ms)).toEqual(
      ["2025-11-03T10:00:00.000Z", "2025-11-03T10:00:05.500Z", "2025-11-03T10:00:09.200Z", "2025-11-03T11:30:00.000Z", "2025-11-03T11:30:20.000Z", "2025-11-03T11:30:24.400Z"].map(Date.parse),
    );
  });

  it("builds the exact request body, the parallel tool_use lines joined around their results, breakpoint on the last block", () => {
    expect(s.calls[2]!.body).toEqual({
      model: "claude-sonnet-4-5-20250929",
      max_tokens: 32000,
      tools: TOOLS_CC,
      messages: [
        { role: "user", content: "Fix the typo in README.md" },
        { role: "assistant", content: [THINKING, READ_1] },
        { role: "user", content: [{ tool_use_id: "toolu_01", type: "tool_result", content: "     1→# Demo app\n     2→Teh quick start\n" }] },
        {
          role: "assistant",
          content: [
            { type: "text", text: 'Found it: "Teh" on line 2.' },
            { type: "tool_use", id: "toolu_02", name: "Edit", input: { file_path: "/home/dev/app/README.md", old_string: "Teh quick start", new_string: "The quick start" } },
            { type: "tool_use", id: "toolu_03", name: "Bash", input: { command: "git diff --stat", description: "Show changed files" } },
          ],
        },
        {
          role: "user",
          content: [
            { tool_use_id: "toolu_02", type: "tool_result", content: "The file /home/dev/app/README.md has been updated." },
            { tool_use_id: "toolu_03", type: "tool_result", content: " README.md | 2 +-\n 1 file changed, 1 insertion(+), 1 deletion(-)", is_error: false, cache_control: { type: "ephemeral" } },
          ],
        },
      ],
    });
    expect(s.calls[2]!.reply).toEqual({ role: "assistant", content: [{ type: "text", text: "Fixed the typo." }] });
    expect(s.calls[0]!.body.messages).toEqual([{ role: "user", content: [{ type: "text", text: "Fix the typo in README.md", cache_control: { type: "ephemeral" } }] }]);
    // The whitespace-only user line after the synthetic error is dropped; the prompt stays a string in history.
    expect((s.calls[4]!.body.messages as unknown[])[6]).toEqual({ role: "user", content: "Now run the tests" });
  });

  it("reads a subagent file (all lines sidechain) as its own session", () => {
    const lines = [
      { type: "user", isSidechain: true, sessionId: "s1", timestamp: "2025-11-03T10:00:00Z", message: { role: "user", content: "Find typos" } },
      { type: "assistant", isSidechain: true, sessionId: "s1", timestamp: "2025-11-03T10:00:02Z", message: { id: "m1", model: "claude-haiku-4-5", role: "assistant", content: [{ type: "text", text: "None." }] } },
    ];
    const sub = readClaudeCode(lines.map((l) => JSON.stringify(l)).join("\n"), "agent-1.jsonl");
    expect(sub.model).toBe("claude-haiku-4-5-20251001");
    expect(sub.calls.map((c) => c.body.messages)).toEqual([[{ role: "user", content: [{ type: "text", text: "Find typos", cache_control: { type: "ephemeral" } }] }]]);
  });

  it("names the line that is not JSON", () => {
    expect(() => readClaudeCode('{"type":"user"}\n{oops', "x.jsonl")).toThrow("x.jsonl: line 2 is not JSON");
  });
});

const ENV = { type: "message", role: "user", content: [{ type: "input_text", text: "<environment_context>\n  <cwd>/repo</cwd>\n  <approval_policy>on-request</approval_policy>\n  <sandbox_mode>workspace-write</sandbox_mode>\n  <network_access>restricted</network_access>\n  <shell>bash</shell>\n</environment_context>" }] };
const user = (text: string) => ({ type: "message", role: "user", content: [{ type: "input_text", text }] });
const TOOLS_CX = [{ type: "function", name: "shell", parameters: { type: "object" }, strict: false }, { type: "custom", name: "apply_patch" }];

describe("Codex rollout reader", () => {
  const s = readCodexRollout(fixture("codex-rollout.jsonl"), "test/fixtures/codex-rollout.jsonl");

  it("keeps response items, skips events and ghost snapshots, one call per run of output items", () => {
    expect([s.id, s.provider, s.model, s.system, s.project]).toEqual(["0199a1b2-3c4d-7e5f-8a9b-0c1d2e3f4a5b", "openai-responses", "gpt-5-codex", null, "/repo"]);
    expect(s.calls.length).toBe(6);
    expect(s.tools).toEqual(TOOLS_CX);
    expect(s.notes).toEqual(["skipped 1 ghost_snapshot item(s)", "1 compaction(s): history restarts there"]);
    expect(s.calls.map((c) => c.timestamp_ms)).toEqual(
      ["2025-11-10T09:00:05.000Z", "2025-11-10T09:00:09.300Z", "2025-11-10T09:00:14.200Z", "2025-11-10T09:02:00.000Z", "2025-11-10T09:02:09.000Z", "2025-11-10T09:41:00.000Z"].map(Date.parse),
    );
  });

  it("builds the exact Responses bodies, before and after a compaction", () => {
    expect(s.calls[1]!.body).toEqual({
      model: "gpt-5-codex",
      input: [
        ENV,
        user("Add a --verbose flag to cli.py"),
        { type: "reasoning", summary: [{ type: "summary_text", text: "**Inspecting cli.py**" }], content: null, encrypted_content: "gAAAAABpFixtureOpaqueReasoningBlob==" },
        { type: "function_call", name: "shell", arguments: '{"command":["bash","-lc","cat cli.py"],"workdir":"/repo"}', call_id: "call_a1" },
        { type: "function_call_output", call_id: "call_a1", output: '{"output":"import argparse\\nparser = argparse.ArgumentParser()\\nargs = parser.parse_args()\\n","metadata":{"exit_code":0,"duration_seconds":0.0}}' },
      ],
      tools: TOOLS_CX,
      store: false,
    });
    expect(s.calls[1]!.reply).toEqual([
      { type: "custom_tool_call", status: "completed", call_id: "call_a2", name: "apply_patch", input: '*** Begin Patch\n*** Update File: cli.py\n@@\n parser = argparse.ArgumentParser()\n+parser.add_argument("--verbose", action="store_true")\n*** End Patch\n' },
    ]);
    expect(s.calls[5]!.body).toEqual({
      model: "gpt-5-codex",
      input: [user("Add a --verbose flag to cli.py"), user("Thanks, also run the tests"), user("Summary: added --verbose to cli.py; pytest passes (3 tests)."), user("Commit it")],
      tools: TOOLS_CX,
      store: false,
    });
  });
});

describe("format sniffing and call times", () => {
  it("dispatches each format to its reader", () => {
    expect(readSessionText(fixture("claude-code-session.jsonl"), "a").source.format).toBe("claude-code-jsonl");
    expect(readSessionText(fixture("codex-rollout.jsonl"), "b").source.format).toBe("codex-rollout");
    expect(readSessionText(readFileSync(`${CORPUS}/tau-airline-gpt4o-task09.json`, "utf8"), "c").source.format).toBe("corpus");
    expect(() => readSessionText('{"hello":1}', "d.json")).toThrow("d.json: not a corpus JSON file, a Claude Code transcript or a Codex rollout");
  });

  it("fills missing times with the 20 s default gap and never goes backwards", () => {
    const calls = (ts: (number | null)[]): RecordedCall[] => ts.map((t, index) => ({ index, body: {}, timestamp_ms: t, reply: null }));
    expect(assignCallTimes(calls([null, 100_000, null, 50_000, 200_000]))).toEqual([80_000, 100_000, 120_000, 120_000, 200_000]);
    expect(assignCallTimes(calls([null, null, null]))).toEqual([DEFAULT_START_MS, DEFAULT_START_MS + 20_000, DEFAULT_START_MS + 40_000]);
  });
});
