/**
 * The known-types table (src/providers/known-types.ts): its rows, and the promise that every
 * type real clients send is in it — else those clients would stop compacting. Real traffic here:
 * every call of every corpus/seed session and of the recorded Claude Code and Codex transcripts
 * (test/fixtures), rebuilt as the agent sent it (tools/replay/read-session-text.ts), plus the
 * request shapes the conformance run recorded from Claude Code 2.1.332 and Codex 0.171.0
 * (docs/dev/e2e-clients.md "What the clients sent").
 */
import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { KNOWN_TYPES, knownType, typesWhere } from "../../src/providers/known-types";
import { adapterFor } from "../../src/providers/registry";
import { newCoreCaches } from "../../src/core/caches";
import { readSessionText } from "../../tools/replay/read-session-text";
import { CORPUS_PATH } from "../support/shared-dir";

const enc = new TextEncoder();
const FIXTURES = new URL("../fixtures/", import.meta.url).pathname;

describe("the table", () => {
  it("every row has a source, and no type is listed twice at one position", () => {
    expect(KNOWN_TYPES.filter((k) => k.source.trim() === "")).toEqual([]);
    const keys = KNOWN_TYPES.map((k) => `${k.provider} ${k.position} ${k.type}`);
    expect(keys.length).toBe(new Set(keys).size);
  });

  it("lists exactly these stand-aside rows, each under the name server_managed carries", () => {
    expect(KNOWN_TYPES.filter((k) => k.handling === "stand_aside").map((k) => [k.provider, k.position, k.type, k.stands_aside_as])).toEqual([
      ["anthropic", "block", "compaction", "compaction"],
      ["anthropic", "context_edit", "clear_tool_uses_20250919", "clear_tool_uses_20250919"],
      ["anthropic", "context_edit", "compact_20260112", "compact_20260112"],
      ["anthropic", "field", "compaction", "on_demand_compaction"],
      ["anthropic", "field", "thread", "thread"],
      ["openai-responses", "item", "compaction", "compaction"],
      ["openai-responses", "item", "compaction_trigger", "compaction_trigger"],
      ["openai-responses", "field", "context_management", "context_management"],
      ["openai-responses", "field", "conversation", "conversation"],
      ["openai-responses", "field", "previous_response_id", "previous_response_id"],
    ]);
  });

  it("a stand-aside name is never a block or item type of another row (the session tells the two apart by name)", () => {
    const names = KNOWN_TYPES.filter((k) => k.stands_aside_as !== null && k.stands_aside_as !== k.type).map((k) => k.stands_aside_as!);
    expect(names).toEqual(["on_demand_compaction"]);
    expect(KNOWN_TYPES.filter((k) => names.includes(k.type))).toEqual([]);
  });

  it("looks a type up by provider and position", () => {
    expect(knownType("anthropic", "block", "tool_use")?.handling).toBe("model");
    expect(knownType("anthropic", "item", "tool_use")).toBeUndefined();
    expect(knownType("openai-chat", "role", "tool")?.source).toBe("openai ChatCompletionToolMessageParam; corpus/seed");
    expect(knownType("openai-responses", "item", "mystery_item")).toBeUndefined();
    expect(typesWhere("anthropic", "role")).toEqual(["user", "assistant", "system"]);
    expect(typesWhere("openai-chat", "tool_call")).toEqual(["function", "custom"]);
  });
});

describe("every type real clients send is known", () => {
  /**
   * [session, type] for each session whose request stands aside for an unknown type; [] when none.
   * The first and the last call are read: the history only grows between them (these recordings
   * hold no client-side compaction), so the last carries every type of the session.
   */
  function unknownIn(files: string[]): [string, string][] {
    const out: [string, string][] = [];
    for (const file of files) {
      const s = readSessionText(readFileSync(file, "utf8"), file);
      for (const call of [s.calls[0]!, s.calls[s.calls.length - 1]!]) {
        const view = adapterFor(s.provider)!.read(enc.encode(JSON.stringify(call.body)), newCoreCaches()).view;
        if (view.unknown_type) out.push([s.id, view.server_managed!]);
      }
    }
    return out;
  }

  it("corpus/seed: every session", () => {
    const files = readdirSync(CORPUS_PATH).filter((f) => f.endsWith(".json")).map((f) => `${CORPUS_PATH}/${f}`);
    expect(files.length).toBe(9);
    expect(unknownIn(files)).toEqual([]);
  });

  it("the recorded Claude Code transcript and Codex rollout (test/fixtures)", () => {
    expect(unknownIn([`${FIXTURES}claude-code-session.jsonl`, `${FIXTURES}codex-rollout.jsonl`])).toEqual([]);
  });

  it("the failure cases' requests (test/fixtures/cases)", () => {
    const read: string[] = [];
    const unknown: string[] = [];
    for (const f of readdirSync(`${FIXTURES}cases`).filter((x) => x.endsWith(".json"))) {
      const c = JSON.parse(readFileSync(`${FIXTURES}cases/${f}`, "utf8")) as { provider: string; request?: unknown };
      const body = c.request;
      const adapter = adapterFor(c.provider as never);
      if (!adapter || typeof body !== "object" || body === null || !("model" in body)) continue;
      read.push(f);
      const view = adapter.read(enc.encode(JSON.stringify(body)), newCoreCaches()).view;
      if (view.unknown_type) unknown.push(`${f}: ${view.server_managed}`);
    }
    expect(read).toEqual(["B01.json", "B02.json", "B03.json", "B05.json", "B06.json", "B08.json", "B12.json", "B14.json", "B15.json"]);
    expect(unknown).toEqual([]);
  });

  // Recorded by the conformance run's inventory (tools/e2e/client-inventory.ts; docs/dev/e2e-clients.md).
  it.each([
    ["anthropic", "field", ["model", "messages", "system", "tools", "metadata", "max_tokens", "thinking", "context_management", "output_config", "stream"]],
    ["anthropic", "role", ["user", "system", "assistant"]],
    ["anthropic", "block", ["text", "thinking", "tool_use", "tool_result"]],
    ["anthropic", "context_edit", ["clear_thinking_20251015"]],
    ["openai-responses", "field", ["model", "stream", "input", "tools", "tool_choice", "parallel_tool_calls", "reasoning", "store", "include", "prompt_cache_key", "text", "client_metadata"]],
    ["openai-responses", "item", ["message", "reasoning", "function_call", "function_call_output", "custom_tool_call", "custom_tool_call_output", "additional_tools", "compaction", "compaction_trigger"]],
    ["openai-responses", "role", ["developer", "user", "assistant"]],
    ["openai-responses", "block", ["input_text", "output_text"]],
  ] as const)("%s %s: %j", (provider, position, types) => {
    expect(types.filter((t) => knownType(provider, position, t) === undefined)).toEqual([]);
  });
});
