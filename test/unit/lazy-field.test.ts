import { describe, expect, it } from "vitest";
import { lazyField } from "../../src/providers/shared/lazy-field";

describe("lazyField", () => {
  it("computes once, on first read, and looks like a plain field to keys, JSON, structuredClone and toEqual", () => {
    let calls = 0;
    const o = lazyField({ a: 1 }, "b", () => {
      calls++;
      return `v${calls}`;
    });
    expect(calls).toBe(0);
    expect(Object.keys(o)).toEqual(["a", "b"]);
    expect([o.b, o.b, calls]).toEqual(["v1", "v1", 1]);
    expect(JSON.stringify(o)).toBe('{"a":1,"b":"v1"}');
    expect(structuredClone(o)).toEqual({ a: 1, b: "v1" });
    expect(o).toEqual({ a: 1, b: "v1" });
    expect({ ...o }).toEqual({ a: 1, b: "v1" });
  });
  it("keeps each object's computation apart when objects share a field name; an assignment replaces the value", () => {
    const x = lazyField(lazyField({ id: "x" }, "n", () => 1), "m", () => 10);
    const y = lazyField(lazyField({ id: "y" }, "n", () => 2), "m", () => 20);
    y.n = 5;
    expect([x.n, x.m, y.n, y.m]).toEqual([1, 10, 5, 20]);
  });
  it("refuses a field the object already has", () => {
    expect(() => lazyField({ a: 1 } as { a: number }, "a", () => 2)).toThrow(new TypeError('lazyField: "a" is already defined'));
  });
});
