/**
 * Mid-conversation `role: "system"` messages (Claude Code with Opus 4.8+, beta
 * mid-conversation-system-2026-04-07): exact forwarded bytes of edits next to one, and the
 * checker's placement rule on its own. The API's rule (its error texts): a system message "must
 * follow a 'user' message or an 'assistant' message ending in a server tool result" and "must
 * precede an 'assistant' message or end the array"; and rule A17 (docs/emulator.md): directly after
 * a user message, so never a second one in a row.
 */
import { describe, expect, it } from "vitest";
import { checkAnthropicRules } from "../../src/providers/anthropic-messages/check-rules";
import { checkGuarantee } from "../../src/core/plan/check-guarantee";
import { scanJson } from "../../src/providers/shared/json-scan";
import { DROP_RESULT_HEAD_BYTES } from "../../src/core/plan/drop-result-head";
import { anthropicAdapter, assistant, bodyBytes, result, run, text, use, user } from "../support/anthropic-bodies";
import { newCoreCaches } from "../../src/core/caches";

const M = "claude-opus-4-8";
const system = (content: unknown) => ({ role: "system", content });
const tail = [assistant("done"), user("next")];
const long = "output ".repeat(60);
/** drop_result's exact head of `long` (one-byte characters). */
const head = long.slice(0, DROP_RESULT_HEAD_BYTES);

const rules = (messages: unknown[]) => {
  const b = bodyBytes({ model: M, messages });
  return checkAnthropicRules(b, scanJson(b), newCoreCaches());
};

describe("edits next to a mid-conversation system message", () => {
  it("the failing shape: dropping a pair whose result message sits before a system message keeps that user message (as a stub), never assistant, system, assistant", () => {
    const body = { model: M, messages: [user("go"), assistant([text("I'll read it."), use("a")]), user([result("a", long)]), system("Auto mode is on."), assistant([text("Next."), use("b")]), user([result("b", "B"), text("more")]), ...tail] };
    const r = run(bodyBytes(body), { a: { kind: "drop_pair" }, b: { kind: "drop_pair" } });
    expect(r.compileRefused).toEqual({ a: "would_orphan_system" });
    expect(r.downgraded).toEqual(["a"]);
    expect(r.text).toBe(JSON.stringify({ model: M, messages: [user("go"), assistant([text("I'll read it."), use("a")]), user([result("a", head)]), system("Auto mode is on."), assistant([text("Next.")]), user([text("more")]), ...tail] }));
    expect(r.check.violations).toEqual([]);
  });

  it("parallel results before a system message: only the last one stays (as a stub), the others go", () => {
    const body = { model: M, messages: [user("go"), assistant([text("Two reads."), use("a"), use("b"), use("c")]), user([result("a", long), result("b", long), result("c", long)]), system("Note."), assistant("ok"), ...tail] };
    const r = run(bodyBytes(body), { a: { kind: "drop_pair" }, b: { kind: "drop_pair" }, c: { kind: "drop_pair" } });
    expect(r.compileRefused).toEqual({ c: "would_orphan_system" });
    expect(r.text).toBe(JSON.stringify({ model: M, messages: [user("go"), assistant([text("Two reads."), use("c")]), user([result("c", head)]), system("Note."), assistant("ok"), ...tail] }));
    expect(r.check.violations).toEqual([]);
  });

  it("dropping the calls of the assistant message right after a system message keeps that assistant message when a user message would follow", () => {
    const body = { model: M, messages: [user("go"), system("Note."), assistant([use("a")]), user([result("a", long), text("and also")]), ...tail] };
    const r = run(bodyBytes(body), { a: { kind: "drop_pair" } });
    expect(r.compileRefused).toEqual({ a: "would_orphan_system" });
    expect(r.text).toBe(JSON.stringify({ model: M, messages: [user("go"), system("Note."), assistant([use("a")]), user([result("a", head), text("and also")]), ...tail] }));
    expect(r.check.violations).toEqual([]);
  });

  it("a removal that leaves a user message before the system message is applied whole", () => {
    const body = { model: M, messages: [user("go"), assistant([use("a")]), user([result("a", long)]), system([text("Note.")]), assistant("ok"), ...tail] };
    const r = run(bodyBytes(body), { a: { kind: "drop_pair" } });
    expect(r.refused).toEqual({});
    expect(r.text).toBe(JSON.stringify({ model: M, messages: [user("go"), system([text("Note.")]), assistant("ok"), ...tail] }));
    expect(r.check.violations).toEqual([]);
  });

  it("a removal never makes two system messages neighbours (Claude Code's per-turn system messages): the user message before the second stays as a stub", () => {
    const body = { model: M, messages: [user("go"), system("One."), assistant([use("a")]), user([result("a", long)]), system("Two."), assistant("ok"), ...tail] };
    const r = run(bodyBytes(body), { a: { kind: "drop_pair" } });
    expect(r.compileRefused).toEqual({ a: "would_orphan_system" });
    expect(r.downgraded).toEqual(["a"]);
    expect(r.text).toBe(JSON.stringify({ model: M, messages: [user("go"), system("One."), assistant([use("a")]), user([result("a", head)]), system("Two."), assistant("ok"), ...tail] }));
    expect(r.check.violations).toEqual([]);
  });
});

describe("the checker's placement rule (independent of the edit)", () => {
  it("catches assistant, system, assistant — the shape an edit once forwarded", () => {
    const input = { model: M, messages: [user("go"), assistant([text("I'll read it."), use("a")]), user([result("a", long)]), system("Auto mode is on."), assistant("ok"), ...tail] };
    const forwarded = { model: M, messages: [user("go"), assistant([text("I'll read it.")]), system("Auto mode is on."), assistant("ok"), ...tail] };
    const check = checkGuarantee(anthropicAdapter, bodyBytes(input), bodyBytes(forwarded));
    expect(check.ok).toBe(false);
    expect(check.violations).toEqual(["rule: messages[2]: system message after messages[1] (assistant), not after a user message"]);
  });

  it("judges each position: after a user message and before an assistant message or the end is the only valid place", () => {
    expect(rules([user("go"), system("s"), assistant("a")])).toEqual([]);
    expect(rules([user("go"), assistant("a"), user("more"), system("s")])).toEqual([]);
    // Rule A17 (docs/emulator.md): each system message directly after a user message, so not a second one in a row.
    expect(rules([user("go"), system("s1"), system("s2"), assistant("a")])).toEqual(["messages[2]: system message after messages[1] (system), not after a user message"]);
    expect(rules([user("go"), assistant("a"), system("s"), assistant("b")])).toEqual(["messages[2]: system message after messages[1] (assistant), not after a user message"]);
    expect(rules([user("go"), system("s"), user("more")])).toEqual(["messages[1]: system message before messages[2] (user), not before an assistant message or the end"]);
    expect(rules([system("s"), user("go")])).toEqual(["messages[0].role: must be user, got system", "messages[0]: a system message cannot open the history", "messages[0]: system message before messages[1] (user), not before an assistant message or the end"]);
    expect(rules([user("go"), assistant([use("a")]), system("s"), user([result("a", "A")])])).toEqual([
      "messages[2]: system message after messages[1] (assistant), not after a user message",
      "messages[2]: system message before messages[3] (user), not before an assistant message or the end",
      "messages[1]: tool_use a has no tool_result in the next turn",
      "messages[3].content[0]: tool_result a answers no tool_use of the previous assistant turn",
    ]);
  });

  it("an assistant message ending in a server tool result may precede a system message; a directive-only system message may stand anywhere", () => {
    const search = [{ type: "server_tool_use", id: "srvtoolu_1", name: "web_search", input: { query: "q" } }, { type: "web_search_tool_result", tool_use_id: "srvtoolu_1", content: [] }];
    expect(rules([user("go"), assistant(search), system("s"), assistant("a")])).toEqual([]);
    expect(rules([user("go"), assistant("a"), { role: "system", content: [], output_config: {} }, user("more")])).toEqual([]);
    expect(rules([user("go"), assistant("a"), { role: "system", content: [] }, user("more")])).toEqual([
      "messages[2]: system message after messages[1] (assistant), not after a user message",
      "messages[2]: system message before messages[3] (user), not before an assistant message or the end",
      "messages[2].content: empty array",
    ]);
  });
});
