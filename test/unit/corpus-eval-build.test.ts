/**
 * The evaluation-corpus converter (tools/corpus): one committed source fixture converts to
 * exactly the committed corpus bytes; each converter and the scrub on small hand-built inputs;
 * the split rule reproduces the frozen split of tools/corpus/sources.json.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { convertClaudeJsonl } from "../../tools/corpus/convert-claude-jsonl";
import { convertMiniSweAgent } from "../../tools/corpus/convert-mini-swe-agent";
import { convertSessionExport } from "../../tools/corpus/convert-session-export";
import { buildSession } from "../../tools/corpus/convert-source";
import { scrubSession } from "../../tools/corpus/scrub";
import { loadSources } from "../../tools/corpus/sources";
import { assignSplits } from "../../tools/corpus/split";
import type { Json } from "../../tools/replay/types";

const SRC = { repo: "o/r", path: "p", commit: "0".repeat(40), license: "MIT" };

describe("corpus:build on a committed source", () => {
  it("converts the mini-swe-agent fixture to the committed corpus file byte for byte", () => {
    const entry = loadSources().find((s) => s.id === "mini-russellryanh-django-16938")!;
    const text = readFileSync("test/fixtures/corpus-eval/mini-russellryanh-django-16938.traj.json", "utf8");
    const built = buildSession(entry, text);
    const committed = readFileSync("corpus/eval/dev/mini-russellryanh-django-16938.json", "utf8");
    expect(Buffer.byteLength(built.bytes)).toBe(157_273);
    expect(built.bytes).toBe(committed);
    expect(built.file.messages.filter((m) => m.role === "assistant")).toHaveLength(35);
  });
});

describe("convertSessionExport", () => {
  const t = (s: number) => ({ timestamp: `2026-04-01T00:00:0${s}Z` });
  const exportOf = (sessionMeta: Json, messages: Json[]) => ({ meta: { session_meta: sessionMeta, turn_contexts: [{ model: null }, { model: "m-1" }] }, messages });

  it("Claude Code: merges per-block assistant messages into one call, tool outputs into one user message, drops sub-agent lines and reasoning", () => {
    const raw = exportOf({ version: "2.1.90" }, [
      { role: "user", content: [{ type: "text", text: "fix it" }], _metadata: t(0) },
      { role: "assistant", content: [{ type: "reasoning", text: "hm" }], _metadata: t(1) },
      { role: "assistant", content: [{ type: "text", text: "Looking." }], _metadata: t(2) },
      { role: "assistant", content: [{ type: "tool_call", tool_call_id: "toolu_1", name: "Read", arguments: '{"file_path":"/a"}' }], _metadata: t(3) },
      { role: "assistant-subagent-x", content: [{ type: "text", text: "side" }], _metadata: t(4) },
      { role: "tool", tool_call_id: "toolu_1", content: [{ type: "tool_output", text: "1\tx" }], _metadata: t(5) },
      { role: "assistant", content: [{ type: "text", text: "Done." }], _metadata: t(6) },
    ]);
    const { file, notes } = convertSessionExport(raw, "s", SRC, "t");
    expect(file.provider).toBe("anthropic");
    expect(file.model).toBe("m-1");
    expect(file.messages).toEqual([
      { role: "user", content: [{ type: "text", text: "fix it" }] },
      { role: "assistant", content: [{ type: "text", text: "Looking." }, { type: "tool_use", id: "toolu_1", name: "Read", input: { file_path: "/a" } }] },
      { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_1", content: "1\tx" }] },
      { role: "assistant", content: [{ type: "text", text: "Done." }] },
    ]);
    expect(file.timestamps).toEqual(["2026-04-01T00:00:00Z", "2026-04-01T00:00:03Z", "2026-04-01T00:00:05Z", "2026-04-01T00:00:06Z"]);
    expect(notes).toEqual(["dropped 1 sub-agent message(s) logged into the file", "dropped 1 reasoning block(s) (unsigned or redacted in the export)"]);
  });

  it("Claude Code: calls logged while another waits for its output join its turn; an output listed before its call moves after it", () => {
    const call = (id: string) => ({ role: "assistant", content: [{ type: "tool_call", tool_call_id: id, name: "Read", arguments: "{}" }] });
    const out = (id: string) => ({ role: "tool", tool_call_id: id, content: [{ type: "tool_output", text: id }] });
    const raw = exportOf({ version: "2.1.90" }, [
      { role: "user", content: [{ type: "text", text: "go" }] },
      call("A"),
      call("B"),
      out("B"),
      call("C"),
      out("A"),
      out("C"),
      out("D"),
      call("D"),
      { role: "assistant", content: [{ type: "text", text: "ok" }] },
    ]);
    const { file, notes } = convertSessionExport(raw, "s", SRC, "t");
    const use = (id: string) => ({ type: "tool_use", id, name: "Read", input: {} });
    const res = (id: string) => ({ type: "tool_result", tool_use_id: id, content: id });
    expect(file.messages).toEqual([
      { role: "user", content: [{ type: "text", text: "go" }] },
      { role: "assistant", content: [use("A"), use("B"), use("C")] },
      { role: "user", content: [res("B"), res("A"), res("C")] },
      { role: "assistant", content: [use("D")] },
      { role: "user", content: [res("D")] },
      { role: "assistant", content: [{ type: "text", text: "ok" }] },
    ]);
    expect(notes).toEqual(["1 tool output(s) listed just before their call moved after it"]);
  });

  it("Codex: Responses items, freeform apply_patch as a custom tool call, environment context as a user message", () => {
    const raw = exportOf({ originator: "codex_cli_rs", base_instructions: { text: "You are Codex." } }, [
      { role: "system", content: [{ type: "text", text: "<environment_context/>" }], _metadata: t(0) },
      { role: "user", content: [{ type: "text", text: "go" }], _metadata: t(1) },
      { role: "assistant", content: [{ type: "tool_call", tool_call_id: "c1", name: "shell_command", arguments: '{"command":"ls"}' }], _metadata: t(2) },
      { role: "tool", tool_call_id: "c1", content: [{ type: "tool_output", text: "a.txt" }], _metadata: t(3) },
      { role: "assistant", content: [{ type: "tool_call", tool_call_id: "c2", name: "apply_patch", arguments: "*** Begin Patch" }], _metadata: t(4) },
      { role: "tool", tool_call_id: "c2", content: [{ type: "tool_output", text: "ok" }], _metadata: t(5) },
    ]);
    const { file } = convertSessionExport(raw, "s", SRC, "t");
    expect(file.provider).toBe("openai-responses");
    expect(file.system).toBe("You are Codex.");
    expect(file.messages).toEqual([
      { type: "message", role: "user", content: [{ type: "input_text", text: "<environment_context/>" }] },
      { type: "message", role: "user", content: [{ type: "input_text", text: "go" }] },
      { type: "function_call", name: "shell_command", arguments: '{"command":"ls"}', call_id: "c1" },
      { type: "function_call_output", call_id: "c1", output: "a.txt" },
      { type: "custom_tool_call", name: "apply_patch", input: "*** Begin Patch", call_id: "c2" },
      { type: "custom_tool_call_output", call_id: "c2", output: "ok" },
    ]);
    expect(file.call_starts).toEqual([2, 4]);
  });

  it("OpenCode: Chat messages with tool_calls; an unknown header is refused naming the field", () => {
    const raw = exportOf({ source: "opencode" }, [
      { role: "user", content: [{ type: "text", text: "build" }] },
      { role: "assistant", content: [{ type: "reasoning", text: "[REDACTED]" }, { type: "tool_use", tool_call_id: "k1", name: "read", arguments: '{"filePath":"x"}' }] },
      { role: "tool", tool_call_id: "k1", content: [{ type: "tool_output", text: "body" }] },
    ]);
    expect(convertSessionExport(raw, "s", SRC, "t").file.messages).toEqual([
      { role: "user", content: "build" },
      { role: "assistant", content: null, tool_calls: [{ id: "k1", type: "function", function: { name: "read", arguments: '{"filePath":"x"}' } }] },
      { role: "tool", tool_call_id: "k1", content: "body" },
    ]);
    expect(() => convertSessionExport(exportOf({ source: "cursor" }, []), "s", SRC, "t.json")).toThrow('t.json: field meta.session_meta: no known agent (originator null, source "cursor")');
  });
});

describe("convertMiniSweAgent", () => {
  it("keeps role, content and tool calls, moves the first system message to system, drops the exit marker", () => {
    const raw: Json = {
      info: { config: { model: { model_name: "openai/gpt-5-mini" } }, exit_status: "Submitted" },
      trajectory_format: "mini-swe-agent-1.1",
      messages: [
        { role: "system", content: "sys" },
        { role: "user", content: "task" },
        { role: "assistant", content: null, tool_calls: [{ id: "c", type: "function", function: { name: "bash", arguments: "{}" } }], extra: { timestamp: 1.5 }, provider_specific_fields: null },
        { role: "tool", content: "out", tool_call_id: "c", extra: { raw_output: "out" } },
        { role: "exit", content: "" },
      ],
    };
    const { file, notes } = convertMiniSweAgent(raw, "m", SRC, "t");
    expect(file.model).toBe("gpt-5-mini");
    expect(file.system).toBe("sys");
    expect(file.messages).toEqual([
      { role: "user", content: "task" },
      { role: "assistant", content: null, tool_calls: [{ id: "c", type: "function", function: { name: "bash", arguments: "{}" } }] },
      { role: "tool", content: "out", tool_call_id: "c" },
    ]);
    expect(file.timestamps).toEqual([null, "1970-01-01T00:00:01.500Z", null]);
    expect(notes).toEqual(["dropped 1 exit marker message(s)", 'mini-swe-agent, trajectory format mini-swe-agent-1.1; exit status "Submitted"']);
  });
});

describe("convertClaudeJsonl", () => {
  it("gives the reader's conversation and puts each call's time on its last input message", () => {
    const lines = [
      { type: "user", sessionId: "s1", timestamp: "2026-01-01T00:00:00Z", message: { role: "user", content: "hi" } },
      { type: "assistant", timestamp: "2026-01-01T00:00:02Z", message: { id: "m1", model: "claude-opus-4-6", role: "assistant", content: [{ type: "tool_use", id: "t1", name: "Bash", input: { command: "ls" } }] } },
      { type: "user", timestamp: "2026-01-01T00:00:03Z", message: { role: "user", content: [{ type: "tool_result", tool_use_id: "t1", content: "a" }] } },
      { type: "assistant", timestamp: "2026-01-01T00:00:05Z", message: { id: "m2", model: "claude-opus-4-6", role: "assistant", content: [{ type: "text", text: "ok" }] } },
    ];
    const { file } = convertClaudeJsonl(lines.map((l) => JSON.stringify(l)).join("\n"), "c", SRC, "t");
    expect(file.model).toBe("claude-opus-4-6");
    expect(file.messages).toEqual([
      { role: "user", content: "hi" },
      { role: "assistant", content: [{ type: "tool_use", id: "t1", name: "Bash", input: { command: "ls" } }] },
      { role: "user", content: [{ type: "tool_result", tool_use_id: "t1", content: "a" }] },
      { role: "assistant", content: [{ type: "text", text: "ok" }] },
    ]);
    expect(file.timestamps).toEqual(["2026-01-01T00:00:00.000Z", null, "2026-01-01T00:00:03.000Z", null]);
  });
});

describe("scrubSession", () => {
  it("masks home-dir user names, e-mails, git authors, keys and LAN IPs with same-length x, and leaves signatures", () => {
    const input = {
      a: "cd /home/jdoe/app && ls -l\n-rw-r--r-- 1 jdoe staff 3 a.txt",
      b: "C:\\Users\\Hello\\proj said Hello",
      c: "mail jane.doe@corp.io or admin@example.com; Author: Jane Doe <jane.doe@corp.io>",
      d: "key sk-ant-api03-AbCdEfGhIjKlMnOpQrStUv and 192.168.1.20",
      e: { type: "thinking", thinking: "user jdoe", signature: "jdoe-sig" },
    };
    const { value, counts } = scrubSession(input);
    expect(value).toEqual({
      a: "cd /home/xxxx/app && ls -l\n-rw-r--r-- 1 xxxx staff 3 a.txt",
      b: "C:\\Users\\xxxxx\\proj said Hello",
      c: "mail xxxx.xxx@xxxx.xx or admin@example.com; Author: xxxx xxx <xxxx.xxx@xxxx.xx>",
      d: "key sk-ant-xxxxx-xxxxxxxxxxxxxxxxxxxxxx and 192.168.x.xx",
      e: { type: "thinking", thinking: "user xxxx", signature: "jdoe-sig" },
    });
    expect(counts).toEqual({ home_username: 4, email: 2, git_author: 1, secret: 1, private_ip: 1, thinking_altered: 1 });
  });
});

describe("split rule", () => {
  it("reproduces the frozen split of every group in tools/corpus/sources.json", () => {
    const sources = loadSources();
    const agents = new Map<string, string[]>();
    for (const s of sources) agents.set(s.group, [...(agents.get(s.group) ?? []), s.agent]);
    const rule = assignSplits([...agents].map(([group, a]) => ({ group, agents: a })));
    for (const s of sources) expect(`${s.group}: ${rule.get(s.group)}`).toBe(`${s.group}: ${s.split}`);
  });
});
