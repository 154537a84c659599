/**
 * The engine protocol's `summarize` exchange (pure): zod schemas of the request an engine gets
 * and the answer it gives. Human description: docs/engine-protocol.md ("summarize").
 *
 * Request  POST <summarizer endpoint>  {protocol, request: "summarize", model, max_summary_chars, turns}
 * Answer   200 application/json  {summary, input_tokens, output_tokens, cost_usd?}
 *
 * The answer is all-or-nothing: bad JSON or a field of the wrong type makes it malformed and the
 * caller has no summary (it falls back to removal only). An empty or whitespace-only `summary`
 * also means no summary.
 */
import { z } from "zod";
import type { SummaryPart, SummaryTurn } from "../core/summary/types";
import { PROTOCOL_VERSION } from "./protocol";

export const summaryPartSchema = z.discriminatedUnion("type", [
  z.strictObject({ type: z.literal("text"), text: z.string() }),
  z.strictObject({ type: z.literal("tool_call"), id: z.string().min(1), name: z.string(), input: z.string() }),
  z.strictObject({ type: z.literal("tool_result"), id: z.string().min(1), text: z.string(), is_error: z.boolean() }),
]) satisfies z.ZodType<SummaryPart>;

export const summaryTurnSchema = z.strictObject({
  role: z.enum(["user", "assistant", "tool"]),
  parts: z.array(summaryPartSchema),
}) satisfies z.ZodType<SummaryTurn>;

/** The `summarize` request body. */
export const summarizeRequestSchema = z.strictObject({
  protocol: z.literal(PROTOCOL_VERSION),
  request: z.literal("summarize"),
  /** `summarizer.model` from the config, or null. */
  model: z.string().nullable(),
  /** The longest summary the caller will use, characters; a longer one is refused as no summary. */
  max_summary_chars: z.number().int().positive(),
  /** The closed stretch, oldest first. */
  turns: z.array(summaryTurnSchema).min(1),
});
export type SummarizeRequest = z.infer<typeof summarizeRequestSchema>;

/**
 * The answer body. `input_tokens`/`output_tokens`: what the engine's summariser read and wrote;
 * `cost_usd` (optional, finite ≥ 0): what producing it cost, USD, priced as the step's request
 * cost (term ③, src/core/cost/net-benefit.ts). Absent: 0. Unknown extra keys are ignored.
 */
export const summarizeAnswerSchema = z.object({
  summary: z.string(),
  input_tokens: z.number().int().nonnegative(),
  output_tokens: z.number().int().nonnegative(),
  cost_usd: z.number().finite().nonnegative().optional(),
});
export type SummarizeAnswer = z.infer<typeof summarizeAnswerSchema>;
