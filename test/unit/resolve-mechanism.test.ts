import { describe, expect, it } from "vitest";
import { resolveMechanism } from "../../src/core/policy/resolve-mechanism";
import { compactionConfigSchema } from "../../src/config/schema";
import { modelChecksThinkingPrefix } from "../../src/core/models/prefix-check-models";

describe("resolveMechanism", () => {
  it.each([
    ["claude-opus-5-5", "native"],
    ["claude-sonnet-5-5-20261001", "native"],
    ["claude-haiku-5-5", "native"],
    ["claude-fable-5-1", "native"],
    ["claude-fable-5-2", "native"],
    ["claude-mythos-5-2", "native"],
    ["us.anthropic.claude-opus-5-5-v1:0", "native"],
    ["claude-opus-5-50", "splice"],
    ["claude-sonnet-4-5", "splice"],
    ["claude-opus-4-8", "splice"],
    ["claude-opus-5", "splice"],
    ["claude-3-5-haiku-20241022", "splice"],
    ["some-unknown-model", "splice"],
    [null, "splice"],
  ])("auto on anthropic %j → %s", (model, want) => {
    expect(resolveMechanism("auto", "anthropic", model)).toBe(want);
    expect(resolveMechanism(undefined, "anthropic", model)).toBe(want);
  });

  it("native is allowed on any Anthropic model; splice is always splice", () => {
    expect(resolveMechanism("native", "anthropic", "claude-sonnet-4-5")).toBe("native");
    expect(resolveMechanism("native", "anthropic", null)).toBe("native");
    expect(resolveMechanism("splice", "anthropic", "claude-opus-5-5")).toBe("splice");
  });

  it.each(["openai-chat", "openai-responses"] as const)("%s is always splice", (provider) => {
    for (const setting of ["auto", "splice", "native"] as const) expect(resolveMechanism(setting, provider, "claude-opus-5-5")).toBe("splice");
  });

  it("the splice lock stays conservative for unknown models", () => {
    expect([modelChecksThinkingPrefix("claude-opus-5-5"), modelChecksThinkingPrefix("claude-sonnet-4-5"), modelChecksThinkingPrefix("mystery"), modelChecksThinkingPrefix(null)]).toEqual([true, false, true, true]);
  });
});

describe("config key mechanism", () => {
  it("defaults to auto and accepts the three values", () => {
    expect(compactionConfigSchema.parse({}).mechanism).toBe("auto");
    expect(compactionConfigSchema.parse({ mechanism: "native" }).mechanism).toBe("native");
  });
  it("names the field on a bad value", () => {
    const r = compactionConfigSchema.safeParse({ mechanism: "byte" });
    expect(r.success).toBe(false);
    expect(r.error!.issues[0]!.message).toBe("mechanism must be one of auto, splice, native");
  });
});
