/**
 * ReportBuffer (src/gateway/report-buffer.ts), under fake setTimeout: one flusher per window
 * (the first add), one `send` per session per batch of at most `batchMax` reports in order,
 * `record` after each send with the updates built from what that send answered (null for every
 * report of a failed send), the opener's promise settling only once all of that is done and the
 * buffer is empty, other adds returning at once, and reports added during a flush carried by
 * that flush's loop (no new window). Also: a send or an `updates` that throws synchronously
 * loses that batch only, never the buffer (regression, see the fix in sendSession).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { IndexUpdate } from "../../src/admin/index-update";
import type { CallReport, OutcomeRecorded } from "../../src/do/step-types";
import { ReportBuffer, type BufferedReport, type SendReports } from "../../src/gateway/report-buffer";

const W = 50;
/** Report n: its estimated tokens are n, so batches are readable as numbers. */
const report = (n: number): CallReport => ({ leased: null, outcome: null, usage: null, estimated_input_tokens: n });
const rec = (n: number): OutcomeRecorded => ({ calls: n, tokens_saved: 10 * n, usd_saved: 0 });
/** The index update report n yields: a marker carrying what the DO recorded for it. */
const mark = (n: number, r: OutcomeRecorded | null) => ({ n, calls: r?.calls ?? null }) as unknown as IndexUpdate;

/** A harness: every send and record is logged; `seen` lists each updates() call as [n, recorded]. */
function harness(answer: (sid: string, batch: CallReport[], call: number) => Promise<(OutcomeRecorded | null)[]> = async (_s, b) => b.map((r) => rec(r.estimated_input_tokens))) {
  const sends: [string, number[]][] = [];
  const records: unknown[][] = [];
  const seen: [number, OutcomeRecorded | null][] = [];
  const send: SendReports = (sid, batch) => {
    sends.push([sid, batch.map((r) => r.estimated_input_tokens)]);
    return answer(sid, batch, sends.length);
  };
  const record = async (u: IndexUpdate[]) => { records.push(u); };
  const item = (n: number): BufferedReport => ({ report: report(n), updates: (r) => { seen.push([n, r]); return [mark(n, r)]; } });
  return { sends, records, seen, send, record, item };
}
/** Runs every pending microtask (setImmediate is not faked). */
const drain = () => new Promise<void>((r) => setImmediate(r));

beforeEach(() => { vi.useFakeTimers({ toFake: ["setTimeout"] }); });
afterEach(() => { vi.useRealTimers(); });

describe("ReportBuffer", () => {
  it("two sessions within one window: one send each, reports in order, after exactly the window; others return at once", async () => {
    const buf = new ReportBuffer(W, 64);
    const h = harness();
    let opened = false;
    const first = buf.add("s1", h.item(1), h.send, h.record).then(() => { opened = true; });
    const second = buf.add("s2", h.item(2), h.send, h.record);
    const third = buf.add("s1", h.item(3), h.send, h.record);
    await Promise.all([second, third]);
    expect([h.sends, buf.size, vi.getTimerCount()]).toEqual([[], 3, 1]);
    await vi.advanceTimersByTimeAsync(W - 1);
    expect([h.sends, opened]).toEqual([[], false]);
    await vi.advanceTimersByTimeAsync(1);
    await first;
    expect(h.sends).toEqual([["s1", [1, 3]], ["s2", [2]]]);
    expect(h.records).toEqual([[mark(1, rec(1)), mark(3, rec(3))], [mark(2, rec(2))]]);
    expect(h.seen).toEqual([[1, rec(1)], [3, rec(3)], [2, rec(2)]]);
    expect([buf.size, vi.getTimerCount()]).toEqual([0, 0]);
    // The buffer is empty again: the next add opens a new window.
    const next = buf.add("s1", h.item(4), h.send, h.record);
    expect(vi.getTimerCount()).toBe(1);
    await vi.advanceTimersByTimeAsync(W);
    await next;
    expect(h.sends).toEqual([["s1", [1, 3]], ["s2", [2]], ["s1", [4]]]);
  });

  it("batchMax 2 with 5 reports: sends of [2, 2, 1] in turn; a rejected send gives null to each of its reports and still records", async () => {
    const buf = new ReportBuffer(W, 2);
    const h = harness(async (_s, b, call) => {
      if (call === 2) throw new Error("DO down");
      return b.map((r) => rec(r.estimated_input_tokens));
    });
    const opener = buf.add("s", h.item(0), h.send, h.record);
    for (const n of [1, 2, 3, 4]) await buf.add("s", h.item(n), h.send, h.record);
    expect(buf.size).toBe(5);
    await vi.advanceTimersByTimeAsync(W);
    await opener;
    expect(h.sends).toEqual([["s", [0, 1]], ["s", [2, 3]], ["s", [4]]]);
    expect(h.seen).toEqual([[0, rec(0)], [1, rec(1)], [2, null], [3, null], [4, rec(4)]]);
    expect(h.records).toEqual([[mark(0, rec(0)), mark(1, rec(1))], [mark(2, null), mark(3, null)], [mark(4, rec(4))]]);
  });

  it("an answer shorter than its batch: null for the reports it does not cover", async () => {
    const buf = new ReportBuffer(W, 64);
    const h = harness(async () => [rec(7)]);
    const opener = buf.add("s", h.item(1), h.send, h.record);
    void buf.add("s", h.item(2), h.send, h.record);
    await vi.advanceTimersByTimeAsync(W);
    await opener;
    expect(h.seen).toEqual([[1, rec(7)], [2, null]]);
  });

  it("the opener settles only after every send and every record has settled; the next batch does not wait for a record (its index window)", async () => {
    const buf = new ReportBuffer(W, 1);
    const sendGates: ((v: (OutcomeRecorded | null)[]) => void)[] = [];
    const recordGates: (() => void)[] = [];
    const h = harness((_s, b) => new Promise((r) => sendGates.push(r)));
    const record = (u: IndexUpdate[]) => new Promise<void>((r) => { h.records.push(u); recordGates.push(r); });
    let done = false;
    const opener = buf.add("s", h.item(1), h.send, record).then(() => { done = true; });
    await buf.add("s", h.item(2), h.send, record);
    await vi.advanceTimersByTimeAsync(W);
    await drain();
    expect([h.sends.length, recordGates.length, done]).toEqual([1, 0, false]);
    sendGates[0]!([rec(1)]);
    await drain();
    expect([h.sends.length, recordGates.length, done]).toEqual([2, 1, false]); // the next batch went while record 1 is pending
    sendGates[1]!([rec(2)]);
    await drain();
    expect([recordGates.length, done]).toEqual([2, false]);
    recordGates[1]!();
    await drain();
    expect(done).toBe(false); // record 1 still pending
    recordGates[0]!();
    await opener;
    expect([done, h.records]).toEqual([true, [[mark(1, rec(1))], [mark(2, rec(2))]]]);
  });

  it("a report added during a flush is carried by that flush's loop (no new window); size counts it while pending", async () => {
    const buf = new ReportBuffer(W, 64);
    let during: { size: number; timers: number; settled: boolean } | null = null;
    const h = harness(async (sid, b, call) => {
      if (call === 1) {
        expect(buf.size).toBe(0); // the flush took what was pending
        let settled = false;
        void buf.add("s1", h.item(2), h.send, h.record).then(() => { settled = true; });
        void buf.add("s2", h.item(3), h.send, h.record);
        await Promise.resolve();
        during = { size: buf.size, timers: vi.getTimerCount(), settled };
      }
      return b.map((r) => rec(r.estimated_input_tokens));
    });
    const opener = buf.add("s1", h.item(1), h.send, h.record);
    await vi.advanceTimersByTimeAsync(W);
    await opener; // no timer advanced again: the same loop sent the late reports
    expect(during).toEqual({ size: 2, timers: 0, settled: true });
    expect(h.sends).toEqual([["s1", [1]], ["s1", [2]], ["s2", [3]]]);
    expect(h.seen).toEqual([[1, rec(1)], [2, rec(2)], [3, rec(3)]]);
    expect([buf.size, vi.getTimerCount()]).toEqual([0, 0]);
  });

  it("a record that rejects is swallowed: the next batch is still sent and the opener resolves", async () => {
    const buf = new ReportBuffer(W, 1);
    const h = harness();
    let n = 0;
    const record = async () => { n++; throw new Error("index down"); };
    const opener = buf.add("s", h.item(1), h.send, record);
    void buf.add("s", h.item(2), h.send, record);
    await vi.advanceTimersByTimeAsync(W);
    await expect(opener).resolves.toBeUndefined();
    expect([h.sends, n]).toEqual([[["s", [1]], ["s", [2]]], 2]);
  });

  it("regression: a send or an updates() that throws synchronously loses its batch only; the buffer keeps flushing", async () => {
    const buf = new ReportBuffer(W, 1);
    const h = harness();
    const throwing: SendReports = (sid, batch) => {
      if (batch[0]!.estimated_input_tokens === 1) throw new Error("no stub");
      return h.send(sid, batch);
    };
    const bad: BufferedReport = { report: report(3), updates: () => { throw new Error("bad update"); } };
    const opener = buf.add("s", h.item(1), throwing, h.record);
    void buf.add("s", h.item(2), throwing, h.record);
    void buf.add("s", bad, throwing, h.record);
    void buf.add("s", h.item(4), throwing, h.record);
    await vi.advanceTimersByTimeAsync(W);
    await expect(opener).resolves.toBeUndefined();
    expect(h.sends).toEqual([["s", [2]], ["s", [3]], ["s", [4]]]);
    expect(h.seen).toEqual([[1, null], [2, rec(2)], [4, rec(4)]]);
    expect(h.records).toEqual([[mark(1, null)], [mark(2, rec(2))], [mark(4, rec(4))]]);
    // Not stranded: a later report opens a new window and is sent.
    const later = buf.add("s", h.item(5), throwing, h.record);
    expect(vi.getTimerCount()).toBe(1);
    await vi.advanceTimersByTimeAsync(W);
    await later;
    expect(h.sends.at(-1)).toEqual(["s", [5]]);
  });
});

describe("ReportBuffer: a flush that never ends", () => {
  it("a send that never settles does not strand later reports: an add after REPORT_STALL_MS without progress starts a new flusher", async () => {
    vi.useRealTimers();
    vi.useFakeTimers({ toFake: ["setTimeout", "Date"] });
    const buf = new ReportBuffer(W, 64, 1_000);
    const h = harness((_s, b, call) => (call === 1 ? new Promise(() => undefined) : Promise.resolve(b.map((r) => rec(r.estimated_input_tokens)))));
    void buf.add("s1", h.item(1), h.send, h.record);
    await vi.advanceTimersByTimeAsync(W);
    expect(h.sends).toEqual([["s1", [1]]]); // hangs for good (its request's waitUntil was cancelled, say)
    void buf.add("s1", h.item(2), h.send, h.record); // within the stall time: the running flush is trusted to carry it
    await vi.advanceTimersByTimeAsync(W);
    expect([h.sends.length, buf.size]).toEqual([1, 1]);
    await vi.advanceTimersByTimeAsync(1_000);
    const third = buf.add("s1", h.item(3), h.send, h.record);
    await vi.advanceTimersByTimeAsync(W);
    await third;
    expect(h.sends).toEqual([["s1", [1]], ["s1", [2, 3]]]);
    expect(buf.size).toBe(0);
  });
});
