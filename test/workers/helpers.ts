/** Helpers for Workers tests: call the gateway in-process, read what the upstream stand-in received. */
import { env, exports } from "cloudflare:workers";

export const upstreamControl = (): string => (env as unknown as { UPSTREAM_CONTROL_URL: string }).UPSTREAM_CONTROL_URL;

/** Sends a request to the Worker's default export. */
export function gateway(path: string, init?: RequestInit): Promise<Response> {
  return exports.default.fetch(new Request(`http://sluice.test${path}`, init));
}

export interface Received {
  method: string;
  path: string;
  headers: Record<string, string>;
  body_base64: string;
}

/** What the upstream stand-in recorded for `testId`. */
export async function received(testId: string): Promise<Received[]> {
  const res = await fetch(`${upstreamControl()}/__received/${encodeURIComponent(testId)}`);
  return (await res.json()) as Received[];
}

export function bytesOf(r: Received): Uint8Array {
  const bin = atob(r.body_base64);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

export async function sha256Hex(bytes: Uint8Array | ArrayBuffer): Promise<string> {
  const d = await crypto.subtle.digest("SHA-256", bytes);
  return [...new Uint8Array(d)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

let counter = 0;
/** A unique test id for the stand-in's recording. */
export const newTestId = (prefix: string): string => `${prefix}-${Date.now()}-${++counter}`;
