/**
 * The index stores a bounded number of stand-aside series (src/do/index-object.ts,
 * src/admin/bound-stand-aside.ts): per provider and reason the 20 most counted types (ties: by
 * name), every other type's count folded into `type="other"`; other providers and reasons keep
 * their own rows.
 */
import { describe, expect, it } from "vitest";
import type { IndexUpdate } from "../../src/admin/index-update";
import { indexStub } from "./admin-seed";
import { newTestId } from "./helpers";

const aside = (session_id: string, type: string, provider: "anthropic" | "openai-responses" = "anthropic", reason: "unknown_type" | "server_managed" = "unknown_type"): IndexUpdate => ({
  kind: "outcome", session_id, provider, model: null, at_ms: 1_000, outcome: "stood_aside", fail_open_reason: null, tier: "none", step_tier: null,
  turns: 1, calls: null, tokens_original: 10, tokens_sent: 10, tokens_saved: 0, usd_saved: 0, step_ms: null,
  stand_aside: { reason, type },
});

const standAsideRows = async (name: string) =>
  (await indexStub(name).series()).series.filter((s) => s.family === "sluice_stood_aside_total").map((s) => [s.labels.provider, s.labels.reason, s.labels.type, s.value]);

describe("the index bounds its stand-aside series", () => {
  it("25 types of one provider and reason: the 20 most counted stay, 5 rows fold into other; a second batch folds the newcomer", async () => {
    const name = newTestId("aside-bound");
    const index = indexStub(name);
    // t00..t24; t00..t04 twice (they lead), the rest once; one other provider and reason alongside.
    const types = Array.from({ length: 25 }, (_, i) => `t${String(i).padStart(2, "0")}`);
    const batch = [...types.map((t) => aside("cc:s1", t)), ...types.slice(0, 5).map((t) => aside("cc:s1", t)), aside("cc:s2", "context_management", "openai-responses", "server_managed")];
    expect(await index.recordMany(batch)).toEqual({ ok: true });
    const kept = [...types.slice(0, 5).map((t) => ["anthropic", "unknown_type", t, 2]), ...types.slice(5, 20).map((t) => ["anthropic", "unknown_type", t, 1])];
    const sortRows = (rows: unknown[][]) => [...rows].sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1));
    expect(sortRows(await standAsideRows(name))).toEqual(sortRows([
      ...kept,
      ["anthropic", "unknown_type", "other", 5],
      ["openai-responses", "server_managed", "context_management", 1],
    ]));

    // A new type arrives with 1: it ranks last (t05..t19 also have 1, and sort before it), so it folds too.
    expect(await index.recordMany([aside("cc:s1", "zz_new")])).toEqual({ ok: true });
    expect(sortRows(await standAsideRows(name))).toEqual(sortRows([
      ...kept,
      ["anthropic", "unknown_type", "other", 6],
      ["openai-responses", "server_managed", "context_management", 1],
    ]));
    // The totals still add up: every request counted once.
    expect((await standAsideRows(name)).reduce((t, r) => t + (r[3] as number), 0)).toBe(32);
  });
});
