/**
 * The step facts as they cross the step RPC (pure codec): columnar, so a field's name travels
 * once per request rather than once per pair or message, and repeated strings (roles, tool
 * names, lock reasons) once per request as a table. `decodeStepFacts(encodeStepFacts(f))` equals
 * `f` field for field (test/unit/step-facts.test.ts checks it over the corpus). A message's
 * `index` is its position (adapters number messages in order); the encoder throws otherwise, and
 * the pipeline's fail-open boundary forwards the original bytes.
 */
import type { CallFacts, MessageFacts, PairFacts, StepFacts } from "./step-facts";
import type { PrefixFacts } from "./prefix-facts";
import { PREFIX_HASH_CHARS } from "../hash";

/** Flag bits of a pair. */
const IS_ERROR = 1, LOOKS_FAILED = 2, READONLY = 4, SHELL = 8, REFERENCE_REPLY = 16, WHOLE = 32;
const KINDS = ["read", "edit", "other"] as const;
const NO_MENTIONS: readonly string[] = Object.freeze([]);

/**
 * One pair: [id, tool (table index), input_hash, input_bytes, call message, call block, result
 * message, result block, turn, result_bytes, result_est_tokens, flags, media count, result_hash,
 * locked (table index, -1 = null), kind (0 read, 1 edit, 2 other), path hashes, range from
 * (-1 = no range), range to (-1 = to the end), intent, head_bytes (-1 = null), error_line,
 * result_head, input_head, refs (mention keys, table indexes)].
 */
export type PairTuple = [
  string, number, string, number, number, number, number, number, number, number, number, number, number, string,
  number, number, string[], number, number, string, number, string, string, string, number[],
];

/** StepFacts on the wire. */
export interface WireFacts {
  provider: StepFacts["provider"];
  model: string | null;
  est_tokens: number;
  turn_count: number;
  server_managed: string | null;
  /** StepFacts.compaction_message; absent when none. */
  compaction_message?: number;
  orphan_call_messages: number[];
  betas: string[];
  /** Strings referred to by index: roles, tool names, lock reasons, mention keys (one path's key recurs across pairs and messages). */
  strings: string[];
  /** Per message, in order: role (index into `strings`), turn index, estimated tokens. */
  message_roles: number[];
  message_turns: number[];
  message_tokens: number[];
  /** Messages with mention keys only (most have none): [message index, keys as indexes into `strings`]. */
  message_mentions: Array<[number, number[]]>;
  pairs: PairTuple[];
  /**
   * StepFacts.prefix with its message hashes joined into one string (each is PREFIX_HASH_CHARS
   * hex digits, src/core/hash.ts, so the split is by width): 3 bytes less per message than an
   * array of strings.
   */
  prefix: (Omit<PrefixFacts, "message_hashes"> & { message_hashes: string }) | null;
}

/** Encodes `f` for the step RPC. Throws when a message's index is not its position. */
export function encodeStepFacts(f: StepFacts): WireFacts {
  const strings: string[] = [];
  const at = new Map<string, number>();
  const ref = (s: string): number => {
    let i = at.get(s);
    if (i === undefined) at.set(s, (i = strings.push(s) - 1));
    return i;
  };
  f.messages.forEach((m, i) => {
    if (m.index !== i) throw new Error(`messages[${i}].index is ${m.index}: step facts number messages in order`);
  });
  return {
    provider: f.provider, model: f.model, est_tokens: f.est_tokens, turn_count: f.turn_count, server_managed: f.server_managed, orphan_call_messages: f.orphan_call_messages, betas: f.betas,
    ...(f.compaction_message !== undefined ? { compaction_message: f.compaction_message } : {}),
    strings,
    message_roles: f.messages.map((m) => ref(m.role)),
    message_turns: f.messages.map((m) => m.turn_index),
    message_tokens: f.messages.map((m) => m.est_tokens),
    message_mentions: f.messages.filter((m) => m.mentions.length > 0).map((m): [number, number[]] => [m.index, m.mentions.map(ref)]),
    pairs: f.pairs.map((p): PairTuple => {
      const c = p.call_class;
      const flags = (p.result_is_error ? IS_ERROR : 0) | (p.looks_failed ? LOOKS_FAILED : 0) | (c.readonly ? READONLY : 0) | (c.shell ? SHELL : 0) | (p.reference_reply ? REFERENCE_REPLY : 0) | (c.kind === "edit" && c.whole ? WHOLE : 0);
      const range = c.kind === "read" ? c.range : null;
      return [
        p.id, ref(p.tool_name), p.input_hash, p.input_bytes, p.call.message_index, p.call.block_index, p.result.message_index, p.result.block_index,
        p.turn_index, p.result_bytes, p.result_est_tokens, flags, p.result_media_count, p.result_hash,
        p.locked === null ? -1 : ref(p.locked), KINDS.indexOf(c.kind), c.kind === "other" ? [] : c.paths,
        range === null ? -1 : range.from, range === null || range.to === null ? -1 : range.to,
        c.intent, p.head_bytes ?? -1, p.error_line, p.result_head, p.input_head, c.refs.map(ref),
      ];
    }),
    prefix: f.prefix === null ? null : { ...f.prefix, message_hashes: joinHashes(f.prefix.message_hashes) },
  };
}

/** Decodes what encodeStepFacts produced. */
export function decodeStepFacts(w: WireFacts): StepFacts {
  const str = (i: number): string => w.strings[i]!;
  const mentions = new Map(w.message_mentions.map(([i, keys]) => [i, keys.map(str)]));
  const messages: MessageFacts[] = w.message_roles.map((r, i) => ({ index: i, role: w.strings[r]!, turn_index: w.message_turns[i]!, est_tokens: w.message_tokens[i]!, mentions: mentions.get(i) ?? NO_MENTIONS }));
  const pairs = w.pairs.map((t): PairFacts => {
    const [id, tool, input_hash, input_bytes, cm, cb, rm, rb, turn_index, result_bytes, result_est_tokens, flags, result_media_count, result_hash, locked, kind, paths, from, to, intent, head, error_line, result_head, input_head, refIndexes] = t;
    const refs = refIndexes.map(str);
    const shell = (flags & SHELL) !== 0;
    const call_class: CallFacts =
      kind === 0 ? { kind: "read", paths, range: from === -1 ? null : { from, to: to === -1 ? null : to }, readonly: true, intent, shell, refs }
      : kind === 1 ? { kind: "edit", paths, whole: (flags & WHOLE) !== 0, readonly: false, intent, shell, refs }
      : { kind: "other", readonly: (flags & READONLY) !== 0, intent, shell, refs };
    return {
      id, tool_name: w.strings[tool]!, input_hash, input_bytes, call: { message_index: cm, block_index: cb }, result: { message_index: rm, block_index: rb },
      turn_index, result_bytes, result_est_tokens, result_is_error: (flags & IS_ERROR) !== 0, result_media_count, result_hash,
      locked: locked === -1 ? null : w.strings[locked]!, call_class, looks_failed: (flags & LOOKS_FAILED) !== 0, reference_reply: (flags & REFERENCE_REPLY) !== 0,
      head_bytes: head === -1 ? null : head, error_line, result_head, input_head,
    };
  });
  return { provider: w.provider, model: w.model, est_tokens: w.est_tokens, turn_count: w.turn_count, server_managed: w.server_managed, ...(w.compaction_message !== undefined ? { compaction_message: w.compaction_message } : {}), orphan_call_messages: w.orphan_call_messages, betas: w.betas, messages, pairs, prefix: w.prefix ? { ...w.prefix, message_hashes: splitHashes(w.prefix.message_hashes) } : null };
}

/** The hashes joined; throws when one is not PREFIX_HASH_CHARS long (the split could not undo the join). */
function joinHashes(hashes: readonly string[]): string {
  for (const [i, h] of hashes.entries()) if (h.length !== PREFIX_HASH_CHARS) throw new Error(`prefix.message_hashes[${i}] has ${h.length} characters, not ${PREFIX_HASH_CHARS}`);
  return hashes.join("");
}

/** joinHashes undone. */
function splitHashes(joined: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < joined.length; i += PREFIX_HASH_CHARS) out.push(joined.slice(i, i + PREFIX_HASH_CHARS));
  return out;
}
