/**
 * Every check the emulator runs on a Messages request, as one pure function usable on its own
 * (the real-client e2e upstream imports it): request body + headers → accepted (with the thinking
 * blocks to drop) or the provider's exact error. Order: the structural rules A1–A16
 * (./validate-request.ts), `context_management` (./validate-context-management.ts), on-demand
 * compaction (A22, ./on-demand-compaction.ts), then
 * preserved thinking's prefix check (./thinking-binding.ts) on the models that run it.
 */
import { modelChecksThinkingPrefix } from "../../../src/providers/anthropic-messages/wire";
import { matchPriceRow } from "../../../src/core/cost/find-model-price";
import type { Rejection } from "../shared/errors";
import { isObject, str } from "../shared/json";
import { checkThinkingBinding, type BindingLookup, type ThinkingDropped } from "./thinking-binding";
import { validateContextManagement } from "./validate-context-management";
import { validateOnDemandCompaction } from "./on-demand-compaction";
import { validateAnthropicRequest } from "./validate-request";

/** What the emulator remembers per API key that validation reads (both optional for a stateless caller). */
export interface MessagesValidationState {
  /** Thinking signature / redacted data → canonical content of the assistant message issued with it (rule A14). */
  issuedThinking?: ReadonlyMap<string, string>;
  /** Bindings of recorded signatures the emulator answered with (minted ones carry their own). */
  bindings?: BindingLookup;
}

/** Result: the provider's error, or acceptance with the thinking blocks the API drops (request order). */
export type MessagesValidation = { ok: false; rejection: Rejection } | { ok: true; dropped: ThinkingDropped[]; prefixChecked: boolean };

/** `anthropic-beta` header values, split on commas and trimmed. */
export function anthropicBetas(headers: Readonly<Record<string, string | undefined>>): string[] {
  return (headers["anthropic-beta"] ?? "").split(",").map((b) => b.trim()).filter((b) => b !== "");
}

/**
 * Whether the emulator runs the preserved-thinking prefix check for `model`: a Claude model of the
 * price table that Sluice's prefix-check list (src/providers/anthropic-messages/wire.ts) names.
 */
export function modelRunsPrefixCheck(model: string): boolean {
  return matchPriceRow(model)?.provider_family === "anthropic" && modelChecksThinkingPrefix(model);
}

/**
 * Validates a Messages request as the API does. `headers` use lower-case names (only
 * `anthropic-beta` is read).
 */
export function validateMessagesRequest(body: unknown, headers: Readonly<Record<string, string | undefined>>, state: MessagesValidationState = {}): MessagesValidation {
  const betas = anthropicBetas(headers);
  const structural = validateAnthropicRequest(body, { issuedThinking: state.issuedThinking ?? new Map(), betas });
  if (structural) return { ok: false, rejection: structural };
  if (!isObject(body)) return { ok: true, dropped: [], prefixChecked: false };
  const cm = validateContextManagement(body, betas);
  if (cm) return { ok: false, rejection: cm };
  const onDemand = validateOnDemandCompaction(body, betas);
  if (onDemand) return { ok: false, rejection: onDemand };
  if (!modelRunsPrefixCheck(str(body, "model") ?? "")) return { ok: true, dropped: [], prefixChecked: false };
  const binding = checkThinkingBinding(body, betas, state.bindings);
  return binding.ok ? { ok: true, dropped: binding.dropped, prefixChecked: true } : binding;
}
