/**
 * Reader of Claude Code session transcripts (`~/.claude/projects/<project>/<session>.jsonl`) →
 * RecordedSession (pure: text in, session out). Format (reverse-engineered by the community,
 * e.g. jwhenry28/claude-code-visualizer docs/claude-code-project-notes.md, Huntehhh/
 * claude-code-chat docs/claude-cli-jsonl-format.md): one JSON object per line with `type`
 * (user | assistant | system | summary | file-history-snapshot …), `message` in Anthropic
 * Messages format, `timestamp`, `sessionId`, `isSidechain`, `uuid`/`parentUuid`.
 *
 * Rules:
 * 1. Only `user` and `assistant` lines are conversation. Sidechain lines (subagents logged into
 *    the parent file) are dropped when the file has main-chain lines; a subagent file
 *    (`agent-*.jsonl`, all lines sidechain) is read as its own session.
 * 2. Synthetic assistant lines (`isApiErrorMessage`, model "<synthetic>") were never model
 *    output and are dropped.
 * 3. Claude Code logs one line per content block; consecutive lines of one role are merged into
 *    one message (MANIFEST.md). An assistant line whose `message.id` equals the previous
 *    assistant message's id joins it even if tool_result lines were logged in between (parallel
 *    tool calls stream their blocks around the results); the results then follow it.
 * 4. Whitespace-only text blocks are dropped (the API rejects them — MANIFEST.md).
 * 5. A `system` line with subtype `compact_boundary` starts a new history (Claude Code replaced
 *    the conversation by its summary there).
 * 6. Every assistant message is one call; a call with no history before it is skipped (noted).
 * 7. Messages keep only {role, content}; the call's time is its last input line's timestamp.
 * 8. Repeated tool_use ids within a history are renamed (./dedupe-tool-ids.ts).
 * 9. The session's project is the first line's working directory (`cwd`), when logged.
 */
import { buildRequestBody } from "./build-request-body";
import { dedupeNote, dedupeToolUseIds } from "./dedupe-tool-ids";
import { stableModel } from "./defaults";
import { parseJsonl } from "./parse-jsonl";
import { parseTimestamp } from "./split-calls";
import { synthesizeTools } from "./synthesize-tools";
import type { Json, JsonObject, RecordedCall, RecordedSession } from "./types";

const isObj = (v: Json | undefined): v is JsonObject => typeof v === "object" && v !== null && !Array.isArray(v);

interface Msg {
  role: "user" | "assistant";
  /** A single line's string content stays a string; merged content is a block array. */
  content: Json;
  /** Anthropic message id of an assistant message (for rule 3). */
  id: string | null;
  /** Latest timestamp of the lines merged into it, epoch ms. */
  time: number | null;
}

function asBlocks(content: Json): Json[] {
  if (typeof content === "string") return content.trim() === "" ? [] : [{ type: "text", text: content }];
  return Array.isArray(content) ? content.filter((b) => !(isObj(b) && b.type === "text" && typeof b.text === "string" && b.text.trim() === "")) : [];
}

function blocksOf(m: Msg): Json[] {
  return asBlocks(m.content);
}

/** Parses one Claude Code session transcript. */
export function readClaudeCode(text: string, name: string): RecordedSession {
  const lines = parseJsonl(text, name);
  const notes: string[] = [];
  const hasMain = lines.some((l) => (l.value.type === "user" || l.value.type === "assistant") && l.value.isSidechain !== true);
  let sessionId: string | null = null;
  let cwd: string | null = null;
  let model: string | null = null;
  const dropped = { sidechain: 0, synthetic: 0 };
  const segments: Msg[][] = [[]];

  for (const { line, value: v } of lines) {
    if (v.type === "system" && v.subtype === "compact_boundary") {
      segments.push([]);
      continue;
    }
    if (v.type !== "user" && v.type !== "assistant") continue;
    if (hasMain && v.isSidechain === true) {
      dropped.sidechain++;
      continue;
    }
    const m = v.message;
    if (!isObj(m)) throw new Error(`${name}: line ${line}: field message is missing`);
    if (v.type === "assistant" && (v.isApiErrorMessage === true || m.model === "<synthetic>")) {
      dropped.synthetic++;
      continue;
    }
    if (sessionId === null && typeof v.sessionId === "string") sessionId = v.sessionId;
    if (cwd === null && typeof v.cwd === "string" && v.cwd !== "") cwd = v.cwd;
    if (model === null && v.type === "assistant" && typeof m.model === "string") model = m.model;
    const content = m.content ?? "";
    if (asBlocks(content).length === 0) continue;
    const seg = segments[segments.length - 1]!;
    const time = parseTimestamp(v.timestamp);
    const id = v.type === "assistant" && typeof m.id === "string" ? m.id : null;
    appendLine(seg, { role: v.type, content, id, time });
  }
  if (dropped.sidechain > 0) notes.push(`dropped ${dropped.sidechain} sidechain line(s)`);
  if (dropped.synthetic > 0) notes.push(`dropped ${dropped.synthetic} synthetic assistant line(s)`);
  if (segments.length > 1) notes.push(`${segments.length - 1} compact boundary(ies): history restarts there`);

  let renamed = 0;
  const history = segments.map((seg) => {
    const d = dedupeToolUseIds(seg.map((m): JsonObject => ({ role: m.role, content: m.content })));
    renamed += d.renamed;
    return d.messages;
  });
  if (renamed > 0) notes.push(dedupeNote(renamed));
  const allItems = history.flat();
  const frame = { provider: "anthropic" as const, model: stableModel("anthropic", model), system: null, tools: synthesizeTools("anthropic", allItems) };
  if (model === null) notes.push(`model not recorded; using ${frame.model}`);
  const calls: RecordedCall[] = [];
  let skipped = 0;
  segments.forEach((seg, s) => {
    seg.forEach((m, i) => {
      if (m.role !== "assistant") return;
      if (i === 0) {
        skipped++;
        return;
      }
      calls.push({ index: calls.length, body: buildRequestBody(frame, history[s]!.slice(0, i)), timestamp_ms: seg[i - 1]!.time ?? m.time, reply: history[s]![i]! });
    });
  });
  if (skipped > 0) notes.push(`skipped ${skipped} assistant message(s) with no history before them`);
  const id = sessionId ?? name.replace(/^.*\//, "").replace(/\.jsonl$/, "");
  return { id, provider: "anthropic", model: frame.model, system: null, tools: frame.tools, calls, source: { format: "claude-code-jsonl", name }, notes, ...(cwd !== null ? { project: cwd } : {}) };
}

/** Appends one line to a segment: merges with the previous same-role message, or with an earlier assistant message of the same id (rule 3). */
function appendLine(seg: Msg[], line: Msg): void {
  const last = seg[seg.length - 1];
  if (line.role === "assistant" && line.id !== null && last?.role === "user") {
    const prev = seg[seg.length - 2];
    if (prev?.role === "assistant" && prev.id === line.id && blocksOf(last).every((b) => isObj(b) && b.type === "tool_result")) {
      prev.content = [...blocksOf(prev), ...asBlocks(line.content)];
      prev.time = line.time ?? prev.time;
      return;
    }
  }
  if (last !== undefined && last.role === line.role) {
    last.content = [...blocksOf(last), ...asBlocks(line.content)];
    last.time = line.time ?? last.time;
    if (line.id !== null) last.id = line.id;
    return;
  }
  seg.push({ ...line, content: typeof line.content === "string" ? line.content : asBlocks(line.content) });
}
