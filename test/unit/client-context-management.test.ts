import { describe, expect, it } from "vitest";
import { readAnthropic } from "../../src/providers/anthropic-messages/read-view";
import { assistant, bodyBytes, result, use, user } from "../support/anthropic-bodies";
import { newCoreCaches } from "../../src/core/caches";

/** History whose pair `a` is old enough to edit. */
const history = [user("go"), assistant([use("a")]), user([result("a", "A".repeat(100))]), assistant("done"), user("next")];

/** Claude Code 2.1.332's default request members. */
const CLAUDE_CODE = {
  model: "claude-opus-5-5",
  max_tokens: 32000,
  thinking: { type: "adaptive", display: "omitted" },
  context_management: { edits: [{ type: "clear_thinking_20251015", keep: "all" }] },
};

const view = (body: object) => readAnthropic(bodyBytes(body), newCoreCaches()).view;

describe("client context_management (DESIGN §6)", () => {
  it("Claude Code's default body (clear_thinking only) is not server-managed", () => {
    expect(view({ ...CLAUDE_CODE, messages: history }).server_managed).toBeNull();
  });

  it.each([
    [{}, null],
    [{ context_management: null }, null],
    [{ context_management: {} }, null],
    [{ context_management: { edits: [] } }, null],
    [{ context_management: { edits: [{ type: "clear_thinking_20251015", keep: { type: "thinking_turns", value: 2 } }] } }, null],
    [{ context_management: { edits: [{ type: "clear_thinking_20251015", keep: "all" }, { type: "clear_tool_uses_20250919", keep: { type: "tool_uses", value: 3 } }] } }, "clear_tool_uses_20250919"],
    [{ context_management: { edits: [{ type: "compact_20260112" }] } }, "compact_20260112"],
    [{ context_management: { edits: {} } }, "context_management"],
    [{ context_management: { edits: [{ keep: "all" }] } }, "context_management"],
    [{ context_management: "on" }, "context_management"],
  ])("%j → server_managed %j", (extra, reason) => {
    const v = view({ model: "claude-sonnet-4-5", ...extra, messages: history });
    expect(v.server_managed).toBe(reason);
    expect(v.pairs[0]!.locked).toBe(reason === null ? null : "server_managed");
  });

  it("an edit type the table does not list stands aside as unknown_type: the view holds nothing to edit", () => {
    const v = view({ model: "claude-sonnet-4-5", context_management: { edits: [{ type: "clear_thinking_20251015" }, { type: "clear_everything_20270101" }] }, messages: history });
    expect(v).toEqual({ provider: "anthropic", model: "claude-sonnet-4-5", body_bytes: v.body_bytes, est_tokens: Math.ceil(v.body_bytes / 4), messages: [], pairs: [], orphans: [], turn_count: 0, server_managed: "clear_everything_20270101", unknown_type: true });
  });

  it("a compaction block in the history stands aside even with a thinking-only edit", () => {
    const msgs = [user("go"), assistant([{ type: "compaction", content: "summary" }]), ...history.slice(1)];
    expect(view({ ...CLAUDE_CODE, messages: msgs }).server_managed).toBe("compaction");
  });
});
