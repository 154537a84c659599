/**
 * The gateway's summary writing (shell; level `rewrite`), between the session
 * step and decideForward: every `summarize` action of the step's plan whose text is null gets its
 * text from the configured summariser (src/engines/summarizer.ts; config `summarizer` null: the
 * in-process extractive one, src/core/summary/extract-summary.ts, cost 0, deterministic) reading
 * the stretch the action covers (src/core/summary/stretch-turns.ts). A summary that fails, times
 * out or is empty turns the host's action into `drop_pair`: the step falls back to removal only
 * (DESIGN invariant 5), and the report says so. Never throws.
 *
 * The extractive summariser reads no model and reports 0 input and 0 output tokens. Measurement
 * mode writes summaries too, so that `would_send` counts the bytes a compacting deployment would
 * send (with a priced backend that costs what it would cost in compact mode).
 */
import type { CompactionConfig } from "../config/schema";
import type { EditPlan, PairAction } from "../core/plan/types";
import { extractSummary } from "../core/summary/extract-summary";
import { stretchTurns } from "../core/summary/stretch-turns";
import { createSummarizer, type Summarizer } from "../engines/summarizer";
import type { StepOutput, WrittenSummary } from "../session/contract";
import type { ParsedRequest, ProviderAdapter } from "../providers/types";
import { Deadline, withDeadline } from "./deadline";
import type { CompactionMode } from "../config/load-config";
import { placeholderOptionsOf } from "../core/plan/placeholder";
import { decideForward, type ForwardDecision } from "./decide-forward";
import type { Prepared } from "./prepare-compaction";

/** What writing needs besides the step output. */
export interface WriteSummariesInput {
  parsed: ParsedRequest;
  adapter: Pick<ProviderAdapter, "historyKey">;
  config: Pick<CompactionConfig, "summarizer" | "consent_export_prompt">;
  /** Env the summariser reads its credential from, by the name in `api_key_env`. */
  env: Readonly<Record<string, unknown>>;
  /** Milliseconds left of the request's deadline for all of this request's summaries (a backend's own `timeout_ms` also applies). */
  deadline_ms: number;
  /** Monotonic ms clock (default performance.now). */
  now?: () => number;
}

/** The step output with every written text filled in (failed hosts turned into drop_pair), and what was written. */
export interface WrittenStep {
  out: StepOutput;
  /** One entry per `summarize` action that had no text; [] when none had. */
  summaries: WrittenSummary[];
}

/**
 * Writes the missing summaries of `out.plan`, all at once within `deadline_ms`. A plan without
 * such an action comes back as the same object with `summaries: []`.
 */
export async function writeSummaries(out: StepOutput, input: WriteSummariesInput): Promise<WrittenStep> {
  const pending = Object.entries(out.plan.actions).filter((e): e is [string, Extract<PairAction, { kind: "summarize" }>] => e[1].kind === "summarize" && e[1].text === null);
  if (pending.length === 0) return { out, summaries: [] };
  const now = input.now ?? (() => performance.now());
  const remote = input.config.summarizer === null ? null : createSummarizer(input.config.summarizer, input.config.consent_export_prompt, { env: input.env, now });
  const summaries = await Promise.all(pending.map(([id, action]) => writeOne(id, stretchTurns(input.parsed, input.adapter.historyKey, action.covers), remote, input.deadline_ms, now)));
  const actions: EditPlan["actions"] = { ...out.plan.actions };
  for (const s of summaries) {
    const action = actions[s.pair_id] as Extract<PairAction, { kind: "summarize" }>;
    actions[s.pair_id] = s.ok ? { ...action, text: s.text } : { kind: "drop_pair" };
  }
  return { out: { ...out, plan: { ...out.plan, actions } }, summaries };
}

/** One summary: the extractive one in process, or the backend's within the deadline. */
async function writeOne(pair_id: string, turns: ReturnType<typeof stretchTurns>, remote: Summarizer | null, deadline_ms: number, now: () => number): Promise<WrittenSummary> {
  const started = now();
  if (remote === null) {
    const text = turns.length === 0 ? "" : extractSummary(turns);
    if (text === "") return { pair_id, ok: false, reason: turns.length === 0 ? "no_turns" : "empty", latency_ms: now() - started };
    return { pair_id, ok: true, text, input_tokens: 0, output_tokens: 0, cost_usd: 0, latency_ms: now() - started };
  }
  if (deadline_ms <= 0) return { pair_id, ok: false, reason: "timeout", latency_ms: 0 };
  const abort = new AbortController();
  try {
    const got = await withDeadline(remote.summarize(turns, abort.signal), deadline_ms);
    if (!got.ok) return { pair_id, ok: false, reason: got.reason, latency_ms: got.latency_ms };
    return { pair_id, ok: true, text: got.summary, input_tokens: got.input_tokens, output_tokens: got.output_tokens, cost_usd: got.cost_usd, latency_ms: got.latency_ms };
  } catch (err) {
    abort.abort();
    return { pair_id, ok: false, reason: err instanceof Deadline ? "timeout" : "network", latency_ms: now() - started };
  }
}

/**
 * The step's decision with its summaries (shared by the Worker pipeline and the replay's host):
 * writes the missing summaries (writeSummaries), then decides the forwarded bytes at the
 * config's level (decideForward), the report carrying what was written. Returns the filled step
 * output beside the decision. Never throws.
 */
export async function decideWithSummaries(
  prepared: Extract<Prepared, { kind: "ready" }>,
  received: Uint8Array,
  out: StepOutput,
  mode: Exclude<CompactionMode, "off">,
  correlation_id: string,
  config: CompactionConfig,
  env: Readonly<Record<string, unknown>>,
  deadline_ms: number,
): Promise<{ out: StepOutput; decision: ForwardDecision }> {
  const written = await writeSummaries(out, { parsed: prepared.parsed, adapter: prepared.adapter, config, env, deadline_ms });
  const decision = decideForward(prepared, received, written.out, mode, correlation_id, placeholderOptionsOf(config, prepared.session.id), config.guarantee_level);
  if (written.summaries.length > 0) decision.report.summaries = written.summaries;
  return { out: written.out, decision };
}
