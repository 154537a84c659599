/**
 * How far Sluice's token figures are from the tokens the emulator billed for the same body
 * (pure), per session, from a replay that ran `none` and `sluice`. Sluice's
 * `x-sluice-compaction` note carries, per call, tokens_before / tokens_after (the body as the
 * agent sent it / as forwarded), calibrated by the session once it has an answer
 * (src/core/tokens/calibrate.ts), and then the raw estimates as estimated_tokens_before /
 * estimated_tokens_after (before calibration the two are the same: tokens_* is the estimate).
 * The billed counts (input + cache read + cache write, by the emulator's tokenizer:
 * docs/emulator.md) are `none`'s for the body as sent and `sluice`'s own for the body forwarded.
 * Calls without figures, rejected or billed 0 are left out.
 * - ratio = billed ÷ raw estimate of the body as sent (min / median (upper) / max);
 * - raw: calls whose raw estimate is within ±5 % of the billed count;
 * - calibrated: from the third call on (after two answers), calls whose calibrated
 *   tokens_before is within ±5 % of `none`'s billed count, and the largest error in %; the same
 *   for tokens_after against `sluice`'s billed count (what Sluice's own gates and savings see).
 */
import type { CallRecord, SessionRun } from "./types";

/** One session's figures. */
export interface EstimateGapRow {
  session_id: string;
  provider: string;
  model: string;
  /** Calls compared. */
  calls: number;
  ratio_min: number;
  ratio_median: number;
  ratio_max: number;
  raw_within_5pct: number;
  /** Calls compared from the third on (index ≥ 2). */
  calibrated_calls: number;
  /** Of those, calibrated tokens_before within ±5 % of the billed count of the body as sent. */
  calibrated_within_5pct: number;
  /** Largest |calibrated tokens_before ÷ billed − 1| × 100 from the third call, %. 0 without calls. */
  calibrated_max_error_pct: number;
  /** Of those, calibrated tokens_after within ±5 % of the billed count of the body forwarded. */
  forwarded_within_5pct: number;
  /** Largest |calibrated tokens_after ÷ billed − 1| × 100 from the third call, %. */
  forwarded_max_error_pct: number;
}

const round = (x: number, d: number) => Math.round(x * 10 ** d) / 10 ** d;
const field = (note: string | undefined, key: string): number => Number(new RegExp(`(?:^|; )${key}=(\\d+)`).exec(note ?? "")?.[1] ?? NaN);
const billedOf = (c: CallRecord | undefined): number => (c === undefined || c.rejected !== null ? 0 : c.usage.input + c.usage.cache_read + c.usage.cache_write);
const within = (x: number, billed: number) => Math.abs(x / billed - 1) <= 0.05;

/** The rows, one per session that has both a `none` and a `sluice` run, in run order. */
export function estimateGap(runs: readonly SessionRun[]): EstimateGapRow[] {
  const rows: EstimateGapRow[] = [];
  for (const none of runs.filter((r) => r.strategy === "none")) {
    const sluice = runs.find((r) => r.strategy === "sluice" && r.session_id === none.session_id);
    if (sluice === undefined) continue;
    const points = none.calls.flatMap((c, k) => {
      const note = sluice.calls[k]?.note;
      const before = field(note, "tokens_before");
      const after = field(note, "tokens_after");
      const rawBefore = field(note, "estimated_tokens_before");
      const billed = billedOf(c);
      const billedSent = billedOf(sluice.calls[k]);
      return billed > 0 && billedSent > 0 && before > 0 && after > 0 ? [{ k, before, after, raw: Number.isNaN(rawBefore) ? before : rawBefore, billed, billedSent }] : [];
    });
    if (points.length === 0) continue;
    const ratios = points.map((p) => p.billed / p.raw).sort((a, b) => a - b);
    const late = points.filter((p) => p.k >= 2);
    const errBefore = late.map((p) => Math.abs(p.before / p.billed - 1));
    const errAfter = late.map((p) => Math.abs(p.after / p.billedSent - 1));
    rows.push({
      session_id: none.session_id,
      provider: none.provider,
      model: none.model,
      calls: points.length,
      ratio_min: round(ratios[0]!, 3),
      ratio_median: round(ratios[Math.floor(ratios.length / 2)]!, 3),
      ratio_max: round(ratios[ratios.length - 1]!, 3),
      raw_within_5pct: points.filter((p) => within(p.raw, p.billed)).length,
      calibrated_calls: late.length,
      calibrated_within_5pct: late.filter((p) => within(p.before, p.billed)).length,
      calibrated_max_error_pct: round(Math.max(0, ...errBefore) * 100, 1),
      forwarded_within_5pct: late.filter((p) => within(p.after, p.billedSent)).length,
      forwarded_max_error_pct: round(Math.max(0, ...errAfter) * 100, 1),
    });
  }
  return rows;
}

/** The rows as a Markdown table. */
export function renderEstimateGap(rows: readonly EstimateGapRow[]): string {
  const head = "| session | model | calls | billed ÷ estimate min / median / max | estimate within ±5 % | calibrated tokens_before within ±5 % (from call 3) | largest error | calibrated tokens_after within ±5 % of the forwarded body (from call 3) | largest error |";
  const lines = rows.map((r) => `| ${r.session_id} | ${r.model} | ${r.calls} | ${r.ratio_min.toFixed(3)} / ${r.ratio_median.toFixed(3)} / ${r.ratio_max.toFixed(3)} | ${r.raw_within_5pct} of ${r.calls} | ${r.calibrated_within_5pct} of ${r.calibrated_calls} | ${r.calibrated_max_error_pct.toFixed(1)}% | ${r.forwarded_within_5pct} of ${r.calibrated_calls} | ${r.forwarded_max_error_pct.toFixed(1)}% |`);
  return [head, "|---|---|---|---|---|---|---|---|---|", ...lines].join("\n");
}
