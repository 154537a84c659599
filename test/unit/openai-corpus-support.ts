/**
 * Corpus helpers for the OpenAI adapter tests: model-call request bodies of each session
 * (corpus/seed/MANIFEST.md: Chat = [system] + messages[:i] before each assistant
 * message; Responses = input = messages[:k] for each k in call_starts), the manifest's tool-call
 * counts, a seeded PRNG and random plans.
 */
import { readFileSync } from "node:fs";
import type { EditPlan, PairAction } from "../../src/core/plan/types";

export const CORPUS = CORPUS_PATH;

/** A corpus session (the shared support's shape). */
export type { Session } from "../support/corpus";
import type { Session } from "../support/corpus";
import { CORPUS_PATH } from "../support/shared-dir";

export function loadSession(id: string): Session {
  return JSON.parse(readFileSync(`${CORPUS}/${id}.json`, "utf8")) as Session;
}

/** Manifest counts, call prefixes and request bodies come from the corpus support (test/support/corpus.ts). */
export { manifestToolCalls, callPrefixes as callPrefixEnds, openaiRequest as requestBody } from "../support/corpus";

/** Native tool calls in messages[:end], counted from the parsed JSON (independent of the adapters). */
export function countCalls(s: Session, end: number): number {
  let n = 0;
  for (const m of s.messages.slice(0, end)) {
    if (s.provider === "openai-responses") n += m.type === "function_call" || m.type === "custom_tool_call" ? 1 : 0;
    else n += Array.isArray(m.tool_calls) ? m.tool_calls.length : 0;
  }
  return n;
}

/** mulberry32, shared with the rest of the tests (test/support/corpus.ts). */
export { rng as prng } from "../support/rng";

/** A random action: every kind, truncation sizes from 0 to 3,000 bytes, tails half the time. */
export function randomAction(rnd: () => number): PairAction {
  const r = rnd();
  if (r < 0.15) return { kind: "keep" };
  if (r < 0.45) return { kind: "drop_pair" };
  if (r < 0.6) return { kind: "drop_result" };
  if (r < 0.85) return rnd() < 0.5 ? { kind: "truncate_result", head_bytes: Math.floor(rnd() * 3000) } : { kind: "truncate_result", head_bytes: Math.floor(rnd() * 3000), tail_bytes: Math.floor(rnd() * 600) };
  return { kind: "strip_media" };
}

/** A random plan over `ids` (each id listed with probability `density`), plus one unknown id. */
export function randomPlan(rnd: () => number, ids: string[], density: number): EditPlan {
  const actions: Record<string, PairAction> = {};
  for (const id of ids) if (rnd() < density) actions[id] = randomAction(rnd);
  actions["no-such-pair"] = randomAction(rnd);
  return { actions };
}
