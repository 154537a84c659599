import { describe, expect, it } from "vitest";
import { getMember, scanJson, type JsonNode } from "../../src/providers/shared/json-scan";
import { spliceOut } from "../../src/providers/shared/splice";
import { cutStringMiddle } from "../../src/providers/shared/cut-string-middle";
import { DROP_RESULT_HEAD_BYTES } from "../../src/core/plan/drop-result-head";
import { removeArrayItems, removeObjectMembers } from "../../src/providers/shared/remove-json-items";
import { editResultContent, partType, type ResultAction } from "../../src/providers/shared/edit-result-content";
import { CHAT_PART_KINDS } from "../../src/providers/openai-chat/wire";
import { dec, enc } from "./openai-helpers";

/** Cuts the string literal `lit` (JSON source) and returns the resulting literal. */
function cut(lit: string, head: number, tail = 0, allowEmpty = false): string {
  const b = enc(lit);
  const r = cutStringMiddle(b, scanJson(b), head, tail, allowEmpty);
  return r ? dec(spliceOut(b, [r])) : "(none)";
}

describe("cutStringMiddle", () => {
  it.each([
    ['"abcdef"', 3, 0, '"abc"'],
    ['"abcdef"', 2, 2, '"abef"'],
    ['"abcdef"', 3, 3, "(none)"],
    ['"ab😀cd"', 3, 0, '"ab"'], // 😀 is 4 bytes: a cut at 3 would split it
    ['"ab😀cd"', 5, 0, '"ab"'],
    ['"ab😀cd"', 6, 0, '"ab😀"'],
    ['"ab😀cd"', 1, 3, '"acd"'], // tail 3 would start inside the emoji → rounded inwards
    ['"a\\nb"', 2, 0, '"a"'], // never between "\" and "n"
    ['"a\\nb"', 3, 0, '"a\\n"'],
    ['"ab\\ncd"', 1, 3, '"acd"'],
    ['"x\\u00e9y"', 4, 0, '"x"'],
    ['"x\\u00e9y"', 7, 0, '"x\\u00e9"'],
    ['"x\\ud83d\\ude00y"', 7, 0, '"x"'], // never between the two halves of a surrogate pair
    ['"x\\ud83d\\ude00y"', 12, 0, '"x"'],
    ['"x\\ud83d\\ude00y"', 13, 0, '"x\\ud83d\\ude00"'],
    ['"é\\"z"', 3, 0, '"é"'],
  ])("%s head %i tail %i → %s", (lit, head, tail, want) => {
    expect(cut(lit, head, tail)).toBe(want);
  });
  it("keeps the first whole character rather than emptying the string", () => {
    expect(cut('"😀xyz"', 0)).toBe('"😀"');
    expect(cut('"\\u00e9xyz"', 2)).toBe('"\\u00e9"');
    expect(cut('"😀xyz"', 0, 0, true)).toBe('""');
  });
  it("uses a 64-byte head for drop_result", () => {
    expect(DROP_RESULT_HEAD_BYTES).toBe(64);
  });
});

describe("removeArrayItems / removeObjectMembers", () => {
  const arr = (src: string, remove: number[]) => {
    const b = enc(src);
    const n = scanJson(b);
    if (n.type !== "array") throw new Error("not an array");
    return dec(spliceOut(b, removeArrayItems(n, new Set(remove))));
  };
  it.each([
    [[0], "[2 ,3]"],
    [[1], "[1 ,3]"],
    [[2], "[1, 2]"],
    [[0, 1], "[3]"],
    [[0, 2], "[2]"],
    [[1, 2], "[1]"],
    [[0, 1, 2], "[]"],
    [[], "[1, 2 ,3]"],
  ])("removes %j from [1, 2 ,3]", (remove, want) => {
    expect(arr("[1, 2 ,3]", remove)).toBe(want);
  });
  it("removes adjacent object members as one run", () => {
    const b = enc('{"tool_calls":[1], "function_call":{},"role":"a"}');
    const n = scanJson(b);
    if (n.type !== "object") throw new Error("not an object");
    expect(dec(spliceOut(b, removeObjectMembers(n, new Set(["tool_calls", "function_call"]))))).toBe('{"role":"a"}');
    expect(dec(spliceOut(b, removeObjectMembers(n, new Set(["role", "function_call"]))))).toBe('{"tool_calls":[1]}');
    expect(dec(spliceOut(b, removeObjectMembers(n, new Set(["absent"]))))).toBe('{"tool_calls":[1], "function_call":{},"role":"a"}');
  });
});

describe("editResultContent (Chat part kinds)", () => {
  const PARTS = '[{"type":"text","text":"hello world"},{"type":"image_url","image_url":{"url":"data:image/png;base64,AAAA"}},{"type":"text","text":"tail text"}]';
  const edit = (src: string, action: ResultAction) => {
    const b = enc(src);
    const node: JsonNode = scanJson(b);
    const r = editResultContent(b, node, action, CHAT_PART_KINDS, (n) => partType(b, n));
    return "refused" in r ? `refused:${r.refused}` : dec(spliceOut(b, r.deletions));
  };
  it("strip_media removes image parts and keeps text", () => {
    expect(edit(PARTS, { kind: "strip_media" })).toBe('[{"type":"text","text":"hello world"},{"type":"text","text":"tail text"}]');
  });
  it("drop_result keeps only the first text part's head", () => {
    expect(edit(PARTS, { kind: "drop_result" })).toBe('[{"type":"text","text":"hello world"}]');
    const long = `"${"x".repeat(300)}"`;
    expect(edit(long, { kind: "drop_result" })).toBe(`"${"x".repeat(64)}"`);
  });
  it("truncate_result cuts across parts; media in the removed middle goes", () => {
    expect(edit(PARTS, { kind: "truncate_result", head_bytes: 5, tail_bytes: 4 })).toBe('[{"type":"text","text":"hello"},{"type":"text","text":"text"}]');
    // The image sits at text offset 11, inside a 13-byte head: it stays.
    expect(edit(PARTS, { kind: "truncate_result", head_bytes: 13 })).toBe(
      '[{"type":"text","text":"hello world"},{"type":"image_url","image_url":{"url":"data:image/png;base64,AAAA"}},{"type":"text","text":"ta"}]',
    );
    expect(edit(PARTS, { kind: "truncate_result", head_bytes: 11 })).toBe('[{"type":"text","text":"hello world"}]');
    expect(edit(PARTS, { kind: "truncate_result", head_bytes: 0, tail_bytes: 0 })).toBe('[{"type":"text","text":"h"}]');
    expect(edit(PARTS, { kind: "truncate_result", head_bytes: 20 })).toBe("refused:nothing_to_remove");
  });
  it("refuses what would empty the result or change nothing", () => {
    expect(edit('[{"type":"image_url","image_url":{"url":"u"}}]', { kind: "strip_media" })).toBe("refused:only_media");
    expect(edit('[{"type":"image_url","image_url":{"url":"u"}}]', { kind: "drop_result" })).toBe("refused:no_text");
    expect(edit('"short"', { kind: "strip_media" })).toBe("refused:no_media");
    expect(edit('"short"', { kind: "drop_result" })).toBe("refused:nothing_to_remove");
    expect(edit("null", { kind: "drop_result" })).toBe("refused:unexpected_content");
  });
  it("reads part types", () => {
    const b = enc('{"type":"text"}');
    expect(partType(b, scanJson(b))).toBe("text");
    expect(partType(b, getMember(scanJson(b), "type")!)).toBe(null);
  });
});
