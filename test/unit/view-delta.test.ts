/**
 * Step-view deltas (src/do/view-delta.ts) and the isolate's sent-view memory
 * (src/gateway/sent-views.ts): on consecutive model calls of real corpus sessions, the rebuilt
 * view equals the view the gateway parsed, field for field; exact kept counts; every case where
 * the base cannot supply what a delta leaves out answers null (→ need_full).
 */
import { describe, expect, it } from "vitest";
import type { ConversationView } from "../../src/core/view/types";
import { slimView } from "../../src/do/step-types";
import { deltaAgainst, rebuildView, retainedBytes, sameMessage, sentViewOf } from "../../src/do/view-delta";
import { SentViews } from "../../src/gateway/sent-views";
import { adapterFor } from "../../src/providers/registry";
import { anthropicRequest, callPrefixes, openaiRequest, sessions } from "../support/corpus";

/** The slim step view of the model call that answered messages[:end] (as plain data, the way it crosses the RPC). */
function stepView(provider: "anthropic" | "openai-chat", s: ReturnType<typeof sessions>[number], end: number): ConversationView {
  const bytes = provider === "anthropic" ? anthropicRequest(s, end) : openaiRequest(s, end);
  return structuredClone(slimView(adapterFor(provider)!.read(bytes).view));
}

const plain = (v: ConversationView) => JSON.parse(JSON.stringify(v)) as unknown;

describe("deltaAgainst / rebuildView on consecutive corpus calls", () => {
  for (const [provider, id] of [["anthropic", "cc-cctrace-opus4"], ["openai-chat", "codex-rtchess-01"]] as const) {
    it(`${id}: every call rebuilt from the previous one equals its own view`, () => {
      const s = sessions(provider).find((x) => x.id === id)!;
      const ends = callPrefixes(s).slice(0, 40);
      let prev: ConversationView | null = null;
      let checked = 0;
      for (const end of ends) {
        const view = stepView(provider, s, end);
        if (prev) {
          const { view: sent, delta } = deltaAgainst(sentViewOf("t", prev), view);
          expect(delta).not.toBeNull();
          expect(plain(rebuildView(prev, structuredClone(sent), delta!)!)).toEqual(plain(view));
          checked++;
        }
        prev = view;
      }
      expect(checked).toBe(ends.length - 1);
    });
  }

  it("cc-cctrace-opus4, calls 20 → 21: exact kept messages and texts, and how much less is sent", () => {
    const s = sessions("anthropic").find((x) => x.id === "cc-cctrace-opus4")!;
    const ends = callPrefixes(s);
    const a = stepView("anthropic", s, ends[19]!);
    const b = stepView("anthropic", s, ends[20]!);
    const { view: sent, delta } = deltaAgainst(sentViewOf("tok-20", a), b);
    // Call 21 appends one tool round (assistant tool_use + user tool_result): all 39 messages of call 20 are kept, and
    // its first 18 pairs whole; pair 19 (call 20's last, no longer in the last assistant turn) changes its lock only, so it
    // goes without its texts; pair 20 is new.
    expect({ base_token: delta!.base_token, kept_messages: delta!.kept_messages, kept_pairs: delta!.kept_pairs, kept_texts: delta!.kept_texts.length, messages: b.messages.length, pairs: b.pairs.length, sent_messages: sent.messages.length, sent_pairs: sent.pairs.length })
      .toEqual({ base_token: "tok-20", ...KEPT_20_21, sent_messages: KEPT_20_21.messages - KEPT_20_21.kept_messages, sent_pairs: KEPT_20_21.pairs - KEPT_20_21.kept_pairs });
    expect([a.pairs[18]!.locked, b.pairs[18]!.locked]).toEqual(["last_assistant_turn", null]);
    expect(JSON.stringify(sent).length).toBeLessThan(JSON.stringify(b).length / 20);
  });
});

/** Measured once from the corpus (regression values for the test above). */
const KEPT_20_21 = { kept_messages: 39, kept_pairs: 18, kept_texts: 1, messages: 41, pairs: 20 };

describe("rebuildView refuses what the base cannot supply", () => {
  const msg = (index: number, role: string) => ({ index, role, turn_index: 0, range: { start: index * 10, end: index * 10 + 9 }, bytes: 9, est_tokens: 3, prose_blocks: 1, media_blocks: 0, non_tool_parts: 1, identity_hash: `h${index}` });
  const pair = (id: string, input: string, result: string) => ({ id, tool_name: "t", input_text: input, input_bytes: input.length, call: { message_index: 1, block_index: 0 }, result: { message_index: 2, block_index: 0 }, turn_index: 0, result_text: result, result_bytes: result.length, result_est_tokens: 1, result_is_error: false, result_media_count: 0, result_hash: `r-${id}`, locked: null as string | null });
  const view = (messages: ReturnType<typeof msg>[], pairs: ReturnType<typeof pair>[]): ConversationView => ({ provider: "anthropic", model: "m", body_bytes: 100, est_tokens: 9, messages, pairs, orphans: [], turn_count: 1, server_managed: null });
  const base = view([msg(0, "user"), msg(1, "assistant"), msg(2, "user")], [pair("a", "{}", "out")]);
  const next = view([msg(0, "user"), msg(1, "assistant"), msg(2, "user"), msg(3, "assistant")], [pair("a", "{}", "out"), pair("b", "{\"x\":1}", "more")]);

  it("round trip on a literal view: 3 messages and pair a kept whole", () => {
    const { view: sent, delta } = deltaAgainst(sentViewOf("k", base), next);
    expect([delta, sent.messages.map((m) => m.index), sent.pairs.map((p) => [p.id, p.input_text, p.result_text])]).toEqual([
      { base_token: "k", kept_messages: 3, kept_pairs: 1, kept_texts: [] }, [3], [["b", "{\"x\":1}", "more"]],
    ]);
    expect(rebuildView(base, sent, delta!)).toEqual(next);
  });

  it("a pair whose lock changed is sent without its texts (kept_texts), and rebuilt with the base's", () => {
    const locked = view(base.messages, [{ ...pair("a", "{}", "out"), locked: "last_assistant_turn" }]);
    const { view: sent, delta } = deltaAgainst(sentViewOf("k", locked), next);
    expect([delta, sent.pairs.map((p) => [p.id, p.input_text, p.result_text, p.locked])]).toEqual([
      { base_token: "k", kept_messages: 3, kept_pairs: 0, kept_texts: ["a"] }, [["a", "", "", null], ["b", "{\"x\":1}", "more", null]],
    ]);
    expect(rebuildView(locked, sent, delta!)).toEqual(next);
  });

  it("a changed message field, a changed result text or no base → not kept / null", () => {
    const changed = view([msg(0, "user"), { ...msg(1, "assistant"), identity_hash: "other" }, msg(2, "user")], [pair("a", "{}", "out2")]);
    expect(deltaAgainst(sentViewOf("k", base), changed).delta).toEqual({ base_token: "k", kept_messages: 1, kept_pairs: 0, kept_texts: [] });
    expect(deltaAgainst(undefined, next)).toEqual({ view: next, delta: null });
    const { view: sent, delta } = deltaAgainst(sentViewOf("k", base), next);
    expect(rebuildView(view([msg(0, "user")], []), sent, delta!)).toBe(null); // base shorter than kept_messages
    expect(rebuildView(view(base.messages, []), sent, delta!)).toBe(null); // base has fewer pairs than kept_pairs
    const relocked = deltaAgainst(sentViewOf("k", view(base.messages, [{ ...pair("a", "{}", "out"), locked: "x" }])), next);
    expect(rebuildView(view(base.messages, [pair("z", "{}", "out")]), relocked.view, relocked.delta!)).toBe(null); // base lacks kept-texts pair a
    expect(rebuildView(base, { ...sent, messages: [msg(5, "user")] }, delta!)).toBe(null); // messages out of order
  });

  it("a kept pair's result text is never read (never decoded in the gateway); a changed result content is sent", () => {
    const lazy = { ...pair("a", "{}", "out") } as Record<string, unknown>;
    Object.defineProperty(lazy, "result_text", { enumerable: true, get: () => { throw new Error("result_text decoded"); } });
    const v = view(base.messages, [lazy as never, { ...pair("b", "{}", "new") }]);
    const { view: sent, delta } = deltaAgainst(sentViewOf("k", base), v);
    expect([delta!.kept_pairs, sent.pairs.map((p) => p.id)]).toEqual([1, ["b"]]);
    const lockedLazy = Object.defineProperties({}, { ...Object.getOwnPropertyDescriptors(lazy), locked: { value: "x", enumerable: true } });
    const w = deltaAgainst(sentViewOf("k", base), view(base.messages, [lockedLazy as never]));
    expect([w.delta!.kept_texts, w.view.pairs[0]!.result_text]).toEqual([["a"], ""]);
    const other = view(base.messages, [{ ...pair("a", "{}", "out"), result_hash: "r-other" }]);
    expect(deltaAgainst(sentViewOf("k", base), other).view.pairs[0]!.result_text).toBe("out");
  });

  it("sameMessage compares ranges by value and removable_with element-wise", () => {
    expect(sameMessage({ ...msg(1, "assistant"), removable_with: ["a"] }, { ...msg(1, "assistant"), removable_with: ["a"] })).toBe(true);
    expect(sameMessage({ ...msg(1, "assistant"), removable_with: ["a"] }, { ...msg(1, "assistant"), removable_with: ["b"] })).toBe(false);
    expect(sameMessage(msg(1, "assistant"), { ...msg(1, "assistant"), range: { start: 10, end: 20 } })).toBe(false);
    expect(sameMessage(msg(1, "assistant"), { ...msg(1, "assistant"), removable_with: [] })).toBe(false);
  });
});

describe("sentViewOf", () => {
  it("keeps plain copies (no accessor, so no closure over the request body) and no result text; retainedBytes is exact", () => {
    const s = sessions("anthropic").find((x) => x.id === "cc-cctrace-opus4")!;
    const parsed = adapterFor("anthropic")!.read(anthropicRequest(s, callPrefixes(s)[10]!)).view;
    const sv = sentViewOf("t", parsed);
    const accessors = [...sv.messages, ...sv.pairs].flatMap((o) => Object.values(Object.getOwnPropertyDescriptors(o)).filter((d) => d.get !== undefined));
    expect([accessors.length, sv.pairs.some((p) => "result_text" in p), sv.pairs.length, sv.messages.length]).toEqual([0, false, parsed.pairs.length, parsed.messages.length]);
    expect(retainedBytes(sv)).toBe(200 * (sv.messages.length + sv.pairs.length) + 2 * parsed.pairs.reduce((n, p) => n + p.input_text.length, 0));
  });
});

describe("SentViews", () => {
  it("is bounded by retained bytes too: a view over the bound is not kept, older ones are dropped to fit", () => {
    const sv = (t: string, inputChars: number) => ({ token: t, messages: [], pairs: [{ input_text: "x".repeat(inputChars) }] as never[], texts: new Map() });
    const v = new SentViews(10, 1_000); // each record below: 200 + 2 × chars
    v.set("a", sv("1", 100)); // 400
    v.set("b", sv("2", 100)); // 400
    v.set("c", sv("3", 200)); // 600 → a and b no longer fit together with c: a (least recent) goes
    expect([v.get("a"), v.get("b")?.token, v.get("c")?.token]).toEqual([undefined, "2", "3"]);
    v.set("d", sv("4", 500)); // 1,200 > bound: not kept
    expect([v.get("d"), v.size]).toEqual([undefined, 2]);
  });
  it("forgets the least recently used session beyond its bound", () => {
    const v = new SentViews(2);
    const sv = (t: string) => ({ token: t, messages: [], pairs: [], texts: new Map() });
    v.set("a", sv("1"));
    v.set("b", sv("2"));
    expect(v.get("a")?.token).toBe("1"); // a is now the most recent
    v.set("c", sv("3"));
    expect([v.get("a")?.token, v.get("b"), v.get("c")?.token, v.size]).toEqual(["1", undefined, "3", 2]);
    v.delete("a");
    expect([v.get("a"), v.size]).toEqual([undefined, 1]);
  });
});
