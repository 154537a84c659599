/**
 * Per-session calibration of the token estimator against the provider's own counts (pure).
 *
 * The estimator (./estimate.ts) runs 5–50 % off the provider on real sessions, and the error
 * depends on what a session carries (thinking signatures and encrypted reasoning count in the
 * estimate but not in the bill; code runs low, JSON high). One ratio per session is not enough
 * (measured on corpus/seed: calibrating by the previous answer's ratio misses ±5 % on the
 * first calls after every step). So the calibration anchors on the last answer's exact count:
 * consecutive requests of an agent session share their prefix, and only the difference needs
 * estimating.
 *
 * For a request whose body, as the client sent it, is estimated at `O` tokens, of which Sluice
 * removes an estimated `O − E` before forwarding `E`:
 *
 *   calibrated(O, E) = R + r_removal × X + r_growth × (O − O_prev) − r_removal × (O − E)
 *
 * where the anchor is the last answered request: R its provider-reported input tokens (input +
 * cache read + cache write), O_prev its estimate as the client sent it and X the estimate of
 * what Sluice removed from it. R + r_removal × X is what that request as the client sent it
 * would have counted; r_growth × (O − O_prev) prices what the client appended since;
 * r_removal × (O − E) what Sluice removes now. The two ratios are learned per session:
 * - r_growth = Σ ΔR ÷ Σ ΔO over consecutive answers whose removed part did not change (the
 *   provider's count of what the client appended vs its estimate);
 * - r_removal from the answers where a step removed more: ΔR = r_growth × ΔO − r_removal × ΔX,
 *   so r_removal = Σ (r_growth × ΔO − ΔR) ÷ Σ ΔX (removed content is mostly tool results,
 *   which count differently from the thinking and prose around them);
 * each falls back to the next (r_removal → r_growth → the plain ratio Σ R ÷ Σ E) until it has a
 * sample or when its sum is not positive. A body that shrank since the anchor (the client
 * compacted or edited its history, or another conversation) shares no prefix: its version as the
 * client sent it gets the plain ratio × O (what Sluice removes still r_removal × (O − E)).
 * Before the first answer nothing is calibrated (the estimate as is).
 *
 * Measured with `npm run replay` + `npm run replay:estimate-gap` (docs/how-it-works.md
 * "Calibrated estimates"). All figures are tokens.
 */

/** A session's calibration state: counts only (tokens), stored by the session DO. */
export interface Calibration {
  /** Answers folded in (each with a reported count > 0 and a forwarded estimate > 0). */
  answers: number;
  /** R: provider-reported input tokens (input + cache read + cache write) of the last answered request. */
  anchor_reported: number;
  /** O_prev: estimated tokens of that request as the client sent it. */
  anchor_original: number;
  /** X: estimated tokens Sluice removed from it before forwarding (original − forwarded estimate). */
  anchor_removed: number;
  /** Σ reported tokens over all answers (plain ratio's numerator). */
  reported_sum: number;
  /** Σ forwarded estimates over all answers (plain ratio's denominator). */
  estimated_sum: number;
  /** Σ ΔR over growth samples. */
  growth_reported: number;
  /** Σ ΔO over growth samples. */
  growth_estimated: number;
  /** Σ (r_growth × ΔO − ΔR) over removal samples. */
  removal_reported: number;
  /** Σ ΔX over removal samples. */
  removal_estimated: number;
}

/** One answered request: what Sluice estimated and what the provider counted. */
export interface AnsweredRequest {
  /** Estimated tokens of the body as the client sent it. */
  est_original: number;
  /** Estimated tokens of the body forwarded (what the provider counted). */
  est_sent: number;
  /** Provider-reported input tokens: input + cache read + cache write. */
  reported: number;
}

/** The state before any answer. */
export const NO_CALIBRATION: Calibration = {
  answers: 0, anchor_reported: 0, anchor_original: 0, anchor_removed: 0,
  reported_sum: 0, estimated_sum: 0, growth_reported: 0, growth_estimated: 0, removal_reported: 0, removal_estimated: 0,
};

/** Σ R ÷ Σ E over every answer; 1 before any. */
export function plainRatio(c: Calibration): number {
  return c.estimated_sum > 0 && c.reported_sum > 0 ? c.reported_sum / c.estimated_sum : 1;
}

/** r_growth: reported ÷ estimated tokens of what the client appended; the plain ratio until a sample. */
export function growthRatio(c: Calibration): number {
  return c.growth_estimated > 0 && c.growth_reported > 0 ? c.growth_reported / c.growth_estimated : plainRatio(c);
}

/** r_removal: reported ÷ estimated tokens of what Sluice removed; r_growth until a sample. */
export function removalRatio(c: Calibration): number {
  return c.removal_estimated > 0 && c.removal_reported > 0 ? c.removal_reported / c.removal_estimated : growthRatio(c);
}

/**
 * The state after `a` was answered. An answer with no reported count or no estimate (an error,
 * a body the estimator saw as empty) changes nothing.
 */
export function foldAnswer(c: Calibration, a: AnsweredRequest): Calibration {
  if (!(a.reported > 0) || !(a.est_sent > 0) || !(a.est_original >= a.est_sent)) return c;
  const removed = a.est_original - a.est_sent;
  const next: Calibration = {
    ...c,
    answers: c.answers + 1,
    anchor_reported: a.reported,
    anchor_original: a.est_original,
    anchor_removed: removed,
    reported_sum: c.reported_sum + a.reported,
    estimated_sum: c.estimated_sum + a.est_sent,
  };
  if (c.answers === 0 || a.est_original < c.anchor_original) return next;
  const dO = a.est_original - c.anchor_original;
  const dX = removed - c.anchor_removed;
  const dR = a.reported - c.anchor_reported;
  if (dX === 0 && dO > 0) {
    next.growth_reported += dR;
    next.growth_estimated += dO;
  } else if (dX > 0) {
    next.removal_reported += growthRatio(c) * dO - dR;
    next.removal_estimated += dX;
  }
  return next;
}

/**
 * Calibrated tokens of a body estimated at `est` whose version as the client sent it is
 * estimated at `est_original` (default: the same body), rounded, never below 0 (a body larger
 * than the client's, `est` > `est_original`, counts as nothing removed). Without an
 * answer yet (`c` null or no answers), `est` as is.
 */
export function calibrate(c: Calibration | null | undefined, est_original: number, est: number = est_original): number {
  if (!c || c.answers === 0) return est;
  const original = est_original < c.anchor_original
    ? plainRatio(c) * est_original
    : c.anchor_reported + removalRatio(c) * c.anchor_removed + growthRatio(c) * (est_original - c.anchor_original);
  // The removed part rounded on its own: calibrate(o) − calibrate(o, e) = calibrateRemoved(o − e), as the header and tokens_saved report it.
  return Math.max(0, Math.round(original) - calibrateRemoved(c, est_original - est));
}

/** Calibrated tokens of `removed_est` estimated tokens that Sluice removes (r_removal × removed_est); as is before an answer. */
export function calibrateRemoved(c: Calibration | null | undefined, removed_est: number): number {
  if (!c || c.answers === 0) return Math.max(0, removed_est);
  return Math.max(0, Math.round(removalRatio(c) * removed_est));
}
