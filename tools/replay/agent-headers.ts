/**
 * The HTTP headers an agent sends with a request (pure), per provider: JSON content type, the
 * Anthropic version header, and the credential — `x-api-key` (Anthropic) or a bearer token
 * (OpenAI). The replay's credential is a per strategy-session key so the emulator keeps one
 * prompt cache per (run, strategy, session) and strategies never share cache entries.
 * `x-sluice-session` names the session for the gateway (DESIGN §6: explicit header first).
 */
import { ANTHROPIC_VERSION } from "./defaults";
import type { Provider } from "./types";

/** Headers for one call. `key` isolates caches; `session` is the gateway session id. */
export function agentHeaders(provider: Provider, key: string, session: string): Record<string, string> {
  switch (provider) {
    case "anthropic":
      return { "content-type": "application/json", "anthropic-version": ANTHROPIC_VERSION, "x-api-key": key, "x-sluice-session": session };
    case "openai-chat":
    case "openai-responses":
      return { "content-type": "application/json", authorization: `Bearer ${key}`, "x-sluice-session": session };
    default: {
      const never: never = provider;
      throw new Error(`unknown provider ${String(never)}`);
    }
  }
}

/** The per strategy-session credential: `replay-<run>-<strategy>-<session>`. */
export function strategySessionKey(runId: string, strategy: string, sessionId: string): string {
  return `replay-${runId}-${strategy}-${sessionId}`;
}
