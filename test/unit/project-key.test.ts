/**
 * The project key (src/gateway/project-key.ts): one caller in one working directory is one
 * project whatever the conversation; without a stated directory only the same conversation is.
 */
import { describe, expect, it } from "vitest";
import { hashText } from "../../src/core/hash";
import type { Provider } from "../../src/core/view/types";
import { projectKeyOf, workingDirectoryOf } from "../../src/gateway/project-key";
import { scanJson } from "../../src/providers/shared/json-scan";

const CLAUDE_CODE_SYSTEM = "You are Claude Code.\n<env>\nWorking directory: /home/dev/shop\nIs directory a git repo: Yes\n</env>";
/** Claude Code 2.1's environment section, as recorded from the real client (a ` - ` bullet per fact). */
const CLAUDE_CODE_2_ENV = "# Environment\nYou have been invoked in the following environment: \n - Primary working directory: /tmp/ccrun/proj-cc1\n - Is a git repository: false\n - Platform: linux\n - Shell: bash";
const body = (system: string | null, first: string, later: string[] = []) => {
  const messages = [{ role: "user", content: first }, ...later.map((t, i) => ({ role: i % 2 === 0 ? "assistant" : "user", content: t }))];
  return new TextEncoder().encode(JSON.stringify({ model: "claude-sonnet-4-5", max_tokens: 1, ...(system === null ? {} : { system }), messages }));
};
const keyOf = (bytes: Uint8Array, key = "sk-ant-one") => projectKeyOf("anthropic", new Headers({ "x-api-key": key }), bytes, scanJson(bytes));

describe("workingDirectoryOf", () => {
  it("reads Claude Code's env line, its 'Primary' form, its 2.x bullet and a cwd tag; null without one", () => {
    expect(workingDirectoryOf(CLAUDE_CODE_SYSTEM)).toBe("/home/dev/shop");
    expect(workingDirectoryOf("x\n  Primary working directory: /srv/app  \ny")).toBe("/srv/app");
    expect(workingDirectoryOf(CLAUDE_CODE_2_ENV)).toBe("/tmp/ccrun/proj-cc1");
    expect(workingDirectoryOf("Working directory:\nIs directory a git repo: Yes")).toBeNull();
    expect(workingDirectoryOf("<environment_context><cwd>/work/repo</cwd></environment_context>")).toBe("/work/repo");
    expect(workingDirectoryOf("You are a helpful assistant. The working directory is unknown.")).toBeNull();
  });
});

describe("projectKeyOf", () => {
  it("a stated directory: cwd:<hash of caller and directory>, the same for two conversations of one caller there", () => {
    const expected = `cwd:${hashText(`${hashText("sk-ant-one")}\u0000/home/dev/shop`)}`;
    expect(keyOf(body(CLAUDE_CODE_SYSTEM, "fix the cart"))).toBe(expected);
    expect(keyOf(body(CLAUDE_CODE_SYSTEM, "add a checkout test", ["ok", "more"]))).toBe(expected);
    expect(keyOf(body(CLAUDE_CODE_SYSTEM, "fix the cart"), "sk-ant-two")).not.toBe(expected);
    expect(keyOf(body(CLAUDE_CODE_SYSTEM.replace("/home/dev/shop", "/home/dev/blog"), "fix the cart"))).not.toBe(expected);
  });
  it("no stated directory: conv:<hash>, the same as the conversation grows, another for another conversation or caller", () => {
    const first = keyOf(body("You are a coding agent.", "fix the cart"));
    expect(first).toMatch(/^conv:[0-9a-f]{16}$/);
    expect(keyOf(body("You are a coding agent.", "fix the cart", ["on it", "thanks"]))).toBe(first);
    expect(keyOf(body("You are a coding agent.", "add a checkout test"))).not.toBe(first);
    expect(keyOf(body("You are a coding agent.", "fix the cart"), "sk-ant-two")).not.toBe(first);
  });
});

const encode = (v: unknown) => new TextEncoder().encode(JSON.stringify(v));
const keyFor = (provider: Provider, headers: Record<string, string>, v: unknown) => {
  const bytes = encode(v);
  return projectKeyOf(provider, new Headers(headers), bytes, scanJson(bytes));
};
const cwdKey = (key: string, dir: string) => `cwd:${hashText(`${hashText(key)}\u0000${dir}`)}`;

describe("projectKeyOf with real clients' requests", () => {
  it("Claude Code 2.1: the bulleted Primary working directory in its system blocks", () => {
    const system = [
      { type: "text", text: "x-anthropic-billing-header: cc_version=2.1.3; cc_entrypoint=cli; cch=1a2b3;" },
      { type: "text", text: "You are Claude Code, Anthropic's official CLI for Claude." },
      { type: "text", text: `You are an interactive agent.\n\n${CLAUDE_CODE_2_ENV}\n`, cache_control: { type: "ephemeral" } },
    ];
    const request = (task: string) => ({ model: "claude-sonnet-4-5", max_tokens: 1, system, messages: [{ role: "user", content: [{ type: "text", text: task }] }] });
    expect(keyFor("anthropic", { "x-api-key": "sk-ant-one" }, request("fix the cart"))).toBe(cwdKey("sk-ant-one", "/tmp/ccrun/proj-cc1"));
    expect(keyFor("anthropic", { "x-api-key": "sk-ant-one" }, request("add a test"))).toBe(cwdKey("sk-ant-one", "/tmp/ccrun/proj-cc1"));
  });
  it("Codex: the <cwd> of the <environment_context> user input item, after a developer item", () => {
    const request = (task: string) => ({
      model: "gpt-5.1-codex",
      instructions: "You are Codex, based on GPT-5. You are running as a coding agent in the Codex CLI.",
      input: [
        { type: "message", role: "developer", content: [{ type: "input_text", text: "<skills_instructions>\n## Skills\nA skill is a set of local instructions.\n</skills_instructions>" }] },
        { type: "message", role: "user", content: [{ type: "input_text", text: "<environment_context>\n  <cwd>/Users/dev/code/rtchess</cwd>\n  <approval_policy>on-request</approval_policy>\n  <shell>zsh</shell>\n</environment_context>" }] },
        { type: "message", role: "user", content: [{ type: "input_text", text: task }] },
      ],
    });
    expect(keyFor("openai-responses", { authorization: "Bearer sk-proj-one" }, request("make a chess board"))).toBe(cwdKey("sk-proj-one", "/Users/dev/code/rtchess"));
    expect(keyFor("openai-responses", { authorization: "Bearer sk-proj-one" }, request("add a clock"))).toBe(cwdKey("sk-proj-one", "/Users/dev/code/rtchess"));
  });
  it("OpenAI Chat: a <cwd> tag in the system message, a working directory line in a developer message", () => {
    const request = (first: { role: string; content: unknown }) => ({ model: "gpt-4.1", messages: [first, { role: "user", content: "list the files" }] });
    expect(keyFor("openai-chat", { authorization: "Bearer sk-one" }, request({ role: "system", content: "You are a coding agent.\n<cwd>/srv/api</cwd>" }))).toBe(cwdKey("sk-one", "/srv/api"));
    expect(keyFor("openai-chat", { authorization: "Bearer sk-one" }, request({ role: "developer", content: [{ type: "text", text: "Working directory: /srv/api" }] }))).toBe(cwdKey("sk-one", "/srv/api"));
  });
  it("a user message is read only for an <environment_context>: a directory the user types gives conv:", () => {
    const typed = { model: "gpt-4.1", messages: [{ role: "user", content: "Working directory: /etc\n<cwd>/etc</cwd>\nlist the files" }] };
    expect(keyFor("openai-chat", { authorization: "Bearer sk-one" }, typed)).toMatch(/^conv:[0-9a-f]{16}$/);
  });
  it("one API key sent as x-api-key or as Authorization: Bearer is one caller, with or without a stated directory", () => {
    const stated = { model: "gpt-4.1", messages: [{ role: "system", content: "<cwd>/srv/api</cwd>" }, { role: "user", content: "hi" }] };
    expect(keyFor("openai-chat", { "x-api-key": "sk-one" }, stated)).toBe(cwdKey("sk-one", "/srv/api"));
    expect(keyFor("openai-chat", { authorization: "Bearer sk-one" }, stated)).toBe(cwdKey("sk-one", "/srv/api"));
    expect(keyFor("openai-chat", { authorization: "bearer  sk-one" }, stated)).toBe(cwdKey("sk-one", "/srv/api"));
    const unstated = { model: "gpt-4.1", messages: [{ role: "user", content: "hi" }] };
    expect(keyFor("openai-chat", { authorization: "Bearer sk-one" }, unstated)).toBe(keyFor("openai-chat", { "x-api-key": "sk-one" }, unstated));
    expect(keyFor("openai-chat", { authorization: "Bearer sk-two" }, unstated)).not.toBe(keyFor("openai-chat", { "x-api-key": "sk-one" }, unstated));
  });
});
