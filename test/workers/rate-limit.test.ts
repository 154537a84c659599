/**
 * Per-caller rate limit with the Workers Rate Limiting binding as miniflare runs
 * it: wrangler.toml's SLUICE_RATE_LIMITER (600/min) is bound, and vitest.config.ts adds
 * TEST_RATE_LIMITER_3 (3/min) which these tests put in its place. Over the limit: the provider's
 * 429 shape with retry-after, nothing forwarded; each caller fingerprint has its own budget.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { rejectionCounts } from "../../src/http/middleware/rejections";
import { gatewayWithEnv, newTestId, received } from "./helpers";

const limiter3 = (env as unknown as { TEST_RATE_LIMITER_3: RateLimit }).TEST_RATE_LIMITER_3;

async function send(vars: Record<string, unknown>, path: string, headers: Record<string, string>): Promise<Response> {
  return gatewayWithEnv(vars as Record<string, string>, path, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: "{}" });
}

describe("rate limit binding", () => {
  it("wrangler.toml's [[ratelimits]] binding is bound (miniflare runs it locally)", async () => {
    const bound = (env as unknown as { SLUICE_RATE_LIMITER?: RateLimit }).SLUICE_RATE_LIMITER;
    expect(typeof bound?.limit).toBe("function");
    expect(await bound!.limit({ key: newTestId("probe") })).toEqual({ success: true });
  });

  for (const family of ["anthropic", "openai"] as const) {
    it(`${family}: the 4th request of one caller in a minute → 429 in the provider's shape with retry-after; another caller still passes`, async () => {
      const id = newTestId(`rl-${family}`);
      const vars = { SLUICE_RATE_LIMITER: limiter3, SLUICE_RATE_LIMIT_PERIOD_SECONDS: "10" };
      const path = family === "anthropic" ? "/anthropic/v1/messages" : "/openai/v1/chat/completions";
      const key: Record<string, string> = family === "anthropic" ? { "x-api-key": `sk-${id}` } : { authorization: `Bearer sk-${id}` };
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++) statuses.push((await send(vars, path, { "x-test-id": id, ...key })).status);
      const before = rejectionCounts();
      const limited = await send(vars, path, { "x-test-id": id, ...key });
      const rid = limited.headers.get("x-sluice-request-id");
      const message = "Sluice rate limit reached for this caller: retry after 10 s";
      expect([...statuses, limited.status, limited.headers.get("retry-after"), await limited.json()]).toEqual([200, 200, 200, 429, "10",
        family === "anthropic"
          ? { type: "error", error: { type: "rate_limit_error", message }, request_id: rid }
          : { error: { message, type: "requests", param: null, code: "rate_limit_exceeded" } }]);
      expect((await received(id)).length).toBe(3);
      expect(rejectionCounts()).toEqual({ ...before, rate_limited: before.rate_limited + 1 });

      const other = await send(vars, path, { "x-test-id": `${id}-other`, ...(family === "anthropic" ? { "x-api-key": `sk-${id}-other` } : { authorization: `Bearer sk-${id}-other` }) });
      expect(other.status).toBe(200);
    });
  }

  it("the gateway key is the caller when sent: two provider keys behind one gateway key share its budget", async () => {
    const id = newTestId("rl-gw");
    const vars = { SLUICE_RATE_LIMITER: limiter3, SLUICE_GATEWAY_KEYS: `gw-${id}-0123456789`, SLUICE_CLIENT_AUTH: "required" };
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await send(vars, "/anthropic/v1/messages", { "x-test-id": id, "x-sluice-key": `gw-${id}-0123456789`, "x-api-key": `sk-${id}-${i}` })).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
  });

  it("a failing binding lets the request through (fail open) and the default retry-after is 60", async () => {
    const id = newTestId("rl-broken");
    const broken = { limit: async () => { throw new Error("binding down"); } };
    const res = await send({ SLUICE_RATE_LIMITER: broken }, "/anthropic/v1/messages", { "x-test-id": id, "x-api-key": "sk-x" });
    expect(res.status).toBe(200);
    const full = { limit: async () => ({ success: false }) };
    const limited = await send({ SLUICE_RATE_LIMITER: full, SLUICE_RATE_LIMIT_PERIOD_SECONDS: "" }, "/anthropic/v1/messages", { "x-test-id": `${id}-2`, "x-api-key": "sk-x" });
    expect([limited.status, limited.headers.get("retry-after")]).toEqual([429, "60"]);
    expect(await received(`${id}-2`)).toEqual([]);
  });
});
