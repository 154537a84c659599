/**
 * The native mechanism over real sessions: the Anthropic corpus sessions re-targeted to
 * claude-opus-5-5, every call through the session's step (src/session/session.ts over node:sqlite, virtual time) and
 * decideForward. On every call the ledger must be an oldest-first prefix of the clearable tool
 * uses — the edit asks the provider to clear exactly the pairs the plan removes — and the
 * forwarded body must pass the native checker with the client's messages byte for byte.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { configHash, type StepOutput } from "../../src/session/contract";
import { Session } from "../../src/session/session";
import { stepFactsOf } from "../../src/core/facts/step-facts";
import { encodeStepFacts } from "../../src/core/facts/wire-facts";
import { decideForward } from "../../src/gateway/decide-forward";
import { prepareCompaction } from "../../src/gateway/prepare-compaction";
import { loadConfig } from "../../src/config/load-config";
import { renderNativeEdit } from "../../src/providers/anthropic-messages/native-edit";
import { assignCallTimes } from "../../tools/replay/assign-call-times";
import { readSessionText } from "../../tools/replay/read-session-text";
import { retargetAnthropic } from "../../tools/replay/retarget-model";
import { createMemorySql } from "../../tools/replay/sluice/create-memory-sql";
import { CORPUS_DIR } from "../support/corpus";
import { newCoreCaches } from "../../src/core/caches";
import { ToolCallMemo } from "../../src/core/engine/read-tool-call-memo";

const enc = (v: unknown) => new TextEncoder().encode(JSON.stringify(v));

describe.each(["cc-brain-explore-cleanup", "cc-cctrace-opus4"])("native on %s re-targeted to claude-opus-5-5", (name) => {
  it("the plan's removals are exactly the leading clearable tool uses the edit clears, on every call", async () => {
    const file = join(CORPUS_DIR, `${name}.json`);
    const [session] = retargetAnthropic([readSessionText(readFileSync(file, "utf8"), file)], "claude-opus-5-5");
    // R floored at 8 so that the session takes more than one step and each later step re-renders the edit over the earlier ones (at the default floor 2 it takes one).
    const env = { SLUICE_COMPACTION: "1", COMPACTION_CONFIG: '{"min_remaining_calls": 8}' };
    const loaded = loadConfig(env);
    if (!loaded.ok || loaded.mode === "off") throw new Error("config");
    const { sql, close } = createMemorySql();
    const sessionState = new Session({ sql, env, trace: { append: () => undefined } });
    const times = assignCallTimes(session!.calls);
    let steps = 0;
    let maxCleared = 0;
    for (const call of session!.calls) {
      const body = enc(call.body);
      const prepared = prepareCompaction("anthropic", new Headers({ "x-sluice-session": name }), body);
      if (prepared.kind !== "ready") throw new Error(prepared.note);
      const out = (await sessionState.step({ session_id: name, facts: encodeStepFacts(stepFactsOf(prepared.parsed.view, loaded.config, new ToolCallMemo())), config_hash: configHash(loaded.config), mode: "compact", correlation_id: `c${call.index}`, now_ms: times[call.index]! })) as StepOutput;
      expect(out.native).toEqual({ exclude_tools: [] });
      const removed = Object.values(out.plan.actions).filter((a) => a.kind !== "keep").length;
      const render = renderNativeEdit(body, prepared.parsed.root, out.plan, out.native!, newCoreCaches().anthropic);
      expect(render?.cleared ?? 0).toBe(removed);
      const d = decideForward(prepared, body, out, "compact", `c${call.index}`);
      expect(d.report.outcome).toBe(removed > 0 ? "compacted" : "unchanged");
      if (out.step !== null) steps++;
      maxCleared = Math.max(maxCleared, removed);
    }
    close();
    expect(steps).toBeGreaterThan(1);
    expect(maxCleared).toBeGreaterThan(20);
  }, 120_000);
});
