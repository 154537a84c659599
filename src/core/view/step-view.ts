/**
 * The view a session step gets (pure): the parsed view with each tool result's text cut to a
 * head, so no whole body crosses the step RPC (DESIGN §1). The core reads a result's text only
 * through its head: the truncation head (src/core/tiers/cut-head.ts headBytes reads at most
 * 2 × head_chars UTF-16 units and whether more follow), the failure test
 * (src/core/engine/read-tool-call.ts resultLooksFailed: a prefix of ≤ 400 characters), the tier
 * map's first error line (≤ 160 characters) and the HTTP engines' `result_head` (head_chars).
 */
import type { ConversationView, ToolPair } from "./types";

/** Least UTF-16 units of a result's text a step view keeps (covers the failure test's 400-character prefix after leading blanks). */
export const MIN_STEP_RESULT_CHARS = 1024;

/** UTF-16 units of each result's text the step view keeps for `head_chars`: enough for headBytes to decide as on the whole text. */
export function stepResultChars(head_chars: number): number {
  return Math.max(MIN_STEP_RESULT_CHARS, 2 * head_chars + 1);
}

/** A plain copy of `p` (lazy fields read) with `result_text` cut to `chars` UTF-16 units; sizes and hashes untouched. */
export function stepPair(p: ToolPair, chars: number): ToolPair {
  const text = p.result_text;
  return {
    id: p.id, tool_name: p.tool_name, input_text: p.input_text, input_bytes: p.input_bytes, call: p.call, result: p.result, turn_index: p.turn_index,
    result_text: text.length > chars ? text.slice(0, chars) : text,
    result_bytes: p.result_bytes, result_est_tokens: p.result_est_tokens, result_is_error: p.result_is_error,
    result_media_count: p.result_media_count, result_hash: p.result_hash, locked: p.locked,
  };
}

/** `view` as a step gets it: plain data (structured-clone safe), each result's text cut for `head_chars` (stepResultChars). */
export function stepView(view: ConversationView, head_chars: number): ConversationView {
  const chars = stepResultChars(head_chars);
  return { ...view, messages: view.messages.map((m) => ({ ...m })), pairs: view.pairs.map((p) => stepPair(p, chars)) };
}
