/**
 * Helpers for Workers tests: call the gateway in-process through the Worker's default export
 * (`exports.default.fetch`), read what the upstream stand-in received, and drive its gated
 * scenarios. The gateway's own fetch is never stubbed: it reaches the stand-in over TCP.
 */
import { env, exports } from "cloudflare:workers";
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import worker from "../../src/worker";
import type { Env } from "../../src/config/env";

/** Test-only vars set in vitest.config.ts. */
interface TestVars {
  UPSTREAM_CONTROL_URL: string;
  UNREACHABLE_URL: string;
  SLUICE_ADMIN_TOKEN: string;
  ANTHROPIC_BASE_URL: string;
  OPENAI_BASE_URL: string;
}
export const testVars = env as unknown as TestVars;
export const upstreamControl = (): string => testVars.UPSTREAM_CONTROL_URL;

/**
 * A provider key for requests that must reach the compaction pipeline: a request without any
 * credential never creates session state (src/http/app.ts, DESIGN §11).
 */
export const TEST_API_KEY = "sk-ant-test-pipeline-key";

/** Sends a request to the Worker's default export. */
export function gateway(path: string, init?: RequestInit): Promise<Response> {
  return exports.default.fetch(new Request(`http://sluice.test${path}`, init));
}

/**
 * Sends a request to the same Worker module with some vars changed (e.g. a base URL where
 * nothing listens, a short timeout). Only for what one vitest config cannot express; the
 * upstream fetch is still real. The response is returned read whole, after the request's
 * waitUntil work (DO reports) finished; a streaming test uses the Worker directly.
 */
export async function gatewayWithEnv(overrides: Partial<Record<string, string>>, path: string, init?: RequestInit): Promise<Response> {
  const ctx = createExecutionContext();
  const res = await worker.fetch(new Request(`http://sluice.test${path}`, init) as Request<unknown, IncomingRequestCfProperties>, { ...(env as unknown as Env), ...overrides }, ctx);
  // The body is read before waiting on the context: the usage tap's waitUntil work settles only
  // once the client has read the body (src/usage/tap-usage.ts reads nothing ahead of the client).
  const body = res.body === null ? null : await res.arrayBuffer();
  await waitOnExecutionContext(ctx);
  return new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers });
}

export interface Received {
  method: string;
  path: string;
  headers: Record<string, string>;
  body_base64: string;
}

/** What the upstream stand-in recorded for `testId`, in arrival order. */
export async function received(testId: string): Promise<Received[]> {
  const res = await fetch(`${upstreamControl()}/__received/${encodeURIComponent(testId)}`);
  return (await res.json()) as Received[];
}

/** Progress of an `sse-gated` answer: events written so far, and whether the upstream ended the body. */
export async function progress(testId: string): Promise<{ sent: number; finished: boolean } | null> {
  const res = await fetch(`${upstreamControl()}/__progress/${encodeURIComponent(testId)}`);
  return (await res.json()) as { sent: number; finished: boolean } | null;
}

/** Lets an `sse-gated` answer send its next event. */
export async function release(testId: string): Promise<boolean> {
  const res = await fetch(`${upstreamControl()}/__release/${encodeURIComponent(testId)}`, { method: "POST" });
  return ((await res.json()) as { released: boolean }).released;
}

export function bytesOf(r: Received): Uint8Array {
  const bin = atob(r.body_base64);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

export const utf8 = (s: string): Uint8Array => new TextEncoder().encode(s);

export async function sha256Hex(bytes: Uint8Array | ArrayBuffer): Promise<string> {
  const d = await crypto.subtle.digest("SHA-256", bytes);
  return [...new Uint8Array(d)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** Concatenates byte chunks. */
export function concat(chunks: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of chunks) { out.set(c, at); at += c.length; }
  return out;
}

let counter = 0;
/** A unique test id for the stand-in's recording. */
export const newTestId = (prefix: string): string => `${prefix}-${Date.now()}-${++counter}`;

/** Whether the upstream connection of `testId`'s last request closed, and whether its answer was complete; null while open. */
export async function closedState(testId: string): Promise<{ finished: boolean } | null> {
  const res = await fetch(`${upstreamControl()}/__closed/${encodeURIComponent(testId)}`);
  return (await res.json()) as { finished: boolean } | null;
}
