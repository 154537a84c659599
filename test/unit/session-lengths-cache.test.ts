/**
 * The isolate's remaining-calls table (src/gateway/session-lengths-cache.ts) and the shards'
 * length histograms merged (src/admin/session-lengths.ts): the request never waits on the
 * index; a refresh runs in waitUntil at most once per TTL; a failed or late read keeps the last
 * table.
 */
import { describe, expect, it } from "vitest";
import { mergeLengthRows } from "../../src/admin/session-lengths";
import { remainingCallsTable, type LengthRow } from "../../src/core/cost/session-lengths";
import { SessionLengthsCache } from "../../src/gateway/session-lengths-cache";

const ROWS: LengthRow[] = [[10, 10], [20, 10], [40, 10], [100, 10]];

describe("mergeLengthRows", () => {
  it("sums equal lengths across shards, ascending by calls", () => {
    expect(mergeLengthRows([[[40, 2], [3, 1]], [], [[3, 4], [100, 1]]])).toEqual([[3, 5], [40, 2], [100, 1]]);
  });
});

describe("SessionLengthsCache", () => {
  it("null until the first read lands; one read per TTL, started in waitUntil, never awaited by the caller", async () => {
    const cache = new SessionLengthsCache(1_000, 500);
    const pending: Promise<unknown>[] = [];
    let reads = 0;
    const read = async () => { reads++; return ROWS; };
    expect(cache.current(read, 0, (p) => pending.push(p))).toBeNull();
    expect(cache.current(read, 10, (p) => pending.push(p))).toBeNull();
    expect([reads, pending.length]).toEqual([1, 1]);
    await Promise.all(pending);
    expect(cache.current(read, 999, (p) => pending.push(p))).toEqual(remainingCallsTable(ROWS));
    expect(reads).toBe(1);
    cache.current(read, 1_000, (p) => pending.push(p));
    expect(reads).toBe(2);
  });
  it("a failing, throwing or late read keeps the last table; too few sessions is no table", async () => {
    const cache = new SessionLengthsCache(1_000, 50);
    const pending: Promise<unknown>[] = [];
    const wait = (p: Promise<unknown>) => pending.push(p);
    cache.current(async () => ROWS, 0, wait);
    await Promise.all(pending);
    cache.current(async () => { throw new Error("index down"); }, 1_000, wait);
    cache.current(() => { throw new Error("sync"); }, 2_000, wait);
    cache.current(() => new Promise<LengthRow[]>(() => undefined), 3_000, wait);
    await Promise.all(pending);
    expect(cache.current(async () => [], 3_500, wait)).toEqual(remainingCallsTable(ROWS));
    cache.current(async () => [[5, 19]], 4_000, wait);
    await Promise.all(pending);
    expect(cache.current(async () => ROWS, 4_100, wait)).toBeNull();
  });
});
