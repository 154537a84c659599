/** IndexBuffer (src/gateway/index-buffer.ts): one flusher per window, every update sent exactly once, batches capped. */
import { describe, expect, it, vi } from "vitest";
import type { IndexUpdate } from "../../src/admin/index-update";
import { IndexBuffer } from "../../src/gateway/index-buffer";

const u = (i: number) => ({ kind: "usage", session_id: `s${i}`, provider: "anthropic", at_ms: i, input_tokens: i, cache_read_input_tokens: 0, cache_creation_input_tokens: 0, output_tokens: 0 }) as IndexUpdate;

describe("IndexBuffer", () => {
  it("updates added within the window go in the first adder's batch; the others return at once", async () => {
    const buf = new IndexBuffer(20, 200);
    const sent: string[][] = [];
    const send = async (b: IndexUpdate[]) => { sent.push(b.map((x) => x.session_id)); };
    const first = buf.add([u(1), u(2)], send);
    const second = buf.add([u(3)], send);
    await second;
    expect([sent, buf.size]).toEqual([[], 3]); // the second add did not wait for anything
    await first;
    expect([sent, buf.size]).toEqual([[["s1", "s2", "s3"]], 0]);
    await buf.add([u(4)], send); // a new window, a new flusher
    expect(sent).toEqual([["s1", "s2", "s3"], ["s4"]]);
  });

  it("caps batches, keeps sending until empty, and survives a failing send (that batch only is lost)", async () => {
    const buf = new IndexBuffer(5, 2);
    const sent: string[][] = [];
    let calls = 0;
    const send = async (b: IndexUpdate[]) => { calls++; if (calls === 1) throw new Error("index down"); sent.push(b.map((x) => x.session_id)); };
    await buf.add([u(1), u(2), u(3), u(4), u(5)], send);
    expect([calls, sent, buf.size]).toEqual([3, [["s3", "s4"], ["s5"]], 0]);
    expect(await buf.add([], send)).toBe(undefined);
    expect(calls).toBe(3);
  });

  it("a send that never settles does not strand later updates: an add after the stall time without progress starts a new flusher (./window-flusher.ts)", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "Date"] });
    try {
      const buf = new IndexBuffer(20, 200, 1_000);
      const sent: string[][] = [];
      const send = (b: IndexUpdate[]) => { sent.push(b.map((x) => x.session_id)); return sent.length === 1 ? new Promise<void>(() => undefined) : Promise.resolve(); };
      void buf.add([u(1)], send);
      await vi.advanceTimersByTimeAsync(20);
      void buf.add([u(2)], send); // the running (hung) flush is still trusted
      await vi.advanceTimersByTimeAsync(20);
      expect([sent, buf.size]).toEqual([[["s1"]], 1]);
      await vi.advanceTimersByTimeAsync(1_000);
      const third = buf.add([u(3)], send);
      await vi.advanceTimersByTimeAsync(20);
      await third;
      expect([sent, buf.size]).toEqual([[["s1"], ["s2", "s3"]], 0]);
    } finally {
      vi.useRealTimers();
    }
  });
});
