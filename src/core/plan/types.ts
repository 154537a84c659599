/**
 * EditPlan: what to do with each tool pair (pure data). Produced by tiers/engines, compiled into
 * byte deletions by a provider adapter, verified by the guarantee checker.
 */

/** Action on one pair. Anything not listed in a plan is `keep`. */
export type PairAction =
  /** Leave the pair as it is. */
  | { kind: "keep" }
  /** The result shrinks to a short exact head (never to nothing: empty blocks are rejected); the call stays. */
  | { kind: "drop_result" }
  /** Call and result both go (with their message, if it is left empty). */
  | { kind: "drop_pair" }
  /** Keep an exact head of `head_bytes` (and optional tail of `tail_bytes`) of the result text; cuts on whole characters, never inside a JSON escape. */
  | { kind: "truncate_result"; head_bytes: number; tail_bytes?: number }
  /** Remove image/document parts inside the result, keep its text. */
  | { kind: "strip_media" };

export type PairActionKind = PairAction["kind"];

/** One step's decisions: pair id → action. */
export interface EditPlan {
  actions: Record<string, PairAction>;
}

/** The empty plan: every pair kept. */
export const EMPTY_PLAN: EditPlan = { actions: {} };
