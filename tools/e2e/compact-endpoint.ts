/**
 * `POST /v1/responses/compact` of the scripted upstream (pure over the emulator state it bills
 * to). OpenAI's "Compact a response" endpoint takes a Responses body (`model`, `input`, …) and
 * answers JSON (never SSE) with the compacted window in `output`; the Codex client's
 * `CompactClient` (openai/codex codex-rs/codex-api/src/endpoint/compact.rs) posts there and
 * keeps `output` as its new history. The emulator has no such route, so this module answers it:
 * the whole prompt is billed as uncached input at the model's input price (no prompt cache on
 * this route: an assumption, documented in docs/dev/e2e-clients.md), plus the output estimate
 * of compactReply.
 */
import { requestKey, type EmulatorResponse } from "../emulator/handle-request";
import { segmentResponsesPrompt } from "../emulator/openai-responses/segment-prompt";
import { formatUsd, openaiCostNano } from "../emulator/shared/compute-cost";
import { openaiInvalid, rejectionBody } from "../emulator/shared/errors";
import { isObject, type Json } from "../emulator/shared/json";
import { openaiPrice } from "../emulator/shared/prices";
import { totalTokens } from "../emulator/shared/prompt-block";
import { keyState, type EmulatorState } from "../emulator/state";
import type { ScriptRun } from "./script-anthropic";
import { compactReply } from "./script-responses";

/** The route, without the provider prefix. */
export const COMPACT_ROUTE = "/v1/responses/compact";

const json = (status: number, body: unknown, extra: Record<string, string> = {}): EmulatorResponse => ({ status, headers: { "content-type": "application/json", ...extra }, body: JSON.stringify(body) });

/** Answers one compact request (`text`: the decoded body) for `run`, billing it to the caller's key; `now` in epoch ms. */
export function answerCompact(state: EmulatorState, headers: Readonly<Record<string, string | undefined>>, text: string, run: ScriptRun, now: number): EmulatorResponse {
  const key = requestKey("openai-responses", headers);
  if (key === undefined) return json(401, rejectionBody({ api: "openai", status: 401, type: "invalid_request_error", message: "You didn't provide an API key.", param: null, code: null }));
  const ks = keyState(state, key);
  ks.totals.requests++;
  let body: Json;
  try {
    body = JSON.parse(text) as Json;
  } catch {
    ks.totals.rejected++;
    return json(400, rejectionBody(openaiInvalid("We could not parse the JSON body of your request.", null)));
  }
  if (!isObject(body) || typeof body.model !== "string") {
    ks.totals.rejected++;
    return json(400, rejectionBody(openaiInvalid("Missing required parameter: 'model'.", "model", "missing_required_parameter")));
  }
  const price = openaiPrice(body.model);
  const inputTokens = totalTokens(segmentResponsesPrompt(body, false));
  const out = compactReply(body, run, ++state.seq, Math.floor(now / 1000), inputTokens);
  const output = (out.usage as { output_tokens: number }).output_tokens;
  const usage = { uncached: inputTokens, cacheRead: 0, cacheWrite5m: 0, cacheWrite1h: 0, output };
  const cost = openaiCostNano(usage, price);
  ks.totals.input_tokens += inputTokens;
  ks.totals.output_tokens += output;
  ks.totals.cost_nano += cost;
  return json(200, out, { "x-emulator-cost-usd": formatUsd(cost), "x-emulator-input-cost-usd": formatUsd(openaiCostNano({ ...usage, output: 0 }, price)), "request-id": `req_emu${state.seq}` });
}
