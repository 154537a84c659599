/**
 * What an API handler receives and returns, and the one constructor of an answered result. Handlers are pure functions of the
 * call plus the key's state record, which they update (cache, learned links).
 */
import type { KeyState } from "../state";
import type { BilledUsage } from "./compute-cost";
import type { Rejection } from "./errors";
import type { Json, JsonObject } from "./json";

export interface Call {
  /** Parsed request body (not yet validated). */
  body: Json;
  /** Virtual or real time, epoch ms. */
  now: number;
  /** Request headers, lower-case names. */
  headers: Readonly<Record<string, string | undefined>>;
  /** Decoded `x-emulator-reply`, when given. */
  reply: Json | undefined;
  key: KeyState;
  /** Sequence number for ids. */
  seq: number;
}

export type HandlerResult =
  | { kind: "rejected"; rejection: Rejection }
  | {
      kind: "answered";
      /** Response body: JSON text or SSE wire text. */
      body: string;
      stream: boolean;
      usage: BilledUsage;
      costNano: number;
      /** Input side of `costNano`: uncached input, cache writes and cache reads, without output. */
      inputCostNano: number;
      /** False when the model was not in the price table (default price used). */
      knownModel: boolean;
    };

/** What a token-counting handler returns: the answer body, or the provider's error. Nothing is billed or cached. */
export type CountResult = { kind: "rejected"; rejection: Rejection } | { kind: "counted"; body: JsonObject };

/**
 * The `answered` result of a handler: bills `usage` with the API's cost function, and its input
 * side (the same usage with no output tokens) for the replay's input-cost figure.
 */
export function answered<P extends { known: boolean }>(body: string, stream: boolean, usage: BilledUsage, cost: (u: BilledUsage, p: P) => number, price: P): HandlerResult {
  return {
    kind: "answered",
    body,
    stream,
    usage,
    costNano: cost(usage, price),
    inputCostNano: cost({ ...usage, output: 0 }, price),
    knownModel: price.known,
  };
}
