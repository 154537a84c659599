/**
 * The prefix facts (src/core/facts/prefix-facts.ts): exact hashes of a body's members and
 * messages, the shared prefix of two requests, and the memo that lets a lent message node skip
 * hashing.
 */
import { describe, expect, it } from "vitest";
import { prefixFactsOf, sharedPrefix, MESSAGE_HASH_CHARS } from "../../src/core/facts/prefix-facts";
import { hashText } from "../../src/core/hash";
import { scanJson } from "../../src/providers/shared/json-scan";
import { newCoreCaches } from "../../src/core/caches";

const enc = (s: string) => new TextEncoder().encode(s);
const h = (s: string) => hashText(s).slice(0, MESSAGE_HASH_CHARS);
const facts = (body: string) => {
  const bytes = enc(body);
  return prefixFactsOf(bytes, scanJson(bytes), "messages", newCoreCaches().messageHashes);
};

const M1 = '{"role":"user","content":"hi"}';
const M2 = '{"role":"assistant","content":"hello"}';
const M3 = '{"role":"user","content":"again"}';

describe("prefixFactsOf", () => {
  it("hashes every top-level member but the history, in body order, and every message's raw bytes", () => {
    const f = facts(`{"model":"m","system":"be brief","messages":[${M1},${M2}],"max_tokens":5}`);
    expect(f).toEqual({
      members: [
        { key: "model", hash: h('"m"'), bytes: 3 },
        { key: "system", hash: h('"be brief"'), bytes: 10 },
        { key: "max_tokens", hash: h("5"), bytes: 1 },
      ],
      message_hashes: [h(M1), h(M2)],
    });
  });

  it("leaves cache markers out: a message and a tool hash the same with or without cache_control (first, middle or last key)", () => {
    const plain = '{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"ok"}]}';
    const last = '{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"ok","cache_control":{"type":"ephemeral"}}]}';
    const first = '{"role":"user","content":[{"cache_control":{"type":"ephemeral"},"type":"tool_result","tool_use_id":"t1","content":"ok"}]}';
    const tool = (cc: string) => `[{"name":"Read",${cc}"input_schema":{}}]`;
    const a = facts(`{"tools":${tool("")},"messages":[${plain}]}`);
    const hashes = (f: ReturnType<typeof facts>) => [f.members.map((m) => m.hash), f.message_hashes];
    for (const m of [last, first]) expect(hashes(facts(`{"tools":${tool('"cache_control":{"type":"ephemeral"},')},"messages":[${m}]}`))).toEqual(hashes(a));
    expect(a.message_hashes).toEqual([h(plain)]);
    // The marker moved on to a newer message: the earlier one still belongs to the shared prefix.
    const next = facts(`{"tools":${tool("")},"messages":[${plain},${M2.replace('"hello"', '[{"type":"text","text":"x","cache_control":{"type":"ephemeral"}}]')}]}`);
    expect(sharedPrefix(facts(`{"tools":${tool("")},"messages":[${last}]}`), next)).toEqual({ members_equal: true, shared_messages: 1 });
  });

  it("a body whose history is not an array has no message hashes", () => {
    expect(facts('{"messages":{}}')).toEqual({ members: [], message_hashes: [] });
  });
});

describe("sharedPrefix", () => {
  const base = facts(`{"model":"m","system":"s","messages":[${M1},${M2}],"max_tokens":5}`);

  it("an appended turn shares every earlier message; request knobs (max_tokens, model, stream) do not count", () => {
    const next = facts(`{"model":"m2","system":"s","messages":[${M1},${M2},${M3}],"max_tokens":9,"stream":true}`);
    expect(sharedPrefix(base, next)).toEqual({ members_equal: true, shared_messages: 2 });
  });

  it("a changed message ends the shared prefix there", () => {
    const next = facts(`{"model":"m","system":"s","messages":[${M1},${M3},${M2}],"max_tokens":5}`);
    expect(sharedPrefix(base, next)).toEqual({ members_equal: true, shared_messages: 1 });
  });

  it("a changed system prompt, or tools added, shares nothing", () => {
    expect(sharedPrefix(base, facts(`{"model":"m","system":"t","messages":[${M1},${M2}],"max_tokens":5}`))).toEqual({ members_equal: false, shared_messages: 0 });
    expect(sharedPrefix(base, facts(`{"model":"m","system":"s","tools":[],"messages":[${M1},${M2}],"max_tokens":5}`))).toEqual({ members_equal: false, shared_messages: 0 });
  });
});
