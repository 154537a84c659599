/**
 * The Anthropic locate memos (src/core/caches.ts anthropic.messages and anthropic.resultParts,
 * read by src/providers/anthropic-messages/locate-blocks.ts): over a scan that reuses the session's last body, the lent message nodes come back
 * as the very same LocatedMessage objects, equal to what a fresh scan locates; a node met at
 * another index is located afresh; a shape error is never remembered.
 */
import { UnknownTypeError } from "../../src/providers/shared/unknown-type";
import { describe, expect, it } from "vitest";
import { ScanCache } from "../../src/gateway/scan-cache";
import { newCoreCaches } from "../../src/core/caches";
import { AnthropicShapeError, locateHistory, resultParts } from "../../src/providers/anthropic-messages/locate-blocks";
import { readAnthropic } from "../../src/providers/anthropic-messages/read-view";
import { getMember, scanJson, type JsonNode } from "../../src/providers/shared/json-scan";
import { anthropicRequest, callPrefixes, sessions } from "../support/corpus";
import { countLent } from "../support/lent-elements";

const utf8 = (s: string) => new TextEncoder().encode(s);
type ArrayNode = Extract<JsonNode, { type: "array" }>;

describe("locateHistory over reused scans", () => {
  it("cc-cctrace-opus4, calls 1–20: lent messages are the same located objects, and every call locates as a fresh scan does", () => {
    const s = sessions("anthropic").find((x) => x.id === "cc-cctrace-opus4")!;
    const cache = new ScanCache();
    const memos = newCoreCaches().anthropic;
    const located: ReturnType<typeof locateHistory>["messages"][] = [];
    for (const end of callPrefixes(s).slice(0, 20)) {
      const bytes = anthropicRequest(s, end);
      const history = locateHistory(bytes, cache.scan("s", bytes), memos);
      const fresh = locateHistory(bytes, scanJson(bytes), newCoreCaches().anthropic);
      expect(history.messages.map(({ index, role, blocks }) => ({ index, role, blocks: blocks.map(({ index: i, type, kind, cacheControl }) => ({ i, type, kind, cacheControl })) }))).toEqual(
        fresh.messages.map(({ index, role, blocks }) => ({ index, role, blocks: blocks.map(({ index: i, type, kind, cacheControl }) => ({ i, type, kind, cacheControl })) })),
      );
      located.push(history.messages);
    }
    const { lent, same } = countLent(located);
    expect(lent).toBeGreaterThan(100);
    expect(same).toBe(lent);
  });

  it("a message node met at another index is located afresh, with that index", () => {
    const bytes = utf8(JSON.stringify({ messages: [{ role: "user", content: "a" }, { role: "assistant", content: [{ type: "text", text: "b" }] }] }));
    const root = scanJson(bytes) as Extract<JsonNode, { type: "object" }>;
    const items = (getMember(root, "messages") as ArrayNode).items;
    const memos = newCoreCaches().anthropic;
    const first = locateHistory(bytes, root, memos).messages;
    expect(first.map((m) => [m.index, m.role])).toEqual([[0, "user"], [1, "assistant"]]);
    // A synthetic tree with the two nodes swapped (a scan never makes one; the guard is for it).
    const swappedMessages: ArrayNode = { ...(getMember(root, "messages") as ArrayNode), items: [items[1]!, items[0]!] };
    const swapped = { ...root, entries: root.entries.map((e) => (e.key === "messages" ? { ...e, value: swappedMessages } : e)) };
    const again = locateHistory(bytes, swapped, memos).messages;
    expect(again.map((m) => [m.index, m.role, m.node === items[1 - m.index]])).toEqual([[0, "assistant", true], [1, "user", true]]);
    // The memo still holds each node's own located message.
    expect(locateHistory(bytes, root, memos).messages).toEqual(first);
    expect(locateHistory(bytes, root, memos).messages[0]).toBe(first[0]);
  });

  it("a shape error is thrown on every call, naming the field (nothing is remembered for a node that failed)", () => {
    const bytes = utf8(JSON.stringify({ messages: [{ role: "user", content: "a" }, { role: 42, content: "b" }] }));
    const root = scanJson(bytes);
    const memos = newCoreCaches().anthropic;
    for (let i = 0; i < 2; i++) expect(() => locateHistory(bytes, root, memos)).toThrow(new AnthropicShapeError("messages[1].role", "expected a string, got number"));
  });

  it("a role the known-types table does not list is an UnknownTypeError naming the field, on every call", () => {
    const bytes = utf8(JSON.stringify({ messages: [{ role: "user", content: "a" }, { role: "robot", content: "b" }] }));
    const root = scanJson(bytes);
    const memos = newCoreCaches().anthropic;
    for (let i = 0; i < 2; i++) expect(() => locateHistory(bytes, root, memos)).toThrow(new UnknownTypeError("messages[1].role", "robot"));
  });

  it("resultParts: the same located parts for the same tool_result node; null for string content", () => {
    const bytes = utf8(
      JSON.stringify({
        messages: [
          { role: "assistant", content: [{ type: "tool_use", id: "t1", name: "f", input: {} }, { type: "tool_use", id: "t2", name: "f", input: {} }] },
          { role: "user", content: [{ type: "tool_result", tool_use_id: "t1", content: [{ type: "text", text: "x" }, { type: "image", source: {} }] }, { type: "tool_result", tool_use_id: "t2", content: "y" }] },
        ],
      }),
    );
    const caches = newCoreCaches();
    const history = locateHistory(bytes, scanJson(bytes), caches.anthropic);
    const [withParts, withString] = history.messages[1]!.blocks;
    const parts = resultParts(bytes, withParts!, "f", caches.anthropic);
    expect(parts?.parts.map((p) => [p.index, p.type, p.kind])).toEqual([[0, "text", "prose"], [1, "image", "media"]]);
    expect(resultParts(bytes, withParts!, "f", caches.anthropic)).toBe(parts);
    expect(resultParts(bytes, withString!, "f", caches.anthropic)).toBeNull();
    // And the view built from them, twice over the same tree, is the same.
    const root = scanJson(bytes);
    const plain = (x: unknown) => JSON.parse(JSON.stringify(x)) as unknown;
    const a = plain(readAnthropic(bytes, caches, root).view) as { pairs: { id: string; result_media_count: number; result_text: string }[] };
    expect(a.pairs.map((p) => [p.id, p.result_media_count, p.result_text])).toEqual([["t1", 1, "x"], ["t2", 0, "y"]]);
    expect(plain(readAnthropic(bytes, caches, root).view)).toEqual(a);
  });
});
