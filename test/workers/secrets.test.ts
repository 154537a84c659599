/**
 * Secrets are never vars in workerd: outside wrangler dev (SLUICE_ENV not
 * "development") the development audit key — or none — makes the audit trail refuse to sign, and
 * GET /healthz names the secret (never its value). Under wrangler dev (the tests' default vars)
 * the same key signs.
 */
import { env } from "cloudflare:workers";
import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { Env } from "../../src/config/env";
import { DEV_AUDIT_KEY } from "../../src/config/secrets";
import type { AuditEntry } from "../../src/core/audit/audit-record";
import type { AuditObject } from "../../src/do/audit-object";
import { VERSION } from "../../src/version";
import { gatewayWithEnv } from "./helpers";

const E = env as unknown as Env;
const ENTRY: AuditEntry = { kind: "engine_destination", fields: { engine: "remote", host: "engine.example.com" } };

describe("the audit key outside wrangler dev", () => {
  const cases: Array<[string, Record<string, string | undefined>, string]> = [
    ["the development value", { SLUICE_ENV: "", SLUICE_AUDIT_KEY: DEV_AUDIT_KEY },
      "audit trail refuses to sign: SLUICE_AUDIT_KEY holds a development value (dev-only-…) outside wrangler dev: set a real secret (wrangler secret put SLUICE_AUDIT_KEY)"],
    ["no key", { SLUICE_ENV: "production", SLUICE_AUDIT_KEY: undefined },
      "audit trail refuses to sign: SLUICE_AUDIT_KEY is not set (wrangler secret put SLUICE_AUDIT_KEY)"],
  ];
  for (const [what, vars, error] of cases) {
    it(`${what}: append refuses naming the secret, nothing is written; a real key signs`, async () => {
      const stub = E.AUDIT.get(E.AUDIT.idFromName(`secrets-${what}`));
      await runInDurableObject(stub, async (instance: AuditObject) => {
        const self = instance as unknown as { env: Env };
        const saved = self.env;
        try {
          self.env = { ...saved, ...vars } as Env;
          expect(await instance.append(ENTRY)).toEqual({ ok: false, error });
          expect(await instance.list(0, 10)).toEqual([]);
          expect(JSON.stringify(await instance.verify())).not.toContain(DEV_AUDIT_KEY);
          self.env = { ...saved, ...vars, SLUICE_AUDIT_KEY: "a-real-production-secret-91f3" } as Env;
          const ok = await instance.append(ENTRY);
          expect(ok.ok && ok.record.seq).toBe(1);
        } finally {
          self.env = saved;
        }
      });
    });
  }

  it("under wrangler dev (SLUICE_ENV=development) the development key signs", async () => {
    const stub = E.AUDIT.get(E.AUDIT.idFromName("secrets-dev"));
    expect(E.SLUICE_AUDIT_KEY).toBe(DEV_AUDIT_KEY);
    const r = await stub.append(ENTRY);
    expect(r.ok && r.record.seq).toBe(1);
  });
});

describe("GET /healthz names unusable secrets", () => {
  it("deployed with the development audit key and no client keys: 200, both named, no value shown", async () => {
    const res = await gatewayWithEnv({ SLUICE_ENV: "" }, "/healthz");
    const text = await res.text();
    expect(res.status).toBe(200);
    expect(JSON.parse(text)).toEqual({
      ok: true, name: "sluice", version: VERSION, compaction_configured: false, compaction_mode: "off",
      secrets: [
        { name: "SLUICE_AUDIT_KEY", problem: "development_value", message: "audit trail refuses to sign: SLUICE_AUDIT_KEY holds a development value (dev-only-…) outside wrangler dev: set a real secret (wrangler secret put SLUICE_AUDIT_KEY)" },
        { name: "SLUICE_CLIENT_AUTH", problem: "invalid", message: "SLUICE_CLIENT_AUTH: client authentication is required but neither SLUICE_CLIENT_KEY_SHA256 nor SLUICE_GATEWAY_KEYS holds a usable entry: every caller is refused (set one, or SLUICE_CLIENT_AUTH=off)" },
      ],
    });
    expect(text).not.toContain(DEV_AUDIT_KEY);
  });

  it("deployed with real secrets: no secrets field", async () => {
    const res = await gatewayWithEnv({ SLUICE_ENV: "", SLUICE_AUDIT_KEY: "a-real-production-secret-91f3", SLUICE_GATEWAY_KEYS: "gw-real-gateway-key-7a1c" }, "/healthz");
    expect(await res.json()).toEqual({ ok: true, name: "sluice", version: VERSION, compaction_configured: false, compaction_mode: "off" });
  });

  it("an audit_key_env naming another secret is checked by that name", async () => {
    const res = await gatewayWithEnv({ SLUICE_ENV: "", SLUICE_CLIENT_AUTH: "off", COMPACTION_CONFIG: '{"enabled":false,"audit_key_env":"OPS_AUDIT_KEY"}' }, "/healthz");
    expect(((await res.json()) as { secrets: unknown }).secrets).toEqual([
      { name: "OPS_AUDIT_KEY", problem: "missing", message: "audit trail refuses to sign: OPS_AUDIT_KEY is not set (wrangler secret put OPS_AUDIT_KEY)" },
    ]);
  });
});
