/**
 * Anthropic on-demand compaction (pure; platform.claude.com build-with-claude/compaction-on-demand,
 * beta `compact-2026-09-04`): a request with the top-level `compaction: {type: "summarize"}` gets a
 * summary instead of a reply — one signed `compaction` block, `stop_reason: "compaction"` — and
 * the client sends that block back first in `messages`, in place of the messages it summarises,
 * exactly as returned, with the beta on every later request that carries it.
 *
 * Checked (wording pydantic-style like the API's other validation messages; not verified):
 * - `compaction` needs the beta (`compaction: Extra inputs are not permitted`), is an object
 *   `{type: "summarize", instructions?: string}`, and cannot be combined with `context_management`
 *   (the compaction overview: on-demand and threshold compaction are alternatives);
 * - a signed `compaction` block in `messages` needs the beta, and one the emulator signed must
 *   carry the content it was signed with (the API "rejects a block with fields it did not return";
 *   a signature the emulator did not mint is not checked, as with thinking signatures).
 * The summary is the emulator's own wording, `Summary of <n> messages.`; the signature is
 * `emu-cmp-<hash of the content>`, so a modified block is caught without state.
 */
import { hashText } from "../../../src/core/hash";
import { anthropicInvalid, type Rejection } from "../shared/errors";
import { isObject, prop, str, type Json, type JsonObject } from "../shared/json";
import { asBlocks } from "./segment-prompt";

/** The beta of on-demand compaction. */
export const ON_DEMAND_BETA = "compact-2026-09-04";
const SIGNATURE_PREFIX = "emu-cmp-";
const KEYS = new Set(["type", "instructions"]);

/** The signature the emulator gives a summary with this content. */
export function compactionSignature(content: string): string {
  return `${SIGNATURE_PREFIX}${hashText(content)}`;
}

/** Whether the request asks for an on-demand summary (`compaction` present and not null). */
export function asksForSummary(body: JsonObject): boolean {
  return body.compaction !== undefined && body.compaction !== null;
}

/** The first problem of the request's on-demand compaction (the field, and signed blocks in `messages`), or null. */
export function validateOnDemandCompaction(body: JsonObject, betas: readonly string[]): Rejection | null {
  const beta = betas.includes(ON_DEMAND_BETA);
  if (asksForSummary(body)) {
    const c = body.compaction;
    if (!beta) return anthropicInvalid("compaction: Extra inputs are not permitted");
    if (!isObject(c)) return anthropicInvalid("compaction: Input should be a valid dictionary or object");
    if (c.type !== "summarize") return anthropicInvalid("compaction.type: Input should be 'summarize'");
    for (const k of Object.keys(c)) if (!KEYS.has(k)) return anthropicInvalid(`compaction.${k}: Extra inputs are not permitted`);
    if (c.instructions !== undefined && c.instructions !== null && typeof c.instructions !== "string") return anthropicInvalid("compaction.instructions: Input should be a valid string");
    if (body.context_management !== undefined && body.context_management !== null) return anthropicInvalid("compaction: cannot be combined with `context_management`");
  }
  const messages = Array.isArray(body.messages) ? body.messages : [];
  for (const [i, m] of messages.entries()) {
    for (const [j, b] of asBlocks(prop(m, "content")).entries()) {
      if (str(b, "type") !== "compaction") continue;
      const signature = str(b, "signature");
      if (signature === undefined) continue;
      if (!beta) return anthropicInvalid(`messages.${i}.content.${j}: a signed \`compaction\` block requires the beta \`${ON_DEMAND_BETA}\``);
      if (signature.startsWith(SIGNATURE_PREFIX) && signature !== compactionSignature(str(b, "content") ?? "")) {
        return anthropicInvalid(`messages.${i}.content.${j}: Invalid \`signature\` in \`compaction\` block`);
      }
    }
  }
  return null;
}

/** The summary block an on-demand request gets for the messages it sent (read from their last compaction block on). */
export function summaryBlock(copy: JsonObject): JsonObject {
  const n = Array.isArray(copy.messages) ? copy.messages.length : 0;
  const content = `Summary of ${n} messages.`;
  return { type: "compaction", content, signature: compactionSignature(content) };
}

