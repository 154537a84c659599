/**
 * The Anthropic Messages adapter (pure): `POST /v1/messages` bodies. See read-view.ts (parse →
 * neutral view), edit-rules.ts (plan → deletions), check-rules.ts (provider rules), wire.ts (SDK
 * types and classification).
 */
import type { ProviderAdapter } from "../types";
import { checkAnthropicRules } from "./check-rules";
import { compileAnthropic } from "./edit-rules";
import { readAnthropic } from "./read-view";

export const anthropicAdapter: ProviderAdapter = {
  provider: "anthropic",
  historyKey: "messages",
  read: readAnthropic,
  compile: compileAnthropic,
  checkRules: checkAnthropicRules,
};
