/**
 * The project key (src/gateway/project-key.ts): one caller in one working directory is one
 * project whatever the conversation; without a stated directory only the same conversation is.
 */
import { describe, expect, it } from "vitest";
import { hashText } from "../../src/core/hash";
import { projectKeyOf, workingDirectoryOf } from "../../src/gateway/project-key";
import { scanJson } from "../../src/providers/shared/json-scan";

const CLAUDE_CODE_SYSTEM = "You are Claude Code.\n<env>\nWorking directory: /home/dev/shop\nIs directory a git repo: Yes\n</env>";
const body = (system: string | null, first: string, later: string[] = []) => {
  const messages = [{ role: "user", content: first }, ...later.map((t, i) => ({ role: i % 2 === 0 ? "assistant" : "user", content: t }))];
  return new TextEncoder().encode(JSON.stringify({ model: "claude-sonnet-4-5", max_tokens: 1, ...(system === null ? {} : { system }), messages }));
};
const keyOf = (bytes: Uint8Array, key = "sk-ant-one") => projectKeyOf("anthropic", new Headers({ "x-api-key": key }), bytes, scanJson(bytes));

describe("workingDirectoryOf", () => {
  it("reads Claude Code's env line, its 'Primary' form and a cwd tag; null without one", () => {
    expect(workingDirectoryOf(CLAUDE_CODE_SYSTEM)).toBe("/home/dev/shop");
    expect(workingDirectoryOf("x\n  Primary working directory: /srv/app  \ny")).toBe("/srv/app");
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
