/**
 * Usage extraction (pure): reads the provider-reported token usage from a complete JSON answer
 * or from SSE events, for the three wire formats, into one neutral shape.
 *
 * Sources: Anthropic Messages `usage` {input_tokens (uncached), cache_creation_input_tokens,
 * cache_read_input_tokens, output_tokens}; streaming: `message_start.message.usage`, then
 * `message_delta.usage` (cumulative output_tokens) — docs.anthropic.com/en/api/messages-streaming.
 * OpenAI Chat `usage` {prompt_tokens (incl. cached), completion_tokens,
 * prompt_tokens_details.cached_tokens}; streaming: the final chunk when
 * `stream_options.include_usage` is set. OpenAI Responses `usage` {input_tokens (incl. cached),
 * output_tokens, input_tokens_details.cached_tokens}; streaming: `response.completed`.
 * Anthropic context editing: `context_management.applied_edits` [{type, cleared_tool_uses,
 * cleared_input_tokens} | {type, cleared_thinking_turns, cleared_input_tokens}] on the message,
 * and on the final `message_delta` event when streaming (@anthropic-ai/sdk
 * BetaContextManagementResponse, BetaRawMessageDeltaEvent; platform.claude.com
 * build-with-claude/context-editing). Server-side compaction: `usage.iterations` entries of type
 * `compaction` (platform.claude.com build-with-claude/compaction), on the message and on the final
 * `message_delta` when streaming.
 */
import type { Provider } from "../core/view/types";
import type { SseEvent } from "./parse-sse";

/** Provider-reported usage of one call, in tokens. `input_tokens` is the uncached, unwritten part. */
export interface Usage {
  input_tokens: number;
  cache_read_input_tokens: number;
  cache_creation_input_tokens: number;
  output_tokens: number;
  /** Anthropic: the server-side context edits the provider reports as applied. Absent: none reported. */
  applied_edits?: AppliedEdit[];
  /**
   * Anthropic: the server-side compaction iterations of the call (`usage.iterations` entries of
   * type `compaction`, @anthropic-ai/sdk BetaCompactionIterationUsage), summed. Absent: none.
   */
  compaction?: { input_tokens: number; output_tokens: number };
}

/** One entry of Anthropic's `context_management.applied_edits` (counts only; absent counts are 0). */
export interface AppliedEdit {
  /** The edit type, e.g. "clear_tool_uses_20250919" or "clear_thinking_20251015". */
  type: string;
  cleared_tool_uses: number;
  cleared_thinking_turns: number;
  cleared_input_tokens: number;
}

/** The applied edits in a `context_management` response object, or undefined when there is none. */
export function appliedEditsOf(cm: unknown): AppliedEdit[] | undefined {
  const list = obj(cm)?.applied_edits;
  if (!Array.isArray(list)) return undefined;
  return list.flatMap((e): AppliedEdit[] => {
    const o = obj(e);
    if (!o || typeof o.type !== "string") return [];
    return [{ type: o.type, cleared_tool_uses: num(o.cleared_tool_uses), cleared_thinking_turns: num(o.cleared_thinking_turns), cleared_input_tokens: num(o.cleared_input_tokens) }];
  });
}

/** `u` with the applied edits of `cm` (Anthropic), when it reports any. */
function withAppliedEdits(u: Usage | null, cm: unknown): Usage | null {
  const edits = appliedEditsOf(cm);
  return u !== null && edits !== undefined ? { ...u, applied_edits: edits } : u;
}

const num = (v: unknown): number => (typeof v === "number" && Number.isFinite(v) && v >= 0 ? v : 0);
const obj = (v: unknown): Record<string, unknown> | null =>
  typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : null;

/** The summed `compaction` entries of an Anthropic `usage.iterations` list (input includes cache reads and writes), or undefined when none. */
export function compactionOf(iterations: unknown): { input_tokens: number; output_tokens: number } | undefined {
  if (!Array.isArray(iterations)) return undefined;
  const entries = iterations.map(obj).filter((e) => e?.type === "compaction") as Record<string, unknown>[];
  if (entries.length === 0) return undefined;
  return {
    input_tokens: entries.reduce((s, e) => s + num(e.input_tokens) + num(e.cache_read_input_tokens) + num(e.cache_creation_input_tokens), 0),
    output_tokens: entries.reduce((s, e) => s + num(e.output_tokens), 0),
  };
}

/** Neutral usage from a provider `usage` object, or null if it is not one. */
export function usageFromObject(provider: Provider, u: unknown): Usage | null {
  const o = obj(u);
  if (!o) return null;
  switch (provider) {
    case "anthropic": {
      const compaction = compactionOf(o.iterations);
      return {
        input_tokens: num(o.input_tokens),
        cache_read_input_tokens: num(o.cache_read_input_tokens),
        cache_creation_input_tokens: num(o.cache_creation_input_tokens),
        output_tokens: num(o.output_tokens),
        ...(compaction ? { compaction } : {}),
      };
    }
    case "openai-chat": {
      const cached = num(obj(o.prompt_tokens_details)?.cached_tokens);
      return { input_tokens: Math.max(0, num(o.prompt_tokens) - cached), cache_read_input_tokens: cached, cache_creation_input_tokens: 0, output_tokens: num(o.completion_tokens) };
    }
    case "openai-responses": {
      const cached = num(obj(o.input_tokens_details)?.cached_tokens);
      return { input_tokens: Math.max(0, num(o.input_tokens) - cached), cache_read_input_tokens: cached, cache_creation_input_tokens: 0, output_tokens: num(o.output_tokens) };
    }
    default: {
      const never: never = provider;
      throw new Error(`unknown provider ${String(never)}`);
    }
  }
}

/** Usage from a whole JSON response body (non-streaming), or null. */
export function usageFromJson(provider: Provider, text: string): Usage | null {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return null;
  }
  const u = usageFromObject(provider, obj(body)?.usage);
  return provider === "anthropic" ? withAppliedEdits(u, obj(body)?.context_management) : u;
}

/**
 * A `usage` member holding an object, as every usage-carrying event writes it (Anthropic
 * `message_start` / `message_delta`, the OpenAI Chat final chunk, Responses
 * `response.completed`). Events without it — the many content deltas of a stream, and OpenAI's
 * `"usage":null` chunks — are skipped unparsed: most of a long answer's events are deltas, and
 * JSON.parse of each was the tap's main cost. (A key spelt with JSON escapes, `"\u0075sage"`,
 * would be missed; no provider writes one.)
 */
const USAGE_OBJECT = /"usage"\s*:\s*\{/;

/**
 * Folds SSE events into usage: returns the usage after these events given the usage so far
 * (null = none seen yet).
 */
export function usageFromEvents(provider: Provider, events: readonly SseEvent[], sofar: Usage | null): Usage | null {
  let usage = sofar;
  for (const ev of events) {
    if (ev.data === "[DONE]" || !USAGE_OBJECT.test(ev.data)) continue;
    let data: Record<string, unknown> | null;
    try {
      data = obj(JSON.parse(ev.data));
    } catch {
      continue;
    }
    if (!data) continue;
    if (provider === "anthropic") {
      if (data.type === "message_start") usage = withAppliedEdits(usageFromObject(provider, obj(data.message)?.usage) ?? usage, obj(data.message)?.context_management);
      else if (data.type === "message_delta") {
        const d = obj(data.usage);
        if (d && usage) {
          usage = { ...usage, output_tokens: num(d.output_tokens) || usage.output_tokens };
          // Some servers report input-side counts again in message_delta; take them when present.
          if (typeof d.input_tokens === "number") usage.input_tokens = num(d.input_tokens);
          if (typeof d.cache_read_input_tokens === "number") usage.cache_read_input_tokens = num(d.cache_read_input_tokens);
          if (typeof d.cache_creation_input_tokens === "number") usage.cache_creation_input_tokens = num(d.cache_creation_input_tokens);
          const compaction = compactionOf(d.iterations);
          if (compaction) usage.compaction = compaction;
        } else if (d) usage = usageFromObject(provider, d);
        usage = withAppliedEdits(usage, data.context_management);
      }
    } else if (provider === "openai-chat") {
      if (obj(data.usage)) usage = usageFromObject(provider, data.usage);
    } else if (data.type === "response.completed" || data.type === "response.incomplete") {
      usage = usageFromObject(provider, obj(data.response)?.usage) ?? usage;
    }
  }
  return usage;
}
