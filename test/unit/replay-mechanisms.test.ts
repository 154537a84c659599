import { describe, expect, it } from "vitest";
import { parseArgs } from "../../tools/replay/parse-args";
import { retargetAnthropic } from "../../tools/replay/retarget-model";
import { resolveStrategies } from "../../tools/replay/strategies/registry";
import { createSluiceStrategy, envWithConfig, envWithMechanism, VARIANT_OF } from "../../tools/replay/strategies/sluice-slot";
import type { RecordedSession, SluiceTransform } from "../../tools/replay/types";

const session = (provider: RecordedSession["provider"], model: string): RecordedSession => ({
  id: `s-${provider}`, provider, model, system: null, tools: [], calls: [{ index: 0, body: { model, messages: [] }, timestamp_ms: null, reply: null }], source: { format: "corpus", name: "x" } as RecordedSession["source"], notes: [],
});

describe("replay per mechanism", () => {
  it("--retarget-anthropic changes the model of Anthropic sessions only, and says so", () => {
    const [a, o] = retargetAnthropic([session("anthropic", "claude-sonnet-4-5"), session("openai-chat", "gpt-4o")], "claude-opus-5-5");
    expect([a!.model, a!.calls[0]!.body.model, a!.notes]).toEqual(["claude-opus-5-5", "claude-opus-5-5", ["model re-targeted from claude-sonnet-4-5 to claude-opus-5-5"]]);
    expect(o!.calls[0]!.body.model).toBe("gpt-4o");
    expect(parseArgs(["--retarget-anthropic", "claude-opus-5-5", "x"]).retarget_anthropic).toBe("claude-opus-5-5");
    expect(() => parseArgs(["--retarget-anthropic", "a b", "x"])).toThrow('--retarget-anthropic: expected a model id, got "a b"');
  });

  it("envWithMechanism merges the key into the config block", () => {
    expect(envWithMechanism({ SLUICE_COMPACTION: "1" }, "native")).toEqual({ SLUICE_COMPACTION: "1", COMPACTION_CONFIG: '{"mechanism":"native"}' });
    expect(envWithMechanism({ COMPACTION_CONFIG: '{"threshold_tokens":0}' }, "splice")).toEqual({ COMPACTION_CONFIG: '{"threshold_tokens":0,"mechanism":"splice"}' });
    expect(() => envWithMechanism({ COMPACTION_CONFIG: "[]" }, "splice")).toThrow("COMPACTION_CONFIG must be a JSON object");
  });

  it("sluice-splice / sluice-native resolve to their in-process strategies, and only when wired", () => {
    const t: SluiceTransform = async (body) => ({ body, info: {} });
    const native = createSluiceStrategy(t, "sluice-native");
    expect(resolveStrategies(["sluice-native"], null, { "sluice-native": native }).map((s) => s.name)).toEqual(["none", "sluice-native"]);
    expect(() => resolveStrategies(["sluice-splice"], null, {})).toThrow("strategy sluice-splice: not wired in this run (in-process only: --sluice in-process)");
  });

  it("sluice-strict / sluice-placeholders / sluice-rewrite force guarantee_level, each its own in-process strategy", () => {
    expect(Object.fromEntries(Object.entries(VARIANT_OF).map(([n, v]) => [n, `${v.key}=${v.value}`]))).toEqual({
      "sluice-splice": "mechanism=splice", "sluice-native": "mechanism=native",
      "sluice-strict": "guarantee_level=strict", "sluice-placeholders": "guarantee_level=placeholders", "sluice-rewrite": "guarantee_level=rewrite",
    });
    expect(envWithConfig({ COMPACTION_CONFIG: '{"threshold_tokens":0}' }, "guarantee_level", "rewrite")).toEqual({ COMPACTION_CONFIG: '{"threshold_tokens":0,"guarantee_level":"rewrite"}' });
    const t: SluiceTransform = async (body) => ({ body, info: {} });
    const rewrite = createSluiceStrategy(t, "sluice-rewrite");
    expect(rewrite.source).toContain('"guarantee_level": "rewrite"');
    expect(resolveStrategies(["sluice-rewrite"], null, { "sluice-rewrite": rewrite }).map((s) => s.name)).toEqual(["none", "sluice-rewrite"]);
    expect(() => resolveStrategies(["sluice-placeholders"], null, {})).toThrow("strategy sluice-placeholders: not wired in this run (in-process only: --sluice in-process)");
  });
});
