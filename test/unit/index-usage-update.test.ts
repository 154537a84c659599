/**
 * A usage report that carries Anthropic's applied_edits (every native answer, and Claude Code's
 * default clear_thinking edit) still reaches the admin index: the update holds the four token
 * counts only, and the index's strict schema accepts it.
 */
import { describe, expect, it, vi } from "vitest";
import { indexUpdateSchema, usageUpdate } from "../../src/admin/index-update";
import { shardedIndex, type IndexShard } from "../../src/admin/sharded-index";

const USAGE = {
  input_tokens: 10, cache_read_input_tokens: 2_000, cache_creation_input_tokens: 300, output_tokens: 40,
  applied_edits: [{ type: "clear_tool_uses_20250919", cleared_tool_uses: 3, cleared_thinking_turns: 0, cleared_input_tokens: 9_000 }],
};

describe("usage updates of the admin index", () => {
  it("keep the four token counts and pass the index's schema", () => {
    const u = usageUpdate("cc:s:conv:1", "anthropic", 5, USAGE);
    expect(u).toEqual({ kind: "usage", session_id: "cc:s:conv:1", provider: "anthropic", at_ms: 5, input_tokens: 10, cache_read_input_tokens: 2_000, cache_creation_input_tokens: 300, output_tokens: 40 });
    expect(indexUpdateSchema.safeParse(u).success).toBe(true);
  });

  it("a batch a shard refuses is logged as one JSON line naming the shard and the error", async () => {
    const refusing = { recordMany: async () => ({ ok: false, error: "index update refused at x: bad" }) } as unknown as IndexShard;
    const log = vi.spyOn(console, "error").mockImplementation(() => undefined);
    try {
      await shardedIndex(() => refusing, 1).recordMany([usageUpdate("a", "anthropic", 1, USAGE)]);
      expect(log.mock.calls).toEqual([[JSON.stringify({ event: "sluice_index_refused", shard: 0, updates: 1, error: "index update refused at x: bad" })]]);
    } finally {
      log.mockRestore();
    }
  });
});
