/**
 * Sending the session step only what changed since the last view it got (pure; shared by the
 * gateway, which builds the delta, and the session DO, which rebuilds the view). An agent's
 * history grows by appending, so between two calls of a session almost every message and every
 * tool pair is the same: measured on the corpus, the slim view is 3–361 KB per request and
 * crossing the DO RPC (structured clone out and in) was the largest cost of the compaction-on
 * hot path under `wrangler dev` (tools/load/profile-workerd.ts).
 *
 * Protocol: the gateway remembers (per isolate, ../gateway/sent-views.ts) the last view it sent
 * each session and the token it sent it under. The next view goes as a delta against that token:
 * the leading messages and pairs equal to the base's are left out (`kept_messages`,
 * `kept_pairs`), and of the pairs that are sent those whose
 * input text and result content equal the base's travel with empty texts (`kept_texts`); a
 * kept pair's result text is never decoded in the gateway. The DO rebuilds
 * the whole view from its own copy of the base (it keeps the last few, one per isolate that
 * recently served the session); if it has none under that token (evicted, a base pushed out)
 * it answers `need_full` and the gateway sends the whole view. The rebuilt view is field for field the view the gateway parsed.
 */
import type { ConversationView, MessageInfo, ToolPair } from "../core/view/types";
import { pairRecord, slimText, slimView, stepPair } from "./step-types";

/** How a step view differs from the base view sent under `base_token`. */
export interface ViewDelta {
  /** Token of the base view (the `view_token` of the step that sent it). */
  base_token: string;
  /** The first `kept_messages` messages are the base's; the sent view's `messages` hold the rest, in order. */
  kept_messages: number;
  /** The first `kept_pairs` pairs are the base's, every field; the sent view's `pairs` hold the rest, in order. */
  kept_pairs: number;
  /** Ids of pairs (among those sent) sent with `input_text` and `result_text` "" because both equal the base pair's. */
  kept_texts: string[];
}

/** What the gateway keeps of a sent pair: every field but the result text, which derives from the result content (hash and size of its bytes). */
export type PairRecord = Omit<ToolPair, "result_text">;

/**
 * What the gateway keeps of a view it sent: plain copies of its messages and pairs (no result
 * texts, no lazy fields, so nothing retains the request body).
 */
export interface SentView {
  token: string;
  messages: readonly MessageInfo[];
  pairs: readonly PairRecord[];
  /** Pair id → its record. */
  texts: ReadonlyMap<string, PairRecord>;
}

/** The record of `view` (as parsed; its result texts are never read) sent under `token`. */
export function sentViewOf(token: string, view: ConversationView): SentView {
  const pairs = view.pairs.map(pairRecord);
  return { token, messages: view.messages.map((m) => ({ ...m })), pairs, texts: new Map(pairs.map((p) => [p.id, p])) };
}

/** Approximate memory a SentView holds, bytes (UTF-16 input texts plus a flat 200 bytes per record): for the gateway's bound. */
export function retainedBytes(v: SentView): number {
  let n = 200 * (v.messages.length + v.pairs.length);
  for (const p of v.pairs) n += 2 * p.input_text.length;
  return n;
}

/**
 * Equality of two pairs in every field the step reads, the result text judged by what it is
 * derived from (content hash and size: see PairSource), so `a.result_text` is never read.
 */
export function samePair(a: ToolPair, b: PairRecord): boolean {
  return a.id === b.id && a.tool_name === b.tool_name && a.input_bytes === b.input_bytes && a.input_text === b.input_text &&
    a.call.message_index === b.call.message_index && a.call.block_index === b.call.block_index &&
    a.result.message_index === b.result.message_index && a.result.block_index === b.result.block_index &&
    a.turn_index === b.turn_index && a.result_bytes === b.result_bytes && a.result_hash === b.result_hash &&
    a.result_est_tokens === b.result_est_tokens && a.result_is_error === b.result_is_error &&
    a.result_media_count === b.result_media_count && a.locked === b.locked;
}

/** Own-field equality of two messages (values compared with ===, `removable_with` element-wise). */
export function sameMessage(a: MessageInfo, b: MessageInfo): boolean {
  const keys = Object.keys(a) as (keyof MessageInfo)[];
  if (keys.length !== Object.keys(b).length) return false;
  for (const k of keys) {
    const x = a[k];
    const y = b[k];
    if (x === y) continue;
    if (k === "range") {
      if (a.range.start !== b.range.start || a.range.end !== b.range.end) return false;
    } else if (Array.isArray(x) && Array.isArray(y)) {
      if (x.length !== y.length || x.some((v, i) => v !== y[i])) return false;
    } else return false;
  }
  return true;
}

/**
 * The step view to send for `view` (as parsed) against `base` (the last view sent to the
 * session, or undefined), and its delta (null: the whole slim view, ./step-types.ts slimView).
 * A pair's texts are left out when its id, input text (compared whole) and result content
 * (64-bit hash and byte size of the content bytes: the same key the ledger trusts) equal the
 * base's; the others carry their slim texts.
 */
export function deltaAgainst(base: SentView | undefined, view: ConversationView): { view: ConversationView; delta: ViewDelta | null } {
  if (!base) return { view: slimView(view), delta: null };
  let kept = 0;
  while (kept < view.messages.length && kept < base.messages.length && sameMessage(view.messages[kept]!, base.messages[kept]!)) kept++;
  let keptPairs = 0;
  while (keptPairs < view.pairs.length && keptPairs < base.pairs.length && samePair(view.pairs[keptPairs]!, base.pairs[keptPairs]!)) keptPairs++;
  const keptTexts: string[] = [];
  const pairs = view.pairs.slice(keptPairs).map((p): ToolPair => {
    const b = base.texts.get(p.id);
    if (!b || b.result_hash !== p.result_hash || b.result_bytes !== p.result_bytes || b.input_text !== p.input_text) return stepPair(p, p.input_text, slimText(p.result_text));
    keptTexts.push(p.id);
    return stepPair(p, "", "");
  });
  return { view: { ...view, messages: view.messages.slice(kept), pairs }, delta: { base_token: base.token, kept_messages: kept, kept_pairs: keptPairs, kept_texts: keptTexts } };
}

/**
 * Rebuilds the whole view from `sent` (a delta view) and `base` (the view the DO holds for
 * `delta.base_token`). Returns null when `base` cannot supply what the delta leaves out
 * (fewer messages than kept, a kept pair it does not have, messages out of order): the caller
 * then asks for the whole view.
 */
export function rebuildView(base: ConversationView, sent: ConversationView, delta: ViewDelta): ConversationView | null {
  if (delta.kept_messages > base.messages.length || delta.kept_pairs > base.pairs.length) return null;
  if (sent.messages.length > 0 && sent.messages[0]!.index !== delta.kept_messages) return null;
  const basePairs = new Map(base.pairs.map((p) => [p.id, p]));
  const kept = new Set(delta.kept_texts);
  const pairs: ToolPair[] = base.pairs.slice(0, delta.kept_pairs);
  for (const p of sent.pairs) {
    if (!kept.has(p.id)) { pairs.push(p); continue; }
    const b = basePairs.get(p.id);
    if (!b) return null;
    pairs.push({ ...p, input_text: b.input_text, result_text: b.result_text });
  }
  return { ...sent, messages: [...base.messages.slice(0, delta.kept_messages), ...sent.messages], pairs };
}
