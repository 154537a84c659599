/**
 * Responses compaction in the emulator (pure): server-side compaction through
 * `context_management: [{type: "compaction", compact_threshold}]` and Codex's explicit
 * `compaction_trigger` item, both answered with one opaque `compaction` output item, and the
 * `compaction` items clients send back in `input`.
 *
 * Sources: developers.openai.com/api/docs/guides/compaction ("When the rendered token count
 * crosses the configured threshold, the server runs server-side compaction … The response stream
 * includes the encrypted compaction item"; the item is opaque; later inputs carry it);
 * openai/codex#22809 (Codex sends `{"type": "compaction_trigger"}` and the backend returns "exactly
 * one" `compaction` output item); james-6-23/codex2api#546 (the API's error "The 'compaction_trigger'
 * item must be the final input item."); Menci/Floway#93 (the API rejects an `id` on the trigger).
 *
 * Rules (first failing wins, after R1–R4):
 * - R5 `context_management` is a list of `{type: "compaction", compact_threshold?: integer ≥ 1}`
 *   (OpenAI's enum and type wording; not verified for this field);
 * - R6 a `compaction_trigger` is the last input item and carries no `id`;
 * - R7 a `compaction` item whose `encrypted_content` the emulator minted must carry it unchanged
 *   ("The encrypted content for item {id} could not be verified.", by analogy with the API's
 *   error for reasoning items; content minted elsewhere is not checked).
 * The emulator's encrypted content is `emu-cmp.<n>.<hash>` (n: the input items it summarises), so
 * a change is caught without state. Billing: the compaction reads the prompt (through the cache
 * as usual) and writes the summary's tokens as output; with `context_management` the reply's
 * output follows in the same answer. Every input item is billed as sent, items before a
 * `compaction` item included (the guide says they may be dropped, not that they are ignored).
 */
import { hashText } from "../../../src/core/hash";
import { openaiInvalid, type Rejection } from "../shared/errors";
import { isObject, prop, str, type Json, type JsonObject } from "../shared/json";
import { countTokens } from "../shared/count-tokens";

const PREFIX = "emu-cmp.";

/** The emulator's opaque content for a summary of `n` items. */
export function compactionContent(n: number): string {
  return `${PREFIX}${n}.${hashText(`${PREFIX}${n}`)}`;
}

/** Output tokens the emulator bills for writing a summary of `n` items: its wording, `Summary of <n> items.`. */
export const summaryTokens = (n: number): number => countTokens(`Summary of ${n} items.`);

/** The `compaction` output item summarising `n` input items (`seq`: the answer's number). */
export function compactionItem(n: number, seq: number): JsonObject {
  return { type: "compaction", id: `cmp_emu${seq}`, encrypted_content: compactionContent(n) };
}

/** R5–R7 on a Responses body with array `input`; null when they pass. */
export function validateCompaction(body: JsonObject, input: readonly Json[]): Rejection | null {
  const cm = body.context_management;
  if (cm !== undefined && cm !== null) {
    if (!Array.isArray(cm)) return openaiInvalid("Invalid type for 'context_management': expected an array of objects, but got an object instead.", "context_management", "invalid_type");
    for (const [i, e] of cm.entries()) {
      if (!isObject(e)) return openaiInvalid(`Invalid type for 'context_management[${i}]': expected an object.`, `context_management[${i}]`, "invalid_type");
      if (e.type !== "compaction") return openaiInvalid(`Invalid value: '${String(e.type)}'. Supported values are: 'compaction'.`, `context_management[${i}].type`, "invalid_value");
      const t = e.compact_threshold;
      if (t !== undefined && t !== null && (typeof t !== "number" || !Number.isInteger(t) || t < 1)) {
        return openaiInvalid(`Invalid 'context_management[${i}].compact_threshold': expected an integer greater than or equal to 1.`, `context_management[${i}].compact_threshold`, "invalid_value");
      }
    }
  }
  for (const [i, item] of input.entries()) {
    const type = str(item, "type");
    if (type === "compaction_trigger") {
      if (i !== input.length - 1) return openaiInvalid("The 'compaction_trigger' item must be the final input item.", "input");
      if (prop(item, "id") !== undefined) return openaiInvalid(`Unknown parameter: 'input[${i}].id'.`, `input[${i}].id`, "unknown_parameter");
    }
    if (type === "compaction") {
      const content = str(item, "encrypted_content") ?? "";
      const n = Number(content.slice(PREFIX.length).split(".")[0]);
      if (content.startsWith(PREFIX) && (!Number.isInteger(n) || content !== compactionContent(n))) {
        return openaiInvalid(`The encrypted content for item ${str(item, "id") ?? `input[${i}]`} could not be verified.`, "input", "invalid_encrypted_content");
      }
    }
  }
  return null;
}

/** Whether `input` ends with a `compaction_trigger` (the request asks for a summary only). */
export const endsWithTrigger = (input: readonly Json[]): boolean => input.length > 0 && str(input[input.length - 1], "type") === "compaction_trigger";

/** The request's server-side compaction threshold (the smallest `compact_threshold` given), or null. */
export function compactThreshold(body: JsonObject): number | null {
  const cm = body.context_management;
  if (!Array.isArray(cm)) return null;
  const ts = cm.map((e) => prop(e, "compact_threshold")).filter((t): t is number => typeof t === "number");
  return ts.length === 0 ? null : Math.min(...ts);
}
