import { describe, expect, it } from "vitest";
import { loadConfig } from "../../../src/config/load-config";
import { createEngine } from "../../../src/engines/create-engine";

const configOf = (block: Record<string, unknown>) => {
  const r = loadConfig({ COMPACTION_CONFIG: JSON.stringify(block) });
  if (!r.ok) throw new Error(r.error.message);
  return r.config;
};

describe("createEngine", () => {
  it("heuristic needs no network", () => {
    expect(createEngine(configOf({}), { env: {} })).toEqual({ kind: "heuristic" });
  });

  it("local and remote are the same client with different config", () => {
    const local = createEngine(configOf({ engine: "local", endpoint: "http://127.0.0.1:8789/decide" }), { env: {} });
    const remote = createEngine(configOf({ engine: "remote", endpoint: "https://engine.example.com:8443/v1/decide", consent_export_prompt: true }), { env: {} });
    expect([local.kind, "host" in local && local.host, remote.kind, "host" in remote && remote.host]).toEqual(
      ["local", "127.0.0.1:8789", "remote", "engine.example.com:8443"]);
  });
});
