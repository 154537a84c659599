/**
 * Reader of our corpus format (corpus/seed/*.json, MANIFEST.md) → RecordedSession
 * (pure: text in, session out). Each assistant message (Anthropic, Chat) or each `call_starts`
 * index (Responses) is one call; its request is the history before it; its timestamp is the
 * last input item's (falling back to the reply's). Tool definitions are synthesised from the
 * names used (the corpus records none). Anthropic: repeated tool_use ids are renamed
 * (./dedupe-tool-ids.ts). The file's `source.repo`, when present, is the session's project.
 */
import { z } from "zod";
import { buildRequestBody } from "./build-request-body";
import { dedupeNote, dedupeToolUseIds } from "./dedupe-tool-ids";
import { stableModel } from "./defaults";
import { callStarts, parseTimestamp, replyAt } from "./split-calls";
import { synthesizeTools } from "./synthesize-tools";
import type { Json, RecordedCall, RecordedSession } from "./types";

/** Any JSON value (already parsed by JSON.parse, so no deep check is needed). */
const jsonValue = z.custom<Json>(() => true);

const CorpusFile = z.object({
  id: z.string().min(1),
  provider: z.enum(["anthropic", "openai-chat", "openai-responses"]),
  model: z.string().nullable(),
  system: jsonValue.nullable(),
  tools: z.array(z.record(z.string(), jsonValue)),
  messages: z.array(z.record(z.string(), jsonValue)),
  timestamps: z.array(z.string().nullable()),
  call_starts: z.array(z.number().int().nonnegative()).optional(),
  /** Where the session was taken from (MANIFEST.md); its repository is the session's project. */
  source: z.object({ repo: z.string().min(1).optional() }).optional(),
});

/** Parses one corpus JSON file. Throws naming the field when the file does not match the format. */
export function readCorpus(text: string, name: string): RecordedSession {
  const parsed = CorpusFile.safeParse(JSON.parse(text));
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new Error(`${name}: corpus field ${issue.path.join(".") || "(root)"}: ${issue.message}`);
  }
  const f = parsed.data;
  if (f.timestamps.length !== f.messages.length) throw new Error(`${name}: corpus field timestamps: ${f.timestamps.length} entries for ${f.messages.length} messages`);
  const notes: string[] = [];
  let items: Json[] = f.messages;
  if (f.provider === "anthropic") {
    const d = dedupeToolUseIds(items);
    items = d.messages;
    if (d.renamed > 0) notes.push(dedupeNote(d.renamed));
  }
  let starts = callStarts(f.provider, items);
  if (f.provider === "openai-responses" && f.call_starts !== undefined) {
    if (JSON.stringify(f.call_starts) !== JSON.stringify(starts)) notes.push("call_starts differ from the output-item rule; the file's call_starts were used");
    starts = f.call_starts;
  }
  const tools = f.tools.length > 0 ? f.tools : synthesizeTools(f.provider, items);
  const frame = { provider: f.provider, model: stableModel(f.provider, f.model), system: f.system, tools };
  if (f.model === null) notes.push(`model not recorded; using ${frame.model}`);
  const calls: RecordedCall[] = starts.map((k, index) => ({
    index,
    body: buildRequestBody(frame, items.slice(0, k)),
    timestamp_ms: parseTimestamp(f.timestamps[k - 1]) ?? parseTimestamp(f.timestamps[k]),
    reply: replyAt(f.provider, items, k),
  }));
  return { id: f.id, provider: f.provider, model: frame.model, system: f.system, tools, calls, source: { format: "corpus", name }, notes, ...(f.source?.repo !== undefined ? { project: f.source.repo } : {}) };
}
