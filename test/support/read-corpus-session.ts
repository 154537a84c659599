/**
 * TEST FIXTURE (not product code): a minimal reader of the seed corpus
 * (corpus/seed/*.json, format in MANIFEST.md) that derives, for every model call of a
 * session, the ConversationView of its request — from the parsed messages, not from bytes
 * (anthropic tool_use/tool_result, openai-chat tool_calls/tool, responses function_call /
 * custom_tool_call and their *_output items). Token estimates: JSON bytes / 4. Byte ranges are
 * dummies. The real adapters (src/providers) replace this in gateway tests.
 */
import { readFileSync } from "node:fs";
import { hashText } from "../../src/core/hash";
import { proseMentionKeys } from "../../src/core/text/mention-keys";
import { estimateTokensFromBytes } from "../../src/core/tokens/estimate";
import type { ConversationView, MessageInfo, Provider, ToolPair } from "../../src/core/view/types";
import { CORPUS_PATH } from "./shared-dir";

export const CORPUS_DIR = CORPUS_PATH;
export const CORPUS_IDS = [
  "cc-brain-explore-cleanup",
  "cc-brain-explore-ies-thinking",
  "cc-brain-explore-subagent-bashpoll",
  "cc-cctrace-opus4",
  "codex-rtchess-01",
  "codex-rtchess-01-responses",
  "sweagent-gpt4-pydicom-1458",
  "tau-airline-gpt4o-task02",
  "tau-airline-gpt4o-task09",
] as const;

type Json = Record<string, unknown>;

/** One model call of a session. */
export interface CorpusCall {
  /** Messages [0, end) are the request. */
  end: number;
  /** Epoch ms of the request (null when the session has no timestamps). */
  at_ms: number | null;
  /** Seconds since the previous call's output, 0 for the first call or without timestamps. */
  idle_seconds: number;
}

/** A session, ready to be viewed call by call. */
export interface CorpusSession {
  id: string;
  provider: Provider;
  model: string | null;
  calls: CorpusCall[];
  /** The view of call `k`'s request. */
  viewAt(k: number): ConversationView;
  /** Mention keys per message of call `k`'s request (src/core/text/mention-keys.ts; [] but for assistant prose). */
  mentionsAt(k: number): string[][];
}

const bytes = (s: string) => new TextEncoder().encode(s).length;
const OUTPUT_TYPES = new Set(["reasoning", "function_call", "custom_tool_call"]);

function textOf(content: unknown): { text: string; media: number } {
  if (typeof content === "string") return { text: content, media: 0 };
  if (!Array.isArray(content)) return { text: content === undefined || content === null ? "" : JSON.stringify(content), media: 0 };
  const parts: string[] = [];
  let media = 0;
  for (const p of content as Json[]) {
    if (p.type === "image" || p.type === "document" || p.type === "input_image" || p.type === "input_file") media++;
    else if (typeof p.text === "string") parts.push(p.text);
  }
  return { text: parts.join("\n"), media };
}

function parseTime(s: unknown): number | null {
  if (typeof s !== "string") return null;
  const t = Date.parse(/[zZ]|[+-]\d\d:\d\d$/.test(s) ? s : `${s}Z`);
  return Number.isNaN(t) ? null : t;
}

/** Loads session `id`. */
export function readCorpusSession(id: string): CorpusSession {
  const doc = JSON.parse(readFileSync(`${CORPUS_DIR}/${id}.json`, "utf8")) as Json;
  const provider = doc.provider as Provider;
  const msgs = doc.messages as Json[];
  const stamps = (doc.timestamps as unknown[]) ?? [];
  const systemTokens = doc.system === null || doc.system === undefined ? 0 : estimateTokensFromBytes(bytes(JSON.stringify(doc.system)));

  // Per-message role, output flag, tokens.
  const isOutput = msgs.map((m) => (provider === "openai-responses" ? OUTPUT_TYPES.has(String(m.type)) || (m.type === "message" && m.role === "assistant") : m.role === "assistant"));
  const tokens = msgs.map((m) => estimateTokensFromBytes(bytes(JSON.stringify(m))));
  const roles = msgs.map((m) => (provider === "openai-responses" ? (m.type === "message" ? String(m.role) : String(m.type)) : String(m.role)));
  const callStarts: number[] = provider === "openai-responses" ? (doc.call_starts as number[]) : msgs.flatMap((m, i) => (m.role === "assistant" ? [i] : []));
  // Turn index: number of output runs that started before the message (outputs belong to their own run).
  const turn: number[] = [];
  let runs = 0;
  for (let i = 0; i < msgs.length; i++) {
    const starts = provider === "openai-responses" ? callStarts.includes(i) : isOutput[i]!;
    if (starts) runs++;
    turn.push(isOutput[i] ? runs - 1 : runs);
  }

  // Calls and results.
  type Call = { id: string; name: string; input: string; msg: number; block: number };
  const calls = new Map<string, Call>();
  const setCall = (c: Call) => calls.set(c.id, c);
  const pairs: ToolPair[] = [];
  const addResult = (id: string, content: unknown, isError: boolean, msg: number, block: number) => {
    const c = calls.get(id);
    if (c === undefined) return;
    const { text, media } = textOf(content);
    const raw = typeof content === "string" ? content : JSON.stringify(content ?? "");
    const rb = bytes(JSON.stringify(raw).slice(1, -1));
    pairs.push({
      id, tool_name: c.name, input_text: c.input, input_bytes: bytes(c.input),
      call: { message_index: c.msg, block_index: c.block }, result: { message_index: msg, block_index: block },
      turn_index: turn[c.msg]!, result_text: text, result_bytes: rb, result_est_tokens: estimateTokensFromBytes(rb) + media * 1600,
      result_is_error: isError, result_media_count: media, result_hash: hashText(raw), locked: null,
    });
  };
  msgs.forEach((m, i) => {
    if (provider === "anthropic") {
      if (!Array.isArray(m.content)) return;
      (m.content as Json[]).forEach((b, k) => {
        if (b.type === "tool_use") setCall({ id: String(b.id), name: String(b.name), input: JSON.stringify(b.input), msg: i, block: k });
        if (b.type === "tool_result") addResult(String(b.tool_use_id), b.content, b.is_error === true, i, k);
      });
    } else if (provider === "openai-chat") {
      ((m.tool_calls as Json[] | undefined) ?? []).forEach((tc, k) => {
        const f = (tc.function ?? tc.custom) as Json;
        setCall({ id: String(tc.id), name: String(f.name), input: String(f.arguments ?? f.input ?? ""), msg: i, block: k });
      });
      if (m.role === "tool") addResult(String(m.tool_call_id), m.content, false, i, -1);
    } else {
      if (m.type === "function_call" || m.type === "custom_tool_call") setCall({ id: String(m.call_id), name: String(m.name), input: String(m.arguments ?? m.input ?? ""), msg: i, block: -1 });
      if (m.type === "function_call_output" || m.type === "custom_tool_call_output") addResult(String(m.call_id), m.output, false, i, -1);
    }
  });

  const at = (i: number): number | null => {
    for (let j = i; j >= 0; j--) {
      const t = parseTime(stamps[j]);
      if (t !== null) return t;
    }
    return null;
  };
  const callList: CorpusCall[] = callStarts.map((end, k) => {
    const now = at(end - 1);
    const prev = k > 0 ? at(callStarts[k - 1]!) : null;
    return { end, at_ms: now, idle_seconds: now !== null && prev !== null ? Math.max(0, (now - prev) / 1000) : 0 };
  });

  const viewAt = (k: number): ConversationView => {
    const end = callList[k]!.end;
    const messages: MessageInfo[] = [];
    for (let i = 0; i < end; i++) messages.push({ index: i, role: roles[i]!, turn_index: turn[i]!, range: { start: 0, end: 0 }, bytes: tokens[i]! * 4, est_tokens: tokens[i]!, prose_blocks: 0, media_blocks: 0, non_tool_parts: 0, identity_hash: "" });
    const present = pairs.filter((p) => p.result.message_index < end && p.call.message_index < end);
    // Ids used by more than one pair in the request are orphans in the view contract: never paired.
    const seen = new Map<string, number>();
    for (const p of present) seen.set(p.id, (seen.get(p.id) ?? 0) + 1);
    const inView = present.filter((p) => seen.get(p.id) === 1);
    const orphans = present.filter((p) => seen.get(p.id)! > 1).map((p) => ({ id: p.id, kind: "duplicate_id" as const, position: p.call }));
    const turnCount = provider === "openai-responses" ? k : messages.filter((_, i) => isOutput[i] && msgs[i]!.role === "assistant").length;
    const est = systemTokens + messages.reduce((s, m) => s + m.est_tokens, 0);
    return { provider, model: (doc.model as string | null) ?? null, body_bytes: est * 4, est_tokens: est, messages, pairs: inView, orphans, turn_count: turnCount, server_managed: null };
  };
  const mentions = msgs.map((m) => (m.role === "assistant" && (provider !== "openai-responses" || m.type === "message") ? proseMentionKeys(textOf(m.content).text) : []));
  const mentionsAt = (k: number): string[][] => mentions.slice(0, callList[k]!.end);
  return { id, provider, model: (doc.model as string | null) ?? null, calls: callList, viewAt, mentionsAt };
}
