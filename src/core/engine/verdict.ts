/**
 * Engine verdicts (pure data, DESIGN §5): per candidate pair, drop the call and result, drop
 * only the result, or keep — with a confidence in [0, 1] and the rule that decided. A verdict
 * below `decision_threshold` counts as keep.
 */

/** Names of the heuristic rules (plus the four guards that force keep). */
export type RuleName =
  | "superseded_read"
  | "duplicate_result"
  | "failed_then_retried"
  | "stale_large_output"
  | "superseded_edit"
  | "superseded_command"
  | "exclude_tools"
  | "locked"
  | "mentioned_later"
  | "working_set"
  | "none";

/** One verdict. */
export type Verdict =
  | { kind: "drop_pair"; confidence: number; rule: RuleName }
  | { kind: "drop_result"; confidence: number; rule: RuleName }
  | { kind: "keep"; confidence: number; rule: RuleName };

export type VerdictKind = Verdict["kind"];

/** Verdicts by pair id. Pairs absent from the map are keep. */
export type Verdicts = Record<string, Verdict>;

/** The default verdict: keep, decided by no rule. */
export const KEEP: Verdict = Object.freeze({ kind: "keep", confidence: 0, rule: "none" });

/** True when `v` asks for a removal at or above `threshold`. */
export function isRemoval(v: Verdict | undefined, threshold: number): v is Extract<Verdict, { kind: "drop_pair" | "drop_result" }> {
  if (v === undefined) return false;
  switch (v.kind) {
    case "drop_pair":
    case "drop_result":
      return v.confidence >= threshold;
    case "keep":
      return false;
    default: {
      const never: never = v;
      return never;
    }
  }
}
