/**
 * The `/responses/compact` probe: Codex 0.171.0 never posts to `/v1/responses/compact` (its
 * binary has no such path; it compacts with `compaction_trigger` only: docs/dev/e2e-clients.md),
 * but earlier Codex releases and other Responses clients do, so the run sends one itself. The
 * body is what Codex's compaction client sent there (`CompactionInput` in openai/codex
 * codex-rs/codex-api/src/common.rs: `model`, `input`, `instructions` when not empty, `tools`,
 * `parallel_tool_calls`, `reasoning`, `prompt_cache_key`, `text`), built from a real Codex request
 * of the run, with that request's headers. It goes to Sluice's `/openai/v1/responses/compact`
 * under a key of its own; the upstream's record then tells whether Sluice passed the request
 * through byte for byte, and the answer's hash whether the client got the upstream's bytes.
 */
import { createHash } from "node:crypto";
import { isObject, prop, type Json, type JsonObject } from "../emulator/shared/json";
import type { RecordedRequest } from "./request-record";

/** What the probe found. */
export interface CompactProbe {
  /** Sluice's answer status. */
  status: number;
  /** Bytes of the probe's body. */
  bytes: number;
  /** The upstream received exactly one request with the probe's bytes on `/v1/responses/compact`. */
  request_untouched: boolean;
  /** The client got exactly the bytes the upstream answered. */
  answer_untouched: boolean;
  /** `x-sluice-*` headers on Sluice's answer (a passthrough carries only `x-sluice-request-id`). */
  sluice_headers: string[];
}

/** Headers of a recorded Codex request worth sending along (identity, session; not the transport's). */
const KEPT_HEADERS = ["content-type", "originator", "session-id", "thread-id", "user-agent", "version", "x-client-request-id", "x-codex-window-id", "x-codex-turn-metadata", "x-codex-beta-features", "x-openai-internal-codex-responses-lite"];

/** The compact body Codex's compaction client builds from the history of `source` (a Responses request body); a trailing `compaction_trigger` item is left out. */
export function compactBody(source: Json): JsonObject {
  const input = Array.isArray(prop(source, "input")) ? (prop(source, "input") as Json[]) : [];
  const history = input.length > 0 && isObject(input[input.length - 1]) && (input[input.length - 1] as JsonObject).type === "compaction_trigger" ? input.slice(0, -1) : input;
  const out: JsonObject = { model: prop(source, "model") ?? null, input: history };
  const instructions = prop(source, "instructions");
  if (typeof instructions === "string" && instructions !== "") out.instructions = instructions;
  out.tools = prop(source, "tools") ?? [];
  out.parallel_tool_calls = prop(source, "parallel_tool_calls") ?? false;
  for (const k of ["reasoning", "prompt_cache_key", "text"]) {
    const v = prop(source, k);
    if (v !== undefined) out[k] = v;
  }
  return out;
}

/** The probe's request headers: the source request's kept headers with the probe's key. */
export function probeHeaders(source: RecordedRequest, apiKey: string): Record<string, string> {
  const h: Record<string, string> = {};
  for (const k of KEPT_HEADERS) if (source.headers[k] !== undefined) h[k] = source.headers[k]!;
  return { ...h, "content-type": "application/json", authorization: `Bearer ${apiKey}` };
}

/** The probe's verdict from what was sent, what Sluice answered and what the upstream recorded for the probe's key. */
export function judgeProbe(sent: Buffer, answer: { status: number; body: Buffer; headers: Headers }, received: readonly RecordedRequest[]): CompactProbe {
  const sha = (b: Buffer | string) => createHash("sha256").update(b).digest("hex");
  const only = received.length === 1 ? received[0]! : undefined;
  return {
    status: answer.status,
    bytes: sent.length,
    request_untouched: only !== undefined && only.method === "POST" && only.url === "/v1/responses/compact" && only.bytes === sent.length && sha(only.body) === sha(sent),
    answer_untouched: only?.responseSha256 !== undefined && only.responseSha256 === sha(answer.body),
    sluice_headers: [...answer.headers.keys()].filter((k) => k.startsWith("x-sluice-")).sort(),
  };
}

/** Sends the probe built from `source` to Sluice at `sluiceUrl` with `apiKey` (registered at the upstream) and judges it with `received()` (the upstream's records for the key). */
export async function runCompactProbe(sluiceUrl: string, source: RecordedRequest, apiKey: string, received: () => readonly RecordedRequest[]): Promise<CompactProbe> {
  const sent = Buffer.from(JSON.stringify(compactBody(JSON.parse(source.body) as Json)), "utf8");
  const res = await fetch(`${sluiceUrl}/openai/v1/responses/compact`, { method: "POST", headers: probeHeaders(source, apiKey), body: sent });
  const body = Buffer.from(await res.arrayBuffer());
  return judgeProbe(sent, { status: res.status, body, headers: res.headers }, received());
}
