/** Reads the seed corpus (corpus/seed, read-only) and builds provider request bodies from it. */
import { readdirSync, readFileSync } from "node:fs";
import { CORPUS_PATH } from "./shared-dir";
import type { EditPlan, PairAction } from "../../src/core/plan/types";
import type { ToolPair } from "../../src/core/view/types";

export const CORPUS_DIR = `${CORPUS_PATH}/`;

export interface Session {
  id: string;
  provider: string;
  model: string | null;
  system: unknown;
  messages: { role: string; content: unknown; [k: string]: unknown }[];
  /** openai-responses only: index k where each model call's output begins (MANIFEST.md). */
  call_starts?: number[];
}

/** Every session of `provider` in the corpus. */
export function sessions(provider: string): Session[] {
  return readdirSync(CORPUS_DIR)
    .filter((f) => f.endsWith(".json"))
    .map((f) => JSON.parse(readFileSync(CORPUS_DIR + f, "utf8")) as Session)
    .filter((s) => s.provider === provider);
}

/** The manifest's "tool calls" column by session id (integer; "0 native (…)" reads 0). */
export function manifestToolCalls(): Record<string, number> {
  const out: Record<string, number> = {};
  for (const line of readFileSync(CORPUS_DIR + "MANIFEST.md", "utf8").split("\n")) {
    const cells = line.split("|").map((c) => c.trim());
    if (cells.length < 8 || !/^[a-z0-9-]+$/.test(cells[1]!) || cells[1] === "id") continue;
    out[cells[1]!] = Number(cells[6]!.replace(/,/g, "").split(" ")[0]);
  }
  return out;
}

const enc = new TextEncoder();

/** An Anthropic request body for the model call that answered `messages[:end]`. */
export function anthropicRequest(s: Session, end: number, opts: { model?: string | null; indent?: number } = {}): Uint8Array {
  const model = opts.model === undefined ? s.model : opts.model;
  const body: Record<string, unknown> = {};
  if (model !== null) body.model = model;
  body.max_tokens = 4096;
  if (s.system !== null && s.system !== undefined) body.system = s.system;
  body.messages = s.messages.slice(0, end);
  return enc.encode(JSON.stringify(body, null, opts.indent));
}

/**
 * Ends of every model-call prefix: the request of that call is messages[:k]. Anthropic and
 * OpenAI Chat: each assistant message's index; Responses: `call_starts` (MANIFEST.md).
 */
export function callPrefixes(s: Session): number[] {
  if (s.provider === "openai-responses") return s.call_starts ?? [];
  return s.messages.flatMap((m, k) => (m.role === "assistant" ? [k] : []));
}

/**
 * An OpenAI request body (Chat: [system] + messages[:end]; Responses: instructions + input =
 * messages[:end]) for the model call that answered `messages[:end]`; `pretty` indents it.
 */
export function openaiRequest(s: Session, end: number, pretty = false): Uint8Array {
  const history = s.messages.slice(0, end);
  const body =
    s.provider === "openai-responses"
      ? { model: s.model, ...(s.system !== null ? { instructions: s.system } : {}), input: history, store: false, stream: true }
      : { model: s.model, messages: [...(s.system !== null ? [{ role: "system", content: s.system }] : []), ...history], stream: true };
  return enc.encode(pretty ? JSON.stringify(body, null, 2) : JSON.stringify(body));
}

/** Deterministic PRNG (mulberry32) for reproducible random plans. */
export { rng } from "./rng";

/** A random plan over `pairs`: each pair gets a random action (truncations with random sizes). */
export function randomPlan(pairs: readonly ToolPair[], next: () => number): EditPlan {
  const actions: Record<string, PairAction> = {};
  for (const p of pairs) {
    const r = next();
    if (r < 0.2) continue;
    if (r < 0.4) actions[p.id] = { kind: "drop_pair" };
    else if (r < 0.6) actions[p.id] = { kind: "drop_result" };
    else if (r < 0.8) actions[p.id] = { kind: "truncate_result", head_bytes: Math.floor(next() * 400), ...(next() < 0.5 ? { tail_bytes: Math.floor(next() * 200) } : {}) };
    else if (r < 0.9) actions[p.id] = { kind: "strip_media" };
    else actions[p.id] = { kind: "keep" };
  }
  return { actions };
}
