/**
 * The decision-engine wire protocol (pure): one JSON exchange spoken by both HTTP engines
 * (`local`, `remote`), defined once as zod schemas. Human description: docs/engine-protocol.md.
 *
 * Request  POST <endpoint>  {protocol, model, head_chars, candidates: [...]}
 * Answer   200 application/json  {verdicts: [{id, verdict, confidence}], cost_usd?}
 *
 * An answer is all-or-nothing: bad JSON, wrong types, an unknown id, a missing id or a
 * duplicated id make the WHOLE answer malformed, and the caller fails open (original history).
 */
import { z } from "zod";

/** Protocol version tag sent in every request. */
export const PROTOCOL_VERSION = "sluice-engine/1";

/** One candidate pair as the engine sees it. Candidates are listed oldest first (history order). */
export const engineCandidateSchema = z.strictObject({
  /** Pair id (tool_use id / tool_call_id / call_id). */
  id: z.string().min(1),
  tool_name: z.string(),
  /** The first `head_chars` characters of the call's input text. */
  input_excerpt: z.string(),
  /** The first `head_chars` characters of the result text (media omitted). */
  result_head: z.string(),
  /** Size of the whole result in the original body, bytes. */
  result_bytes: z.number().int().nonnegative(),
  /** Turns between the call and the newest turn (0 = the newest turn). */
  age_turns: z.number().int().nonnegative(),
  is_error: z.boolean(),
});
export type EngineCandidate = z.infer<typeof engineCandidateSchema>;

/** The request body. */
export const engineRequestSchema = z.strictObject({
  protocol: z.literal(PROTOCOL_VERSION),
  /** `model` from the config (the engine's model), or null. */
  model: z.string().nullable(),
  /** Cap applied to `input_excerpt` and `result_head`, characters. */
  head_chars: z.number().int().nonnegative(),
  candidates: z.array(engineCandidateSchema),
});
export type EngineRequest = z.infer<typeof engineRequestSchema>;

/** What an engine may say about one pair. */
export const VERDICTS = ["keep", "drop_result", "drop_pair"] as const;
export type Verdict = (typeof VERDICTS)[number];

/** One verdict. Unknown extra keys (e.g. a `reason`) are ignored and never logged. */
export const engineVerdictSchema = z.object({
  id: z.string().min(1),
  verdict: z.enum(VERDICTS),
  /** 0..1; below `decision_threshold` the verdict counts as keep. */
  confidence: z.number().min(0).max(1),
});
export type EngineVerdict = z.infer<typeof engineVerdictSchema>;

/**
 * The answer body. `cost_usd` (optional): what producing this answer cost, USD (e.g. the
 * engine's own model call at its provider's prices), a finite number ≥ 0; the cost model prices
 * it as the step's compaction request cost (term ③, src/core/cost/net-benefit.ts). Absent: 0.
 */
export const engineAnswerSchema = z.object({ verdicts: z.array(engineVerdictSchema), cost_usd: z.number().finite().nonnegative().optional() });
export type EngineAnswer = z.infer<typeof engineAnswerSchema>;
