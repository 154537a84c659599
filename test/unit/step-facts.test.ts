/**
 * The step facts (src/core/facts/step-facts.ts) and their wire form (src/core/facts/wire-facts.ts)
 * over the corpus's last calls: the wire form decodes to the facts field for field; it carries no
 * result or input text with the heuristic engine but a failed result's first line; and the
 * payload stays within 16 KB + 200 B per pair.
 */
import { describe, expect, it } from "vitest";
import { stepFactsOf } from "../../src/core/facts/step-facts";
import type { CacheFacts } from "../../src/core/facts/cache-facts";
import { decodeStepFacts, encodeStepFacts } from "../../src/core/facts/wire-facts";
import { headBytes } from "../../src/core/tiers/cut-head";
import { resultLooksFailed } from "../../src/core/engine/read-tool-call";
import { CORPUS_IDS, readCorpusSession } from "../support/read-corpus-session";
import { ToolCallMemo } from "../../src/core/engine/read-tool-call-memo";

const HEURISTIC = { head_chars: 500, engine: "heuristic" } as const;
/** Cache facts of a Claude Code-sized request (src/core/facts/cache-facts.ts): 60 tools, a 30 KB system prompt, 3 markers. */
const CACHE_FACTS: CacheFacts = {
  tools: Array.from({ length: 60 }, (): [string, string] => ["01234567", "89abcdef"]),
  system: { at: "system", bytes: 30_000, chunks: Array.from({ length: Math.ceil(30_000 / 256) }, () => "01234567"), diff: { against: "01234567", offset: 12_345, volatile: "timestamp" } },
  markers: ["tools", "system", 400], unmarked: [[400, "01234567"]], ttl_ms: null,
};

describe("step facts over the corpus's last calls", () => {
  for (const id of CORPUS_IDS) {
    it(`${id}: wire round trip, derived fields, no text beyond a failed result's first line, payload ≤ 16 KB + 200 B per pair`, () => {
      const s = readCorpusSession(id);
      const view = s.viewAt(s.calls.length - 1);
      // The prefix facts as the gateway sends them: one PREFIX_HASH_CHARS-digit hash per message (their values do not matter for the size).
      const prefix = { members: [{ key: "system", hash: "01234567", bytes: 9000 }, { key: "tools", hash: "01234567", bytes: 40000 }], message_hashes: view.messages.map(() => "01234567"), cache: CACHE_FACTS };
      const facts = stepFactsOf(view, HEURISTIC, new ToolCallMemo(), undefined, { prefix });
      const wire = encodeStepFacts(facts);
      expect(decodeStepFacts(JSON.parse(JSON.stringify(wire)))).toEqual(facts);
      view.pairs.forEach((p, i) => {
        const f = facts.pairs[i]!;
        expect([f.id, f.result_hash, f.head_bytes, f.looks_failed]).toEqual([p.id, p.result_hash, headBytes(p.result_text, 500), resultLooksFailed(p)]);
        expect([f.result_head, f.input_head]).toEqual(["", ""]);
        if (!f.looks_failed) expect(f.error_line).toBe("");
        else expect(p.result_text.trimStart().startsWith(f.error_line)).toBe(true);
      });
      expect(JSON.stringify(wire).length).toBeLessThanOrEqual(16 * 1024 + 200 * facts.pairs.length);
    });
  }

  it("an HTTP engine gets at most head_chars of each result and input", () => {
    const s = readCorpusSession(CORPUS_IDS[0]!);
    const view = s.viewAt(s.calls.length - 1);
    const facts = stepFactsOf(view, { head_chars: 40, engine: "local" }, new ToolCallMemo());
    view.pairs.forEach((p, i) => {
      expect(facts.pairs[i]!.result_head).toBe(p.result_text.slice(0, Math.min(40, p.result_text.length)).replace(/[\ud800-\udbff]$/, ""));
      expect(facts.pairs[i]!.input_head.length).toBeLessThanOrEqual(40);
    });
  });

  it("the encoder joins the message hashes into one string and refuses one that is not PREFIX_HASH_CHARS long", () => {
    const s = readCorpusSession(CORPUS_IDS[0]!);
    const view = s.viewAt(1);
    const prefix = { members: [], message_hashes: view.messages.map((_, i) => String(i).padStart(8, "0")) };
    const wire = encodeStepFacts(stepFactsOf(view, HEURISTIC, new ToolCallMemo(), undefined, { prefix }));
    expect(wire.prefix!.message_hashes).toBe(prefix.message_hashes.join(""));
    expect(decodeStepFacts(wire).prefix).toEqual(prefix);
    expect(() => encodeStepFacts(stepFactsOf(view, HEURISTIC, new ToolCallMemo(), undefined, { prefix: { members: [], message_hashes: ["abc"] } }))).toThrow("prefix.message_hashes[0] has 3 characters, not 8");
  });

  it("a message numbered out of order is refused by the encoder (the pipeline then forwards the original bytes)", () => {
    const s = readCorpusSession(CORPUS_IDS[0]!);
    const facts = stepFactsOf(s.viewAt(0), HEURISTIC, new ToolCallMemo());
    expect(() => encodeStepFacts({ ...facts, messages: [{ ...facts.messages[0]!, index: 5 }] })).toThrow("messages[0].index is 5");
  });
});
