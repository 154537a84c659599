/**
 * A beta that extends the context window (context-1m-2025-08-07) reaches the session step: the
 * step facts carry the request's anthropic-beta values and the budget pressure is taken against
 * the extended window.
 */
import { describe, expect, it } from "vitest";
import { betaValues, stepFactsOf } from "../../src/core/facts/step-facts";
import { decodeStepFacts, encodeStepFacts } from "../../src/core/facts/wire-facts";
import { CORE_DEFAULTS } from "../../src/core/policy/compact";
import { EMPTY_LEDGER } from "../../src/core/policy/ledger";
import { stepContext } from "../../src/core/policy/step-context";
import { makeView } from "../support/make-view";
import { ToolCallMemo } from "../../src/core/engine/read-tool-call-memo";

const OPTS = { head_chars: CORE_DEFAULTS.head_chars, engine: "heuristic" as const };
const STATE = { calls: 3, last_activity_ms: null, idle: false, complete: false, ledger: EMPTY_LEDGER };

describe("context window betas", () => {
  it("reads the anthropic-beta values, trimmed, empty ones left out", () => {
    expect(betaValues(" context-1m-2025-08-07 ,, claude-code-20250219")).toEqual(["context-1m-2025-08-07", "claude-code-20250219"]);
    expect(betaValues(null)).toEqual([]);
  });

  it("claude-sonnet-4-5 with context-1m-2025-08-07: pressure against 1,000,000 tokens, not 200,000; the betas survive the wire", () => {
    const view = makeView({ model: "claude-sonnet-4-5", outside_tokens: 100_000, messages: [{ role: "user", text: "go" }] });
    const with1m = stepFactsOf(view, OPTS, new ToolCallMemo(), new Headers({ "anthropic-beta": "claude-code-20250219,context-1m-2025-08-07" }));
    expect(with1m.betas).toEqual(["claude-code-20250219", "context-1m-2025-08-07"]);
    expect(decodeStepFacts(encodeStepFacts(with1m)).betas).toEqual(with1m.betas);
    const plain = stepFactsOf(view, OPTS, new ToolCallMemo(), new Headers());
    expect(plain.betas).toEqual([]);
    const pct = (f: typeof plain) => stepContext(STATE, f, CORE_DEFAULTS, 0, "c").pressure.context_pct_used;
    expect(pct(with1m)).toBe(view.est_tokens / 1_000_000);
    expect(pct(plain)).toBe(view.est_tokens / 200_000);
  });

  it("an OpenAI request carries no betas", () => {
    const view = makeView({ provider: "openai-chat", model: "gpt-5", messages: [{ role: "user", text: "go" }] });
    expect(stepFactsOf(view, OPTS, new ToolCallMemo(), new Headers({ "anthropic-beta": "context-1m-2025-08-07" })).betas).toEqual([]);
  });
});
