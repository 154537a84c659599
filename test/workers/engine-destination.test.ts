/**
 * The remote engine's destination: announced when the config is first loaded —
 * one structured JSON line naming the host — and written to the audit trail as a dated
 * `engine_destination` record (with `config_loaded` and `consent`), once per config. No engine
 * call is needed: the request is below threshold_tokens, so the engine is never asked.
 */
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Env } from "../../src/config/env";
import type { AuditRecord } from "../../src/core/audit/audit-record";
import { AUDIT_OBJECT_NAME } from "../../src/do/audit-object";
import { loadConfig } from "../../src/config/load-config";
import { gatewayWithEnv, newTestId, sha256Hex, utf8 } from "./helpers";

const E = env as unknown as Env;

afterEach(() => vi.restoreAllMocks());

describe("engine destination", () => {
  it("remote: one JSON line at first load, then config_loaded, consent and engine_destination records, each once", async () => {
    const host = `${newTestId("engine")}.example.com:8443`;
    const config = JSON.stringify({ engine: "remote", endpoint: `https://${host}/decide?x=1`, consent_export_prompt: true, head_chars: 300 });
    const lines: string[] = [];
    vi.spyOn(console, "log").mockImplementation((line: unknown) => { lines.push(String(line)); });
    const before = (await auditTail()).length;

    const health = await gatewayWithEnv({ COMPACTION_CONFIG: config }, "/healthz");
    expect(health.status).toBe(200);
    expect(lines.filter((l) => l.includes("engine_destination")).map((l) => JSON.parse(l))).toEqual([
      { event: "engine_destination", engine: "remote", host, head_chars: 300 },
    ]);

    for (let i = 0; i < 2; i++) {
      const res = await gatewayWithEnv({ COMPACTION_CONFIG: config }, "/anthropic/v1/messages", {
        method: "POST", headers: { "content-type": "application/json", "x-api-key": "sk-ant-test", "x-test-id": newTestId("engine-req") },
        body: JSON.stringify({ model: "claude-sonnet-4-5", max_tokens: 16, messages: [{ role: "user", content: "hi" }] }),
      });
      expect(res.status).toBe(200);
    }
    // A second load of the same config in this isolate logs nothing more.
    expect(lines.filter((l) => l.includes("engine_destination")).length).toBe(1);

    const mine = (await auditTail()).slice(before).filter((r) => r.kind === "config_loaded" || r.fields.host === host);
    expect(mine.map((r) => [r.kind, r.kind === "config_loaded" ? { mode: r.fields.mode, engine: r.fields.engine } : r.fields])).toEqual([
      ["config_loaded", { mode: "compact", engine: "remote" }],
      ["consent", { scope: "export_prompt", host, config_hash: mine[0]!.fields.config_hash }],
      ["engine_destination", { engine: "remote", host }],
    ]);
    // config_hash names the loaded config: SHA-256 of its JSON, which holds env var names, never their values.
    const loaded = loadConfig({ ...E, COMPACTION_CONFIG: config });
    if (!loaded.ok) throw new Error(loaded.error.message);
    expect(mine[0]!.fields.config_hash).toBe(await sha256Hex(utf8(JSON.stringify(loaded.config))));
    expect(mine.every((r) => /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/.test(r.time))).toBe(true);
  });

  it("heuristic engine: no line, no engine_destination record", async () => {
    const lines: string[] = [];
    vi.spyOn(console, "log").mockImplementation((line: unknown) => { lines.push(String(line)); });
    const res = await gatewayWithEnv({ COMPACTION_CONFIG: JSON.stringify({ threshold_tokens: 12_345 }) }, "/healthz");
    expect(res.status).toBe(200);
    expect(lines.filter((l) => l.includes("engine_destination"))).toEqual([]);
  });
});

async function auditTail(): Promise<AuditRecord[]> {
  const stub = E.AUDIT.get(E.AUDIT.idFromName(AUDIT_OBJECT_NAME));
  const out: AuditRecord[] = [];
  for (let since = 0; ;) {
    const page = await stub.list(since, 500);
    if (page.length === 0) return out;
    out.push(...(page as AuditRecord[]));
    since = page[page.length - 1]!.seq;
  }
}
