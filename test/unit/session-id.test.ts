import { describe, expect, it } from "vitest";
import { conversationFingerprint, fingerprint, headerSessionId, sessionIdOf } from "../../src/gateway/session-id";
import { scanJson } from "../../src/providers/shared/json-scan";
import { stripVolatileLines } from "../../src/gateway/conversation-start";

const enc = (s: string) => new TextEncoder().encode(s);
const ids = (provider: "anthropic" | "openai-chat" | "openai-responses", h: Record<string, string>, body: string) => {
  const b = enc(body);
  return sessionIdOf(provider, new Headers(h), b, scanJson(b));
};

describe("sessionIdOf", () => {
  const body = '{"model":"m","system":"s","messages":[{"role":"user","content":"hi"}]}';
  it("prefers x-sluice-session, then Claude Code's header, then prompt_cache_key", () => {
    expect(ids("anthropic", { "x-sluice-session": "abc", "x-claude-code-session-id": "cc1" }, body)).toEqual({ id: "abc", source: "header" });
    expect(ids("anthropic", { "x-claude-code-session-id": "cc1" }, body)).toEqual({ id: `cc:cc1:conv:${conversationFingerprint("anthropic", enc(body), scanJson(enc(body)))}`, source: "client_conversation" });
    expect(ids("openai-chat", {}, '{"model":"m","prompt_cache_key":"k9","messages":[]}')).toEqual({ id: "pck:k9", source: "prompt_cache_key" });
  });
  it("fingerprint is stable as the history grows and differs with the first user message", () => {
    const a = ids("anthropic", {}, body);
    const b = ids("anthropic", {}, '{"model":"m","system":"s","messages":[{"role":"user","content":"hi"},{"role":"assistant","content":"yo"},{"role":"user","content":"more"}]}');
    const c = ids("anthropic", {}, '{"model":"m","system":"s","messages":[{"role":"user","content":"hello"}]}');
    expect(a.source).toBe("fingerprint");
    expect(a.id).toBe(b.id);
    expect(a.id).not.toBe(c.id);
  });
  it("fingerprint covers the OpenAI Chat system message and Responses instructions", () => {
    const f = (p: "openai-chat" | "openai-responses", s: string) => { const b = enc(s); return fingerprint(p, b, scanJson(b)); };
    expect(f("openai-chat", '{"model":"m","messages":[{"role":"system","content":"A"},{"role":"user","content":"q"}]}')).not.toBe(
      f("openai-chat", '{"model":"m","messages":[{"role":"system","content":"B"},{"role":"user","content":"q"}]}'));
    expect(f("openai-responses", '{"model":"m","instructions":"A","input":"q"}')).not.toBe(f("openai-responses", '{"model":"m","instructions":"B","input":"q"}'));
  });
  it("fingerprint separates credentials: two API keys opening the same conversation are two sessions; the id shows no key", () => {
    const k1 = ids("anthropic", { "x-api-key": "sk-ant-key-one" }, body);
    const k2 = ids("anthropic", { "x-api-key": "sk-ant-key-two" }, body);
    const bearer = ids("openai-chat", { authorization: "Bearer sk-one" }, '{"model":"m","messages":[{"role":"user","content":"hi"}]}');
    const bearer2 = ids("openai-chat", { authorization: "Bearer sk-two" }, '{"model":"m","messages":[{"role":"user","content":"hi"}]}');
    expect([k1.source, k1.id === k2.id, bearer.id === bearer2.id, k1.id === ids("anthropic", {}, body).id]).toEqual(["fingerprint", false, false, false]);
    expect(ids("anthropic", { "x-api-key": "sk-ant-key-one" }, body)).toEqual(k1); // stable
    expect(k1.id).toMatch(/^fp:[0-9a-f]{16}$/);
    expect(ids("openai-chat", { "api-key": "azure-1" }, '{"model":"m","messages":[]}').id).not.toBe(ids("openai-chat", { "api-key": "azure-2" }, '{"model":"m","messages":[]}').id);
  });
  it("fingerprint reads text, not bytes: cache markers, a string vs one text part, and volatile lines do not count; image bytes do", () => {
    const img = (data: string, marked: boolean) => ({ type: "image", source: { type: "base64", media_type: "image/png", data }, ...(marked ? { cache_control: { type: "ephemeral" } } : {}) });
    const open = (parts: unknown[], system: unknown = "s") => ids("anthropic", {}, JSON.stringify({ model: "m", system, messages: [{ role: "user", content: parts }] })).id;
    expect(open([{ type: "text", text: "hi", cache_control: { type: "ephemeral" } }])).toBe(ids("anthropic", {}, body).id);
    expect(open([img("iVBORw0KGgo", true), { type: "text", text: "what is this?" }])).toBe(open([img("iVBORw0KGgo", false), { type: "text", text: "what is this?" }]));
    expect(open([img("iVBORw0KGgo", false), { type: "text", text: "what is this?" }])).not.toBe(open([img("R0lGODlh", false), { type: "text", text: "what is this?" }]));
    expect(open([{ type: "text", text: "hi" }], "x-anthropic-billing-header: cc_version=1; cch=00001;\ns")).toBe(open([{ type: "text", text: "hi" }], "s"));
  });
  it("stripVolatileLines removes Claude Code's billing line wherever it stands, and nothing else", () => {
    expect(stripVolatileLines("x-anthropic-billing-header: cc_version=2.1.332.e4f; cc_entrypoint=cli; cch=a1b2c;")).toBe("");
    expect(stripVolatileLines("x-anthropic-billing-header: cc_version=2.1.332.e4f; cch=a1b2c;\nYou are Claude Code.")).toBe("You are Claude Code.");
    expect(stripVolatileLines("You are Claude Code.\n  x-anthropic-billing-header: cch=1;\nrest")).toBe("You are Claude Code.\nrest");
    expect(stripVolatileLines("mentions x-anthropic-billing-header: inside a line")).toBe("mentions x-anthropic-billing-header: inside a line");
  });
  it("hashes over-long client ids", () => {
    expect(ids("anthropic", { "x-sluice-session": "x".repeat(300) }, body).id).toMatch(/^h:[0-9a-f]{16}$/);
  });

  describe("conversations within one Claude Code session", () => {
    const billing = (cch: string) => ({ type: "text", text: `x-anthropic-billing-header: cc_version=2.1.240.a1f; cc_entrypoint=cli; cch=${cch};` });
    const cc = { type: "text", text: "You are Claude Code, Anthropic's official CLI for Claude.", cache_control: { type: "ephemeral" } };
    const mainFirst = [{ type: "text", text: "<system-reminder>CLAUDE.md …</system-reminder>" }, { type: "text", text: "fix the failing test" }];
    const body = (system: unknown[], first: unknown[], more: unknown[] = []) => JSON.stringify({ model: "claude-opus-4-8", system, messages: [{ role: "user", content: first }, ...more] });
    const H = { "x-claude-code-session-id": "3f2a1b0c-1111-2222-3333-444455556666" };

    it("the main conversation keeps one key across requests although the billing line and cache_control markers move", () => {
      const first = ids("anthropic", H, body([billing("a1b2c"), cc, { type: "text", text: "main prompt" }], [mainFirst[0], { ...mainFirst[1], cache_control: { type: "ephemeral" } }]));
      const later = ids("anthropic", H, body([billing("ffe01"), cc, { type: "text", text: "main prompt" }], mainFirst, [{ role: "assistant", content: "on it" }, { role: "user", content: [{ type: "text", text: "go", cache_control: { type: "ephemeral" } }] }]));
      expect(first).toEqual(later);
      expect(first.source).toBe("client_conversation");
      expect(first.id).toMatch(/^cc:3f2a1b0c-1111-2222-3333-444455556666:conv:[0-9a-f]{16}$/);
    });

    it("a sub-agent sharing the session id gets its own key: by its agent id when sent, else by its start", () => {
      const main = ids("anthropic", H, body([billing("a1b2c"), cc, { type: "text", text: "main prompt" }], mainFirst));
      const sub = ids("anthropic", H, body([billing("0c0c0"), cc, { type: "text", text: "You are an agent for Claude Code … search the codebase" }], [{ type: "text", text: "Find where sessions are keyed" }]));
      const subTwo = ids("anthropic", H, body([billing("0c0c0"), cc, { type: "text", text: "You are an agent for Claude Code … search the codebase" }], [{ type: "text", text: "List the admin routes" }]));
      expect(new Set([main.id, sub.id, subTwo.id]).size).toBe(3);
      const agent = { ...H, "x-claude-code-agent-id": "agent-7f3e", "x-claude-code-parent-agent-id": "agent-root" };
      expect(ids("anthropic", agent, body([cc], mainFirst))).toEqual({ id: "cc:3f2a1b0c-1111-2222-3333-444455556666:agent:agent-7f3e", source: "client_agent" });
      expect(headerSessionId(new Headers(agent))).toEqual({ id: "cc:3f2a1b0c-1111-2222-3333-444455556666:agent:agent-7f3e", source: "client_agent" });
      expect(headerSessionId(new Headers(H))).toEqual({ id: "cc:3f2a1b0c-1111-2222-3333-444455556666", source: "client_session" });
    });
  });
});
