/**
 * Which mechanism carries a session's steps to the provider (pure; DESIGN §2 "Two mechanisms,
 * one decision"). The policy, cost model and ledger decide what a step removes; this decides
 * how it reaches the provider:
 *
 * - `splice`: Sluice deletes byte ranges of the forwarded history (every OpenAI request; any
 *   Anthropic model whose API accepts edited history).
 * - `native`: Sluice forwards the history byte for byte and adds one server-side
 *   `clear_tool_uses_20250919` edit; the provider clears on its side, which its
 *   preserved-thinking prefix check accepts ("the check compares what you sent, not the
 *   server's edited copy": platform.claude.com build-with-claude/preserved-thinking). Anthropic
 *   only: OpenAI has no such edit.
 *
 * Setting → mechanism: `splice` → splice; `native` → native on Anthropic, splice on OpenAI;
 * `auto` (and absent) → native exactly on the models listed as running the prefix check
 * (../models/prefix-check-models.ts), where a splice would fail it; splice elsewhere (an
 * unlisted model keeps the conservative splice lock before its last thinking block, and is
 * never sent a beta edit it may not support).
 */
import type { MechanismSetting } from "../../config/defaults";
import { modelListedAsPrefixChecking } from "../models/prefix-check-models";
import type { ConversationView, Provider } from "../view/types";

/** The mechanism in force for one request. */
export type Mechanism = "splice" | "native";

/** The mechanism for `setting` on `provider` / `model` (the request's `model`, null when absent). */
export function resolveMechanism(setting: MechanismSetting | undefined, provider: Provider, model: string | null): Mechanism {
  if (provider !== "anthropic" || setting === "splice") return "splice";
  if (setting === "native") return "native";
  return modelListedAsPrefixChecking(model) ? "native" : "splice";
}

/** What the native renderer needs besides the plan (src/providers/anthropic-messages/native-edit.ts). */
export interface NativeParams {
  /** Tool names the edit's `exclude_tools` lists: the config's `exclude_tools`, which Sluice never touches. */
  exclude_tools: readonly string[];
  /**
   * Present only on the request where the auto tier at level `rewrite` takes its summarising step
   * natively (./native-compaction.ts): the renderer then sends one `compact_20260112` edit with
   * `trigger` {type "input_tokens", value trigger_tokens} instead of the clear_tool_uses edit.
   */
  compact?: { trigger_tokens: number };
}

/** NativeParams when `view` goes by the native mechanism under `config`, else null. */
export function nativeParamsFor(config: { mechanism?: MechanismSetting; exclude_tools: readonly string[] }, view: Pick<ConversationView, "provider" | "model">): NativeParams | null {
  return resolveMechanism(config.mechanism, view.provider, view.model) === "native" ? { exclude_tools: config.exclude_tools } : null;
}
