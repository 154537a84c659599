/**
 * The summariser client (shell: fetch, timers): sends a closed stretch of turns to the
 * configured backend and returns a typed outcome. It never throws: a failure, a timeout, an
 * empty summary or one longer than `max_summary_chars` all mean "no summary", and the caller
 * falls back to removal only.
 *
 * Backends (config `summarizer.kind`):
 * - `engine`: the engine protocol's `summarize` request (summarize-protocol.ts), e.g. the
 *   reference engine's POST /summarize; cost = the answer's `cost_usd` (0 when absent).
 * - `openai_chat`: an OpenAI-compatible chat completion (openai-chat-summary.ts); cost =
 *   usage tokens × the configured price, else the price table row of `model`, else unpriced (0).
 *
 * Rules shared with the decision engine (DESIGN §5): the credential is read by NAME
 * (`api_key_env`) at each call; redirects are not followed; `timeout_ms` bounds the whole
 * exchange (post-json.ts); an endpoint that is not loopback/private is refused unless
 * `consent_export_prompt` is true (checked here as well as in the config schema), and its host
 * is logged once per isolate before its first call.
 */
import type { SummarizerConfig } from "../config/schema";
import { summarizerConsentProblem, summarizerLocality } from "../config/summarizer-destination";
import { summarizerPrice, tokenCostUsd, type PriceSource } from "../core/cost/summary-cost";
import type { SummaryTurn } from "../core/summary/types";
import { chatSummaryRequest, readChatSummary } from "./openai-chat-summary";
import { parseAnswer } from "./parse-answer";
import { postJson, type EngineFailureReason } from "./post-json";
import { PROTOCOL_VERSION } from "./protocol";
import { summarizeAnswerSchema, type SummarizeRequest } from "./summarize-protocol";

/** Why there is no summary: an exchange failure, or `empty`, `too_long`, `no_turns`, `refused` (remote without consent). */
export type SummaryFailureReason = EngineFailureReason | "empty" | "too_long" | "no_turns" | "refused";

export type SummaryOutcome =
  | {
      ok: true;
      summary: string;
      /** Tokens the backend read and wrote (as it reported them). */
      input_tokens: number;
      output_tokens: number;
      /** USD; the step's request cost (term ③). */
      cost_usd: number;
      /** `engine`: the engine's own `cost_usd`; otherwise where the price came from. */
      cost_source: PriceSource | "engine";
      latency_ms: number;
    }
  | { ok: false; reason: SummaryFailureReason; /** Short, text-free detail. */ detail: string; status?: number; latency_ms: number };

/** Host-provided effects. */
export interface SummarizerDeps {
  /** Env to read the credential from, by the name in `api_key_env`. */
  env: Readonly<Record<string, unknown>>;
  fetch?: typeof fetch;
  /** One-line log sink (default console.log). */
  log?: (line: string) => void;
  /** Monotonic ms clock (default performance.now). */
  now?: () => number;
  /** Destinations already announced (default: one set per isolate). */
  announced?: Set<string>;
}

/** A configured summariser. */
export interface Summarizer {
  kind: SummarizerConfig["kind"];
  /** Destination host (`URL.host`). */
  host: string;
  /** Summarises `turns` (oldest first). Never throws. */
  summarize(turns: readonly SummaryTurn[], signal?: AbortSignal): Promise<SummaryOutcome>;
}

const ISOLATE_ANNOUNCED = new Set<string>();

/** Builds the summariser of `config` (already validated by the config schema). Cheap. */
export function createSummarizer(config: SummarizerConfig, consentExportPrompt: boolean, deps: SummarizerDeps): Summarizer {
  const host = new URL(config.endpoint).host;
  const log = deps.log ?? ((line: string) => console.log(line));
  const now = deps.now ?? (() => performance.now());
  const announced = deps.announced ?? ISOLATE_ANNOUNCED;

  async function summarize(turns: readonly SummaryTurn[], signal?: AbortSignal): Promise<SummaryOutcome> {
    const started = now();
    const fail = (reason: SummaryFailureReason, detail: string, status?: number): SummaryOutcome =>
      ({ ok: false, reason, detail, ...(status === undefined ? {} : { status }), latency_ms: now() - started });
    if (turns.length === 0) return fail("no_turns", "no turns to summarise");
    const refused = summarizerConsentProblem(config.endpoint, consentExportPrompt);
    if (refused) return fail("refused", refused);
    if (!announced.has(`summarizer ${host}`)) {
      announced.add(`summarizer ${host}`);
      if (!summarizerLocality(config.endpoint).local) log(`sluice: remote summariser in use; destination host ${host} receives whole turns`);
    }
    const { body, read } = backendOf(config, turns);
    const answer = await postJson({
      url: config.endpoint, body, api_key_env: config.api_key_env, env: deps.env, timeout_ms: config.timeout_ms,
      ...(signal ? { signal } : {}), ...(deps.fetch ? { fetch: deps.fetch } : {}),
    });
    if (!answer.ok) return fail(answer.reason, answer.detail, answer.status);
    const got = read(answer.text);
    if (!got.ok) return fail("malformed", got.detail, answer.status);
    if (got.summary.trim() === "") return fail("empty", "the summary is empty", answer.status);
    if (got.summary.length > config.max_summary_chars) return fail("too_long", `summary over ${config.max_summary_chars} characters`, answer.status);
    return { ...got, latency_ms: now() - started };
  }

  return { kind: config.kind, host, summarize };
}

/** A read answer, priced. */
type PricedRead =
  | { ok: true; summary: string; input_tokens: number; output_tokens: number; cost_usd: number; cost_source: PriceSource | "engine" }
  | { ok: false; detail: string };

/** The request body of `config.kind` and the reader of its answer. */
function backendOf(config: SummarizerConfig, turns: readonly SummaryTurn[]): { body: unknown; read: (text: string) => PricedRead } {
  switch (config.kind) {
    case "engine":
      return { body: engineRequest(config, turns), read: readEngineSummary };
    case "openai_chat":
      return {
        body: chatSummaryRequest(config.model ?? "", turns, config.max_output_tokens),
        read: (text) => {
          const got = readChatSummary(text);
          if (!got.ok) return got;
          const { price, source } = summarizerPrice(config.model, config);
          return { ...got, cost_usd: tokenCostUsd(got.input_tokens, got.output_tokens, price), cost_source: source };
        },
      };
    default: {
      const never: never = config.kind;
      return never;
    }
  }
}

function engineRequest(config: SummarizerConfig, turns: readonly SummaryTurn[]): SummarizeRequest {
  return { protocol: PROTOCOL_VERSION, request: "summarize", model: config.model, max_summary_chars: config.max_summary_chars, turns: [...turns] };
}

/** An engine's answer; its cost is the engine's own `cost_usd` (0 when absent). */
function readEngineSummary(text: string): PricedRead {
  const parsed = parseAnswer(text, summarizeAnswerSchema, "the protocol");
  if (!parsed.ok) return parsed;
  const { summary, input_tokens, output_tokens, cost_usd } = parsed.data;
  return { ok: true, summary, input_tokens, output_tokens, cost_usd: cost_usd ?? 0, cost_source: "engine" };
}
