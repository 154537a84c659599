/**
 * The reference engine's verdict function: the core heuristic rules (src/core/engine,
 * `runHeuristicEngine`) applied to what the protocol carries. A team plugging in its own model
 * replaces this function with a model call.
 *
 * The protocol sends excerpts, not whole results (DESIGN §5, `head_chars`), so each candidate
 * becomes a ToolPair whose input is `input_excerpt`, whose result text is `result_head`, and whose
 * result hash covers the head and the full size: two results count as identical when their
 * heads and sizes match (a head is a prefix, hence the rules' confidences below 1). Turn indexes
 * come from `age_turns`. Rules that need more than an excerpt (a path inside a long input) see
 * less than the in-process heuristic does.
 */
import { hashText } from "../../src/core/hash";
import { runHeuristicEngine } from "../../src/core/engine/run-heuristic-engine";
import type { ConversationView, ToolPair } from "../../src/core/view/types";
import { stepFactsOf } from "../../src/core/facts/step-facts";
import { ToolCallMemo } from "../../src/core/engine/read-tool-call-memo";
import { DEFAULTS } from "../../src/config/defaults";
import type { EngineCandidate, EngineVerdict } from "../../src/engines/protocol";

/** A verdict function: one verdict per candidate, same order. */
export type DecideFn = (candidates: readonly EngineCandidate[]) => EngineVerdict[];

/** The view the heuristic reads, built from candidates (oldest first). */
export function candidatesView(candidates: readonly EngineCandidate[]): ConversationView {
  const turnCount = Math.max(0, ...candidates.map((c) => c.age_turns));
  const pairs: ToolPair[] = candidates.map((c, i) => ({
    id: c.id,
    tool_name: c.tool_name,
    input_text: c.input_excerpt,
    input_bytes: c.input_excerpt.length,
    call: { message_index: 2 * i, block_index: 0 },
    result: { message_index: 2 * i + 1, block_index: 0 },
    turn_index: turnCount - c.age_turns,
    result_text: c.result_head,
    result_bytes: c.result_bytes,
    result_est_tokens: Math.ceil(c.result_bytes / 4),
    result_is_error: c.is_error,
    result_media_count: 0,
    result_hash: hashText(`${c.result_bytes}\u0000${c.result_head}`),
    locked: null,
  }));
  return { provider: "anthropic", model: null, body_bytes: 0, est_tokens: 0, messages: [], pairs, orphans: [], turn_count: turnCount, server_managed: null };
}

export const decide: DecideFn = (candidates) => {
  const { verdicts } = runHeuristicEngine(stepFactsOf(candidatesView(candidates), { head_chars: DEFAULTS.head_chars, engine: "heuristic" }, new ToolCallMemo()), { exclude_tools: [], min_result_bytes: DEFAULTS.min_result_bytes });
  return candidates.map((c) => {
    const v = verdicts[c.id];
    return v === undefined || v.kind === "keep" ? { id: c.id, verdict: "keep", confidence: 1 } : { id: c.id, verdict: v.kind, confidence: v.confidence };
  });
};
