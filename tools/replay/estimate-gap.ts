/**
 * How far Sluice's token estimate is from the tokens the emulator billed for the same body
 * (pure), per session, from a replay that ran `none` and `sluice`: for call k the estimate is
 * `tokens_before` of Sluice's x-sluice-compaction note (the estimate of the agent's original
 * body), the billed count is `none`'s input + cache read + cache write for that call (the same
 * body, billed by the emulator's tokenizer: docs/emulator.md). Calls without a `tokens_before`,
 * rejected or billed 0 are left out.
 * - ratio = billed ÷ estimate (min / median (upper) / max);
 * - raw: calls whose estimate is within ±5 % of the billed count;
 * - calibrated: from the third call on (after two answers), the estimate times the previous
 *   call's ratio, within ±5 % of the billed count; and the largest such error in %.
 * A measurement for issue 28 item 3; nothing here changes the estimator.
 */
import type { SessionRun } from "./types";

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
  /** Calls compared with a calibrated estimate (both this and the previous call compared, index ≥ 2). */
  calibrated_calls: number;
  calibrated_within_5pct: number;
  /** Largest |calibrated ÷ billed − 1| × 100, %. 0 without calibrated calls. */
  calibrated_max_error_pct: number;
}

const round = (x: number, d: number) => Math.round(x * 10 ** d) / 10 ** d;

/** The rows, one per session that has both a `none` and a `sluice` run, in run order. */
export function estimateGap(runs: readonly SessionRun[]): EstimateGapRow[] {
  const rows: EstimateGapRow[] = [];
  for (const none of runs.filter((r) => r.strategy === "none")) {
    const sluice = runs.find((r) => r.strategy === "sluice" && r.session_id === none.session_id);
    if (sluice === undefined) continue;
    const points = none.calls.map((c, k) => {
      const est = Number(/(?:^|; )tokens_before=(\d+)/.exec(sluice.calls[k]?.note ?? "")?.[1] ?? NaN);
      const billed = c.usage.input + c.usage.cache_read + c.usage.cache_write;
      return c.rejected === null && billed > 0 && est > 0 ? { est, billed } : null;
    });
    const ok = points.filter((p) => p !== null);
    if (ok.length === 0) continue;
    const ratios = ok.map((p) => p.billed / p.est).sort((a, b) => a - b);
    const errors: number[] = [];
    for (let k = 2; k < points.length; k++) {
      const prev = points[k - 1];
      const cur = points[k];
      if (prev && cur) errors.push(Math.abs((cur.est * (prev.billed / prev.est)) / cur.billed - 1));
    }
    rows.push({
      session_id: none.session_id,
      provider: none.provider,
      model: none.model,
      calls: ok.length,
      ratio_min: round(ratios[0]!, 3),
      ratio_median: round(ratios[Math.floor(ratios.length / 2)]!, 3),
      ratio_max: round(ratios[ratios.length - 1]!, 3),
      raw_within_5pct: ok.filter((p) => Math.abs(p.est / p.billed - 1) <= 0.05).length,
      calibrated_calls: errors.length,
      calibrated_within_5pct: errors.filter((e) => e <= 0.05).length,
      calibrated_max_error_pct: round(Math.max(0, ...errors) * 100, 1),
    });
  }
  return rows;
}

/** The rows as a Markdown table. */
export function renderEstimateGap(rows: readonly EstimateGapRow[]): string {
  const head = "| session | model | calls | billed ÷ estimate min / median / max | estimate within ±5 % | calibrated on the previous answer, within ±5 % (from call 3) | calibrated, largest error |";
  const lines = rows.map((r) => `| ${r.session_id} | ${r.model} | ${r.calls} | ${r.ratio_min.toFixed(3)} / ${r.ratio_median.toFixed(3)} / ${r.ratio_max.toFixed(3)} | ${r.raw_within_5pct} of ${r.calls} | ${r.calibrated_within_5pct} of ${r.calibrated_calls} | ${r.calibrated_max_error_pct.toFixed(1)}% |`);
  return [head, "|---|---|---|---|---|---|---|", ...lines].join("\n");
}
