/** The isolate's cache of the global kill switch (src/gateway/global-switch.ts): reads per TTL, shared reads, failure keeps the last value. */
import { describe, expect, it } from "vitest";
import { GlobalSwitch } from "../../src/gateway/global-switch";

/** A stored flag and a count of reads. */
function store(initial: boolean) {
  const s = { value: initial, reads: 0, fail: false, read: async () => { s.reads++; if (s.fail) throw new Error("down"); return s.value; } };
  return s;
}

describe("GlobalSwitch", () => {
  it("reads once per TTL: a change is seen by the first request at or after TTL ms, never before", async () => {
    const s = store(false);
    const g = new GlobalSwitch(5_000);
    expect(await g.disabled(s.read, 1_000)).toBe(false);
    s.value = true;
    expect(await g.disabled(s.read, 5_999)).toBe(false);
    expect(s.reads).toBe(1);
    expect(await g.disabled(s.read, 6_000)).toBe(true);
    expect(s.reads).toBe(2);
  });

  it("concurrent requests share one read", async () => {
    const s = store(true);
    const g = new GlobalSwitch(5_000);
    expect(await Promise.all([g.disabled(s.read, 0), g.disabled(s.read, 0), g.disabled(s.read, 0)])).toEqual([true, true, true]);
    expect(s.reads).toBe(1);
  });

  it("a failed read keeps the last value for another TTL (on before any read)", async () => {
    const s = store(true);
    s.fail = true;
    const g = new GlobalSwitch(5_000);
    expect(await g.disabled(s.read, 0)).toBe(false);
    s.fail = false;
    expect(await g.disabled(s.read, 4_999)).toBe(false);
    expect(await g.disabled(s.read, 5_000)).toBe(true);
    s.fail = true;
    expect(await g.disabled(s.read, 10_000)).toBe(true);
    expect(s.reads).toBe(3);
  });

  it("a read past its deadline counts as failed", async () => {
    const g = new GlobalSwitch(5_000, 10);
    expect(await g.disabled(() => new Promise<boolean>((r) => setTimeout(() => r(true), 200)), 0)).toBe(false);
  });

  it("set() is seen at once by the isolate that served the admin call", async () => {
    const s = store(false);
    const g = new GlobalSwitch(5_000);
    await g.disabled(s.read, 0);
    g.set(true, 100);
    expect(await g.disabled(s.read, 200)).toBe(true);
    expect(s.reads).toBe(1);
  });
});
