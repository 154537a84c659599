/**
 * GET /healthz: 200 JSON with the version and whether compaction is configured
 * (COMPACTION_CONFIG non-empty or SLUICE_COMPACTION = "1"), plus a request id. A bad var fails
 * requests with a 500 whose message names the var.
 */
import { describe, expect, it } from "vitest";
import { VERSION } from "../../src/version";
import { gateway, gatewayWithEnv } from "./helpers";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe("GET /healthz", () => {
  it("with wrangler.toml's defaults: 200, version, compaction not configured", async () => {
    const res = await gateway("/healthz");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/json");
    expect(res.headers.get("x-sluice-request-id")).toMatch(UUID);
    expect(await res.json()).toEqual({ ok: true, name: "sluice", version: "0.1.0", compaction_configured: false, compaction_mode: "off" });
    expect(VERSION).toBe("0.1.0");
  });

  const cases: Array<[Record<string, string>, boolean, "off" | "measure" | "compact"]> = [
    [{ SLUICE_COMPACTION: "1" }, true, "compact"],
    [{ SLUICE_COMPACTION: "0" }, false, "off"],
    [{ SLUICE_MEASURE: "1" }, true, "measure"],
    [{ SLUICE_MEASURE: "0" }, false, "off"],
    [{ COMPACTION_CONFIG: '{"enabled":true}' }, true, "compact"],
    [{ COMPACTION_CONFIG: '{"enabled":false}' }, true, "off"],
    [{ COMPACTION_CONFIG: "   " }, false, "off"],
    [{ COMPACTION_CONFIG: "", SLUICE_COMPACTION: "" }, false, "off"],
  ];
  for (const [vars, configured, mode] of cases) {
    it(`${JSON.stringify(vars)} → compaction_configured ${configured}, mode ${mode}`, async () => {
      const res = await gatewayWithEnv(vars, "/healthz");
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ ok: true, name: "sluice", version: VERSION, compaction_configured: configured, compaction_mode: mode });
    });
  }

  const bad: Array<[Record<string, string>, string, string]> = [
    [{ SLUICE_COMPACTION: "true" }, "SLUICE_COMPACTION", 'SLUICE_COMPACTION must be "0", "1" or empty'],
    [{ SLUICE_COMPACTION: " 1 " }, "SLUICE_COMPACTION", 'SLUICE_COMPACTION must be "0", "1" or empty'],
    [{ COMPACTION_CONFIG: '{"threshold_tokens":-5}' }, "threshold_tokens", "threshold_tokens must be an integer from 0 to 10000000"],
  ];
  for (const [vars, field, message] of bad) {
    it(`${JSON.stringify(vars)} → 503 naming ${field}; compaction stays off`, async () => {
      const res = await gatewayWithEnv(vars, "/healthz");
      expect(res.status).toBe(503);
      expect(await res.json()).toEqual({ ok: false, name: "sluice", version: VERSION, compaction_configured: false, error: { field, message } });
    });
  }

  it("HEAD /healthz answers 200 without a body", async () => {
    const res = await gateway("/healthz", { method: "HEAD" });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe("");
  });
});

describe("vars that tune compaction never break forwarding", () => {
  // SLUICE_INDEX_WINDOW_MS / SLUICE_REPORT_WINDOW_MS once answered 500 on every proxied request when malformed; windows are constants now, and a bad compaction setting turns compaction off.
  const TUNING = { SLUICE_INDEX_WINDOW_MS: "1.5", SLUICE_REPORT_WINDOW_MS: "soon", COMPACTION_CONFIG: '{"idle_seconds":-1}' };
  it("passthrough and chat routes answer 200 with the bytes forwarded untouched; /healthz 503 names the compaction key", async () => {
    const models = await gatewayWithEnv(TUNING, "/openai/v1/models");
    expect(models.status).toBe(200);
    const chat = await gatewayWithEnv(TUNING, "/anthropic/v1/messages", { method: "POST", headers: { "content-type": "application/json" }, body: '{"model":"claude-sonnet-4-5","max_tokens":8,"messages":[{"role":"user","content":"hi"}]}' });
    expect([chat.status, chat.headers.get("x-sluice-compaction")]).toEqual([200, null]);
    const health = await gatewayWithEnv(TUNING, "/healthz");
    expect(health.status).toBe(503);
    expect(((await health.json()) as { error: { field: string } }).error.field).toBe("idle_seconds");
  });
});

describe("bad vars are named", () => {
  it("GET /healthz with a bad gateway var → 503 naming it", async () => {
    const res = await gatewayWithEnv({ UPSTREAM_TIMEOUT_MS: "10s" }, "/healthz");
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({
      ok: false, name: "sluice", version: VERSION, compaction_configured: false,
      error: { field: "UPSTREAM_TIMEOUT_MS", message: "UPSTREAM_TIMEOUT_MS: must be a positive integer (milliseconds)" },
    });
  });

  const cases: Array<[Record<string, string>, string, string]> = [
    [{ ANTHROPIC_BASE_URL: "ftp://example.com" }, "/anthropic/v1/messages", "ANTHROPIC_BASE_URL: must be an http(s) URL without credentials, query or fragment"],
    [{ OPENAI_BASE_URL: "https://user:pw@example.com" }, "/openai/v1/models", "OPENAI_BASE_URL: must be an http(s) URL without credentials, query or fragment"],
    [{ UPSTREAM_TIMEOUT_MS: "0" }, "/openai/v1/models", "UPSTREAM_TIMEOUT_MS: must be a positive integer (milliseconds)"],
  ];
  for (const [vars, path, message] of cases) {
    it(`${JSON.stringify(vars)} → 500 "${message}"`, async () => {
      const res = await gatewayWithEnv(vars, path);
      expect(res.status).toBe(500);
      expect(res.headers.get("x-sluice-request-id")).toMatch(UUID);
      const body = (await res.json()) as { error: { message: string } };
      expect(body.error.message).toBe(`Sluice internal error: ${message}`);
    });
  }
});
