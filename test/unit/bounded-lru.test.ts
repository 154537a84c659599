/** BoundedLru (src/core/bounded-lru.ts): recency on get and set, both bounds, oversize values, clear. */
import { describe, expect, it } from "vitest";
import { BoundedLru } from "../../src/core/bounded-lru";

describe("BoundedLru", () => {
  it("drops the least recently used entry beyond maxEntries; get and set make a key recent", () => {
    const c = new BoundedLru<string, number>(2);
    c.set("a", 1);
    c.set("b", 2);
    expect(c.get("a")).toBe(1);
    c.set("c", 3); // b is the least recent now
    expect([c.get("a"), c.get("b"), c.get("c"), c.size]).toEqual([1, undefined, 3, 2]);
    c.set("a", 10); // replaces, most recent
    c.set("d", 4); // c goes
    expect([c.get("a"), c.get("c"), c.get("d")]).toEqual([10, undefined, 4]);
  });

  it("keeps the total weight within maxWeight; a value over it alone is not kept and its key is forgotten", () => {
    const c = new BoundedLru<string, string>(10, 10, (v) => v.length);
    c.set("a", "xxxx");
    c.set("b", "yyyy");
    c.set("c", "zzzz"); // 12 > 10: a goes
    expect([c.get("a"), c.weight, c.size]).toEqual([undefined, 8, 2]);
    c.set("b", "q".repeat(11));
    expect([c.get("b"), c.weight, c.size]).toEqual([undefined, 4, 1]);
    c.delete("c");
    c.delete("missing");
    expect([c.weight, c.size]).toEqual([0, 0]);
    c.set("e", "ee");
    c.clear();
    expect([c.get("e"), c.weight, c.size]).toEqual([undefined, 0, 0]);
  });
});
