/**
 * Validates a Messages request's `context_management` the way the API does (pure): the beta
 * `context-management-2025-06-27` (or, for compaction, `compact-2026-01-12`) is required, `edits`
 * holds `clear_tool_uses_20250919`, `clear_thinking_20251015` (first when combined) and
 * `compact_20260112` edits (which need `compact-2026-01-12`: ./apply-compaction.ts), and each
 * parameter has the SDK's shape (`@anthropic-ai/sdk` BetaClearToolUses20250919Edit,
 * BetaClearThinking20251015Edit, BetaCompact20260112Edit). Errors name the field, pydantic-style like the API's other
 * validation messages; the exact wording of these messages is not published (not verified).
 */
import { anthropicInvalid, type Rejection } from "../shared/errors";
import { isObject, type Json, type JsonObject } from "../shared/json";
import { checkCompactEdit, COMPACT, COMPACTION_BETA } from "./apply-compaction";

/** Beta that turns on server-side context editing (platform.claude.com/docs/en/build-with-claude/context-editing). */
export const CONTEXT_MANAGEMENT_BETA = "context-management-2025-06-27";
export const CLEAR_TOOL_USES = "clear_tool_uses_20250919";
export const CLEAR_THINKING = "clear_thinking_20251015";

const TOOL_USES_KEYS = new Set(["type", "trigger", "keep", "clear_at_least", "exclude_tools", "clear_tool_inputs"]);
const THINKING_KEYS = new Set(["type", "keep"]);

/** `{type, value}` with the given type(s) and an integer value ≥ `min`; the error names `field`. */
function counter(v: Json | undefined, field: string, types: readonly string[], min: number): string | null {
  if (!isObject(v)) return `${field}: Input should be a valid dictionary or object`;
  if (typeof v.type !== "string" || !types.includes(v.type)) return `${field}.type: Input should be ${types.map((t) => `'${t}'`).join(" or ")}`;
  if (typeof v.value !== "number" || !Number.isInteger(v.value)) return `${field}.value: Input should be a valid integer`;
  if (v.value < min) return `${field}.value: Input should be greater than or equal to ${min}`;
  return null;
}

const isStringList = (v: Json | undefined) => Array.isArray(v) && v.every((x) => typeof x === "string");

function checkToolUsesEdit(e: JsonObject, at: string): string | null {
  for (const k of Object.keys(e)) if (!TOOL_USES_KEYS.has(k)) return `${at}.${k}: Extra inputs are not permitted`;
  if (e.trigger !== undefined) {
    const err = counter(e.trigger, `${at}.trigger`, ["input_tokens", "tool_uses"], 1);
    if (err) return err;
  }
  if (e.keep !== undefined) {
    const err = counter(e.keep, `${at}.keep`, ["tool_uses"], 0);
    if (err) return err;
  }
  if (e.clear_at_least !== undefined && e.clear_at_least !== null) {
    const err = counter(e.clear_at_least, `${at}.clear_at_least`, ["input_tokens"], 0);
    if (err) return err;
  }
  if (e.exclude_tools !== undefined && e.exclude_tools !== null && !isStringList(e.exclude_tools)) return `${at}.exclude_tools: Input should be a valid list of strings`;
  const cti = e.clear_tool_inputs;
  if (cti !== undefined && cti !== null && typeof cti !== "boolean" && !isStringList(cti)) return `${at}.clear_tool_inputs: Input should be a valid boolean or a list of strings`;
  return null;
}

function checkThinkingEdit(e: JsonObject, at: string): string | null {
  for (const k of Object.keys(e)) if (!THINKING_KEYS.has(k)) return `${at}.${k}: Extra inputs are not permitted`;
  const keep = e.keep;
  if (keep === undefined || keep === "all" || (isObject(keep) && keep.type === "all" && Object.keys(keep).length === 1)) return null;
  return counter(keep, `${at}.keep`, ["thinking_turns"], 1);
}

/** The first problem of `body.context_management` under the request's `anthropic-beta` values, or null. */
export function validateContextManagement(body: JsonObject, betas: readonly string[]): Rejection | null {
  const cm = body.context_management;
  if (cm === undefined || cm === null) return null;
  if (!betas.includes(CONTEXT_MANAGEMENT_BETA) && !betas.includes(COMPACTION_BETA)) return anthropicInvalid("context_management: Extra inputs are not permitted");
  if (!isObject(cm)) return anthropicInvalid("context_management: Input should be a valid dictionary or object");
  for (const k of Object.keys(cm)) if (k !== "edits") return anthropicInvalid(`context_management.${k}: Extra inputs are not permitted`);
  if (cm.edits === undefined) return null;
  if (!Array.isArray(cm.edits)) return anthropicInvalid("context_management.edits: Input should be a valid list");
  for (let i = 0; i < cm.edits.length; i++) {
    const e = cm.edits[i];
    const at = `context_management.edits.${i}`;
    if (!isObject(e)) return anthropicInvalid(`${at}: Input should be a valid dictionary or object`);
    let err: string | null;
    switch (e.type) {
      case CLEAR_TOOL_USES:
        err = checkToolUsesEdit(e, at);
        break;
      case CLEAR_THINKING:
        err = i === 0 ? checkThinkingEdit(e, at) : `${at}.type: \`${CLEAR_THINKING}\` must be the first edit in \`context_management.edits\``;
        break;
      case COMPACT:
        err = checkCompactEdit(e, at, betas);
        break;
      default:
        err = `${at}.type: Input tag '${String(e.type)}' found using 'type' does not match any of the expected tags: '${CLEAR_TOOL_USES}', '${CLEAR_THINKING}', '${COMPACT}'`;
    }
    if (err) return anthropicInvalid(err);
  }
  return null;
}
