/**
 * Harness of the pipeline tests (Workers runtime): sends requests through `createApp` with the
 * real compaction hook (src/gateway/compaction-setup.ts) built from modified vars and optional
 * pipeline dep overrides (a wrapped DO namespace, a clock, an adapter) — injection through
 * deps, no product flags. Index updates are sent with a 0 ms window (a fresh IndexBuffer per call) so
 * a call's `settled()` includes its own report. The upstream is the real stand-in (test/support/upstream-server.ts).
 * Also: session DO stubs, small literal conversations, and corpus request bodies (MANIFEST.md).
 */
import { env } from "cloudflare:workers";
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { inject } from "vitest";
import type { IndexUpdate } from "../../src/admin/index-update";
import { anthropicAdapter } from "../../src/providers/anthropic-messages";
import { getMember } from "../../src/providers/shared/json-scan";
import type { ProviderAdapter } from "../../src/providers/types";
import type { Env } from "../../src/config/env";
import { readGatewayConfig } from "../../src/config/gateway-config";
import type { PipelineDeps } from "../../src/gateway/compaction-pipeline";
import { compactionHookFor } from "../../src/gateway/compaction-setup";
import { createApp } from "../../src/http/app";
import { IndexBuffer } from "../../src/gateway/index-buffer";
import type { SessionObject } from "../../src/session/session-object";
import type { SessionStats } from "../../src/session/session";
import { TEST_API_KEY, bytesOf, newTestId, received, utf8 } from "./helpers";

export const E = env as unknown as Env;
export const SESSIONS = E.SESSION as DurableObjectNamespace<SessionObject>;

/** Stub of the session DO named `id` (as the pipeline names it from `x-sluice-session`). */
export const sessionStub = (id: string): DurableObjectStub<SessionObject> => SESSIONS.get(SESSIONS.idFromName(id));
export const statsOf = (id: string): Promise<SessionStats> => sessionStub(id).stats();

/** One call through the gateway. */
export interface Sent {
  res: Response;
  /** Resolves when the request's waitUntil work (outcome report, usage tap) is done. */
  settled: () => Promise<void>;
}

/** Sends `body` to `path` with `vars` over the test env and `overrides` of the pipeline deps; does not wait for waitUntil. */
export async function sendNoWait(vars: Record<string, string>, path: string, headers: Record<string, string>, body: Uint8Array | string, overrides: Partial<PipelineDeps> = {}): Promise<Sent> {
  const ctx = createExecutionContext();
  // Index updates go at once (window 0) unless a test brings its own buffer, so `settled()` does not wait out a window.
  const deps: Partial<PipelineDeps> = { indexBuffer: new IndexBuffer(0), ...overrides };
  const app = createApp((e, c) => ({ config: readGatewayConfig(e), compact: compactionHookFor(e, c, deps) }));
  const req = new Request(`http://sluice.test${path}`, { method: "POST", headers: { "content-type": "application/json", "x-api-key": TEST_API_KEY, ...headers }, body: typeof body === "string" ? utf8(body) : body });
  const res = await app.fetch(req, { ...E, ...vars }, ctx);
  return { res, settled: () => waitOnExecutionContext(ctx) };
}

/** Sends and waits for the waitUntil work; the response body is read (and returned as text). */
export async function send(vars: Record<string, string>, path: string, headers: Record<string, string>, body: Uint8Array | string, overrides: Partial<PipelineDeps> = {}): Promise<{ res: Response; text: string }> {
  const s = await sendNoWait(vars, path, headers, body, overrides);
  const text = await s.res.text();
  await s.settled();
  return { res: s.res, text };
}

/** Pipeline deps that record the session RPC method names called and every index update batch (kinds), passing everything to the real objects. */
export function observedDeps(): { calls: string[]; batches: IndexUpdate["kind"][][]; deps: Partial<PipelineDeps> } {
  const calls: string[] = [];
  const batches: IndexUpdate["kind"][][] = [];
  const sessions = {
    idFromName: (name: string) => SESSIONS.idFromName(name),
    get: (id: DurableObjectId) => {
      const real = SESSIONS.get(id) as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>;
      return new Proxy({}, { get: (_, name: string) => (...a: unknown[]) => { calls.push(name); return real[name]!(...a); } });
    },
  } as unknown as PipelineDeps["sessions"];
  const index = { recordMany: async (u: IndexUpdate[]) => { batches.push(u.map((x) => x.kind)); return { ok: true }; } };
  return { calls, batches, deps: { sessions, index } };
}

/** The Anthropic adapter with a bad compile: it also cuts a byte of `model`, so the guarantee checker must refuse every edit. */
export const MODEL_CUTTING_ADAPTER: ProviderAdapter = {
  ...anthropicAdapter,
  compile: (parsed, plan) => {
    const c = anthropicAdapter.compile(parsed, plan);
    const model = getMember(parsed.root, "model")!;
    return { ...c, deletions: [{ start: model.start + 1, end: model.start + 2 }, ...c.deletions] };
  },
};

/** Bytes the stand-in received for `testId`, in order. */
export async function upstreamBodies(testId: string): Promise<Uint8Array[]> {
  return (await received(testId)).map(bytesOf);
}

/** Compaction on with `config` (JSON), nothing else changed. */
export const compactVars = (config: Record<string, unknown>): Record<string, string> => ({ COMPACTION_CONFIG: JSON.stringify(config), SLUICE_COMPACTION: "0", SLUICE_MEASURE: "0" });

/** Parses the `x-sluice-compaction` header's `k=v` fields (and the leading mode as `mode`). */
export function compactionHeader(res: Response): Record<string, string> {
  const raw = res.headers.get("x-sluice-compaction") ?? "";
  const [mode, ...rest] = raw.split(";").map((s) => s.trim());
  const out: Record<string, string> = { mode: mode ?? "" };
  for (const kv of rest) {
    const i = kv.indexOf("=");
    out[kv.slice(0, i)] = kv.slice(i + 1);
  }
  return out;
}

/** A deterministic log-like tool result of `lines` lines (~7.6 estimated tokens per line). */
export const logText = (tag: string, lines: number): string => Array.from({ length: lines }, (_, i) => `${tag} line ${i}: some log output here`).join("\n");

/**
 * A small Anthropic conversation whose two tool results are old enough to edit under
 * preserve_recent_turns 1: user → tool_use a → result a → tool_use b → result b → "done" → "next".
 */
export function literalAnthropic(resultA: string, resultB: string): Record<string, unknown> {
  return {
    model: "claude-sonnet-4-5",
    max_tokens: 1024,
    tools: [{ name: "shell", description: "stub", input_schema: { type: "object" } }],
    messages: [
      { role: "user", content: "Run the checks." },
      { role: "assistant", content: [{ type: "tool_use", id: "toolu_A", name: "shell", input: { cmd: "make a" } }] },
      { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_A", content: resultA }] },
      { role: "assistant", content: [{ type: "tool_use", id: "toolu_B", name: "shell", input: { cmd: "make b" } }] },
      { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_B", content: resultB }] },
      { role: "assistant", content: [{ type: "text", text: "Both ran." }] },
      { role: "user", content: "Next, please." },
    ],
  };
}

/** The literal conversation as Responses input items: two shell calls with long outputs, then "Both ran." and "Next.". */
export function literalResponsesInput(resultA: string, resultB: string): Record<string, unknown>[] {
  return [
    { type: "message", role: "user", content: [{ type: "input_text", text: "Run the checks." }] },
    { type: "function_call", call_id: "c1", name: "shell", arguments: "{\"cmd\":\"make a\"}" },
    { type: "function_call_output", call_id: "c1", output: resultA },
    { type: "function_call", call_id: "c2", name: "shell", arguments: "{\"cmd\":\"make b\"}" },
    { type: "function_call_output", call_id: "c2", output: resultB },
    { type: "message", role: "assistant", content: [{ type: "output_text", text: "Both ran." }] },
    { type: "message", role: "user", content: [{ type: "input_text", text: "Next." }] },
  ];
}

/** An empty signed thinking block (Claude Code with `display: "omitted"`). */
export const thinkingBlock = (s: string) => ({ type: "thinking", thinking: "", signature: `sig-${s}` });

/** The literal conversation in Claude Code's shape on claude-opus-5-5 (thinking on), with `extra` top-level fields: where Sluice adds its native edit. */
export function claudeCodeLiteral(extra: Record<string, unknown> = {}): string {
  const THINK = thinkingBlock;
  return JSON.stringify({
    model: "claude-opus-5-5",
    max_tokens: 32000,
    thinking: { type: "adaptive", display: "omitted" },
    tools: [{ name: "shell", description: "stub", input_schema: { type: "object" } }],
    messages: [
      { role: "user", content: "Run the checks." },
      { role: "assistant", content: [THINK("a"), { type: "tool_use", id: "toolu_A", name: "shell", input: { cmd: "make a" } }] },
      { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_A", content: logText("a", 800) }] },
      { role: "assistant", content: [THINK("b"), { type: "tool_use", id: "toolu_B", name: "shell", input: { cmd: "make b" } }] },
      { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_B", content: logText("b", 800) }] },
      { role: "assistant", content: [THINK("c"), { type: "text", text: "Both ran." }] },
      { role: "user", content: "Next, please." },
    ],
    ...extra,
  });
}

/**
 * Sends each of `bodies` to `path` in one new session, `gap_ms` apart, under LITERAL_CONFIG;
 * with `overrides` of the pipeline deps; returns the session id, each answer's `x-sluice-compaction`
 * header and the bytes the upstream got.
 */
export async function sessionCalls(path: string, bodies: readonly string[], gap_ms: number, headers: Record<string, string> = {}, overrides: Partial<PipelineDeps> = {}) {
  const id = newTestId("calls");
  const clock = manualClock();
  const h = { "x-test-id": id, "x-sluice-session": id, ...headers };
  const answers: (string | null)[] = [];
  for (const b of bodies) {
    const { res } = await send(compactVars(LITERAL_CONFIG), path, h, b, { now: clock.now, ...overrides });
    answers.push(res.headers.get("x-sluice-compaction"));
    clock.advance(gap_ms);
  }
  const dec = new TextDecoder();
  return { id, headers: answers, forwarded: (await upstreamBodies(id)).map((u) => dec.decode(u)) };
}

/**
 * Config under which the literal conversation's long results are collapsed by micro on the first
 * call. `min_remaining_calls` 8: a two-call conversation's step is priced as in a session that goes
 * on (at the default floor 2 the seed prior gives R = 2 there, and no step pays).
 */
export const LITERAL_CONFIG = { threshold_tokens: 0, preserve_recent_turns: 1, min_result_bytes: 256, head_chars: 200, min_reduction: 0.01, min_remaining_calls: 8 };

/** The literal conversation with two 800-line logs (14,443 estimated tokens, 7.2 % of a 200k window). */
export const LITERAL_BODY = utf8(JSON.stringify(literalAnthropic(logText("a", 800), logText("b", 800))));

/**
 * Sends LITERAL_BODY twice in a new session to /anthropic/v1/messages with `vars`: the first
 * call (nothing to do: the cache is warm for all Sluice knows, so no step pays), then — after
 * `before(session)` — the second 400 s later (past the 300 s cache TTL: a time_based step pays).
 * Returns the second call's header, the bytes the upstream got for it, and the session's stats.
 */
export async function literalTwoCalls(vars: Record<string, string>, overrides: Partial<PipelineDeps> = {}, extraHeaders: Record<string, string> = {}, before?: (session: string) => Promise<void>) {
  const session = newTestId("literal");
  const clock = manualClock();
  const headers = { "x-test-id": session, "x-sluice-session": session, ...extraHeaders };
  await send(vars, "/anthropic/v1/messages", headers, LITERAL_BODY, { now: clock.now, ...overrides });
  await before?.(session);
  clock.advance(400_000);
  const second = await send(vars, "/anthropic/v1/messages", headers, LITERAL_BODY, { now: clock.now, ...overrides });
  const bodies = await upstreamBodies(session);
  if (bodies.length !== 2) throw new Error(`upstream got ${bodies.length} bodies`);
  return { session, header: compactionHeader(second.res), raw: second.res.headers.get("x-sluice-compaction"), forwarded: bodies[1]!, stats: await statsOf(session) };
}

/** A corpus session as MANIFEST.md describes it. */
export interface CorpusDoc {
  id: string;
  provider: "anthropic" | "openai-chat";
  model: string | null;
  system: string | null;
  messages: Record<string, unknown>[];
  /** timestamps[i] belongs to messages[i] (ISO text, or null where none was recorded). */
  timestamps: (string | null)[];
}

export const corpus = (id: string): CorpusDoc => JSON.parse(inject(`corpus:${id}` as never) as string) as CorpusDoc;

/** Tool names used anywhere in the session, sorted (the stub definitions must be the same on every call). */
function toolNames(doc: CorpusDoc): { fn: string[]; custom: string[] } {
  const fn = new Set<string>();
  const custom = new Set<string>();
  for (const m of doc.messages) {
    if (Array.isArray(m.content)) for (const b of m.content as Record<string, unknown>[]) if (b.type === "tool_use") fn.add(String(b.name));
    for (const tc of (m.tool_calls as Record<string, unknown>[] | undefined) ?? []) {
      if (tc.type === "custom") custom.add(String((tc.custom as Record<string, unknown>).name));
      else fn.add(String((tc.function as Record<string, unknown>).name));
    }
  }
  return { fn: [...fn].sort(), custom: [...custom].sort() };
}

/** Indices k of assistant messages: call k's request history is messages[:k]. */
export const callEnds = (doc: CorpusDoc): number[] => doc.messages.flatMap((m, k) => (m.role === "assistant" ? [k] : []));

/**
 * The request body of the call answered by messages[end] (MANIFEST.md): Anthropic = model,
 * max_tokens, system?, stub tools, messages[:end]; OpenAI Chat = model, [system] + messages[:end],
 * stub tools (function, and custom for freeform tools).
 */
export function corpusRequest(doc: CorpusDoc, end: number): Uint8Array {
  const names = toolNames(doc);
  const history = doc.messages.slice(0, end);
  if (doc.provider === "anthropic") {
    const tools = names.fn.map((name) => ({ name, description: "stub", input_schema: { type: "object" } }));
    return utf8(JSON.stringify({ model: doc.model ?? "claude-sonnet-4-5", max_tokens: 4096, ...(doc.system !== null ? { system: doc.system } : {}), tools, messages: history }));
  }
  const tools = [
    ...names.fn.map((name) => ({ type: "function", function: { name, parameters: { type: "object" } } })),
    ...names.custom.map((name) => ({ type: "custom", custom: { name } })),
  ];
  const messages = [...(doc.system !== null ? [{ role: "system", content: doc.system }] : []), ...history];
  return utf8(JSON.stringify({ model: doc.model, messages, tools }));
}

/** Epoch ms of messages[i], or of the nearest earlier message with a timestamp; null when none. */
function stampAt(doc: CorpusDoc, i: number): number | null {
  for (let j = i; j >= 0; j--) {
    const t = doc.timestamps[j];
    if (typeof t === "string") {
      const ms = Date.parse(/[zZ]|[+-]\d\d:\d\d$/.test(t) ? t : `${t}Z`);
      if (!Number.isNaN(ms)) return ms;
    }
  }
  return null;
}

/**
 * Wall-clock gap the session really had before the call answering messages[:end], ms: from the
 * message before the previous call's answer to the message before this one (≥ 1 s; 60 s when
 * the session has no timestamps there).
 */
export function recordedGapMs(doc: CorpusDoc, prevEnd: number | null, end: number): number {
  if (prevEnd === null) return 1_000;
  const a = stampAt(doc, prevEnd - 1);
  const b = stampAt(doc, end - 1);
  return a === null || b === null ? 60_000 : Math.max(1_000, b - a);
}

/** A clock for the pipeline's `now` dep: starts at the real time, moves only when told. */
export function manualClock(): { now: () => number; advance: (ms: number) => void } {
  let t = Date.now();
  return { now: () => t, advance: (ms) => { t += ms; } };
}
