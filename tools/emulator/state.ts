/**
 * Emulator state (in memory, per process): one record per API key (plus organisation), so that
 * parallel test runs using different keys never share a cache or totals. `POST /__emulator/reset`
 * replaces it with a fresh one.
 */
import type { ThinkingBinding } from "./anthropic/thinking-binding";
import type { CacheStore } from "./shared/breakpoint-cache";

/** Running totals of one key, as served by `GET /__emulator/stats`. */
export interface KeyTotals {
  requests: number;
  /** Requests answered with a 4xx validation error. */
  rejected: number;
  /** Input tokens billed at the base price (uncached, not written). */
  input_tokens: number;
  cache_read_tokens: number;
  cache_write_tokens: number;
  output_tokens: number;
  /** Total cost in nano-dollars (1e-9 USD). */
  cost_nano: number;
}

export interface KeyState {
  /** Prompt cache entries (prefix hashes include the model). */
  cache: CacheStore;
  /** Anthropic: thinking signature / redacted data → canonical content of the assistant message issued with it. */
  issuedThinking: Map<string, string>;
  /** Anthropic: recorded thinking signature / redacted data the emulator answered with → what it is bound to (preserved thinking). */
  thinkingBindings: Map<string, ThinkingBinding>;
  /** Responses: output item id → reasoning item id it came with. */
  requiredReasoning: Map<string, string>;
  /** Responses: reasoning item id → id of the item that followed it. */
  reasoningFollower: Map<string, string>;
  totals: KeyTotals;
  /** Body of the last request answered for this key, kept only when it asked (`x-emulator-keep-body: 1`). */
  lastBody: string | null;
}

export interface EmulatorState {
  keys: Map<string, KeyState>;
  /** Counter for response ids. */
  seq: number;
}

export function createState(): EmulatorState {
  return { keys: new Map(), seq: 0 };
}

/** The record of `key`, created on first use. */
export function keyState(state: EmulatorState, key: string): KeyState {
  let k = state.keys.get(key);
  if (!k) {
    k = {
      cache: new Map(),
      issuedThinking: new Map(),
      thinkingBindings: new Map(),
      requiredReasoning: new Map(),
      reasoningFollower: new Map(),
      lastBody: null,
      totals: { requests: 0, rejected: 0, input_tokens: 0, cache_read_tokens: 0, cache_write_tokens: 0, output_tokens: 0, cost_nano: 0 },
    };
    state.keys.set(key, k);
  }
  return k;
}
