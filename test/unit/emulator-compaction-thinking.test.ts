/**
 * Compaction on a thinking-bound model (claude-opus-5-5, adaptive thinking): the answer is
 * [compaction, thinking, text, tool_use], and a client that appends it whole, as the compaction doc
 * says, is served on every later call. The thinking-order rules (A11, A14, A15) and the prefix
 * check (A19) read an assistant message from its last compaction block on, since the API drops
 * every block before it (platform.claude.com build-with-claude/compaction).
 */
import { describe, expect, it } from "vitest";
import { validateMessagesRequest } from "../../tools/emulator/anthropic/validate-messages";
import { handleRequest } from "../../tools/emulator/handle-request";
import { createState } from "../../tools/emulator/state";

const T0 = 1_800_000_000_000;
const BETA = "compact-2026-01-12";
const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString("base64");
const para = (i: number) => `Paragraph ${i}: ${"the review found nothing unusual in this module ".repeat(40)}`;
const TOOLS = [{ name: "shell", description: "stub", input_schema: { type: "object" } }];
const BLOCK = { type: "compaction", content: "Summary of 401 messages.", encrypted_content: null };
const THINK = { type: "thinking", thinking: "", signature: "sig-x" };
const reply = { role: "assistant", content: [{ type: "thinking", thinking: "List the files.", signature: "" }, { type: "text", text: "Listing." }, { type: "tool_use", id: "toolu_ls", name: "shell", input: { cmd: "ls" } }] };
const opening: object[] = [{ role: "user", content: "Review the modules." }];
for (let i = 0; i < 200; i++) opening.push({ role: "assistant", content: para(i) }, { role: "user", content: `Next ${i}.` });
const compact = { edits: [{ type: "compact_20260112", trigger: { type: "input_tokens", value: 50_000 } }] };

function session() {
  const state = createState();
  return (messages: object[], extra: object = {}, replyWith?: unknown) => {
    const r = handleRequest(state, {
      method: "POST",
      path: "/v1/messages",
      headers: { "x-api-key": "k-ct", "x-emulator-time": String(T0), "anthropic-beta": BETA, ...(replyWith === undefined ? {} : { "x-emulator-reply": b64(replyWith) }) },
      body: JSON.stringify({ model: "claude-opus-5-5", max_tokens: 64, thinking: { type: "adaptive" }, tools: TOOLS, messages, ...extra }),
    }, T0);
    return { status: r.status, body: JSON.parse(r.body) };
  };
}
const check = (messages: object[]) => {
  const v = validateMessagesRequest({ model: "claude-opus-5-5", max_tokens: 64, thinking: { type: "adaptive" }, tools: TOOLS, messages }, {});
  return v.ok ? "ok" : v.rejection.message;
};
const result = (id = "toolu_ls") => ({ role: "user", content: [{ type: "tool_result", tool_use_id: id, content: "a.ts" }] });

describe("compaction with thinking on a thinking-bound model", () => {
  it("the answer is [compaction, thinking, text, tool_use]; echoed whole it is served on the next two calls, with no compaction again", () => {
    const send = session();
    const first = send(opening, { context_management: compact }, reply);
    expect(first.status).toBe(200);
    expect(first.body.content.map((b: { type: string }) => b.type)).toEqual(["compaction", "thinking", "text", "tool_use"]);
    expect(first.body.content[0]).toEqual(BLOCK);
    const second = [...opening, { role: "assistant", content: first.body.content }, result()];
    const next = send(second, {}, { role: "assistant", content: [{ type: "thinking", thinking: "Done.", signature: "" }, { type: "text", text: "a.ts only." }] });
    expect([next.status, next.body.content.map((b: { type: string }) => b.type)]).toEqual([200, ["thinking", "text"]]);
    const third = send([...second, { role: "assistant", content: next.body.content }, { role: "user", content: "Thanks." }]);
    expect(third.status).toBe(200);
  });

  it("the echoed answer with its thinking edited is still refused (A14, index past the block)", () => {
    const send = session();
    const first = send(opening, { context_management: compact }, reply);
    const edited = [{ ...first.body.content[0] }, { ...first.body.content[1], thinking: "changed" }, ...first.body.content.slice(2)];
    expect(send([...opening, { role: "assistant", content: edited }, result()]).body.error.message).toBe(
      "messages.401.content.1: `thinking` or `redacted_thinking` blocks in the latest assistant message cannot be modified. These blocks must remain as they were in the original response.",
    );
  });

  it("the echoed answer's thinking block is bound to the block, not to the history the compaction replaced", () => {
    const send = session();
    const first = send(opening, { context_management: compact }, reply);
    // Editing a message before the block: the API dropped it, so the binding still holds.
    const earlierEdited = [{ role: "user", content: "Review every module." }, ...opening.slice(1), { role: "assistant", content: first.body.content }, result()];
    expect(send(earlierEdited).status).toBe(200);
    // Editing the block itself changes what the thinking was produced after.
    const blockEdited = [...opening, { role: "assistant", content: [{ ...BLOCK, content: "Another summary." }, ...first.body.content.slice(1)] }, result()];
    expect(send(blockEdited).body.error.message).toMatch(/^messages\.401\.content\.1: Invalid `signature` in `thinking` block\. The block is bound to a different conversation\./);
  });

  it("A11 reads the blocks after the message's last compaction block", () => {
    const at = (content: object[]) => check([{ role: "user", content: "Go." }, { role: "assistant", content }, result()]);
    const use = { type: "tool_use", id: "toolu_ls", name: "shell", input: {} };
    const text = { type: "text", text: "Listing." };
    expect(at([BLOCK, THINK, text, use])).toBe("ok");
    expect(at([text, BLOCK, THINK, use])).toBe("ok");
    expect(at([THINK, text, BLOCK, THINK, use])).toBe("ok");
    expect(at([BLOCK, text, THINK, use])).toBe(
      "messages.1.content.1: If an assistant message contains any thinking blocks, the first block must be thinking or redacted_thinking. Found text.",
    );
    expect(at([BLOCK, BLOCK, text, THINK, use])).toBe(
      "messages.1.content.2: If an assistant message contains any thinking blocks, the first block must be thinking or redacted_thinking. Found text.",
    );
    // No thinking after the block: A11 holds, and the open tool loop's turn fails A15 at the block's successor.
    expect(at([text, THINK, BLOCK, text, use])).toMatch(/^messages\.1\.content\.3\.type: Expected `thinking` or `redacted_thinking`, but found `text`\./);
  });

  it("A15 reads the open tool loop's assistant turn from its last compaction block on", () => {
    const use = { type: "tool_use", id: "toolu_ls", name: "shell", input: {} };
    const turn = (content: object[]) => check([{ role: "user", content: "Go." }, { role: "assistant", content }, result()]);
    expect(turn([BLOCK, THINK, use])).toBe("ok");
    expect(turn([BLOCK, use])).toMatch(/^messages\.1\.content\.1\.type: Expected `thinking` or `redacted_thinking`, but found `tool_use`\./);
  });
});
