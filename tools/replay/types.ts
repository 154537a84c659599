/**
 * Shared shapes of the replay tool (types only, no logic): the neutral recorded session the
 * readers produce, the sender the driver calls, the strategies it applies, and the per-call
 * records the report is computed from.
 */
import type { Provider } from "../../src/core/view/types";
import type { CallShape } from "./step-shape";
import type { DeclinedCut } from "../../src/core/policy/types";

export type { Provider };

/** Any JSON value. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
/** A JSON object (request bodies, messages, items). */
export type JsonObject = { [key: string]: Json };

/** One model call of a recorded session. */
export interface RecordedCall {
  /** 0-based position of the call in the session. */
  index: number;
  /** The exact request body the agent sent (history up to this call), as a JSON object. */
  body: JsonObject;
  /** When the request was sent, epoch ms (the last input message's timestamp), or null if not recorded. */
  timestamp_ms: number | null;
  /**
   * The recorded answer: Anthropic and OpenAI Chat — the assistant message object
   * ({role:"assistant", ...}); OpenAI Responses — the array of output items of that call.
   */
  reply: Json;
}

/** Which reader produced a session. */
export type SessionFormat = "corpus" | "claude-code-jsonl" | "codex-rollout";

/** A recorded agent session in one neutral shape, whatever file it came from. */
export interface RecordedSession {
  id: string;
  provider: Provider;
  /** Stable model id sent in every request (unknown → the provider default in defaults.ts). */
  model: string;
  /** System prompt / instructions as recorded (null when the source has none). */
  system: Json | null;
  /** Tool definitions sent with every call (synthesised from the tool names used). */
  tools: JsonObject[];
  calls: RecordedCall[];
  source: { format: SessionFormat; name: string };
  /**
   * The project the session worked on, when the source says (the corpus file's `source.repo`, a
   * transcript's working directory): sessions of one project share its vocabulary
   * (./common-vocabulary.ts). Absent: the session is its own project.
   */
  project?: string;
  /** Human-readable notes on what the reader skipped, defaulted or repaired. */
  notes: string[];
}

/** Token usage of one call, neutral: `input` is the uncached, unwritten part. */
export interface CallUsage {
  input: number;
  cache_read: number;
  cache_write: number;
  output: number;
}

/** Options of one send: virtual time, the reply to return, and the cache-isolating key. */
export interface SendOptions {
  /** Virtual clock, epoch ms (header x-emulator-time). */
  time_ms: number;
  /** Recorded reply (header x-emulator-reply, base64 of its JSON). */
  reply: Json;
  /** Per strategy-session credential so emulator caches do not collide (x-api-key / bearer). */
  key: string;
  /** Request headers the strategy sets on this call (e.g. Sluice's native beta in `anthropic-beta`). Absent: the agent's headers. */
  headers?: Record<string, string>;
}

/** What one send cost. */
export interface SendResult {
  /** HTTP status. */
  status: number;
  usage: CallUsage;
  /** Billed cost of the call in USD (header x-emulator-cost-usd; input and output). */
  cost_usd: number;
  /** Input side of the billed cost in USD: uncached input, cache writes and reads (header x-emulator-input-cost-usd). */
  input_cost_usd: number;
  /** Wall-clock round trip, ms. */
  latency_ms: number;
  /** Error message when the emulator rejected the request (status >= 400). */
  rejected?: string;
  /** The body the upstream received, when the sender went through a gateway and could read it back (null: unknown). */
  forwarded?: string | null;
  /** The gateway's `x-sluice-compaction` response header, when it sent one. */
  note?: string;
}

/** Sends one request body (JSON text) for a provider. Injected: HTTP against the emulator, or a fake. */
export type SendFn = (provider: Provider, body: string, opts: SendOptions) => Promise<SendResult>;

/** Where a strategy is in the replay when it transforms a body. */
export interface StrategyContext {
  provider: Provider;
  session_id: string;
  /** 0-based call index. */
  call_index: number;
  /** Virtual time of the call, epoch ms. */
  time_ms: number;
}

/** A pure strategy: body + context + state → body to send + next state. Never mutates its inputs. */
export interface PureStrategy<S> {
  kind: "pure";
  name: string;
  /** Where the rule and its numbers come from. */
  source: string;
  initial(): S;
  apply(body: JsonObject, ctx: StrategyContext, state: S): { body: JsonObject; state: S };
}

/** The summaries one call's step had written (level rewrite: src/gateway's summariser), and what they cost. */
export interface SummaryFigures {
  written: number;
  failed: number;
  /** USD the written ones cost (0 for the extractive summariser). */
  cost_usd: number;
}

/** What the Sluice slot reports beside the new body. */
export interface SluiceInfo {
  /** Engine cost of the step in USD, the summaries' included (added to the "with" cost). */
  engine_cost_usd?: number;
  /** Level rewrite: the summaries this call wrote; absent when it needed none. */
  summaries?: SummaryFigures;
  /** Free-form note (tier, reason), shown nowhere but the JSON. */
  note?: string;
  /** The pairs this call's step newly edited and the rule or tier that decided each (src/session/step-types.ts StepOutput.new_pair_rules). */
  removal_rules?: readonly { pair_id: string; rule: string }[];
  /** The best cut the step priced and did not take (src/session/contract.ts StepOutput.declined). */
  declined?: DeclinedCut;
}

/** The call the Sluice slot is asked to transform. */
export interface SluiceCall {
  provider: Provider;
  session_id: string;
  call_index: number;
  time_ms: number;
}

/** What the savings ledger recorded for one call (src/observers/savings-ledger.ts): input USD without and with Sluice, and the removals it counted. */
export interface LedgerFigures {
  without_usd: number;
  with_usd: number;
  /** Pairs this call's step removed, and of the session's removals those this call named again (file path) or that came from deterministic tools. */
  removals: number;
  removals_mentioned: number;
  removals_deterministic: number;
}

/**
 * The Sluice slot: original body bytes + agent headers → body bytes to send. `settle`, when
 * given, takes the usage the upstream billed for the sent body (as the gateway's report does)
 * and answers what the session's savings ledger priced for the call.
 */
export type SluiceTransform = (
  body: Uint8Array,
  headers: Record<string, string>,
  call: SluiceCall,
) => Promise<{
  body: Uint8Array;
  info: SluiceInfo;
  headers?: Record<string, string>;
  /** Called once the upstream answered, with its usage (null for a rejected call, status ≥ 400): the Worker's after-the-answer report. Returns what the session's savings ledger priced for the call. */
  settle?: (usage: CallUsage | null) => Promise<LedgerFigures>;
}>;

/** A byte-level strategy backed by the Sluice slot. */
export interface SluiceStrategy {
  kind: "sluice";
  name: string;
  source: string;
  transform: SluiceTransform;
}

/**
 * Sluice end to end: the driver sends the ORIGINAL body through `send` (a sender whose base URL
 * is the gateway, which forwards to the emulator); the sender reports what the upstream received
 * (`SendResult.forwarded`). Added latency is measured against the direct `none` run.
 */
export interface GatewayStrategy {
  kind: "gateway";
  name: string;
  source: string;
  send: SendFn;
}

export type Strategy = PureStrategy<unknown> | SluiceStrategy | GatewayStrategy;

/** What the driver recorded for one call under one strategy. */
export interface CallRecord {
  index: number;
  time_ms: number;
  status: number;
  usage: CallUsage;
  cost_usd: number;
  /** Input side of `cost_usd` as billed by the emulator, USD. */
  input_cost_usd: number;
  latency_ms: number;
  /** Time spent in the strategy (added latency), ms. */
  transform_ms: number;
  engine_cost_usd: number;
  rejected: string | null;
  /** Tool call ids whose result is absent or altered in the sent body vs the original. */
  removed_ids: string[];
  /** The strategy's note for this call (Sluice: the `x-sluice-compaction` value), when it gives one. */
  note?: string;
  /** Tokens of the original and sent request and where this call's new removals start (./step-shape.ts), for the hindsight step timing. Absent: not measured. */
  shape?: CallShape;
  /** Sluice in-process: what its savings ledger priced for this call, given the emulator's usage. */
  ledger?: LedgerFigures;
  /** Sluice in-process, level rewrite: the summaries this call wrote. */
  summaries?: SummaryFigures;
  /** The pairs this call removed that no earlier call had (absent: none). */
  new_removals?: NewRemoval[];
  /** Sluice: the best cut its step priced at this call and did not take (absent: none, or another strategy). */
  declined?: DeclinedCut;
  /** The project-specific tokens this call's recorded answer used that the original request held and the sent one did not (./used-after-removal.ts); absent: none. */
  used_after_removal?: { token: string; pairs: string[] }[];
  /** On a call used after removal: of the removed pairs its used tokens were charged to, those whose forwarded result carries the marker naming them, so a restore could bring them back (./restore-answers.ts); [] when none. */
  uar_restorable?: string[];
}

/** One pair a call removed first. */
export interface NewRemoval {
  /** Result key (./tool-pairs.ts ToolResultRef.key). */
  key: string;
  /** What decided the removal: Sluice's rule or tier (src/core/policy/types.ts RemovalRule); null when the strategy does not say. */
  rule: string | null;
  /** Estimated tokens (src/core/tokens/estimate.ts) the removal took out of the request: the result's shrinkage, plus the call's input when the call went too. */
  tokens: number;
}

/** One session replayed under one strategy. */
export interface SessionRun {
  session_id: string;
  provider: Provider;
  model: string;
  strategy: string;
  /** How the calls went: straight to the emulator, or through the gateway over HTTP. */
  route: "direct" | "gateway";
  calls: CallRecord[];
  /** Distinct tool pairs whose result was removed/altered in at least one call. */
  pairs_removed: number;
  /** Removed pairs whose same tool call (name + input) the recorded session issues again later. */
  refetches: number;
  /** Removed pairs whose file path or shell command the agent's prose names again later (./find-removed.ts). */
  rementions: number;
  /** Estimated tokens (src/core/tokens/estimate.ts) of the removed results' text, each pair once, as it stood when first removed. */
  removed_result_tokens: number;
}
