/**
 * Preserved thinking's prefix check (pure): thinking blocks are bound to the conversation before
 * them (platform.claude.com/docs/en/build-with-claude/preserved-thinking and its prefix-checks
 * page). The emulator mints each thinking block's `signature` (redacted_thinking: `data`) from a
 * hash of what the client sent before the block — top-level `tools` and `system`, every earlier
 * message, and the earlier blocks of the block's own message — and checks every returned block
 * against the request as the client sent it (server-side context editing happens later, on the
 * emulator's copy, so it never trips the check).
 *
 * What counts as an edit follows the docs: thinking blocks are not part of a prefix (removing a
 * leading run of thinking blocks keeps later ones valid), `cache_control` markers and JSON key
 * order are ignored; anything else before a block invalidates it (and so every block produced
 * before the change, since their prefixes hold it too).
 * Omitting or moving a thinking block between others invalidates the ones after it: a binding
 * records the previous thinking block of its conversation, checked unless the block is the first
 * thinking block sent. A block the emulator never issued under this key (another model's, or a
 * recording's) is treated as unreadable by this model: dropped silently (`model_binding_mismatch`).
 * A history holding a `compaction` block is read from its last one on, as the API reads it: the
 * blocks before it are neither checked nor part of any prefix.
 */
import { hashText } from "../../../src/core/hash";
import { anthropicInvalid, type Rejection } from "../shared/errors";
import { CACHE_MARKER_KEYS, isObject, prop, stableStringify, str, type Json } from "../shared/json";
import { fromLastCompaction, lastCompaction } from "./apply-compaction";
import { asBlocks } from "./segment-prompt";

/** Beta that turns on `thinking.block_binding` and `input_transformations`. */
export const BINDING_BETA = "thinking-binding-controls-2026-08-01";

/** What a thinking block is bound to. */
export interface ThinkingBinding {
  /** Hash of the prefix the block was produced after. */
  prefix: string;
  /** Hash of the previous thinking block's signature/data in the conversation, "" for none. */
  previous: string;
}

/** Bindings of blocks the emulator issued with a signature it did not mint (recorded replies), by signature/data. */
export type BindingLookup = (key: string) => ThinkingBinding | undefined;

/** One `input_transformations` entry (SDK `BetaThinkingDroppedInputTransformation`). */
export interface ThinkingDropped {
  type: "thinking_dropped";
  reason: "model_binding_mismatch" | "prefix_binding_mismatch";
  /** `messages.{i}.content.{j}` of the request as sent. */
  path: string;
}

/** Outcome of the check: a rejection, or the blocks to drop (in request order). */
export type BindingCheck = { ok: false; rejection: Rejection } | { ok: true; dropped: ThinkingDropped[] };

const MINT_PREFIX = "emu1.";
const THINKING = new Set(["thinking", "redacted_thinking"]);

/** Signature (thinking) or data (redacted_thinking) of a block; undefined for other blocks. */
export function bindingKey(block: Json): string | undefined {
  const type = str(block, "type");
  return type === "thinking" ? str(block, "signature") : type === "redacted_thinking" ? str(block, "data") : undefined;
}

/** A minted signature carrying `binding`; `nonce` keeps two blocks with the same binding apart. */
export function mintSignature(binding: ThinkingBinding, nonce: string): string {
  return MINT_PREFIX + Buffer.from(JSON.stringify({ p: binding.prefix, b: binding.previous, n: nonce })).toString("base64url");
}

/** The binding inside a signature the emulator minted, or undefined. */
export function decodeSignature(sig: string): ThinkingBinding | undefined {
  if (!sig.startsWith(MINT_PREFIX)) return undefined;
  try {
    const v = JSON.parse(Buffer.from(sig.slice(MINT_PREFIX.length), "base64url").toString("utf8")) as unknown;
    return isObject(v) && typeof v.p === "string" && typeof v.b === "string" ? { prefix: v.p, previous: v.b } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * What the model reads of `body`: from its last compaction block on (the API drops everything
 * before it, compaction doc), so a block bound after a compaction is checked against that part only.
 */
function providerView(body: Json): Json {
  return isObject(body) ? fromLastCompaction(body) : body;
}

const canon = (v: Json | undefined) => stableStringify(v ?? null, CACHE_MARKER_KEYS);
const withoutThinking = (blocks: Json[]) => blocks.filter((b) => !THINKING.has(str(b, "type") ?? ""));

/**
 * Prefix hashes of a request body: `before(i)` covers tools, system and messages[0..i);
 * `at(i, blocks)` adds message i's role and `blocks` (its content before the bound block).
 */
export function prefixHasher(body: Json): { before(i: number): string; at(i: number, role: string, blocks: Json[]): string } {
  const messages = Array.isArray(prop(body, "messages")) ? (prop(body, "messages") as Json[]) : [];
  const chain = [hashText("tools:" + canon(prop(body, "tools")) + "\nsystem:" + canon(asBlocks(prop(body, "system"))))];
  const before = (i: number): string => {
    for (let k = chain.length; k <= i; k++) {
      const m = messages[k - 1];
      chain.push(hashText(chain[k - 1] + "\n" + (str(m, "role") ?? "") + ":" + canon(withoutThinking(asBlocks(prop(m, "content"))))));
    }
    return chain[i]!;
  };
  return { before, at: (i, role, blocks) => hashText(before(i) + "\n" + role + ":" + canon(withoutThinking(blocks))) };
}

/** Whether `body` asks to drop mismatched blocks instead of failing (needs BINDING_BETA). */
function dropsOnMismatch(body: Json, betas: readonly string[]): boolean {
  const behaviour = str(prop(prop(body, "thinking"), "block_binding"), "prefix_mismatch_behavior");
  return betas.includes(BINDING_BETA) && behaviour === "drop_block";
}

/**
 * Checks every thinking block of `body` (a Messages request as the client sent it), each against
 * its own binding, so an edit invalidates every block produced before it and none produced after.
 * Returns the documented 400 on the first failing block, unless the request opts into
 * `drop_block`; then the failing block and the rest of its message's thinking blocks are dropped
 * (SDK BetaThinkingDroppedInputTransformation: "the rest of that turn's consecutive thinking
 * blocks are removed with it"). A block with no known binding is dropped as another model's.
 */
export function checkThinkingBinding(body: Json, betas: readonly string[], lookup: BindingLookup = () => undefined): BindingCheck {
  const view = providerView(body);
  const messages = Array.isArray(prop(view, "messages")) ? (prop(view, "messages") as Json[]) : [];
  // Paths name the request as sent; the view starts at its last compaction block.
  const start = isObject(body) && Array.isArray(body.messages) ? lastCompaction(body.messages) : null;
  const hasher = prefixHasher(view);
  const dropped: ThinkingDropped[] = [];
  let previousKey: string | null = null;
  for (let i = 0; i < messages.length; i++) {
    const blocks = asBlocks(prop(messages[i], "content"));
    let restDropped = false;
    for (let j = 0; j < blocks.length; j++) {
      const key = bindingKey(blocks[j]!);
      if (key === undefined) continue;
      const path = start === null ? `messages.${i}.content.${j}` : `messages.${i + start.message}.content.${i === 0 ? j + start.block : j}`;
      const binding = decodeSignature(key) ?? lookup(key);
      const prior = previousKey;
      previousKey = key;
      if (binding === undefined) {
        dropped.push({ type: "thinking_dropped", reason: "model_binding_mismatch", path });
        continue;
      }
      const prefixOk = binding.prefix === hasher.at(i, str(messages[i], "role") ?? "", blocks.slice(0, j));
      const orderOk = prior === null || binding.previous === hashText(prior);
      if (!restDropped && prefixOk && orderOk) continue;
      if (!dropsOnMismatch(body, betas)) return { ok: false, rejection: anthropicInvalid(mismatchMessage(path, str(blocks[j], "type")!, betas)) };
      restDropped = true;
      dropped.push({ type: "thinking_dropped", reason: "prefix_binding_mismatch", path });
    }
  }
  return { ok: true, dropped };
}

/**
 * The documented 400 text (platform.claude.com preserved-thinking/fix-bound-to-a-different-conversation;
 * full wording as quoted in client test suites). Without the binding beta the message ends by
 * naming it. The redacted_thinking variant (`data` in `redacted_thinking`) is by analogy.
 */
export function mismatchMessage(path: string, type: string, betas: readonly string[]): string {
  const field = type === "redacted_thinking" ? "`data` in `redacted_thinking`" : "`signature` in `thinking`";
  const base = `${path}: Invalid ${field} block. The block is bound to a different conversation. Remove the block, or set \`thinking.block_binding.prefix_mismatch_behavior\` to "drop_block".`;
  return betas.includes(BINDING_BETA) ? base : `${base} That setting requires the \`${BINDING_BETA}\` value in the \`anthropic-beta\` header.`;
}

/** `body` without the dropped blocks (a copy; the client's body is left as sent). */
export function withoutBlocks(body: Json, dropped: readonly ThinkingDropped[]): Json {
  if (dropped.length === 0 || !isObject(body) || !Array.isArray(body.messages)) return body;
  const gone = new Set(dropped.map((d) => d.path));
  const messages = body.messages.map((m, i) => {
    const blocks = asBlocks(prop(m, "content"));
    if (!blocks.some((_, j) => gone.has(`messages.${i}.content.${j}`))) return m;
    return { ...(m as object), content: blocks.filter((_, j) => !gone.has(`messages.${i}.content.${j}`)) } as Json;
  });
  return { ...body, messages };
}

/**
 * Binds the thinking blocks of a reply to the request they answer: blocks of `content` get a
 * minted signature (or keep the recorded one, returned in `learned` for the key's state). With
 * `omitText` (`thinking.display: "omitted"`) thinking text comes back empty.
 */
export function bindReply(body: Json, content: Json[], nonce: string, omitText: boolean): { content: Json[]; learned: [string, ThinkingBinding][] } {
  const view = providerView(body);
  const messages = Array.isArray(prop(view, "messages")) ? (prop(view, "messages") as Json[]) : [];
  const hasher = prefixHasher(view);
  let previousKey = "";
  for (const m of messages) for (const b of asBlocks(prop(m, "content"))) previousKey = bindingKey(b) ?? previousKey;
  const learned: [string, ThinkingBinding][] = [];
  const out = content.map((block, j) => {
    const type = str(block, "type");
    if (type !== "thinking" && type !== "redacted_thinking") return block;
    const binding = { prefix: hasher.at(messages.length, "assistant", content.slice(0, j)), previous: previousKey === "" ? "" : hashText(previousKey) };
    const recorded = bindingKey(block);
    const key = recorded && recorded !== "" ? recorded : mintSignature(binding, `${nonce}.${j}`);
    if (key === recorded) learned.push([key, binding]);
    previousKey = key;
    const field = type === "thinking" ? "signature" : "data";
    const text = type === "thinking" && omitText ? { thinking: "" } : {};
    return { ...(block as object), ...text, [field]: key } as Json;
  });
  return { content: out, learned };
}
