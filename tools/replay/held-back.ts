/**
 * Which gate held back a saving (pure): at every call where Sluice priced a cut and took no step
 * (its step output's `declined`: skipped as `not_positive`, `gathering` or
 * `under_min_reduction`), the saving that one step would have made there, in hindsight — the
 * session's real later calls and gaps under the hindsight programme's cache model
 * (./hindsight-steps.ts: 5-minute TTL, the model's write and read prices, Anthropic's 20-item reach
 * back from the last message's breakpoint, tokens ≈ characters / 4)
 * — against no removal at all. The best such call, when its step alone would have saved more than
 * the whole run did, is the one the report names, with the gate that refused it (the skip reason
 * of the call's `x-sluice-compaction` note: ./summarize-report.ts decisionOf).
 *
 * The declined cut's figures are Sluice's estimates of the request it saw; they are scaled to the
 * call's shape (its original tokens) before the programme prices them.
 */
import { bestStepTimes, type CacheModel, type HindsightCall } from "./hindsight-steps";
import type { AssumedPrices } from "./session-prices";
import { HINDSIGHT_TTL_MS } from "./step-timing-report";
import type { CallRecord } from "./types";

/** The best declined step of a run, in hindsight. */
export interface HeldBack {
  /** The gate that refused it: the call's skip reason (`not_positive`, `gathering`, `under_min_reduction`). */
  gate: string;
  /** 0-based index of the call. */
  call: number;
  /** What that one step would have saved, % of the input cost without removal (hindsight model). */
  saved_pct: number;
  /** The same in USD at the session's input price. */
  saved_usd: number;
}

/**
 * The best declined step of `calls` (a Sluice run; `decisionOf` reads a call's gate), priced over
 * `base` (the same session's `none` run, whose shapes are the requests as the agent sent them),
 * or null when no call declined a cut or none of them would have saved anything.
 */
export function bestDeclinedStep(calls: readonly CallRecord[], base: readonly CallRecord[], prices: AssumedPrices, decisionOf: (note: string | undefined) => string | null): HeldBack | null {
  if (base.length === 0 || base.some((c) => c.shape === undefined)) return null;
  const input = prices.input_per_mtok;
  const model: CacheModel = { ttl_ms: HINDSIGHT_TTL_MS, write_multiple: input === 0 ? 1 : prices.cache_write_per_mtok / input, read_multiple: input === 0 ? 1 : prices.cache_read_per_mtok / input };
  const timeline: HindsightCall[] = base.map((c) => ({ tokens: c.shape!.original_tokens, time_ms: c.time_ms, reach_tokens: c.shape!.reach_tokens ?? null }));
  let best: HeldBack | null = null;
  for (const c of calls) {
    const d = c.declined;
    const shape = base[c.index]?.shape;
    if (d === undefined || shape === undefined || d.request_tokens <= 0) continue;
    const scale = shape.original_tokens / d.request_tokens;
    const r = bestStepTimes(timeline, [{ released_at: c.index, first_edit: d.first_edit_tokens * scale, tokens: d.removed_tokens * scale }], model);
    const saved = r.none_cost - r.taken_cost;
    if (saved <= 0 || r.none_cost === 0 || (best !== null && saved / r.none_cost * 100 <= best.saved_pct)) continue;
    best = { gate: decisionOf(c.note) ?? "no_step", call: c.index, saved_pct: (saved / r.none_cost) * 100, saved_usd: (saved * input) / 1e6 };
  }
  return best;
}
