/**
 * Provider → adapter (the single registry, STYLE "Portkey's uniform per-provider folders and
 * single registry"). Pure data.
 */
import type { Provider } from "../core/view/types";
import type { ProviderAdapter } from "./types";
import { anthropicAdapter } from "./anthropic-messages";
import { openaiChatAdapter } from "./openai-chat";
import { openaiResponsesAdapter } from "./openai-responses";

const ADAPTERS: Partial<Record<Provider, ProviderAdapter>> = {
  anthropic: anthropicAdapter,
  "openai-chat": openaiChatAdapter,
  "openai-responses": openaiResponsesAdapter,
};

/** The adapter for `provider`, or undefined when none is registered (the gateway then proxies as is). */
export function adapterFor(provider: Provider): ProviderAdapter | undefined {
  return ADAPTERS[provider];
}
