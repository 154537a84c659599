import { describe, expect, it } from "vitest";
import { LAZY_ABOVE_BYTES, fieldByCost, knownOrByCost, knownOrLazy, lazyField } from "../../src/providers/shared/lazy-field";

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

  it("fieldByCost: computes cheap fields at once as plain fields, costly ones on first read, same value either way", () => {
    let calls = 0;
    const compute = () => ++calls;
    const cheap = fieldByCost({ id: 1 }, "v", LAZY_ABOVE_BYTES - 1, compute);
    expect([calls, Object.getOwnPropertyDescriptor(cheap, "v")]).toEqual([1, { value: 1, writable: true, enumerable: true, configurable: true }]);
    const costly = fieldByCost({ id: 2 }, "v", LAZY_ABOVE_BYTES, compute);
    expect([calls, typeof Object.getOwnPropertyDescriptor(costly, "v")!.get]).toEqual([1, "function"]);
    expect([costly.v, calls, costly]).toEqual([2, 2, { id: 2, v: 2 }]);
  });

  it("knownOrLazy: a known value is a plain field and nothing is computed; without one, a lazy field; a field the object has is refused", () => {
    let calls = 0;
    const compute = () => ++calls;
    const known = knownOrLazy({ id: 1 }, "v", 7, compute);
    expect([calls, Object.getOwnPropertyDescriptor(known, "v")]).toEqual([0, { value: 7, writable: true, enumerable: true, configurable: true }]);
    const lazy = knownOrLazy({ id: 2 }, "v", undefined, compute);
    expect([calls, typeof Object.getOwnPropertyDescriptor(lazy, "v")!.get]).toEqual([0, "function"]);
    expect([lazy.v, lazy.v, calls, JSON.stringify(lazy)]).toEqual([1, 1, 1, '{"id":2,"v":1}']);
    expect(() => knownOrLazy({ v: 1 }, "v", 2, compute)).toThrow('knownOrLazy: "v" is already defined');
  });
  it("knownOrByCost: a known value is a plain field and neither cost nor value is computed; without one, by cost as fieldByCost", () => {
    let computed = 0;
    let weighed = 0;
    const compute = () => ++computed * 10;
    const weigh = (n: number) => () => (weighed++, n);
    const isPlain = (o: object) => "value" in Object.getOwnPropertyDescriptor(o, "v")!;
    const known = knownOrByCost({ id: 1 }, "v", 7, weigh(LAZY_ABOVE_BYTES), compute);
    expect([known.v, isPlain(known), computed, weighed]).toEqual([7, true, 0, 0]);
    const cheap = knownOrByCost({ id: 2 }, "v", undefined, weigh(LAZY_ABOVE_BYTES - 1), compute);
    expect([isPlain(cheap), computed, weighed, cheap.v]).toEqual([true, 1, 1, 10]);
    const costly = knownOrByCost({ id: 3 }, "v", undefined, weigh(LAZY_ABOVE_BYTES), compute);
    expect([isPlain(costly), computed, weighed]).toEqual([false, 1, 2]);
    expect([costly.v, costly.v, computed]).toEqual([20, 20, 2]);
  });
});
