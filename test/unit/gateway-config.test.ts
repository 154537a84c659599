/** readGatewayConfig (src/config/gateway-config.ts): env vars in, whole config out. */
import { describe, expect, it } from "vitest";
import type { Env } from "../../src/config/env";
import { readGatewayConfig } from "../../src/config/gateway-config";

const env = (vars: Record<string, string>) => ({ SESSION: {} as DurableObjectNamespace, ...vars }) as Env;

describe("readGatewayConfig", () => {
  it("defaults: the providers' public hosts, 600 000 ms, no admin token, compaction off", () => {
    expect(readGatewayConfig(env({}))).toEqual({
      baseUrls: { anthropic: "https://api.anthropic.com", openai: "https://api.openai.com" },
      upstreamTimeoutMs: 600_000,
      adminTokenEnv: "SLUICE_ADMIN_TOKEN",
      adminToken: null,
      compactionConfigured: false,
    });
  });

  it("wrangler.toml's values (empty strings mean default) and operator overrides", () => {
    expect(
      readGatewayConfig(
        env({
          ANTHROPIC_BASE_URL: "",
          OPENAI_BASE_URL: " https://x.openai.azure.com/openai/deployments/d/ ",
          UPSTREAM_TIMEOUT_MS: "120000",
          COMPACTION_CONFIG: "",
          SLUICE_COMPACTION: "1",
          SLUICE_ADMIN_TOKEN: "adm-1",
        }),
      ),
    ).toEqual({
      baseUrls: { anthropic: "https://api.anthropic.com", openai: "https://x.openai.azure.com/openai/deployments/d" },
      upstreamTimeoutMs: 120_000,
      adminTokenEnv: "SLUICE_ADMIN_TOKEN",
      adminToken: "adm-1",
      compactionConfigured: true,
    });
  });

  it("names the bad var", () => {
    expect(() => readGatewayConfig(env({ ANTHROPIC_BASE_URL: "api.anthropic.com" }))).toThrow(
      "ANTHROPIC_BASE_URL: must be an http(s) URL without credentials, query or fragment",
    );
    expect(() => readGatewayConfig(env({ OPENAI_BASE_URL: "https://api.openai.com/?x=1" }))).toThrow(
      "OPENAI_BASE_URL: must be an http(s) URL without credentials, query or fragment",
    );
    expect(() => readGatewayConfig(env({ UPSTREAM_TIMEOUT_MS: "-5" }))).toThrow("UPSTREAM_TIMEOUT_MS: must be a positive integer (milliseconds)");
  });

  it("vars that only tune compaction are not the gateway's: a malformed one does not throw", () => {
    expect(readGatewayConfig(env({ SLUICE_INDEX_WINDOW_MS: "1.5", SLUICE_REPORT_WINDOW_MS: "soon", OPENAI_BASE_URL: "https://windows.example" })).baseUrls.openai).toBe("https://windows.example");
  });

  it("is parsed once per distinct value of the vars it reads: the same answer object, the same error", () => {
    const a = readGatewayConfig(env({ OPENAI_BASE_URL: "https://memo.example/v1" }));
    expect(readGatewayConfig(env({ OPENAI_BASE_URL: "https://memo.example/v1", UNRELATED: "x" }))).toBe(a);
    const b = readGatewayConfig(env({ OPENAI_BASE_URL: "https://memo.example/v2" }));
    expect([b === a, b.baseUrls.openai]).toEqual([false, "https://memo.example/v2"]);
    const bad = env({ UPSTREAM_TIMEOUT_MS: "soon" });
    expect(() => readGatewayConfig(bad)).toThrow("UPSTREAM_TIMEOUT_MS: must be a positive integer (milliseconds)");
    expect(() => readGatewayConfig(bad)).toThrow("UPSTREAM_TIMEOUT_MS: must be a positive integer (milliseconds)");
    // A changed admin token is seen at once.
    expect(readGatewayConfig(env({ SLUICE_ADMIN_TOKEN: "t-1" })).adminToken).toBe("t-1");
    expect(readGatewayConfig(env({ SLUICE_ADMIN_TOKEN: "t-2" })).adminToken).toBe("t-2");
  });

  it("the admin token is the secret admin_token_env names (the default one when the compaction config is invalid)", () => {
    const custom = JSON.stringify({ admin_token_env: "OPS_ADMIN_TOKEN" });
    const named = readGatewayConfig(env({ COMPACTION_CONFIG: custom, SLUICE_ADMIN_TOKEN: "default-1", OPS_ADMIN_TOKEN: "ops-1" }));
    expect([named.adminTokenEnv, named.adminToken]).toEqual(["OPS_ADMIN_TOKEN", "ops-1"]);
    expect(readGatewayConfig(env({ COMPACTION_CONFIG: custom, OPS_ADMIN_TOKEN: "ops-2" })).adminToken).toBe("ops-2");
    expect(readGatewayConfig(env({ COMPACTION_CONFIG: custom })).adminToken).toBe(null);
    const invalid = readGatewayConfig(env({ COMPACTION_CONFIG: '{"admin_token_env":"OPS_ADMIN_TOKEN","engine":"nope"}', SLUICE_ADMIN_TOKEN: "default-1", OPS_ADMIN_TOKEN: "ops-1" }));
    expect([invalid.adminTokenEnv, invalid.adminToken]).toEqual(["SLUICE_ADMIN_TOKEN", "default-1"]);
  });
});
