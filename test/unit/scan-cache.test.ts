/**
 * Scan reuse (src/providers/shared/json-scan.ts ScanReuse, src/gateway/scan-cache.ts): on
 * consecutive model calls of real corpus sessions the reused scan equals a fresh scan node for
 * node; history elements inside the shared prefix are the same objects; nothing past the
 * prefix is ever lent; bounds on entries and bytes.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { HELD_PER_BODY_BYTE, MAX_SCAN_ENTRIES, ScanCache, lendableNodes } from "../../src/gateway/scan-cache";
import { getMember, scanJson, type JsonNode } from "../../src/providers/shared/json-scan";
import { adapterFor } from "../../src/providers/registry";
import { newCoreCaches } from "../../src/core/caches";
import { anthropicRequest, callPrefixes, openaiRequest, sessions } from "../support/corpus";

const utf8 = (s: string) => new TextEncoder().encode(s);

describe("ScanCache on consecutive corpus calls", () => {
  for (const [provider, id] of [["anthropic", "cc-cctrace-opus4"], ["openai-chat", "codex-rtchess-01"]] as const) {
    it(`${id}: every reused scan equals a fresh one; earlier history elements are shared`, () => {
      const s = sessions(provider).find((x) => x.id === id)!;
      const cache = new ScanCache();
      let prev: JsonNode | null = null;
      let shared = 0;
      for (const end of callPrefixes(s).slice(0, 30)) {
        const bytes = provider === "anthropic" ? anthropicRequest(s, end) : openaiRequest(s, end);
        const root = cache.scan("s", bytes);
        expect(root).toEqual(scanJson(bytes));
        const items = (getMember(root, "messages") as Extract<JsonNode, { type: "array" }>).items;
        if (prev) {
          const before = (getMember(prev, "messages") as Extract<JsonNode, { type: "array" }>).items;
          // Every element the previous call had whose bytes lie in the shared prefix is the very same object.
          const same = items.filter((n, i) => before[i] === n).length;
          expect(same).toBeGreaterThanOrEqual(before.length - 2);
          shared += same;
        }
        prev = root;
      }
      expect(shared).toBeGreaterThan(0);
    });
  }
});

/** [pairs with both texts plain fields, pairs] over calls 2–25 of each session below (deterministic: the corpus is fixed). */
const PLAIN_TEXTS = { anthropic: [527, 564], "openai-chat": [276, 300], "openai-responses": [276, 300] } as const;

describe("adapter views over reused scans (and the per-node memos they hit)", () => {
  const plain = (x: unknown) => JSON.parse(JSON.stringify(x)) as unknown;
  for (const [provider, id] of [["anthropic", "cc-brain-explore-cleanup"], ["openai-chat", "codex-rtchess-01"], ["openai-responses", "codex-rtchess-01-responses"]] as const) {
    it(`${provider} ${id}: every call's view read from a reused scan equals the view of a fresh read`, () => {
      const s = sessions(provider).find((x) => x.id === id)!;
      const adapter = adapterFor(provider)!;
      const cache = new ScanCache();
      const caches = newCoreCaches();
      const isPlain = (o: object, k: string) => "value" in Object.getOwnPropertyDescriptor(o, k)!;
      let plainTexts = 0;
      let pairsAfterFirst = 0;
      for (const [i, end] of callPrefixes(s).slice(0, 25).entries()) {
        const bytes = provider === "anthropic" ? anthropicRequest(s, end) : openaiRequest(s, end);
        const reused = adapter.read(bytes, caches, cache.scan("s", bytes)).view;
        // Texts decoded for a lent node in an earlier call (read here by JSON.stringify) are plain fields (knownOrLazy).
        if (i > 0) {
          plainTexts += reused.pairs.filter((p) => isPlain(p, "input_text") && isPlain(p, "result_text")).length;
          pairsAfterFirst += reused.pairs.length;
          if (provider === "anthropic") expect(reused.messages.slice(0, -3).every((m) => isPlain(m, "est_tokens") && isPlain(m, "identity_hash"))).toBe(true);
        }
        expect(plain(reused)).toEqual(plain(adapter.read(bytes, newCoreCaches()).view));
      }
      // Calls 2–25: all pairs but those new in the call, whose nodes were not lent.
      expect([plainTexts, pairsAfterFirst]).toEqual(PLAIN_TEXTS[provider]);
    });
  }
});

describe("ScanCache edges", () => {
  it("a change inside an element: that element and everything after it are scanned afresh", () => {
    const a = utf8('{"model":"m","messages":[{"role":"user","content":"one"},{"role":"assistant","content":"two"},{"role":"user","content":"three"}]}');
    const b = utf8('{"model":"m","messages":[{"role":"user","content":"one"},{"role":"assistant","content":"TWO"},{"role":"user","content":"three"},{"role":"user","content":"four"}]}');
    const cache = new ScanCache();
    const ra = cache.scan("k", a);
    const rb = cache.scan("k", b);
    expect(rb).toEqual(scanJson(b));
    const ia = (getMember(ra, "messages") as Extract<JsonNode, { type: "array" }>).items;
    const ib = (getMember(rb, "messages") as Extract<JsonNode, { type: "array" }>).items;
    expect([ib[0] === ia[0], ib[1] === ia[1], ib[2] === ia[2], cache.lastPrefix]).toEqual([true, false, false, 88]);
  });

  it("invalid JSON after a reused prefix still throws; another key is not reused", () => {
    const cache = new ScanCache();
    cache.scan("k", utf8('{"messages":[{"a":1},{"b":2}]}'));
    expect(() => cache.scan("k", utf8('{"messages":[{"a":1},{"b":2},'))).toThrow("unexpected end at byte 29");
    cache.scan("k", utf8('{"messages":[{"a":1}]}'));
    cache.scan("other", utf8('{"messages":[{"a":1}]}'));
    expect(cache.lastPrefix).toBe(0);
  });

  it("lendableNodes: the depth-2 values by start offset", () => {
    const root = scanJson(utf8('{"m":"x","messages":[{"a":1},[2]],"o":{"k":true}}'));
    expect([...lendableNodes(root)].map(([at, n]) => [at, n.type])).toEqual([[21, "object"], [29, "array"], [43, "true"]]);
  });

  it("keeps at most maxEntries entries and maxHeld bytes, each entry weighing HELD_PER_BODY_BYTE × its body; a body over the bound is not kept", () => {
    const body = (n: number) => utf8(`{"messages":[${n}]}`); // 16 bytes: weighs 51.2
    expect(HELD_PER_BODY_BYTE * body(1).length).toBe(51.2);
    const byCount = new ScanCache(2, 1000);
    for (const k of ["a", "b", "c"]) byCount.scan(k, body(1));
    expect(byCount.size).toBe(2);
    const byWeight = new ScanCache(10, 110); // two entries weigh 102.4, three 153.6
    for (const k of ["a", "b", "c"]) byWeight.scan(k, body(1));
    expect(byWeight.size).toBe(2);
    byWeight.scan("d", utf8(`{"messages":["${"x".repeat(50)}"]}`)); // 67 bytes: weighs 214.4 > 110, not kept
    expect(byWeight.size).toBe(2);
    // The least recent entry went first: "a" scans afresh (no prefix reused), "c" reuses.
    byWeight.scan("c", body(1));
    expect(byWeight.lastPrefix).toBe(16);
    byWeight.scan("a", body(1));
    expect(byWeight.lastPrefix).toBe(0);
  });

  it("a number ending exactly where the shared prefix ends is scanned again (review finding: 1024 → 10240 threw)", () => {
    const cache = new ScanCache();
    cache.scan("k", utf8('{"thinking":{"type":"enabled","budget_tokens":1024},"messages":[]}'));
    const b = utf8('{"thinking":{"type":"enabled","budget_tokens":10240},"messages":[]}');
    expect([cache.scan("k", b), cache.lastPrefix]).toEqual([scanJson(b), 50]);
  });

  it("property: after any body, an edited copy scans exactly as a fresh scan does, or both throw", () => {
    const body = fc.record({ model: fc.string({ maxLength: 8 }), thinking: fc.dictionary(fc.string({ maxLength: 4 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }), messages: fc.array(fc.jsonValue({ maxDepth: 3 }), { maxLength: 6 }) }).map((o) => JSON.stringify(o));
    const insert = fc.constantFrom("0", "1", "9", ".", "e", "-", "}", "]", ",", '"', " ", "x", "{}", "[1]", ',"a":2');
    fc.assert(
      fc.property(body, fc.nat(), insert, fc.boolean(), fc.boolean(), (a, at, ins, replace, afterDigit) => {
        // Half the edits land right after a digit: where a value that does not end itself may end.
        const digitEnds = [...a].flatMap((ch, i) => (ch >= "0" && ch <= "9" ? [i + 1] : []));
        const k = afterDigit && digitEnds.length > 0 ? digitEnds[at % digitEnds.length]! : at % (a.length + 1);
        const b = a.slice(0, k) + ins + a.slice(replace ? k + 1 : k);
        const cache = new ScanCache();
        cache.scan("k", utf8(a));
        let fresh: JsonNode | "throws";
        try { fresh = scanJson(utf8(b)); } catch { fresh = "throws"; }
        let reused: JsonNode | "throws";
        try { reused = cache.scan("k", utf8(b)); } catch { reused = "throws"; }
        expect(reused).toEqual(fresh);
      }),
      { numRuns: 3000, seed: 20261201 },
    );
  });

});
