/** foldStandAsideRows (src/admin/bound-stand-aside.ts): which stored stand-aside rows go, and what each group's `other` row gains. */
import { describe, expect, it } from "vitest";
import { foldStandAsideRows, type StandAsideRow } from "../../src/admin/bound-stand-aside";

const row = (provider: string, reason: string, type: string, value: number): StandAsideRow => {
  const labels = { provider, reason, type };
  return { labels_json: JSON.stringify(labels), labels, value };
};

describe("foldStandAsideRows", () => {
  it("keeps the top `max` per provider and reason (ties by name), never drops `other`, adds the rest to it", () => {
    const rows = [row("anthropic", "unknown_type", "b", 3), row("anthropic", "unknown_type", "a", 3), row("anthropic", "unknown_type", "c", 1), row("anthropic", "unknown_type", "other", 7), row("anthropic", "unknown_type", "d", 2), row("openai-chat", "unknown_type", "x", 1)];
    expect(foldStandAsideRows(rows, 2)).toEqual({
      drop: [row("anthropic", "unknown_type", "d", 2).labels_json, row("anthropic", "unknown_type", "c", 1).labels_json],
      other: [{ labels_json: '{"provider":"anthropic","reason":"unknown_type","type":"other"}', add: 3 }],
    });
  });

  it("nothing to do within the bound", () => {
    expect(foldStandAsideRows([row("anthropic", "server_managed", "thread", 4)], 1)).toEqual({ drop: [], other: [] });
  });
});
