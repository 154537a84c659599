/**
 * The isolate's one memory budget (src/core/isolate-memory-budget.ts): the shares of the scan
 * cache, the tool-call memo and the index buffer add up to the budget (≤ 16 MiB of the 128 MB
 * isolate), and each part, filled past its share, evicts its least recently used (or oldest)
 * entries and stays within it.
 */
import { describe, expect, it } from "vitest";
import { INDEX_BUFFER_BUDGET_BYTES, INDEX_UPDATE_BYTES, ISOLATE_MEMORY_BUDGET_BYTES, SCAN_CACHE_BUDGET_BYTES, TOOL_CALL_MEMO_BUDGET_BYTES } from "../../src/core/isolate-memory-budget";
import { readToolCall } from "../../src/core/engine/read-tool-call";
import { ToolCallMemo } from "../../src/core/engine/read-tool-call-memo";
import { HELD_PER_BODY_BYTE, ScanCache } from "../../src/gateway/scan-cache";
import { IndexBuffer, INDEX_PENDING_MAX } from "../../src/gateway/index-buffer";
import type { IndexUpdate } from "../../src/admin/index-update";

const utf8 = (s: string) => new TextEncoder().encode(s);

describe("one isolate memory budget", () => {
  it("is 16 MiB, shared exactly by the scan cache, the tool-call memo and the index buffer", () => {
    expect(ISOLATE_MEMORY_BUDGET_BYTES).toBe(16 * 1024 * 1024);
    expect(SCAN_CACHE_BUDGET_BYTES + TOOL_CALL_MEMO_BUDGET_BYTES + INDEX_BUFFER_BUDGET_BYTES).toBe(ISOLATE_MEMORY_BUDGET_BYTES);
  });

  it("the scan cache filled with 1 MiB bodies of 20 sessions holds at most its share and keeps the most recent sessions", () => {
    const cache = new ScanCache();
    const body = (i: number) => utf8(`{"model":"m","messages":[{"role":"user","content":"${String(i).padStart(4, "0")}${"x".repeat(1024 * 1024 - 60)}"}]}`);
    for (let i = 0; i < 20; i++) cache.scan(`s${i}`, body(i));
    const per = Math.ceil(body(0).length * HELD_PER_BODY_BYTE);
    const fits = Math.floor(SCAN_CACHE_BUDGET_BYTES / per);
    expect(fits).toBe(3);
    expect([cache.size, cache.held <= SCAN_CACHE_BUDGET_BYTES]).toEqual([fits, true]);
    // The newest sessions stayed (their next body reuses the prefix), the oldest went.
    cache.scan("s19", body(19));
    expect(cache.lastPrefix).toBeGreaterThan(1_000_000);
    cache.scan("s0", body(0));
    expect(cache.lastPrefix).toBe(0);
    expect([cache.hits, cache.misses]).toEqual([1, 21]);
  });

  it("the tool-call memo filled with large inputs holds at most its share; an input over it is answered and not kept", () => {
    const big = (i: number) => ({ id: `budget-big-${i}`, tool_name: "Write", input_text: JSON.stringify({ file_path: `f${i}`, content: "z".repeat(TOOL_CALL_MEMO_BUDGET_BYTES / 6) }) });
    const memo = new ToolCallMemo();
    for (let i = 0; i < 8; i++) memo.read(big(i));
    const after = memo.size;
    expect(after.bytes).toBeLessThanOrEqual(TOOL_CALL_MEMO_BUDGET_BYTES);
    expect(after.entries).toBe(2);
    const huge = { id: "budget-huge", tool_name: "Write", input_text: "y".repeat(TOOL_CALL_MEMO_BUDGET_BYTES / 2) };
    expect(memo.read(huge)).toEqual(readToolCall(huge));
    expect(memo.size).toEqual(after);
  });

  it("the index buffer keeps at most its share of updates waiting: the oldest are dropped and counted", async () => {
    expect(INDEX_PENDING_MAX).toBe(INDEX_BUFFER_BUDGET_BYTES / INDEX_UPDATE_BYTES);
    const buffer = new IndexBuffer(60_000);
    const update = (i: number) => ({ kind: "usage", session_id: `s${i}`, provider: "anthropic", at_ms: i, input_tokens: 1, cache_read_input_tokens: 0, cache_creation_input_tokens: 0, output_tokens: 1 }) as IndexUpdate;
    const sent: IndexUpdate[][] = [];
    void buffer.add([update(0)], async (b) => { sent.push(b); });
    for (let i = 1; i < INDEX_PENDING_MAX + 10; i++) void buffer.add([update(i)], async () => undefined);
    expect([buffer.size, buffer.dropped]).toEqual([INDEX_PENDING_MAX, 10]);
  });
});
