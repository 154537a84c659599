/**
 * The OpenAI readers' per-node memos (src/core/caches.ts chatMessages and responsesItems, read by
 * src/providers/openai-chat/locate-pairs.ts and src/providers/openai-responses/locate-items.ts): over a scan that reuses the session's
 * last body, a lent message / item comes back as the very same located object, with its facts
 * (calls, summary, identity hash, pair texts) kept; a node met at another index or turn is
 * located afresh; a wire error is never remembered.
 */
import { describe, expect, it } from "vitest";
import { ScanCache } from "../../src/gateway/scan-cache";
import { newCoreCaches } from "../../src/core/caches";
import { locateChat } from "../../src/providers/openai-chat/locate-pairs";
import { readChat } from "../../src/providers/openai-chat/read-view";
import { ChatWireError } from "../../src/providers/openai-chat/wire";
import { locateResponses } from "../../src/providers/openai-responses/locate-items";
import { readResponses } from "../../src/providers/openai-responses/read-view";
import { getMember, scanJson, type JsonNode } from "../../src/providers/shared/json-scan";
import { callPrefixes, openaiRequest, sessions } from "../support/corpus";
import { countLent } from "../support/lent-elements";

const utf8 = (s: string) => new TextEncoder().encode(s);
type ArrayNode = Extract<JsonNode, { type: "array" }>;
type ObjectNode = Extract<JsonNode, { type: "object" }>;

/** `root` with its member `key` holding `items` instead (a synthetic tree: a scan never lends a node to another index). */
function withItems(root: JsonNode, key: string, items: JsonNode[]): JsonNode {
  const o = root as ObjectNode;
  return { ...o, entries: o.entries.map((e) => (e.key === key ? { ...e, value: { ...(e.value as ArrayNode), items } } : e)) };
}

describe("OpenAI located messages over reused scans", () => {
  const readers = [
    { provider: "openai-chat", id: "codex-rtchess-01", read: readChat, elements: (i: unknown) => (i as ReturnType<typeof locateChat>).messages },
    { provider: "openai-responses", id: "codex-rtchess-01-responses", read: readResponses, elements: (i: unknown) => (i as ReturnType<typeof locateResponses>).items },
  ] as const;
  for (const { provider, id, read, elements } of readers) {
    it(`${provider} ${id}, calls 1–20: lent elements are the same located objects, their identity hash kept; every view equals a fresh read's`, () => {
      const s = sessions(provider).find((x) => x.id === id)!;
      const cache = new ScanCache();
      const caches = newCoreCaches();
      const plain = (x: unknown) => JSON.parse(JSON.stringify(x)) as unknown;
      const located: { node: unknown; memo: { identity: string | null } }[][] = [];
      for (const end of callPrefixes(s).slice(0, 20)) {
        const bytes = openaiRequest(s, end);
        const parsed = read(bytes, caches, cache.scan("s", bytes));
        expect(plain(parsed.view)).toEqual(plain(read(bytes, newCoreCaches()).view));
        located.push(elements(parsed.index));
      }
      const { lent, same } = countLent(located);
      // Every lent element also kept its identity hash (computed by the read that first located it).
      const identityKept = located.slice(1).reduce((n, els, k) => n + els.filter((m, i) => located[k]![i]?.node === m.node && m.memo.identity !== null).length, 0);
      expect(lent).toBeGreaterThan(100);
      expect([same, identityKept]).toEqual([lent, lent]);
    });
  }

  it("chat: a message node met at another index or turn is located afresh, with them; the memo keeps the node's own", () => {
    const bytes = utf8(JSON.stringify({ model: "m", messages: [{ role: "user", content: "a" }, { role: "assistant", content: "b" }, { role: "user", content: "c" }] }));
    const root = scanJson(bytes);
    const items = (getMember(root, "messages") as ArrayNode).items;
    const memo = newCoreCaches().chatMessages;
    const first = locateChat(bytes, root, memo).messages;
    expect(first.map((m) => [m.index, m.role, m.turn])).toEqual([[0, "user", 0], [1, "assistant", 0], [2, "user", 1]]);
    // messages[2] (turn 1) moved before the assistant: index 0, turn 0.
    const moved = locateChat(bytes, withItems(root, "messages", [items[2]!, items[1]!, items[0]!]), memo).messages;
    expect(moved.map((m) => [m.index, m.role, m.turn, m.node === items[2 - m.index]])).toEqual([[0, "user", 0, true], [1, "assistant", 0, true], [2, "user", 1, true]]);
    expect(moved[0]).not.toBe(first[2]);
    // Each node's memo now holds the object its last tree located; the original tree gets correct ones again.
    expect(locateChat(bytes, root, memo).messages.map((m) => [m.index, m.role, m.turn])).toEqual([[0, "user", 0], [1, "assistant", 0], [2, "user", 1]]);
  });

  it("responses: an item node met at another turn is located afresh, with its turn", () => {
    const bytes = utf8(JSON.stringify({ model: "m", input: [{ role: "user", content: "a" }, { type: "message", role: "assistant", content: "b" }, { role: "user", content: "c" }] }));
    const root = scanJson(bytes);
    const items = (getMember(root, "input") as ArrayNode).items;
    const memo = newCoreCaches().responsesItems;
    expect(locateResponses(bytes, root, memo).items.map((it) => [it.index, it.turn])).toEqual([[0, 0], [1, 0], [2, 1]]);
    const swapped = locateResponses(bytes, withItems(root, "input", [items[1]!, items[0]!, items[2]!]), memo).items;
    expect(swapped.map((it) => [it.index, it.role, it.turn])).toEqual([[0, "assistant", 0], [1, "user", 1], [2, "user", 1]]);
    expect(locateResponses(bytes, root, memo).items.map((it) => [it.index, it.role, it.turn])).toEqual([[0, "user", 0], [1, "assistant", 0], [2, "user", 1]]);
  });

  it("chat: a wire error is thrown on every read, naming the field (nothing is remembered for a node that failed)", () => {
    const bytes = utf8(JSON.stringify({ messages: [{ role: "user", content: "a" }, { role: "assistant", tool_calls: [{ id: 7, type: "function", function: { name: "f", arguments: "{}" } }] }, { role: "tool", tool_call_id: "x", content: "r" }] }));
    const root = scanJson(bytes);
    const caches = newCoreCaches();
    for (let i = 0; i < 2; i++) expect(() => readChat(bytes, caches, root)).toThrow(new ChatWireError("messages[1].tool_calls[0].id", "expected a string, got number"));
  });

  it("chat and responses: a pair's texts decoded once are plain fields of the next view over the same tree", () => {
    const chat = utf8(JSON.stringify({ messages: [{ role: "user", content: "q" }, { role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function", function: { name: "f", arguments: '{"a":1}' } }] }, { role: "tool", tool_call_id: "c1", content: "out" }, { role: "assistant", content: "done" }] }));
    const resp = utf8(JSON.stringify({ input: [{ role: "user", content: "q" }, { type: "function_call", call_id: "c1", name: "f", arguments: '{"a":1}' }, { type: "function_call_output", call_id: "c1", output: "out" }, { type: "message", role: "assistant", content: "done" }] }));
    for (const [read, bytes] of [[readChat, chat], [readResponses, resp]] as const) {
      const root = scanJson(bytes);
      const caches = newCoreCaches();
      const isPlain = (o: object, k: string) => "value" in Object.getOwnPropertyDescriptor(o, k)!;
      const a = read(bytes, caches, root).view.pairs[0]!;
      expect([isPlain(a, "input_text"), isPlain(a, "result_text")]).toEqual([false, false]);
      expect([a.input_text, a.result_text]).toEqual(['{"a":1}', "out"]);
      const b = read(bytes, caches, root).view.pairs[0]!;
      expect([isPlain(b, "input_text"), isPlain(b, "result_text"), b.input_text, b.result_text, b.result_hash]).toEqual([true, true, '{"a":1}', "out", a.result_hash]);
    }
  });
});
