import { describe, expect, it } from "vitest";
import { CORPUS_PATH } from "../support/shared-dir";
import { JsonScanError, getMember, scanJson, stringValue } from "../../src/providers/shared/json-scan";

const enc = (s: string) => new TextEncoder().encode(s);

describe("scanJson", () => {
  it("records byte offsets of values, counting multi-byte UTF-8", () => {
    const b = enc('{"a":"é","b":[1,{"c":null}]}');
    const root = scanJson(b);
    expect(root.type).toBe("object");
    const a = getMember(root, "a")!;
    expect([a.start, a.end]).toEqual([5, 9]); // "é" is 2 bytes + 2 quotes
    expect(stringValue(b, a)).toBe("é");
    const arr = getMember(root, "b")!;
    expect(arr.type === "array" && arr.items.map((i) => [i.type, i.start, i.end])).toEqual([
      ["number", 15, 16],
      ["object", 17, 27],
    ]);
  });
  it("decodes escapes lazily and exactly", () => {
    const b = enc('{"k\\u00e9":"a\\n\\"b\\ud83d\\ude00"}');
    const root = scanJson(b);
    expect(root.type === "object" && root.entries[0]!.key).toBe("ké");
    expect(stringValue(b, getMember(root, "ké")!)).toBe('a\n"b😀');
  });
  it("stringValue decodes short ASCII (interned and not), non-ASCII, long and escaped values exactly as JSON.parse", () => {
    const values = ["", "tool", "sixteen_chars_ab", "call_KLyTWxCoVwf4p9s4u1x5YS1b", "x".repeat(64), "y".repeat(65), "rôle", "é".repeat(40), 'a\\"b\n\u00e9'];
    const b = enc(JSON.stringify(values));
    const root = scanJson(b);
    const items = root.type === "array" ? root.items : [];
    expect(items.map((n) => stringValue(b, n))).toEqual(values);
    expect(items.map((n) => stringValue(b, n))).toEqual(values); // second read: interned values come from the table
  });
  it("flags duplicate keys", () => {
    const root = scanJson(enc('{"a":1,"a":2}'));
    expect(root.type === "object" && root.duplicateKeys).toBe(true);
    expect(getMember(root, "a")!.start).toBe(11);
  });
  it.each([
    ['{"a":1,}', "expected key at byte 7"],
    ["[1 2]", "expected ',' or ']' at byte 3"],
    ['{"a":01}', "expected ',' or '}' at byte 6"],
    ['"abc', "unterminated string at byte 0"],
    ['"a\\x"', "bad escape at byte 2"],
    ["[1] x", "trailing data at byte 4"],
    ["", "unexpected end at byte 0"],
  ])("rejects %j with %s", (src, msg) => {
    expect(() => scanJson(enc(src))).toThrow(new JsonScanError(msg.replace(/ at byte \d+$/, ""), Number(msg.match(/\d+$/)![0])));
  });
  it("rejects invalid UTF-8 and excessive depth", () => {
    expect(() => scanJson(new Uint8Array([0x22, 0xc3, 0x22]))).toThrow("invalid UTF-8");
    expect(() => scanJson(enc("[".repeat(600) + "]".repeat(600)))).toThrow("nesting too deep");
  });
  it("matches JSON.parse structure on every corpus file", async () => {
    const { readdirSync, readFileSync } = await import("node:fs");
    const dir = `${CORPUS_PATH}/`;
    for (const f of readdirSync(dir).filter((x) => x.endsWith(".json"))) {
      const bytes = new Uint8Array(readFileSync(`${dir}${f}`));
      const root = scanJson(bytes);
      expect(root.end).toBe(bytes.length - (bytes[bytes.length - 1] === 0x0a ? 1 : 0));
      const parsed = JSON.parse(new TextDecoder().decode(bytes));
      expect(Object.keys(parsed)).toEqual(root.type === "object" ? root.entries.map((e) => e.key) : []);
    }
  });
});
