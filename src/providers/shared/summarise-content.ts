/**
 * Summaries of an OpenAI-style content / tool output value (pure): counts of text and media
 * parts and the text nodes, without decoding any text (the readers decode it on first read,
 * ./lazy-field.ts, so a read costs little more than the scan; DESIGN's benchmark target is ≤ 3×
 * JSON.parse+stringify).
 */
import type { ToolPair } from "../../core/view/types";
import { hashBytes } from "../../core/hash";
import { stringValue, type JsonNode } from "./json-scan";
import { knownOrLazy } from "./lazy-field";
import { classifyParts, partType, type PartKinds } from "./edit-result-content";
import { MEDIA_TOKENS, estimateTokensFromBytes } from "../../core/tokens/estimate";

export interface ContentSummary {
  /** String nodes of the text (the value itself when it is a string). */
  textNodes: JsonNode[];
  /** Non-empty text values / parts. */
  textParts: number;
  media: number;
  /** Bytes of the media parts (excluded from the byte-based token estimate). */
  mediaBytes: number;
}

const EMPTY: ContentSummary = { textNodes: [], textParts: 0, media: 0, mediaBytes: 0 };

/** Summarises a string or parts value; anything else (absent, null) summarises as empty. */
export function summariseContent(bytes: Uint8Array, value: JsonNode | undefined, kinds: PartKinds): ContentSummary {
  if (!value) return EMPTY;
  if (value.type === "string") return { textNodes: [value], textParts: value.end - value.start > 2 ? 1 : 0, media: 0, mediaBytes: 0 };
  if (value.type !== "array") return EMPTY;
  const out: ContentSummary = { textNodes: [], textParts: 0, media: 0, mediaBytes: 0 };
  for (const p of classifyParts(value, kinds, (n) => partType(bytes, n))) {
    if (p.kind === "text") {
      out.textNodes.push(p.text);
      out.textParts++;
    } else if (p.kind === "media") {
      out.media++;
      out.mediaBytes += p.node.end - p.node.start;
    }
  }
  return out;
}

/** Decoded text of the summary's text nodes, joined with "\n" (ToolPair.result_text). */
export function joinedText(bytes: Uint8Array, s: ContentSummary): string {
  return s.textNodes.map((n) => stringValue(bytes, n)).join("\n");
}

/**
 * A pair's facts kept on its result element (a Chat tool message, a Responses call output) for
 * the call it answered — `call`, the very object: a lent call element keeps its located calls —
 * so a lent pair is not hashed or decoded again.
 */
export interface PairMemo<C> {
  call: C;
  result_hash: string;
  input_text: string | null;
  result_text: string | null;
}

/** `holder.pair` when it is `call`'s, else a new memo stored there (the result hashed over `value`'s bytes; hashBytes of nothing when absent). */
function pairMemoFor<C>(holder: { pair: PairMemo<C> | null }, call: C, bytes: Uint8Array, value: JsonNode | undefined): PairMemo<C> {
  const memo = holder.pair;
  if (memo !== null && memo.call === call) return memo;
  return (holder.pair = { call, result_hash: value ? hashBytes(bytes, value.start, value.end) : hashBytes(bytes, 0, 0), input_text: null, result_text: null });
}

/** What an OpenAI reader knows of a pair from its own wire shape; memoPair derives the rest. */
export type PairSite = Pick<ToolPair, "id" | "tool_name" | "call" | "result" | "turn_index" | "locked">;

/**
 * The ToolPair of `site`, whose call `call` has its input in the string node `input` and whose
 * result element `holder` (a Chat tool message, a Responses call output) has its content in
 * `value` (absent: none) with summary `s`. Derived here: input and result sizes, the result's
 * token estimate (estimateWithMedia), media count and hash (kept in `holder.pair` for `call`:
 * pairMemoFor), no error flag; `input_text` and `result_text` (summary joined: joinedText) are
 * plain fields when the memo has them, else decoded on first read (./lazy-field.ts) and kept in
 * the memo.
 */
export function memoPair<C>(site: PairSite, holder: { pair: PairMemo<C> | null }, call: C, bytes: Uint8Array, input: JsonNode, value: JsonNode | undefined, s: ContentSummary): ToolPair {
  const memo = pairMemoFor(holder, call, bytes, value);
  const resultBytes = value ? value.end - value.start : 0;
  const fields: Omit<ToolPair, "input_text" | "result_text"> = {
    id: site.id,
    tool_name: site.tool_name,
    input_bytes: input.end - input.start,
    call: site.call,
    result: site.result,
    turn_index: site.turn_index,
    result_bytes: resultBytes,
    result_est_tokens: estimateWithMedia(resultBytes, s),
    result_is_error: false,
    result_media_count: s.media,
    result_hash: memo.result_hash,
    locked: site.locked,
  };
  return knownOrLazy(
    knownOrLazy(fields, "input_text", memo.input_text ?? undefined, () => (memo.input_text = stringValue(bytes, input))),
    "result_text",
    memo.result_text ?? undefined,
    () => (memo.result_text = joinedText(bytes, s)),
  );
}

/**
 * Estimated tokens of `totalBytes` bytes of JSON of which `s.mediaBytes` are media parts: text at
 * the estimator's rate (src/core/tokens/estimate.ts), each media part at MEDIA_TOKENS.
 */
export function estimateWithMedia(totalBytes: number, s: Pick<ContentSummary, "media" | "mediaBytes">): number {
  return estimateTokensFromBytes(totalBytes - s.mediaBytes) + s.media * MEDIA_TOKENS;
}

/** Media parts and their bytes over several summaries (a whole request). */
export function totalMedia(summaries: readonly ContentSummary[]): Pick<ContentSummary, "media" | "mediaBytes"> {
  let media = 0;
  let mediaBytes = 0;
  for (const s of summaries) {
    media += s.media;
    mediaBytes += s.mediaBytes;
  }
  return { media, mediaBytes };
}
