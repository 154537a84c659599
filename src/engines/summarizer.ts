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
    const body = config.kind === "engine" ? engineRequest(config, turns) : chatSummaryRequest(config.model ?? "", turns, config.max_output_tokens);
    const answer = await postJson({
      url: config.endpoint, body, api_key_env: config.api_key_env, env: deps.env, timeout_ms: config.timeout_ms,
      ...(signal ? { signal } : {}), ...(deps.fetch ? { fetch: deps.fetch } : {}),
    });
    if (!answer.ok) return fail(answer.reason, answer.detail, answer.status);
    const read = config.kind === "engine" ? readEngineSummary(answer.text) : withoutCost(readChatSummary(answer.text));
    if (!read.ok) return fail("malformed", read.detail, answer.status);
    if (read.summary.trim() === "") return fail("empty", "the summary is empty", answer.status);
    if (read.summary.length > config.max_summary_chars) return fail("too_long", `summary over ${config.max_summary_chars} characters`, answer.status);
    const { cost_usd, cost_source } = read.cost_usd !== null
      ? { cost_usd: read.cost_usd, cost_source: "engine" as const }
      : priced(config, read.input_tokens, read.output_tokens);
    return { ok: true, summary: read.summary, input_tokens: read.input_tokens, output_tokens: read.output_tokens, cost_usd, cost_source, latency_ms: now() - started };
  }

  return { kind: config.kind, host, summarize };
}

function engineRequest(config: SummarizerConfig, turns: readonly SummaryTurn[]): SummarizeRequest {
  return { protocol: PROTOCOL_VERSION, request: "summarize", model: config.model, max_summary_chars: config.max_summary_chars, turns: [...turns] };
}

/** `cost_usd`: the engine's own figure (0 when absent); null for a backend priced from its tokens. */
function readEngineSummary(text: string): { ok: true; summary: string; input_tokens: number; output_tokens: number; cost_usd: number | null } | { ok: false; detail: string } {
  const parsed = parseAnswer(text, summarizeAnswerSchema, "the protocol");
  if (!parsed.ok) return parsed;
  return { ok: true, summary: parsed.data.summary, input_tokens: parsed.data.input_tokens, output_tokens: parsed.data.output_tokens, cost_usd: parsed.data.cost_usd ?? 0 };
}

/** A chat answer carries no cost of its own: it is priced from its tokens. */
function withoutCost(read: ReturnType<typeof readChatSummary>): ReturnType<typeof readEngineSummary> {
  return read.ok ? { ...read, cost_usd: null } : read;
}

function priced(config: SummarizerConfig, input: number, output: number): { cost_usd: number; cost_source: PriceSource } {
  const { price, source } = summarizerPrice(config.model, config);
  return { cost_usd: tokenCostUsd(input, output, price), cost_source: source };
}
