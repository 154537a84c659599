/**
 * Mutations of real request bodies for the fuzz suite (pure, seeded; no Node imports, so the
 * Workers tests run the same code). Each mutation takes a seed body (JSON text of a corpus
 * request) and a PRNG and returns the bytes to send plus the headers that go with them.
 * Structural mutations work on the parsed value and re-serialise it; byte mutations work on
 * the bytes. The list: truncated JSON, invalid UTF-8, duplicate keys, deep
 * nesting, huge strings, unknown block/item types, wrong types in known fields, missing ids,
 * ids reused across pairs, tool_result before its tool_use, empty arrays, non-JSON content
 * types, gzip bodies.
 */
import type { Provider } from "../../../src/core/view/types";

/** A deterministic PRNG in [0, 1) (mulberry32). */
export type Rng = () => number;

/** mulberry32: small, fast, and the same sequence on every runtime for a given seed (test/support/corpus.ts). */
export { rng as makeRng } from "../rng";

export const pick = <T>(rng: Rng, xs: readonly T[]): T => xs[Math.floor(rng() * xs.length)]!;
const int = (rng: Rng, max: number): number => Math.floor(rng() * max);

/** What a mutation produces. `gzip: true` asks the caller to gzip the bytes (async, runtime API). */
export interface Mutated {
  body: Uint8Array;
  contentType: string;
  gzip?: boolean;
}

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type Obj = { [k: string]: Json };

const enc = new TextEncoder();
const isObj = (v: Json | undefined): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
const JSON_CT = "application/json";

/** The history array of a body (messages / input), or []. */
function history(body: Obj, provider: Provider): Json[] {
  const h = body[provider === "openai-responses" ? "input" : "messages"];
  return Array.isArray(h) ? h : [];
}

/** Every object reachable from `v` (depth-first), with its parent array/object for in-place edits. */
function objects(v: Json, out: Obj[] = []): Obj[] {
  if (Array.isArray(v)) for (const x of v) objects(x, out);
  else if (isObj(v)) {
    out.push(v);
    for (const x of Object.values(v)) objects(x, out);
  }
  return out;
}

/** Objects that are tool calls or tool results, with the key holding their id. */
function idHolders(body: Obj): { obj: Obj; key: string }[] {
  const out: { obj: Obj; key: string }[] = [];
  for (const o of objects(body)) {
    for (const key of ["id", "tool_use_id", "tool_call_id", "call_id"]) {
      if (typeof o[key] === "string" && (key !== "id" || o.type === "tool_use" || o.type === "function" || o.type === "custom")) out.push({ obj: o, key });
    }
  }
  return out;
}

const json = (v: Json): Mutated => ({ body: enc.encode(JSON.stringify(v)), contentType: JSON_CT });

/** Mutation name → function. Each returns null when the seed has nothing to mutate that way. */
export const MUTATIONS: Record<string, (text: string, provider: Provider, rng: Rng) => Mutated | null> = {
  /** Cut the body at a random byte (inside a string, a number, between tokens). */
  truncated: (text, _p, rng) => {
    const b = enc.encode(text);
    return { body: b.subarray(0, 1 + int(rng, b.length - 1)), contentType: JSON_CT };
  },
  /** Put an ill-formed UTF-8 sequence inside a string (lone continuation, overlong, surrogate, truncated lead). */
  invalid_utf8: (text, _p, rng) => {
    const b = enc.encode(text);
    const quotes: number[] = [];
    for (let i = 0; i < b.length; i++) if (b[i] === 0x22) quotes.push(i);
    if (quotes.length < 2) return null;
    const at = pick(rng, quotes) + 1;
    const bad = pick(rng, [[0x80], [0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xe2, 0x82], [0xff], [0xf4, 0x90, 0x80, 0x80]]);
    const out = new Uint8Array(b.length + bad.length);
    out.set(b.subarray(0, at));
    out.set(bad, at);
    out.set(b.subarray(at), at + bad.length);
    return { body: out, contentType: JSON_CT };
  },
  /** Repeat a key inside a random object (the two values differ), by text surgery. */
  duplicate_keys: (text, provider, rng) => {
    const body = JSON.parse(text) as Obj;
    const targets = [body, ...history(body, provider).filter(isObj), ...idHolders(body).map((h) => h.obj)];
    const o = pick(rng, targets);
    const keys = Object.keys(o);
    if (keys.length === 0) return null;
    const key = pick(rng, keys);
    const marker = `"__fuzz_dup__":0`;
    (o as Record<string, Json>).__fuzz_dup__ = 0;
    const other = key === "messages" || key === "input" ? "[]" : key.endsWith("id") ? '"fuzz_other_id"' : JSON.stringify(o[key] === null ? 1 : null);
    return { body: enc.encode(JSON.stringify(body).replace(marker, `${JSON.stringify(key)}:${other}`)), contentType: JSON_CT };
  },
  /** Wrap a tool input or a result's content in thousands of nested arrays. */
  deep_nesting: (text, _p, rng) => {
    const body = JSON.parse(text) as Obj;
    const depth = pick(rng, [600, 5_000, 20_000]);
    const holders = objects(body).filter((o) => "input" in o || "content" in o || "arguments" in o);
    if (holders.length === 0) return null;
    const o = pick(rng, holders);
    const key = "input" in o ? "input" : "arguments" in o ? "arguments" : "content";
    const marker = "__fuzz_deep__";
    o[key] = marker;
    return { body: enc.encode(JSON.stringify(body).replace(`"${marker}"`, "[".repeat(depth) + "1" + "]".repeat(depth))), contentType: JSON_CT };
  },
  /** Make one tool result or text a multi-megabyte string (escapes and multi-byte characters included). */
  huge_string: (text, _p, rng) => {
    const body = JSON.parse(text) as Obj;
    const holders = objects(body).filter((o) => typeof o.content === "string" || typeof o.text === "string" || typeof o.output === "string");
    if (holders.length === 0) return null;
    const o = pick(rng, holders);
    const key = typeof o.output === "string" ? "output" : typeof o.content === "string" ? "content" : "text";
    o[key] = pick(rng, ["log line \"quoted\" é 中 😀\n", "x", "\\\t\u0001"]).repeat(pick(rng, [100_000, 400_000]));
    return json(body);
  },
  /** Rename a block's or item's `type` to one no provider defines. */
  unknown_type: (text, _p, rng) => {
    const body = JSON.parse(text) as Obj;
    const typed = objects(body).filter((o) => typeof o.type === "string");
    if (typed.length === 0) return null;
    pick(rng, typed).type = pick(rng, ["mystery_block", "tool_use_v9", "", "TOOL_RESULT"]);
    return json(body);
  },
  /** Put a value of the wrong type in a known field (content, role, ids, arguments, messages). */
  wrong_type: (text, provider, rng) => {
    const body = JSON.parse(text) as Obj;
    const fields = ["content", "role", "id", "tool_use_id", "tool_call_id", "call_id", "arguments", "input", "tool_calls", "type", "name", "output", "is_error", "text"];
    const candidates = objects(body).flatMap((o) => fields.filter((f) => f in o).map((f) => ({ o, f })));
    const wrong: Json[] = [42, null, true, {}, [], "", [1, 2], { type: "text" }];
    if (rng() < 0.15 || candidates.length === 0) body[provider === "openai-responses" ? "input" : "messages"] = pick(rng, wrong);
    else {
      const c = pick(rng, candidates);
      c.o[c.f] = pick(rng, wrong);
    }
    return json(body);
  },
  /** Delete the id of a random tool call or result. */
  missing_id: (text, _p, rng) => {
    const body = JSON.parse(text) as Obj;
    const h = idHolders(body);
    if (h.length === 0) return null;
    const x = pick(rng, h);
    delete x.obj[x.key];
    return json(body);
  },
  /** Give two different pairs the same id (calls and results alike). */
  reused_ids: (text, _p, rng) => {
    const body = JSON.parse(text) as Obj;
    const h = idHolders(body);
    const ids = [...new Set(h.map((x) => x.obj[x.key] as string))];
    if (ids.length < 2) return null;
    const from = pick(rng, ids);
    const to = pick(rng, ids.filter((i) => i !== from));
    for (const x of h) if (x.obj[x.key] === from) x.obj[x.key] = to;
    return json(body);
  },
  /** Move a message holding a tool result in front of the message holding its call. */
  result_before_use: (text, provider, rng) => {
    const body = JSON.parse(text) as Obj;
    const h = history(body, provider);
    const resultAt = h.flatMap((m, i) => {
      if (!isObj(m)) return [];
      const s = JSON.stringify(m);
      return /"(tool_use_id|tool_call_id)"|"type":"(function_call_output|custom_tool_call_output)"/.test(s) && i > 0 ? [i] : [];
    });
    if (resultAt.length === 0) return null;
    const i = pick(rng, resultAt);
    const [m] = h.splice(i, 1);
    h.splice(Math.max(0, i - 1 - int(rng, 2)), 0, m!);
    return json(body);
  },
  /** Empty a random array: the history, a content array, tool_calls, tools. */
  empty_arrays: (text, _p, rng) => {
    const body = JSON.parse(text) as Obj;
    const arrays = objects(body).flatMap((o) => Object.keys(o).filter((k) => Array.isArray(o[k])).map((k) => ({ o, k })));
    if (arrays.length === 0) return null;
    const n = 1 + int(rng, 3);
    for (let i = 0; i < n; i++) {
      const a = pick(rng, arrays);
      a.o[a.k] = [];
    }
    return json(body);
  },
  /** The same bytes (or a form encoding of them) under a non-JSON content type. */
  non_json_content_type: (text, _p, rng) => {
    const ct = pick(rng, ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=fuzz", "application/octet-stream", ""]);
    if (ct.startsWith("multipart")) return { body: enc.encode(`--fuzz\r\nContent-Disposition: form-data; name="body"\r\n\r\n${text}\r\n--fuzz--\r\n`), contentType: ct };
    if (ct.startsWith("application/x-www")) return { body: enc.encode(`body=${encodeURIComponent(text.slice(0, 50_000))}`), contentType: ct };
    return { body: enc.encode(text), contentType: ct };
  },
  /** The body gzip-compressed, sent with content-encoding: gzip. */
  gzip: (text) => ({ body: enc.encode(text), contentType: JSON_CT, gzip: true }),
};

export const MUTATION_NAMES = Object.keys(MUTATIONS);

/** Gzips bytes with the runtime's CompressionStream (Node ≥ 18 and workerd). */
export async function gzipBytes(bytes: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([bytes]).stream().pipeThrough(new CompressionStream("gzip"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}
