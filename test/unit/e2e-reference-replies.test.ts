/** tools/e2e/reference-replies.ts: which "file unchanged" replies point at a removed or cut result. */
import { describe, expect, it } from "vitest";
import { checkReferences, isReferenceReply, REFERENCE_REPLY_OPENINGS } from "../../tools/e2e/reference-replies";
import type { Json } from "../../tools/emulator/shared/json";

const FULL = "1\texport const a = 1;\n2\texport const b = 2;\n";
const REF = REFERENCE_REPLY_OPENINGS[1]!;

function body(results: Record<string, string | null>): Json {
  const messages: Json[] = [{ role: "user", content: "go" }];
  const calls: [string, string][] = [["toolu_a", "/p/a.ts"], ["toolu_g", "/p"], ["toolu_b", "/p/a.ts"]];
  for (const [id, file] of calls) {
    const text = results[id];
    if (text === null) continue;
    messages.push({ role: "assistant", content: [{ type: "tool_use", id, name: id === "toolu_g" ? "Grep" : "Read", input: { file_path: file } }] });
    messages.push({ role: "user", content: [{ type: "tool_result", tool_use_id: id, content: text ?? "" }] });
  }
  return { model: "m", max_tokens: 1, messages };
}

const sent = body({ toolu_a: FULL, toolu_g: "a.ts:1", toolu_b: REF });

describe("checkReferences", () => {
  it("finds nothing when the referenced result is forwarded whole", () => {
    expect(checkReferences(sent, sent)).toEqual({ references: 1, pointing_at_removed: [], pointing_at_cut: [] });
  });
  it("reports a reply whose earlier Read result was removed", () => {
    expect(checkReferences(sent, body({ toolu_a: null, toolu_g: "a.ts:1", toolu_b: REF }))).toEqual({ references: 1, pointing_at_removed: ["toolu_b"], pointing_at_cut: [] });
  });
  it("reports a reply whose earlier Read result was cut to a head", () => {
    expect(checkReferences(sent, body({ toolu_a: FULL.slice(0, 20), toolu_g: "a.ts:1", toolu_b: REF }))).toEqual({ references: 1, pointing_at_removed: [], pointing_at_cut: ["toolu_b"] });
  });
  it("does not count a reply that was itself removed", () => {
    expect(checkReferences(sent, body({ toolu_a: null, toolu_g: "a.ts:1", toolu_b: null }))).toEqual({ references: 1, pointing_at_removed: [], pointing_at_cut: [] });
  });
});

describe("isReferenceReply", () => {
  it("matches the client's three openings and nothing else", () => {
    expect(REFERENCE_REPLY_OPENINGS.map((o) => isReferenceReply(`${o} (more)`))).toEqual([true, true, true]);
    expect(isReferenceReply(FULL)).toBe(false);
  });
});
