/**
 * Builds an engine request from pair facts (pure; their heads are already cut to head_chars:
 * src/core/facts/step-facts.ts). The caller chooses the candidates (editable,
 * unlocked, outside `preserve_recent_turns` and `exclude_tools` — that is the core's job);
 * this only maps them to the wire shape and applies the `head_chars` cap (DESIGN §5).
 */
import type { PairFacts } from "../core/facts/step-facts";
import { PROTOCOL_VERSION, type EngineRequest } from "./protocol";

/** Inputs besides the pairs: the engine model, the cap, and the view's turn count. */
export interface BuildRequestOptions {
  model: string | null;
  head_chars: number;
  /** `StepFacts.turn_count`; age_turns = turn_count − pair.turn_index (0 = newest turn). */
  turn_count: number;
}

/** Maps `pairs` (in history order) to an EngineRequest. */
export function buildEngineRequest(pairs: readonly PairFacts[], opts: BuildRequestOptions): EngineRequest {
  return {
    protocol: PROTOCOL_VERSION,
    model: opts.model,
    head_chars: opts.head_chars,
    candidates: pairs.map((p) => ({
      id: p.id,
      tool_name: p.tool_name,
      input_excerpt: p.input_head,
      result_head: p.result_head,
      result_bytes: p.result_bytes,
      age_turns: Math.max(0, opts.turn_count - p.turn_index),
      is_error: p.result_is_error,
    })),
  };
}
