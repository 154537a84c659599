import { describe, expect, it } from "vitest";
import { checkEnvName, envNameMessage } from "../../../src/config/check-env-name";

describe("checkEnvName", () => {
  it("accepts real env var names", () => {
    const names = ["ANTHROPIC_API_KEY", "OPENROUTER_API_KEY_PRODUCTION", "MY_COMPANY_LOCAL_ENGINE_BEARER_TOKEN",
      "AZURE_OPENAI_API_KEY_WESTEUROPE_2", "SLUICE_AUDIT_KEY", "engine_key", "_X", "AUTHENTICATION_CONFIGURATION_SERVICE"];
    expect(names.map(checkEnvName)).toEqual(names.map(() => null));
  });

  it("refuses known key prefixes", () => {
    const values = ["sk-proj-abc", "sk-ant-api03-xyz", "ghp_16C7e42F292c6912E7710c838347Ae178B4a", "github_pat_11ABC",
      "xoxb-123-456", "xoxp-1", "AKIAIOSFODNN7EXAMPLE", "ASIAIOSFODNN7EXAMPLE", "AIzaSyA1", "glpat-xx", "sk_live_4eC39", "Bearer abc"];
    expect(values.map(checkEnvName)).toEqual(values.map(() => "credential_prefix"));
  });

  it("refuses characters not allowed in a name, a leading digit and over-long names", () => {
    expect(["MY-KEY", "MY KEY", "1KEY", "", "KEY=1", "a".repeat(129), "clé"].map(checkEnvName)).toEqual(
      ["bad_characters", "bad_characters", "bad_characters", "bad_characters", "bad_characters", "bad_characters", "bad_characters"]);
  });

  it("refuses long high-entropy runs (hex, base62) that pass the character rule", () => {
    expect(["a3f9c1d2e4b5a6f7c8d9e0f1a2b3c4d5", "Zx8Kq2LmN4pR7sT1vW3yB6cD9fG0hJ5k", "QWERTYUIOPASDFGHJKLZXCVBNM12", "KEY_0123abcd4567efgh"]
      .map(checkEnvName)).toEqual(["high_entropy", "high_entropy", "high_entropy", "high_entropy"]);
  });

  it("messages name the field and never the value", () => {
    expect(envNameMessage("api_key_env", "credential_prefix")).toBe(
      "api_key_env must be the NAME of an env var (e.g. ENGINE_API_KEY), not a credential: the value starts with a known key prefix (value not shown)");
    expect(envNameMessage("audit_key_env", "bad_characters")).toBe(
      "audit_key_env must be the NAME of an env var: letters, digits and _ only, not starting with a digit, at most 128 characters (value not shown)");
    expect(envNameMessage("api_key_env", "high_entropy")).toBe(
      "api_key_env must be the NAME of an env var, not a credential: the value looks like a random key (value not shown)");
  });
});
