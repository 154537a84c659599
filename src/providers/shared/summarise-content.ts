/**
 * Summaries of an OpenAI-style content / tool output value (pure): counts of text and media
 * parts and the text nodes, without decoding any text (the readers decode it on first read,
 * ./lazy-field.ts, so a read costs little more than the scan; DESIGN's benchmark target is ≤ 3×
 * JSON.parse+stringify).
 */
import { stringValue, type JsonNode } from "./json-scan";
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
