/**
 * TEST FIXTURE (not product code): builds a ConversationView from a compact description, so
 * core tests do not depend on the provider adapters. Byte ranges are dummies (0); token
 * estimates come from the text sizes (src/core/tokens/estimate.ts) unless given.
 */
import { hashText } from "../../src/core/hash";
import { DEFAULTS } from "../../src/config/defaults";
import { stepFactsOf, type FactsOptions, type StepFacts } from "../../src/core/facts/step-facts";
import { proseMentionKeys } from "../../src/core/text/mention-keys";
import { estimateTokens, estimateTokensFromBytes } from "../../src/core/tokens/estimate";
import type { ConversationView, MessageInfo, Provider, ToolPair } from "../../src/core/view/types";
import { ToolCallMemo } from "../../src/core/engine/read-tool-call-memo";

export interface CallSpec {
  id: string;
  tool: string;
  /** Tool input: an object (JSON-encoded) or a raw string. */
  input: unknown;
}
export interface ResultSpec {
  id: string;
  text: string;
  is_error?: boolean;
  media?: number;
  locked?: string;
}
export type MessageSpec =
  | { role: "user"; text?: string; tokens?: number; results?: ResultSpec[] }
  | { role: "assistant"; text?: string; tokens?: number; calls?: CallSpec[] }
  | { role: "system"; text: string };

export interface ViewSpec {
  provider?: Provider;
  model?: string | null;
  /** Tokens outside the history (system, tools). Default 0. */
  outside_tokens?: number;
  messages: MessageSpec[];
}

const bytes = (s: string) => new TextEncoder().encode(s).length;
const inputText = (input: unknown) => (typeof input === "string" ? input : JSON.stringify(input));

/** Builds the view. Every call must be answered by a result with the same id in a later message. */
export function makeView(spec: ViewSpec): ConversationView {
  const messages: MessageInfo[] = [];
  const calls = new Map<string, { spec: CallSpec; message: number; block: number; turn: number }>();
  const pairs: ToolPair[] = [];
  let turn = 0;
  spec.messages.forEach((m, index) => {
    const turn_index = turn;
    let tokens = m.text !== undefined ? estimateTokens(m.text) : 0;
    if (m.role === "assistant") {
      (m.calls ?? []).forEach((c, block) => {
        calls.set(c.id, { spec: c, message: index, block, turn: turn_index });
        tokens += estimateTokens(inputText(c.input));
      });
      turn += 1;
    }
    if (m.role === "user") {
      (m.results ?? []).forEach((r, block) => {
        const call = calls.get(r.id);
        if (call === undefined) throw new Error(`makeView: result ${r.id} has no call`);
        const input_text = inputText(call.spec.input);
        const rb = bytes(r.text);
        tokens += estimateTokensFromBytes(rb);
        pairs.push({
          id: r.id,
          tool_name: call.spec.tool,
          input_text,
          input_bytes: bytes(input_text),
          call: { message_index: call.message, block_index: call.block },
          result: { message_index: index, block_index: block },
          turn_index: call.turn,
          result_text: r.text,
          result_bytes: rb,
          result_est_tokens: estimateTokensFromBytes(rb) + (r.media ?? 0) * 1600,
          result_is_error: r.is_error ?? false,
          result_media_count: r.media ?? 0,
          result_hash: hashText(r.text),
          locked: r.locked ?? null,
        });
      });
    }
    const est = ("tokens" in m && m.tokens !== undefined ? m.tokens : tokens) + (m.role === "user" ? (m.results ?? []).reduce((s, r) => s + (r.media ?? 0) * 1600, 0) : 0);
    messages.push({ index, role: m.role, turn_index, range: { start: 0, end: 0 }, bytes: est * 4, est_tokens: est, prose_blocks: m.text !== undefined ? 1 : 0, media_blocks: 0, non_tool_parts: m.text !== undefined ? 1 : 0, identity_hash: hashText(`${m.role}:${m.text ?? ""}`) });
  });
  const est_tokens = (spec.outside_tokens ?? 0) + messages.reduce((s, m) => s + m.est_tokens, 0);
  return { provider: spec.provider ?? "anthropic", model: spec.model === undefined ? "claude-sonnet-4-5" : spec.model, body_bytes: est_tokens * 4, est_tokens, messages, pairs, orphans: [], turn_count: turn, server_managed: null };
}

/** A long text of `n` bytes made of numbered lines (deterministic). */
export function lines(n: number, tag = "line"): string {
  let s = "";
  for (let i = 1; s.length < n; i++) s += `${tag} ${i}: ${"x".repeat(40)}\n`;
  return s.slice(0, n);
}

/** The step facts of `view` (src/core/facts/step-facts.ts) for the default head_chars and the heuristic engine unless `opts` says otherwise; `mentions` per message when given. */
export function factsOf(view: ConversationView, opts: Partial<FactsOptions> = {}, mentions?: readonly (readonly string[])[]): StepFacts {
  return stepFactsOf(view, { head_chars: DEFAULTS.head_chars, engine: "heuristic", ...opts }, new ToolCallMemo(), undefined, { mentions });
}

/** Mention keys per message of `messages` (src/core/text/mention-keys.ts): an assistant message's `text`, [] for the rest. */
export function proseMentions(messages: readonly MessageSpec[]): string[][] {
  return messages.map((m) => (m.role === "assistant" && m.text !== undefined ? proseMentionKeys(m.text) : []));
}
