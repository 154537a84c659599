import { describe, expect, it } from "vitest";
import { loadConfig } from "../../../src/config/load-config";
import { secretNames } from "../../../tools/shared/production-vars";

const load = (block: Record<string, unknown>, env: Record<string, string> = {}) => loadConfig({ COMPACTION_CONFIG: JSON.stringify(block), ...env });

describe("summarizer config", () => {
  it("is absent by default: no summariser", () => {
    const r = load({});
    expect(r.ok && r.config.summarizer).toBe(null);
  });

  it("fills the defaults of a local OpenAI-compatible server", () => {
    const r = load({ summarizer: { kind: "openai_chat", endpoint: "http://127.0.0.1:8080/v1/chat/completions", model: "qwen2.5-coder:7b" } });
    expect(r.ok && r.config.summarizer).toEqual({
      kind: "openai_chat", endpoint: "http://127.0.0.1:8080/v1/chat/completions", model: "qwen2.5-coder:7b", api_key_env: null,
      timeout_ms: 10_000, max_summary_chars: 4_000, max_output_tokens: 1_024, input_per_mtok: null, output_per_mtok: null,
    });
  });

  it("refuses a remote endpoint without consent, naming the field and the consent key", () => {
    const r = load({ summarizer: { kind: "openai_chat", endpoint: "https://api.openai.com/v1/chat/completions", model: "gpt-4o-mini", api_key_env: "OPENAI_API_KEY" } });
    expect(r).toEqual({ ok: false, error: {
      field: "summarizer.endpoint",
      message: "summarizer.endpoint host api.openai.com is a hostname not known to be local (not 127.0.0.0/8, ::1, 10/8, 172.16/12, 192.168/16, fc00::/7 or localhost) and would receive whole turns: set consent_export_prompt to true to allow it",
    } });
    expect(load({ summarizer: { kind: "engine", endpoint: "http://8.8.8.8/summarize" } })).toMatchObject({ ok: false, error: { field: "summarizer.endpoint" } });
  });

  it("accepts a remote endpoint with consent and warns when its credential is not set", () => {
    const r = load({ consent_export_prompt: true, summarizer: { kind: "openai_chat", endpoint: "https://api.openai.com/v1/chat/completions", model: "gpt-4o-mini", api_key_env: "OPENAI_API_KEY" } });
    expect(r.ok).toBe(true);
    if (r.ok) expect(r.warnings).toContain("summarizer.api_key_env names OPENAI_API_KEY, which is not set: every summary will fail and its step falls back to removal only");
    if (r.ok) expect(r.warnings.some((w) => w.startsWith("consent_export_prompt is ignored"))).toBe(false);
  });

  it("names the nested field of every other mistake", () => {
    expect(load({ summarizer: { kind: "openai_chat", endpoint: "http://localhost:11434/v1/chat/completions" } })).toMatchObject({ ok: false, error: { field: "summarizer.model", message: "summarizer.model is required when summarizer.kind is \"openai_chat\"" } });
    expect(load({ summarizer: { kind: "gpt", endpoint: "http://localhost/x" } })).toMatchObject({ ok: false, error: { field: "summarizer.kind", message: "summarizer.kind must be one of engine, openai_chat" } });
    expect(load({ summarizer: { kind: "engine", endpoint: "http://localhost/x", timeout: 5 } })).toMatchObject({ ok: false, error: { field: "summarizer.timeout", message: "unknown key \"summarizer.timeout\": did you mean \"summarizer.timeout_ms\"? (see docs/configuration.md for the known keys)" } });
    expect(load({ summarizer: { kind: "engine", endpoint: "http://localhost/x", zzz: 5 } })).toMatchObject({ ok: false, error: { field: "summarizer.zzz", message: "unknown key \"summarizer.zzz\" (see docs/configuration.md for the known keys)" } });
    expect(load({ summarizer: { kind: "engine", endpoint: "http://localhost/x", timeout_ms: 10 } })).toMatchObject({ ok: false, error: { field: "summarizer.timeout_ms", message: "summarizer.timeout_ms must be an integer from 50 to 120000" } });
    expect(load({ summarizer: { kind: "engine", endpoint: "http://localhost/x", input_per_mtok: 1 } })).toMatchObject({ ok: false, error: { field: "summarizer.input_per_mtok" } });
    expect(load({ summarizer: { kind: "engine", endpoint: "http://localhost/x", api_key_env: "sk-live-abc" } })).toMatchObject({ ok: false, error: { field: "summarizer.api_key_env" } });
    expect(load({ summarizer: "yes" })).toMatchObject({ ok: false, error: { field: "summarizer", message: "summarizer must be an object or null" } });
  });
});

describe("summarizer secret", () => {
  it("config:check lists the summariser's credential NAME among the secrets to set", () => {
    const names = secretNames({ COMPACTION_CONFIG: JSON.stringify({ consent_export_prompt: true, summarizer: { kind: "openai_chat", endpoint: "https://api.openai.com/v1/chat/completions", model: "gpt-4o-mini", api_key_env: "OPENAI_API_KEY" } }) });
    expect(names).toContain("OPENAI_API_KEY");
  });
});
