/**
 * Reader of Codex CLI rollout files (`~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl`) →
 * RecordedSession with provider `openai-responses` (pure: text in, session out). Format
 * (openai/codex `codex-rs/protocol` RolloutLine; community notes e.g. jnarowski/agentcmd
 * .agent/research/codex/format-comparison.md): one line per `{timestamp, type, payload}` with
 * type `session_meta` (payload.id, optional base_instructions), `turn_context` (payload.model),
 * `response_item` (payload = a Responses API item), `event_msg` (UI events), `compacted`.
 *
 * Rules:
 * 1. `response_item` payloads are the model's input/output items, kept byte-for-byte in order,
 *    except `ghost_snapshot` (a git snapshot marker, never model input — MANIFEST.md).
 *    `event_msg` lines are UI echoes and token counts, not model input: skipped.
 * 2. A `compacted` line restarts the history: with `payload.replacement_history` (newer Codex)
 *    the history becomes that list; otherwise it becomes one user message holding
 *    `payload.message` (the summary Codex carries forward).
 * 3. Calls begin where a run of output items begins (split-calls.ts); input = items before it.
 * 4. Model: the first `turn_context.model` (noted if it changes); instructions: session_meta
 *    `base_instructions.text` when recorded, else none (Codex's built-in prompt is not logged).
 * 5. The session's project is session_meta's working directory (`payload.cwd`), when recorded.
 */
import { buildRequestBody } from "./build-request-body";
import { stableModel } from "./defaults";
import { parseJsonl } from "./parse-jsonl";
import { callStarts, parseTimestamp, replyAt } from "./split-calls";
import { synthesizeTools } from "./synthesize-tools";
import type { Json, JsonObject, RecordedCall, RecordedSession } from "./types";

const isObj = (v: Json | undefined): v is JsonObject => typeof v === "object" && v !== null && !Array.isArray(v);

interface Segment {
  items: Json[];
  times: (number | null)[];
}

/** Parses one Codex CLI rollout file. */
export function readCodexRollout(text: string, name: string): RecordedSession {
  const notes: string[] = [];
  let sessionId: string | null = null;
  let instructions: string | null = null;
  let cwd: string | null = null;
  const models: string[] = [];
  const segments: Segment[] = [{ items: [], times: [] }];
  let skippedItems = 0;

  for (const { line, value: v } of parseJsonl(text, name)) {
    const p = v.payload;
    switch (v.type) {
      case "session_meta":
        if (!isObj(p)) throw new Error(`${name}: line ${line}: field payload of session_meta is not an object`);
        if (sessionId === null && typeof p.id === "string") sessionId = p.id;
        if (cwd === null && typeof p.cwd === "string" && p.cwd !== "") cwd = p.cwd;
        if (isObj(p.base_instructions) && typeof p.base_instructions.text === "string") instructions = p.base_instructions.text;
        break;
      case "turn_context":
        if (isObj(p) && typeof p.model === "string" && models[models.length - 1] !== p.model) models.push(p.model);
        break;
      case "response_item": {
        if (!isObj(p)) throw new Error(`${name}: line ${line}: field payload of response_item is not an object`);
        if (p.type === "ghost_snapshot") {
          skippedItems++;
          break;
        }
        const seg = segments[segments.length - 1]!;
        seg.items.push(p);
        seg.times.push(parseTimestamp(v.timestamp));
        break;
      }
      case "compacted": {
        const replacement = isObj(p) && Array.isArray(p.replacement_history) ? p.replacement_history : null;
        const summary = isObj(p) && typeof p.message === "string" ? p.message : "";
        const items: Json[] = replacement ?? [{ type: "message", role: "user", content: [{ type: "input_text", text: summary }] }];
        segments.push({ items, times: items.map(() => parseTimestamp(v.timestamp)) });
        break;
      }
      default:
        break;
    }
  }
  if (skippedItems > 0) notes.push(`skipped ${skippedItems} ghost_snapshot item(s)`);
  if (segments.length > 1) notes.push(`${segments.length - 1} compaction(s): history restarts there`);
  if (models.length > 1) notes.push(`model changed during the session (${models.join(" → ")}); using the first`);
  const frame = {
    provider: "openai-responses" as const,
    model: stableModel("openai-responses", models[0]),
    system: instructions,
    tools: synthesizeTools("openai-responses", segments.flatMap((s) => s.items)),
  };
  if (models.length === 0) notes.push(`model not recorded; using ${frame.model}`);
  const calls: RecordedCall[] = [];
  for (const seg of segments) {
    for (const k of callStarts("openai-responses", seg.items)) {
      if (k === 0) continue;
      calls.push({
        index: calls.length,
        body: buildRequestBody(frame, seg.items.slice(0, k)),
        timestamp_ms: seg.times[k - 1] ?? seg.times[k] ?? null,
        reply: replyAt("openai-responses", seg.items, k),
      });
    }
  }
  const id = sessionId ?? name.replace(/^.*\//, "").replace(/\.jsonl$/, "");
  return { id, provider: "openai-responses", model: frame.model, system: instructions, tools: frame.tools, calls, source: { format: "codex-rollout", name }, notes, ...(cwd !== null ? { project: cwd } : {}) };
}
