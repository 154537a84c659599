/**
 * The savings ledger's token model (src/core/cost/ledger-tokens.ts): the provider tokens of the
 * body that did not go, anchored on the count of the one that went. Every figure hand-computed.
 */
import { describe, expect, it } from "vitest";
import { ledgerTokens, type TokenCall, type TokenState } from "../../src/core/cost/ledger-tokens";

/** After a call whose client body went: 10,000 provider tokens for our estimate of 9,000. */
const AFTER_CLIENT: TokenState = { original: 10_000, original_est: 9_000, sent: 10_000, removed: 0, removed_est: 0, sent_est: 9_000, appended: 0, appended_est: 0 };
const call = (c: Partial<TokenCall>): TokenCall => ({
  went: "edited", reported: 0, original_est: 0, sent_est: 0, original_shared_est: 0, sent_shared_est: 0, whole_prefix: true, stepped: false, calibration: 1.2, ...c,
});

describe("ledgerTokens", () => {
  it("a step call: the client body is the previous one plus the appended estimate × calibration; Sluice's shares in proportion up to its first edit", () => {
    const t = ledgerTokens(AFTER_CLIENT, call({ reported: 6_000, original_est: 9_500, sent_est: 5_000, sent_shared_est: 2_000, stepped: true }));
    // 10,000 + 1.2 × 500; read = the previous client body; Sluice's: 6,000 × 2,000 / 5,000.
    expect(t).toEqual({
      original: 10_600, original_shared: 10_000, sent: 6_000, sent_shared: 2_400,
      next: { original: 10_600, original_est: 9_500, sent: 6_000, removed: 4_600, removed_est: 4_500, sent_est: 5_000, appended: 0, appended_est: 0 },
    });
    // The next call removes the same: the client body is Sluice's count + the 4,600 removed, both prefixes the previous bodies;
    // its growth (300 provider tokens for 300 estimated) calibrates appended messages.
    const u = ledgerTokens(t.next, call({ reported: 6_300, original_est: 9_800, sent_est: 5_300 }));
    expect(u).toEqual({
      original: 10_900, original_shared: 10_600, sent: 6_300, sent_shared: 6_000,
      next: { original: 10_900, original_est: 9_800, sent: 6_300, removed: 4_600, removed_est: 4_500, sent_est: 5_300, appended: 300, appended_est: 300 },
    });
  });

  it("a step call once appended messages were calibrated: their ratio, not the whole body's, scales the appended estimate", () => {
    const s: TokenState = { ...AFTER_CLIENT, appended: 1_000, appended_est: 500 };
    // 10,000 + 2 × 500 (the body calibration 1.2 is not used).
    expect(ledgerTokens(s, call({ reported: 6_000, original_est: 9_500, sent_est: 5_000, stepped: true })).original).toBe(11_000);
    // A client body that went: its growth over the previous one (400 for 400) joins the sums.
    expect(ledgerTokens(s, call({ went: "original", reported: 10_400, original_est: 9_400, sent_est: 9_400 })).next).toMatchObject({ appended: 1_400, appended_est: 900 });
  });

  it("a client that edited its history: the removed part is estimated whole, the shared part in proportion", () => {
    const t = ledgerTokens(AFTER_CLIENT, call({ reported: 6_000, original_est: 9_000, sent_est: 5_000, original_shared_est: 4_500, sent_shared_est: 1_000, whole_prefix: false }));
    // 6,000 + 1.2 × 4,000; shared 10,800 × 4,500 / 9,000; Sluice's 6,000 × 1,000 / 5,000.
    expect([t.original, t.original_shared, t.sent, t.sent_shared]).toEqual([10_800, 5_400, 6_000, 1_200]);
  });

  it("measure mode: the client body is the count; Sluice's lacks the carried removal", () => {
    const s: TokenState = { original: 10_000, original_est: 9_000, sent: 7_000, removed: 3_000, removed_est: 2_500, sent_est: 6_500, appended: 0, appended_est: 0 };
    const t = ledgerTokens(s, call({ went: "measured", reported: 10_400, original_est: 9_400, sent_est: 6_900 }));
    expect([t.original, t.original_shared, t.sent, t.sent_shared, t.next.removed]).toEqual([10_400, 10_000, 7_400, 7_000, 3_000]);
    // A measured step removing 1,000 more estimated tokens: 1,200 more provider tokens missing.
    const u = ledgerTokens(t.next, call({ went: "measured", reported: 10_500, original_est: 9_500, sent_est: 6_000, sent_shared_est: 3_000, stepped: true }));
    expect([u.original, u.sent, u.sent_shared, u.next.removed]).toEqual([10_500, 6_300, 6_300 * 3_000 / 6_000, 4_200]);
  });

  it("a call whose client body went unchanged: both bodies are the count, nothing removed", () => {
    const t = ledgerTokens(AFTER_CLIENT, call({ went: "original", reported: 10_400, original_est: 9_400, sent_est: 9_400 }));
    expect([t.original, t.original_shared, t.sent, t.sent_shared, t.next.removed]).toEqual([10_400, 10_000, 10_400, 10_000, 0]);
  });
});
