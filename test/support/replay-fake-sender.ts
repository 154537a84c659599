/**
 * A fake SendFn for replay tests: bills each call from a usage table the test supplies (keyed by
 * strategy-session key and call index), at fixed test rates, and records every call it saw.
 * Test rates (USD per token): input 3e-6, cache read 0.3e-6, cache write 3.75e-6, output 15e-6
 * (Sonnet-like list prices); the input cost it reports is the input, read and write part.
 */
import type { CallUsage, Provider, SendFn, SendOptions } from "../../tools/replay/types";

export const FAKE_RATES = { input: 3e-6, cache_read: 0.3e-6, cache_write: 3.75e-6, output: 15e-6 };

export interface SeenCall {
  provider: Provider;
  body: string;
  opts: SendOptions;
}

/** A fake sender. `usageFor(key, callIndexInKey)` gives usage; `rejectIf(body)` returns an error message to reject with. */
export function createFakeSender(usageFor: (key: string, n: number) => CallUsage, rejectIf: (body: string) => string | null = () => null): { send: SendFn; seen: SeenCall[] } {
  const seen: SeenCall[] = [];
  const counts = new Map<string, number>();
  const send: SendFn = async (provider, body, opts) => {
    seen.push({ provider, body, opts });
    const n = counts.get(opts.key) ?? 0;
    counts.set(opts.key, n + 1);
    const rejected = rejectIf(body);
    if (rejected !== null) return { status: 400, usage: { input: 0, cache_read: 0, cache_write: 0, output: 0 }, cost_usd: 0, input_cost_usd: 0, latency_ms: 1, rejected };
    const u = usageFor(opts.key, n);
    const input = u.input * FAKE_RATES.input + u.cache_read * FAKE_RATES.cache_read + u.cache_write * FAKE_RATES.cache_write;
    return { status: 200, usage: u, cost_usd: input + u.output * FAKE_RATES.output, input_cost_usd: input, latency_ms: 1 };
  };
  return { send, seen };
}
