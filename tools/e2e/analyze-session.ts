/**
 * Figures of one recorded session (pure): what the client sent, what reached the provider, what
 * Sluice said it did (`x-sluice-compaction`), what the provider billed, and the conformance
 * checks — validation errors, reference replies pointing at removed or cut results, and forwarded
 * prefix changes that are not Sluice's steps. Bodies are compared as canonical JSON without
 * cache markers (clients move `cache_control` every turn).
 */
import { arr, CACHE_MARKER_KEYS, isObject, prop, stableStringify, str, type Json } from "../emulator/shared/json";
import { SEQ_HEADER } from "./record-proxy";
import { checkReferences } from "./reference-replies";
import { endsWithTrigger, isCodeMode } from "./responses-lite";
import type { RecordedRequest } from "./request-record";

/** Which wire format a session speaks. */
export type ClientApi = "anthropic" | "openai-responses";

/** A session's recording. */
export interface SessionRecording {
  api: ClientApi;
  /** What the client sent (at the recording proxy through Sluice; at the upstream without). */
  sent: RecordedRequest[];
  /** What reached the scripted upstream. */
  forwarded: RecordedRequest[];
}

/** Figures of one session. */
export interface SessionFigures {
  /** `model` of the first main-loop request the client sent ("" when none was sent). */
  model: string;
  /** Chat requests the client sent. */
  requests: number;
  /** Chat requests the upstream rejected with a 4xx, and the first few messages. */
  validation_errors: number;
  validation_messages: string[];
  /** Requests that reached the upstream on other routes or methods, as `METHOD path status` → count (e.g. a WebSocket upgrade relayed as a plain GET). */
  other_forwarded: Record<string, number>;
  /** Responses whose `x-sluice-compaction` names a step taken (`step=<n>`). */
  steps: number;
  /** Steps by tier (`tier=<t>` of the headers that name a step), e.g. `{ auto: 2, micro: 1 }`. */
  step_tiers: Record<string, number>;
  /** Level rewrite: the marked summary blocks (`[sluice: summary of …`) in the last forwarded chat body; server-side compaction edits (`compact_20260112`) over all forwarded chat bodies. */
  summary_blocks_last: number;
  compaction_edits: number;
  /** `x-sluice-compaction` values, counted by kind (numbers dropped). */
  compaction_headers: Record<string, number>;
  /** Sums over chat requests, bytes as on the wire. */
  bytes_sent: number;
  bytes_forwarded: number;
  /** The last chat request's bytes, as sent and as forwarded. */
  last_bytes_sent: number;
  last_bytes_forwarded: number;
  /** Reference replies in the last request, and distinct replies that pointed at a removed or cut result in any request. */
  reference_replies: number;
  dangling_references: number;
  /** Forwarded requests whose history prefix changed although the client's did not and Sluice took no step there. */
  prefix_changes_outside_steps: number;
  /** Client requests whose `input` ends with `{type: "compaction_trigger"}` (Codex asking for a compaction), and how many of them reached the upstream with the client's exact bytes. */
  trigger_requests: number;
  triggers_untouched: number;
  /** Client requests whose `input` holds a `compaction` item (history the provider compacted). */
  compacted_requests: number;
}

const CHAT_ROUTES = new Set(["/v1/messages", "/v1/responses", "/anthropic/v1/messages", "/openai/v1/responses", "/v1/chat/completions"]);

/** Path without query string. */
export const routeOf = (r: RecordedRequest): string => r.url.split("?")[0]!;

const isChat = (r: RecordedRequest): boolean => r.method === "POST" && CHAT_ROUTES.has(routeOf(r));

function parse(text: string): Json | undefined {
  try {
    return JSON.parse(text) as Json;
  } catch {
    return undefined;
  }
}

/** The kind of an `x-sluice-compaction` value: `step`, `skipped=<why>`, `<mode>; reason=<why>` or the value's first field. */
export function compactionKind(header: string): string {
  if (/(^|; )step=\d+/.test(header)) return "step";
  const skipped = /skipped=(\w+)/.exec(header)?.[1];
  if (skipped) return `skipped=${skipped}`;
  const reason = /reason=(\w+)/.exec(header)?.[1];
  if (reason) return `${header.split(";")[0]}; reason=${reason}`;
  return header.split(";").slice(0, 3).join(";").replace(/=\d+/g, "");
}

/** History of a body as canonical elements: system/instructions and tools first, then each message or input item. */
function history(api: ClientApi, body: Json): string[] {
  const drop = CACHE_MARKER_KEYS;
  if (api === "anthropic") return [stableStringify(prop(body, "system") ?? null, drop), stableStringify(prop(body, "tools") ?? null, drop), ...(arr(body, "messages") ?? []).map((m) => stableStringify(m, drop))];
  return [stableStringify(prop(body, "instructions") ?? null, drop), stableStringify(prop(body, "tools") ?? null, drop), ...(arr(body, "input") ?? []).map((m) => stableStringify(m, drop))];
}

/** True when `cur` starts with every element of `prev`. */
function extendsPrefix(prev: readonly string[], cur: readonly string[]): boolean {
  return prev.length <= cur.length && prev.every((e, i) => e === cur[i]);
}

/** True for the agent's main loop (the scripted tools are offered: top-level or, for Codex's code mode, in an `additional_tools` item), not a side call. */
function isMainLoop(api: ClientApi, body: Json): boolean {
  const want = api === "anthropic" ? "Read" : "exec_command";
  return (arr(body, "tools") ?? []).some((t) => str(t, "name") === want) || (api === "openai-responses" && isCodeMode(body));
}

/** The figures of a session. */
/** The summary block's fixed start (src/core/plan/summary-block.ts) and the server-side compaction edit's type. */
const SUMMARY_HEADER = "[sluice: summary of ";
const COMPACT_EDIT = '"compact_20260112"';

function occurrences(text: string, needle: string): number {
  return text.split(needle).length - 1;
}

/** Steps by tier: the `tier=` of every header that names a step. */
function stepTiers(headers: readonly string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const h of headers) {
    if (!/(^|; )step=\d+/.test(h)) continue;
    const tier = /(?:^|; )tier=(\w+)/.exec(h)?.[1] ?? "unknown";
    out[tier] = (out[tier] ?? 0) + 1;
  }
  return out;
}

export function analyzeSession(rec: SessionRecording): SessionFigures {
  const sent = rec.sent.filter(isChat);
  const bySeq = new Map(rec.forwarded.map((f) => [f.headers[SEQ_HEADER], f]));
  const viaProxy = rec.forwarded.some((f) => f.headers[SEQ_HEADER] !== undefined);
  const forwardedOf = (s: RecordedRequest) => (viaProxy ? bySeq.get(String(s.seq)) : s);
  const rejected = rec.forwarded.filter((f) => isChat(f) && f.rejection !== null);
  const other: Record<string, number> = {};
  for (const f of rec.forwarded.filter((r) => !isChat(r))) other[`${f.method} ${routeOf(f)} ${f.status}`] = (other[`${f.method} ${routeOf(f)} ${f.status}`] ?? 0) + 1;
  const headers = sent.map((s) => s.responseHeaders["x-sluice-compaction"]).filter((h): h is string => h !== undefined);
  const kinds: Record<string, number> = {};
  for (const h of headers) kinds[compactionKind(h)] = (kinds[compactionKind(h)] ?? 0) + 1;

  const dangling = new Set<string>();
  let lastRefs = 0;
  let prefixChanges = 0;
  let prev: { sent: string[]; fwd: string[] } | undefined;
  for (const s of sent) {
    const f = forwardedOf(s);
    const sb = parse(s.body);
    const fb = f ? parse(f.body) : undefined;
    if (!isObject(sb) || !isObject(fb) || !isMainLoop(rec.api, sb) || s.status >= 400) continue;
    if (rec.api === "anthropic") {
      const c = checkReferences(sb, fb);
      lastRefs = c.references;
      for (const id of [...c.pointing_at_removed, ...c.pointing_at_cut]) dangling.add(id);
    }
    const cur = { sent: history(rec.api, sb), fwd: history(rec.api, fb) };
    const stepped = /(^|; )step=\d+/.test(s.responseHeaders["x-sluice-compaction"] ?? "");
    if (prev && extendsPrefix(prev.sent, cur.sent) && !extendsPrefix(prev.fwd, cur.fwd) && !stepped) prefixChanges++;
    prev = cur;
  }
  const last = sent[sent.length - 1];
  const bodies = sent.map((s) => parse(s.body));
  const firstMain = bodies.find((b) => isObject(b) && isMainLoop(rec.api, b));
  const triggers = sent.filter((_, i) => endsWithTrigger(bodies[i] ?? null));
  const untouched = triggers.filter((s) => {
    const f = forwardedOf(s);
    return f !== undefined && f.bytes === s.bytes && f.body === s.body;
  });
  return {
    model: str(firstMain, "model") ?? "",
    requests: sent.length,
    validation_errors: rejected.length,
    validation_messages: rejected.slice(0, 3).map((r) => (r.rejection ?? "").slice(0, 300)),
    other_forwarded: other,
    steps: kinds.step ?? 0,
    step_tiers: stepTiers(headers),
    summary_blocks_last: last ? occurrences(forwardedOf(last)?.body ?? "", SUMMARY_HEADER) : 0,
    compaction_edits: sent.filter((s) => (forwardedOf(s)?.body ?? "").includes(COMPACT_EDIT)).length,
    compaction_headers: kinds,
    bytes_sent: sent.reduce((n, s) => n + s.bytes, 0),
    bytes_forwarded: sent.reduce((n, s) => n + (forwardedOf(s)?.bytes ?? 0), 0),
    last_bytes_sent: last?.bytes ?? 0,
    last_bytes_forwarded: (last && forwardedOf(last)?.bytes) ?? 0,
    reference_replies: lastRefs,
    dangling_references: dangling.size,
    prefix_changes_outside_steps: prefixChanges,
    trigger_requests: triggers.length,
    triggers_untouched: untouched.length,
    compacted_requests: bodies.filter((b) => (arr(b, "input") ?? []).some((i) => str(i, "type") === "compaction")).length,
  };
}
