import { describe, expect, it } from "vitest";
import { sessionLabel } from "../../src/admin/session-label";

describe("sessionLabel", () => {
  it("names client, conversation and model for every key shape of src/gateway/session-id.ts", () => {
    const S = "3f2a1b0c-1111-2222-3333-444455556666";
    expect(sessionLabel(`cc:${S}:agent:a7f3e9d1b2c3`, "claude-opus-4-8")).toBe("Claude Code 3f2a1b0c · sub-agent a7f3e9d1 · claude-opus-4-8");
    expect(sessionLabel(`cc:${S}:conv:5d41402abc4b2a76`, "claude-opus-4-8")).toBe("Claude Code 3f2a1b0c · conversation 5d41402a · claude-opus-4-8");
    expect(sessionLabel(`cc:${S}`, null)).toBe("Claude Code 3f2a1b0c · whole session · model unknown");
    expect(sessionLabel("pck:thread-42", "gpt-5")).toBe("prompt_cache_key thread-4 · gpt-5");
    expect(sessionLabel("fp:0123456789abcdef", "gpt-5")).toBe("fingerprint 01234567 · gpt-5");
    expect(sessionLabel("h:fedcba9876543210", null)).toBe("hashed long id fedcba98 · model unknown");
    expect(sessionLabel("team-a/run-7", "claude-sonnet-4-5")).toBe("x-sluice-session team-a/run-7 · claude-sonnet-4-5");
  });
});
