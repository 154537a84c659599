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
  | { kind: "strip_media" }
  /**
   * Level `rewrite` only: the result's text goes and one marked summary block of the stretch
   * `covers` stands in its place (./summary-block.ts); the call stays. `covers` lists the pair ids
   * the summary replaces, oldest first, this pair (the host) first; every other id in it carries
   * `drop_pair` in the same plan. `text` is null in the plan of the step that decides it, until
   * the gateway has had the summariser write it; from then on the ledger holds the text and
   * every later request re-applies the same bytes (DESIGN invariant 6).
   */
  | { kind: "summarize"; covers: string[]; text: string | null };

export type PairActionKind = PairAction["kind"];

/** One step's decisions: pair id → action. */
export interface EditPlan {
  actions: Record<string, PairAction>;
}

/** The empty plan: every pair kept. */
export const EMPTY_PLAN: EditPlan = { actions: {} };
