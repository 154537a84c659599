/**
 * The restore id (src/core/plan/restore-id.ts): the exact forms, the round trip over any ids, and
 * the ids no restoreId call could have written.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseRestoreId, restoreId } from "../../src/core/plan/restore-id";

describe("restore id", () => {
  it("keeps common ids readable and escapes the separator, quotes, backslashes, brackets, % and control characters", () => {
    expect(restoreId("cc:9f1c-22:conv:0a1b2c3d", "toolu_01A")).toBe("cc:9f1c-22:conv:0a1b2c3d/toolu_01A");
    expect(restoreId("fp:00ff", "call_7")).toBe("fp:00ff/call_7");
    expect(restoreId("a/b", 'c"d\\e]f%g/h')).toBe("a%2Fb/c%22d%5Ce%5Df%25g%2Fh");
    expect(restoreId("é\n", "\u007f")).toBe("é%0A/%7F");
  });

  it("parses what it writes, for any two non-empty ids", () => {
    fc.assert(fc.property(fc.string({ minLength: 1, unit: "grapheme" }), fc.string({ minLength: 1, unit: "grapheme" }), (s, c) => {
      expect(parseRestoreId(restoreId(s, c))).toEqual({ session_id: s, call_id: c });
    }), { numRuns: 500 });
  });

  it("refuses ids no restoreId call writes", () => {
    for (const bad of ["", "toolu_01A", "/toolu_01A", "s-1/", "s%2/x", "s%2f1/x", "s%41/x", "s-1/a/b", 's-1/a"b', "s%ZZ/x"]) expect(parseRestoreId(bad)).toBeNull();
    expect(parseRestoreId("s%2F1/a%2Fb")).toEqual({ session_id: "s/1", call_id: "a/b" });
  });
});
