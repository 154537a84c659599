/**
 * What a session step reads of a request (pure data and the pure function that builds it): the
 * facts the core's tiers, rules, ledger and cost model use, computed in the gateway from the
 * parsed view and sent in the step RPC instead of the view (DESIGN §1: "per-pair facts — ids,
 * hashes, sizes, token estimates, classifications, at most head_chars of a result — never whole
 * texts"). Derived from the view alone: no state on either side of the RPC.
 *
 * Per pair, what the core needs from the texts is computed here once:
 * - the call's classification (src/core/engine/read-tool-call.ts) with its file paths and its
 *   intent (file path, command, or tool + input) as hashes: the rules only compare them;
 * - the input as a hash (duplicate calls: same tool, same input hash, same result hash);
 * - whether the result reports a failure (resultLooksFailed);
 * - the truncation head for `head_chars` (src/core/tiers/cut-head.ts headBytes);
 * - for a result that looks failed, its first line (≤ KEY_MAX_CHARS: the tier map's error key);
 * - the call's mention keys (paths, shell command) and, per assistant message, its prose's
 *   (../text/mention-keys.ts): short hashes only;
 * - for HTTP engines only, at most `head_chars` of the result and of the input (the engine
 *   protocol's result_head and input_excerpt); with the heuristic engine no result or input
 *   text at all.
 * On the wire the facts travel columnar (./wire-facts.ts): ≈ 150–200 bytes of JSON per pair and
 * 10–20 per message.
 */
import { hashText } from "../hash";
import type { ToolCallMemo } from "../engine/read-tool-call-memo";
import { normalisePath, resultLooksFailed, type LineRange } from "../engine/read-tool-call";
import { headBytes } from "../tiers/cut-head";
import { isReferenceReply } from "../engine/reference-replies";
import { headChars } from "../text/head-chars";
import { callMentionKeys } from "../text/mention-keys";
import type { EngineKind } from "../../config/defaults";
import type { ConversationView, Provider, ToolPair } from "../view/types";
import type { PrefixFacts } from "./prefix-facts";

/** A tool call's classification with its texts hashed (src/core/engine/read-tool-call.ts ToolCallInfo). */
export type CallFacts =
  /** Reads the files whose normalised paths hash to `paths`; `range` null = a partial read of unknown extent; `to` null = to the end. */
  | { kind: "read"; paths: string[]; range: LineRangeFacts | null; readonly: true; intent: string; shell: boolean; refs: string[] }
  /** Changes the files whose normalised paths hash to `paths`; `whole` when the call holds their complete new content (ToolCallInfo). */
  | { kind: "edit"; paths: string[]; whole: boolean; readonly: false; intent: string; shell: boolean; refs: string[] }
  /**
   * Anything else. In every kind, `shell` marks a shell command (its intent hashes "sh:" + the
   * command), and `refs` holds the mention keys of what the call names (../text/mention-keys.ts:
   * each path's pathKeys, and a shell command's own text), to meet MessageFacts.mentions.
   */
  | { kind: "other"; readonly: boolean; intent: string; shell: boolean; refs: string[] };

/** A read's line range, 1-based inclusive; `to` null = to the end (JSON has no Infinity). */
export interface LineRangeFacts {
  from: number;
  to: number | null;
}

/** What the core reads of one message. */
export interface MessageFacts {
  index: number;
  role: string;
  turn_index: number;
  /** Estimated tokens of the message (src/core/tokens). */
  est_tokens: number;
  /** Mention keys of the message's assistant prose (../text/mention-keys.ts proseMentionKeys); [] for other messages. */
  mentions: readonly string[];
}

/** The fields of a pair the core reads as the view has them (src/core/view/types.ts ToolPair). */
type PairCopied = Pick<ToolPair, "id" | "tool_name" | "input_bytes" | "call" | "result" | "turn_index" | "result_bytes" | "result_est_tokens" | "result_is_error" | "result_media_count" | "result_hash" | "locked">;

/** What the core reads of one tool pair: ToolPair's sizes, positions and hashes, its texts replaced by facts. */
export interface PairFacts extends PairCopied {
  /** Hash (src/core/hash.ts hashText) of the call's input text. */
  input_hash: string;
  call_class: CallFacts;
  /** The result is a reference reply pointing back at an earlier result (../engine/reference-replies.ts): never a newer copy. */
  reference_reply: boolean;
  /** The result reports a failure (the wire's error flag or its text: resultLooksFailed). */
  looks_failed: boolean;
  /** UTF-8 bytes of the result's truncation head for the step's head_chars (headBytes), or null when the result is no longer than that. */
  head_bytes: number | null;
  /** The first line of the result's text when it looks failed (trimmed, ≤ ERROR_LINE_CHARS UTF-16 units), else "". */
  error_line: string;
  /** At most head_chars UTF-16 units of the result's text, for HTTP engines only; "" with the heuristic engine. */
  result_head: string;
  /** At most head_chars UTF-16 units of the input text, for HTTP engines only; "" with the heuristic engine. */
  input_head: string;
}

/** What the core reads of one request. */
export interface StepFacts {
  provider: Provider;
  model: string | null;
  /** Estimated input tokens of the whole request. */
  est_tokens: number;
  turn_count: number;
  server_managed: string | null;
  /** ConversationView.compaction_message: the message of the last `compaction` block; absent when none. */
  compaction_message?: number;
  /**
   * The request's `anthropic-beta` values (trimmed, in order; [] for other providers or none):
   * a beta such as `context-1m-2025-08-07` extends the model's context window
   * (src/core/cost/find-model-price.ts windowWithBetas).
   */
  betas: string[];
  /** Message indexes of assistant messages holding a tool call without a result (an orphan call), in order. */
  orphan_call_messages: number[];
  messages: MessageFacts[];
  pairs: PairFacts[];
  /** The request's cacheable prefix as hashes (./prefix-facts.ts), or null when built from a view without its bytes. */
  prefix: PrefixFacts | null;
}

/** The config keys the facts depend on. */
export interface FactsOptions {
  head_chars: number;
  engine: EngineKind;
}

/** Longest error line kept, UTF-16 units: the tier map's key bound (src/core/memory/build-tier-map.ts KEY_MAX_CHARS). */
export const ERROR_LINE_CHARS = 160;

/** The comma-separated values of an `anthropic-beta` header, trimmed, empty ones left out. */
export function betaValues(header: string | null): string[] {
  return header === null ? [] : header.split(",").map((b) => b.trim()).filter((b) => b !== "");
}

/** The first line of `text` after leading blanks, cut to ERROR_LINE_CHARS. */
function errorLine(text: string): string {
  const head = headChars(text.trimStart(), ERROR_LINE_CHARS + 1);
  return headChars(head.split("\n")[0]!.trimEnd(), ERROR_LINE_CHARS);
}

const NO_MENTIONS: readonly string[] = Object.freeze([]);

const rangeFacts = (r: LineRange | null): LineRangeFacts | null => (r === null ? null : { from: r.from, to: r.to === Infinity ? null : r.to });

/** The facts of one pair (every text read once, here; the call classified through `calls`). */
export function pairFacts(p: ToolPair, opts: FactsOptions, calls: ToolCallMemo): PairFacts {
  const info = calls.read(p);
  const intent = hashText(info.intent);
  const shell = info.intent.startsWith("sh:");
  const refs = callMentionKeys(info);
  const call_class: CallFacts =
    info.kind === "read" ? { kind: "read", paths: info.paths.map((x) => hashText(normalisePath(x))), range: rangeFacts(info.range), readonly: true, intent, shell, refs }
    : info.kind === "edit" ? { kind: "edit", paths: info.paths.map((x) => hashText(normalisePath(x))), whole: info.whole, readonly: false, intent, shell, refs }
    : { kind: "other", readonly: info.readonly, intent, shell, refs };
  const text = p.result_text;
  const failed = resultLooksFailed(p);
  return {
    id: p.id, tool_name: p.tool_name, input_hash: hashText(p.input_text), input_bytes: p.input_bytes, call: p.call, result: p.result, turn_index: p.turn_index,
    result_bytes: p.result_bytes, result_est_tokens: p.result_est_tokens, result_is_error: p.result_is_error, result_media_count: p.result_media_count,
    result_hash: p.result_hash, locked: p.locked,
    call_class,
    looks_failed: failed,
    reference_reply: isReferenceReply(p),
    head_bytes: headBytes(text, opts.head_chars),
    error_line: failed ? errorLine(text) : "",
    result_head: opts.engine === "heuristic" ? "" : headChars(text, opts.head_chars),
    input_head: opts.engine === "heuristic" ? "" : headChars(p.input_text, opts.head_chars),
  };
}

/**
 * The step facts of `view` for `opts` (plain data: structured-clone and JSON safe); `calls`
 * classifies the pairs' calls (../engine/read-tool-call-memo.ts); `headers`,
 * when given, are the request's (only `anthropic-beta` is read); `body`, what is read from the
 * request's bytes when they are at hand: `prefix`, the prefix facts (./prefix-facts.ts
 * prefixFactsOf; else null), and `mentions`, the mention keys per message of `view`
 * (src/providers/shared/message-mentions.ts; else none).
 */
export function stepFactsOf(view: ConversationView, opts: FactsOptions, calls: ToolCallMemo, headers?: Headers, body: { prefix?: PrefixFacts | null; mentions?: readonly (readonly string[])[] } = {}): StepFacts {
  const { prefix = null, mentions } = body;
  return {
    provider: view.provider,
    model: view.model,
    est_tokens: view.est_tokens,
    turn_count: view.turn_count,
    server_managed: view.server_managed,
    ...(view.compaction_message !== undefined ? { compaction_message: view.compaction_message } : {}),
    betas: view.provider === "anthropic" && headers ? betaValues(headers.get("anthropic-beta")) : [],
    orphan_call_messages: view.orphans
      .filter((o) => o.kind !== "result_without_call" && view.messages[o.position.message_index]?.role === "assistant")
      .map((o) => o.position.message_index),
    messages: view.messages.map((m, i) => ({ index: m.index, role: m.role, turn_index: m.turn_index, est_tokens: m.est_tokens, mentions: mentions?.[i] ?? NO_MENTIONS })),
    pairs: view.pairs.map((p) => pairFacts(p, opts, calls)),
    prefix,
  };
}
