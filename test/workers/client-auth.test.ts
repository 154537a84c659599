/**
 * Client authentication through the real app in workerd: an allow-list of
 * provider-key fingerprints and gateway keys in `x-sluice-key`. Refused callers get the provider's
 * own 401 shape, nothing reaches the upstream stand-in, no Durable Object is called, and only the
 * rejected counter moves. A request without any credential never creates session state, in any
 * mode. The session namespace and the index are wrapped to record every call (the real objects
 * still answer).
 */
import { describe, expect, it } from "vitest";
import type { IndexUpdate } from "../../src/admin/index-update";
import { readGatewayConfig } from "../../src/config/gateway-config";
import type { PipelineDeps } from "../../src/gateway/compaction-pipeline";
import { compactionHookFor } from "../../src/gateway/compaction-setup";
import { IndexBuffer } from "../../src/gateway/index-buffer";
import { createApp } from "../../src/http/app";
import { rejectionCounts } from "../../src/http/middleware/rejections";
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { E, LITERAL_BODY, SESSIONS } from "./pipeline-harness";
import { newTestId, received, sha256Hex, utf8 } from "./helpers";

const PROVIDER_KEY = "sk-ant-api03-allowed-caller-key";
const OTHER_KEY = "sk-ant-api03-unknown-caller-key";
const GATEWAY_KEY = "gw-4f9c2a7d1e8b6035c4aa";

/** Sends one request through createApp with the real compaction hook, recording DO calls. */
async function call(vars: Record<string, string>, path: string, headers: Record<string, string>, body: Uint8Array | string = LITERAL_BODY) {
  const doCalls: string[] = [];
  const sessions = {
    idFromName: (name: string) => { doCalls.push(`idFromName`); return SESSIONS.idFromName(name); },
    get: (id: DurableObjectId) => {
      const real = SESSIONS.get(id) as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>;
      return new Proxy({}, { get: (_, name: string) => (...a: unknown[]) => { doCalls.push(name); return real[name]!(...a); } });
    },
  } as unknown as PipelineDeps["sessions"];
  const index = { recordMany: async (u: IndexUpdate[]) => { doCalls.push(`index:${u.length}`); return { ok: true }; } };
  const deps: Partial<PipelineDeps> = { indexBuffer: new IndexBuffer(0), sessions, index };
  const app = createApp((e, c) => ({ config: readGatewayConfig(e), compact: compactionHookFor(e, c, deps) }));
  const ctx = createExecutionContext();
  const res = await app.fetch(new Request(`http://sluice.test${path}`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: typeof body === "string" ? utf8(body) : body }), { ...E, SLUICE_COMPACTION: "1", ...vars }, ctx);
  const text = await res.text();
  await waitOnExecutionContext(ctx);
  return { res, text, doCalls };
}

const fingerprint = await sha256Hex(utf8(PROVIDER_KEY));
const REQUIRED = { SLUICE_CLIENT_AUTH: "required", SLUICE_CLIENT_KEY_SHA256: `${"0".repeat(64)}, ${fingerprint.toUpperCase()}`, SLUICE_GATEWAY_KEYS: `other-key-0123456789 ${GATEWAY_KEY}` };

describe("client authentication required", () => {
  it("an allowed provider key passes untouched: forwarded with its own header, session state created", async () => {
    const id = newTestId("auth-allowed");
    const r = await call(REQUIRED, "/anthropic/v1/messages", { "x-test-id": id, "x-sluice-session": id, "x-api-key": PROVIDER_KEY });
    expect(r.res.status).toBe(200);
    const recs = await received(id);
    expect(recs.map((x) => [x.path, x.headers["x-api-key"]])).toEqual([["/anthropic-upstream/v1/messages", PROVIDER_KEY]]);
    expect(r.doCalls).toContain("idFromName");
  });

  it("a gateway key in x-sluice-key passes and is never forwarded; the provider key still goes", async () => {
    const id = newTestId("auth-gw");
    const r = await call(REQUIRED, "/openai/v1/chat/completions", { "x-test-id": id, authorization: `Bearer ${OTHER_KEY}`, "x-sluice-key": GATEWAY_KEY },
      JSON.stringify({ model: "gpt-4o", messages: [{ role: "user", content: "hi" }] }));
    expect(r.res.status).toBe(200);
    const recs = await received(id);
    expect(recs.length).toBe(1);
    expect(recs[0]!.headers.authorization).toBe(`Bearer ${OTHER_KEY}`);
    expect(Object.keys(recs[0]!.headers).filter((h) => h.startsWith("x-sluice"))).toEqual([]);
  });

  const refused: Array<[string, "anthropic" | "openai", Record<string, string>, string]> = [
    ["no credential", "anthropic", {}, "send a gateway key in the x-sluice-key header, or an allowed provider API key"],
    ["an unlisted provider key", "anthropic", { "x-api-key": OTHER_KEY }, "this API key is not on the gateway's allow-list (send a gateway key in the x-sluice-key header, or ask the operator to allow the key)"],
    ["a wrong gateway key (even with an allowed provider key)", "openai", { "x-sluice-key": "gw-wrong-key-000000000", authorization: `Bearer ${PROVIDER_KEY}` }, "the x-sluice-key header holds no valid gateway key"],
    ["an unlisted bearer token", "openai", { authorization: `Bearer ${OTHER_KEY}` }, "this API key is not on the gateway's allow-list (send a gateway key in the x-sluice-key header, or ask the operator to allow the key)"],
  ];
  for (const [what, family, headers, detail] of refused) {
    it(`${what} → ${family} 401 shape, no upstream call, no Durable Object, one rejection counted`, async () => {
      const id = newTestId("auth-refused");
      const before = rejectionCounts();
      const path = family === "anthropic" ? "/anthropic/v1/messages" : "/openai/v1/chat/completions";
      const r = await call(REQUIRED, path, { "x-test-id": id, "x-sluice-session": id, ...headers });
      const rid = r.res.headers.get("x-sluice-request-id");
      const message = `Sluice refused the caller: ${detail}`;
      expect([r.res.status, r.res.headers.get("content-type"), JSON.parse(r.text)]).toEqual([401, "application/json",
        family === "anthropic"
          ? { type: "error", error: { type: "authentication_error", message }, request_id: rid }
          : { error: { message, type: "invalid_request_error", param: null, code: "invalid_api_key" } }]);
      expect(await received(id)).toEqual([]);
      expect(r.doCalls).toEqual([]);
      expect(rejectionCounts()).toEqual({ ...before, unauthenticated: before.unauthenticated + 1 });
    });
  }

  it("required with no usable key refuses everyone (never an open relay) and /healthz names the var", async () => {
    const id = newTestId("auth-nokeys");
    const vars = { SLUICE_CLIENT_AUTH: "required", SLUICE_GATEWAY_KEYS: "short" };
    const r = await call(vars, "/anthropic/v1/messages", { "x-test-id": id, "x-api-key": PROVIDER_KEY });
    expect(r.res.status).toBe(401);
    expect(await received(id)).toEqual([]);
    const health = await createApp().request("/healthz", {}, { ...E, ...vars });
    expect(((await health.json()) as { secrets: unknown }).secrets).toEqual([
      { name: "SLUICE_GATEWAY_KEYS", problem: "invalid", message: "SLUICE_GATEWAY_KEYS: 1 key is shorter than 16 characters and ignored" },
      { name: "SLUICE_CLIENT_AUTH", problem: "invalid", message: "SLUICE_CLIENT_AUTH: client authentication is required but neither SLUICE_CLIENT_KEY_SHA256 nor SLUICE_GATEWAY_KEYS holds a usable entry: every caller is refused (set one, or SLUICE_CLIENT_AUTH=off)" },
    ]);
  });

  it("auto outside wrangler dev (SLUICE_ENV unset) is required", async () => {
    const id = newTestId("auth-auto-prod");
    const r = await call({ SLUICE_ENV: "", SLUICE_CLIENT_KEY_SHA256: fingerprint }, "/anthropic/v1/messages", { "x-test-id": id, "x-api-key": OTHER_KEY });
    expect(r.res.status).toBe(401);
    expect(await received(id)).toEqual([]);
  });
});

describe("no credential never creates session state, in any mode", () => {
  for (const vars of [{ SLUICE_CLIENT_AUTH: "off" }, { SLUICE_CLIENT_AUTH: "" } /* auto under SLUICE_ENV=development = off */]) {
    it(`${JSON.stringify(vars)}: forwarded untouched, no Durable Object; the same request with a key does use one`, async () => {
      const id = newTestId("auth-off-anon");
      const anon = await call(vars, "/anthropic/v1/messages", { "x-test-id": id, "x-sluice-session": id });
      expect(anon.res.status).toBe(200);
      expect((await received(id)).map((x) => bytesLen(x.body_base64))).toEqual([LITERAL_BODY.length]);
      expect(anon.doCalls).toEqual([]);
      const keyed = await call(vars, "/anthropic/v1/messages", { "x-test-id": `${id}-k`, "x-sluice-session": `${id}-k`, "x-api-key": OTHER_KEY });
      expect(keyed.res.status).toBe(200);
      expect(keyed.doCalls).toContain("idFromName");
    });
  }
});

function bytesLen(b64: string): number {
  return atob(b64).length;
}
