/**
 * Summaries of an OpenAI-style content / tool output value (pure): counts of text and media
 * parts and the text nodes, without decoding any text (decoding is deferred to `lazyText`, so a
 * read costs little more than the scan; DESIGN's benchmark target is ≤ 3× JSON.parse+stringify).
 */
import type { ToolPair } from "../../core/view/types";
import { stringValue, type JsonNode } from "./json-scan";
import { classifyParts, partType, type PartKinds } from "./edit-result-content";
import { MEDIA_TOKENS, estimateTokensFromBytes } from "../../core/tokens/estimate";
import { knownOrLazy } from "./lazy-field";
import { NodeMemo } from "./node-memo";
import { hashBytes } from "../../core/hash";

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

type LazyKeys = "input_text" | "result_text";

/** Decoded tool-call inputs, result texts and hashes per JSON node (each depends on that node's bytes only: ./node-memo.ts). */
const INPUT_TEXTS = new NodeMemo<string>();
const RESULT_TEXTS = new NodeMemo<string>();
const NODE_HASHES = new NodeMemo<string>();

/**
 * A ToolPair whose `input_text` and `result_text` are decoded on first read (./lazy-field.ts),
 * so JSON.stringify, structuredClone and toEqual see plain fields. `fields` itself becomes the
 * pair (pass a fresh object). With `nodes` (the JSON nodes the two texts are decoded from),
 * each text is decoded once per node: a node lent by the scan reuse keeps its text.
 */
export function lazyPair(fields: Omit<ToolPair, LazyKeys>, texts: Record<LazyKeys, () => string>, nodes?: { input: JsonNode; result: JsonNode | undefined }): ToolPair {
  const input = nodes ? () => INPUT_TEXTS.get(nodes.input, texts.input_text) : texts.input_text;
  const resultNode = nodes?.result;
  const result = resultNode ? () => RESULT_TEXTS.get(resultNode, texts.result_text) : texts.result_text;
  // Texts already decoded for these nodes (a lent node keeps its text) become plain fields.
  return knownOrLazy(knownOrLazy(fields, "input_text", nodes ? INPUT_TEXTS.peek(nodes.input) : undefined, input), "result_text", resultNode ? RESULT_TEXTS.peek(resultNode) : undefined, result);
}

/** hashBytes over `node`'s bytes, once per node (src/core/hash.ts). */
export function nodeHash(bytes: Uint8Array, node: JsonNode): string {
  return NODE_HASHES.get(node, () => hashBytes(bytes, node.start, node.end));
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
