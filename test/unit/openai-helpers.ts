/**
 * Test helpers for the OpenAI adapters: apply a plan by splicing, and an independent audit of
 * an edited body against its input (subsequence, JSON validity, provider rules, top-level
 * fields, kept-message identity, pair integrity, reasoning adjacency). Not the production
 * guarantee checker (src/core/plan/check-guarantee.ts), which is written separately.
 */
import type { EditPlan, PairAction } from "../../src/core/plan/types";
import type { ProviderAdapter, ParsedRequest } from "../../src/providers/types";
import type { CompiledPlan } from "../../src/providers/types";
import { getMember, rawText, scanJson, stringValue, type JsonNode } from "../../src/providers/shared/json-scan";
import { spliceOut } from "../../src/providers/shared/splice";
import { hashBytes } from "../../src/core/hash";
import { newCoreCaches } from "../../src/core/caches";

export const enc = (s: string): Uint8Array => new TextEncoder().encode(s);
export const dec = (b: Uint8Array): string => new TextDecoder().decode(b);

export interface Applied {
  parsed: ParsedRequest;
  compiled: CompiledPlan;
  out: Uint8Array;
  text: string;
}

/** read → compile → spliceOut. */
export function apply(adapter: ProviderAdapter, body: Uint8Array | string, plan: EditPlan): Applied {
  const bytes = typeof body === "string" ? enc(body) : body;
  const parsed = adapter.read(bytes, newCoreCaches());
  const compiled = adapter.compile(parsed, plan);
  const out = spliceOut(bytes, compiled.deletions);
  return { parsed, compiled, out, text: dec(out) };
}

/** A plan giving every pair id the same action. */
export function planAll(ids: string[], action: PairAction): EditPlan {
  return { actions: Object.fromEntries(ids.map((id) => [id, action])) };
}

/** True when `small` can be obtained from `big` by deleting bytes. */
export function isSubsequence(small: Uint8Array, big: Uint8Array): boolean {
  let j = 0;
  for (let i = 0; i < big.length && j < small.length; i++) if (big[i] === small[j]) j++;
  return j === small.length;
}

const inputCache = new WeakMap<Uint8Array, { root: JsonNode; view: ParsedRequest["view"] }>();

/**
 * Every property an edited body must have; returns the list of failures ([] = fine).
 * `historyKey` is "messages" (Chat) or "input" (Responses).
 */
export function audit(adapter: ProviderAdapter, input: Uint8Array, output: Uint8Array, plan: EditPlan, historyKey: "messages" | "input"): string[] {
  const f: string[] = [];
  if (!isSubsequence(output, input)) f.push("output is not a byte-subsequence of input");
  try {
    JSON.parse(dec(output));
  } catch (e) {
    return [...f, `output is not JSON: ${String(e)}`];
  }
  const cached = inputCache.get(input) ?? { root: scanJson(input), view: adapter.read(input, newCoreCaches()).view };
  inputCache.set(input, cached);
  const inRoot = cached.root;
  const outParsed = adapter.read(output, newCoreCaches());
  const outRoot = outParsed.root;
  f.push(...adapter.checkRules(output, outRoot, outParsed.caches).map((v) => `rule: ${v}`));
  // Top-level members other than the history: same keys, same bytes.
  const top = (root: typeof inRoot, bytes: Uint8Array) =>
    root.type === "object" ? root.entries.filter((e) => e.key !== historyKey).map((e) => `${e.key}=${rawText(bytes, e.value)}`) : [];
  if (JSON.stringify(top(inRoot, input)) !== JSON.stringify(top(outRoot, output))) f.push("top-level members changed");
  const a = cached.view;
  const b = outParsed.view;
  // Kept messages: the output messages are the input messages, in order, minus some that may
  // vanish. A message matches when role and identity are equal and its pairs in the output
  // are a subset of its pairs in the input (pair ids anchor the alignment).
  const dropped = new Set(Object.entries(plan.actions).filter(([, x]) => x.kind === "drop_pair").map(([id]) => id));
  const gone = new Set(a.pairs.map((p) => p.id).filter((id) => !b.pairs.some((q) => q.id === id)));
  const sig = (view: typeof a) => {
    const m = new Map<number, Set<string>>();
    for (const p of view.pairs) for (const i of [p.call.message_index, p.result.message_index]) m.set(i, (m.get(i) ?? new Set()).add(p.id));
    return m;
  };
  const sa = sig(a);
  const sb = sig(b);
  let j = 0;
  for (const m of a.messages) {
    const o = b.messages[j];
    const pa = sa.get(m.index) ?? new Set<string>();
    const pb = o ? (sb.get(o.index) ?? new Set<string>()) : new Set<string>();
    const subset = [...pb].every((id) => pa.has(id)) && (pb.size > 0 || [...pa].every((id) => gone.has(id)));
    if (o && o.identity_hash === m.identity_hash && o.role === m.role && subset) {
      j++;
      continue;
    }
    const toolOnly = m.prose_blocks === 0 && m.media_blocks === 0 && (m.role === "tool" || m.role === "function" || m.role.endsWith("_call") || m.role.endsWith("_output"));
    const bound = m.removable_with ? m.removable_with.every((id) => gone.has(id)) : toolOnly && [...pa].every((id) => gone.has(id));
    if (!bound) f.push(`input message ${m.index} (${m.role}) vanished or changed`);
  }
  if (j !== b.messages.length) f.push(`output has ${b.messages.length - j} messages not in the input`);
  // Pairs: a pair is whole or gone; gone only when dropped; kept calls unchanged.
  const outPairs = new Map(b.pairs.map((p) => [p.id, p]));
  for (const p of a.pairs) {
    const q = outPairs.get(p.id);
    if (!q) {
      if (!dropped.has(p.id)) f.push(`pair ${p.id} vanished without drop_pair`);
      continue;
    }
    if (q.input_text !== p.input_text || q.tool_name !== p.tool_name) f.push(`pair ${p.id} call changed`);
    const action = plan.actions[p.id]?.kind ?? "keep";
    if ((action === "keep" || action === "drop_pair") && q.result_hash !== p.result_hash) f.push(`pair ${p.id} result changed under ${action}`);
    // Never emptied: a non-empty string or array value does not become "" or [] (2 bytes).
    if (p.result_bytes > 2 && q.result_bytes <= 2) f.push(`pair ${p.id} result emptied`);
  }
  if (b.pairs.length > a.pairs.length) f.push("output has new pairs");
  if (b.orphans.length > a.orphans.length) f.push(`edit created orphans: ${JSON.stringify(b.orphans)}`);
  if (historyKey === "input") f.push(...reasoningAdjacency(input, inRoot, output, outRoot));
  return f;
}

const keyCache = new WeakMap<JsonNode, { key: string; reasoning: boolean }[]>();

/** Responses: every kept reasoning item is followed by the same item as in the input, and every kept item that followed a reasoning item still does (B08). */
function reasoningAdjacency(input: Uint8Array, inRoot: JsonNode, output: Uint8Array, outRoot: JsonNode): string[] {
  // Items keyed by raw bytes, except output items (their `output` may be edited): type + call_id.
  const keyed = (bytes: Uint8Array, root: JsonNode) => {
    const hit = keyCache.get(root);
    if (hit) return hit;
    const arr = getMember(root, "input");
    if (arr?.type !== "array") return [];
    const keys = arr.items.map((n) => {
      const type = getMember(n, "type");
      const t = type?.type === "string" ? stringValue(bytes, type) : "";
      const callId = getMember(n, "call_id");
      const key = t.endsWith("_output") && callId ? `${t}:${rawText(bytes, callId)}` : hashBytes(bytes.subarray(n.start, n.end));
      return { key, reasoning: t === "reasoning" };
    });
    keyCache.set(root, keys);
    return keys;
  };
  const a = keyed(input, inRoot);
  const b = keyed(output, outRoot);
  const f: string[] = [];
  // Greedy in-order alignment: outAt[i] = output position of input item i, or -1.
  const outAt = a.map(() => -1);
  let j = 0;
  for (let i = 0; i < a.length && j < b.length; i++) if (a[i]!.key === b[j]!.key) outAt[i] = j++;
  if (j !== b.length) f.push("output items do not align with input items");
  for (let i = 0; i + 1 < a.length; i++) {
    if (!a[i]!.reasoning) continue;
    const r = outAt[i]!;
    const next = outAt[i + 1]!;
    if (r >= 0 && next !== r + 1) f.push(`reasoning input[${i}] no longer followed by its original item`);
    if (next >= 0 && (r < 0 || r !== next - 1)) f.push(`input[${i + 1}] kept without the reasoning item before it`);
  }
  return f;
}
