/**
 * Server-side compaction on the emulator's copy of a request (pure; platform.claude.com
 * build-with-claude/compaction; @anthropic-ai/sdk BetaCompact20260112Edit, BetaCompactionBlock,
 * BetaCompactionIterationUsage):
 *
 * 1. A history holding a `compaction` block is read from its last one on: every message before the
 *    block's message, and every block before it in that message, is dropped (the API "drops all
 *    message blocks prior to" the block). The block itself is prompt text: its `content`.
 * 2. A `compact_20260112` edit fires when the prompt (after the other edits) holds at least its
 *    `trigger` value of input tokens (default 150,000). The summary is deterministic, the
 *    emulator's own wording: `Summary of <n> messages.` (n = the messages of the copy), with
 *    `encrypted_content` null. The compaction iteration reads the whole copy; the answer's own
 *    iteration then reads the copy with its messages replaced by the block.
 */
import { isObject, prop, str, type Json, type JsonObject } from "../shared/json";
import { asBlocks } from "./segment-prompt";

/** Beta the compaction edit needs (compaction doc). */
export const COMPACTION_BETA = "compact-2026-01-12";
/** The edit's type. */
export const COMPACT = "compact_20260112";
/** Default `trigger` value and the documented minimum, input tokens (compaction doc). */
export const DEFAULT_COMPACTION_TRIGGER = 150_000;
export const MIN_COMPACTION_TRIGGER = 50_000;

const isCompaction = (b: Json) => str(b, "type") === "compaction";

/**
 * Index of the last `compaction` block of one message's content, -1 without one. The API drops
 * every block before it, so the message's own blocks (what the thinking-order rules read) are
 * the ones after it.
 */
export function lastCompactionIndex(blocks: readonly Json[]): number {
  return blocks.findLastIndex(isCompaction);
}

/** Where the last compaction block of `messages` sits (`messages.{message}.content.{block}`), or null. */
export function lastCompaction(messages: readonly Json[]): { message: number; block: number } | null {
  for (let i = messages.length - 1; i >= 0; i--) {
    const at = lastCompactionIndex(asBlocks(prop(messages[i], "content")));
    if (at >= 0) return { message: i, block: at };
  }
  return null;
}

/** `body` with its messages read from the last compaction block on (unchanged without one). */
export function fromLastCompaction(body: JsonObject): JsonObject {
  const messages = Array.isArray(body.messages) ? body.messages : [];
  const at = lastCompaction(messages);
  if (at === null) return body;
  const first = { ...(messages[at.message] as JsonObject), content: asBlocks(prop(messages[at.message], "content")).slice(at.block) };
  return { ...body, messages: [first, ...messages.slice(at.message + 1)] };
}

/** The request's compaction edit, or undefined. */
function compactEdit(body: JsonObject): JsonObject | undefined {
  const edits = prop(body.context_management, "edits");
  return Array.isArray(edits) ? (edits.find((e) => isObject(e) && e.type === COMPACT) as JsonObject | undefined) : undefined;
}

/** The compaction that fires on the copy `body` whose prompt holds `promptTokens` input tokens, or null. */
export function compactionFor(body: JsonObject, promptTokens: number): { block: JsonObject; summarised: number } | null {
  const edit = compactEdit(body);
  if (edit === undefined) return null;
  const value = prop(edit.trigger, "value");
  const trigger = typeof value === "number" ? value : DEFAULT_COMPACTION_TRIGGER;
  if (promptTokens < trigger) return null;
  const summarised = Array.isArray(body.messages) ? body.messages.length : 0;
  return { block: { type: "compaction", content: `Summary of ${summarised} messages.`, encrypted_content: null }, summarised };
}

/** The copy the answer's own iteration reads after a compaction: its messages replaced by the block. */
export function compactedCopy(body: JsonObject, block: JsonObject): JsonObject {
  return { ...body, messages: [{ role: "assistant", content: [block] }] };
}

const COMPACT_KEYS = new Set(["type", "trigger", "instructions", "pause_after_compaction"]);

/** The first problem of a compact_20260112 edit at `at` (SDK shape; trigger ≥ 50,000), or null. */
export function checkCompactEdit(e: JsonObject, at: string, betas: readonly string[]): string | null {
  if (!betas.includes(COMPACTION_BETA)) return `${at}.type: \`${COMPACT}\` requires the beta \`${COMPACTION_BETA}\``;
  for (const k of Object.keys(e)) if (!COMPACT_KEYS.has(k)) return `${at}.${k}: Extra inputs are not permitted`;
  if (e.trigger !== undefined && e.trigger !== null) {
    const t = e.trigger;
    if (!isObject(t)) return `${at}.trigger: Input should be a valid dictionary or object`;
    if (t.type !== "input_tokens") return `${at}.trigger.type: Input should be 'input_tokens'`;
    if (typeof t.value !== "number" || !Number.isInteger(t.value)) return `${at}.trigger.value: Input should be a valid integer`;
    if (t.value < MIN_COMPACTION_TRIGGER) return `${at}.trigger.value: Input should be greater than or equal to ${MIN_COMPACTION_TRIGGER}`;
  }
  if (e.pause_after_compaction !== undefined && typeof e.pause_after_compaction !== "boolean") return `${at}.pause_after_compaction: Input should be a valid boolean`;
  if (e.instructions !== undefined && e.instructions !== null && typeof e.instructions !== "string") return `${at}.instructions: Input should be a valid string`;
  return null;
}
