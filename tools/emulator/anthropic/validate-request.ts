/**
 * Validates a Messages API request the way the real API does (pure). Returns the first
 * rejection, with the real message text, or null. Every rule, with its source, is listed in
 * docs/emulator.md; the numbered steps below follow that list.
 */
import { anthropicInvalid, type Rejection } from "../shared/errors";
import { CACHE_MARKER_KEYS, isObject, prop, stableStringify, str, type Json } from "../shared/json";
import { lastCompactionIndex } from "./apply-compaction";
import { asBlocks } from "./segment-prompt";
import { cacheTtlProblem } from "./validate-cache-ttl";

/** What the emulator remembers between calls of one API key. */
export interface AnthropicValidationContext {
  /** Thinking signature (or redacted data) → canonical content of the assistant message that carried it, as issued. */
  issuedThinking: ReadonlyMap<string, string>;
  /** The request's `anthropic-beta` values (one per entry, already split on commas). */
  betas?: readonly string[];
}

/** Beta that allows `role: "system"` messages inside `messages` (platform.claude.com/docs/en/build-with-claude/mid-conversation-system-messages). */
export const MID_CONVERSATION_SYSTEM_BETA = "mid-conversation-system-2026-04-07";

interface Turn {
  role: string;
  /** Original message indices merged into this turn (consecutive same-role messages merge). */
  messages: number[];
}

const THINKING = new Set(["thinking", "redacted_thinking"]);
const DOCS = "https://docs.claude.com/en/docs/build-with-claude/extended-thinking";

/** Canonical form of an assistant content array for "was it modified" checks (key order and cache markers ignored). */
export function canonicalContent(content: Json | undefined): string {
  return stableStringify(asBlocks(content), CACHE_MARKER_KEYS);
}

/** Signature (thinking) or data (redacted_thinking) identifying a thinking block. */
export function thinkingKey(block: Json): string | undefined {
  return str(block, "type") === "thinking" ? str(block, "signature") : str(block, "data");
}

export function validateAnthropicRequest(body: unknown, ctx: AnthropicValidationContext): Rejection | null {
  const fail = anthropicInvalid;
  // 1. Required fields.
  if (!isObject(body)) return fail("Request body must be a JSON object");
  if (typeof body.model !== "string") return fail("model: Field required");
  if (typeof body.max_tokens !== "number") return fail("max_tokens: Field required");
  if (!Array.isArray(body.messages)) return fail("messages: Field required");
  const messages = body.messages;
  for (let i = 0; i < messages.length; i++) {
    const role = str(messages[i], "role");
    // Accepted with or without MID_CONVERSATION_SYSTEM_BETA: Claude Code 2.1.332 sends these
    // messages without it (docs/dev/e2e-clients.md) and the API serves it, so only the placement
    // rule is enforced.
    if (role === "system") {
      // A mid-conversation system message goes directly after a user message (wording not verified).
      if (i === 0 || str(messages[i - 1], "role") !== "user") return fail(`messages.${i}: a \`system\` message must directly follow a \`user\` message`);
      continue;
    }
    if (role !== "user" && role !== "assistant") return fail(`messages.${i}.role: Input should be 'user' or 'assistant'`);
  }

  // 2. At most 4 cache_control markers (tools, system, message blocks, nested tool_result blocks, top level).
  const markers = countCacheControl(body);
  if (markers > 4) return fail(`A maximum of 4 blocks with cache_control may be provided. Found ${markers}.`);
  const ttl = cacheTtlProblem(body);
  if (ttl) return fail(ttl);

  // 3. Non-empty content and text.
  if (Array.isArray(body.system)) {
    for (const b of body.system) {
      const e = textProblem(b, "system");
      if (e) return fail(e);
    }
  }
  for (let i = 0; i < messages.length; i++) {
    const content = prop(messages[i], "content");
    const blocks = asBlocks(content);
    const isFinalAssistant = i === messages.length - 1 && str(messages[i], "role") === "assistant";
    const isSystem = str(messages[i], "role") === "system"; // an effort-only system message has no content
    if ((blocks.length === 0 || content === "") && !isFinalAssistant && !isSystem) {
      return fail(`messages.${i}: all messages must have non-empty content except for the optional final assistant message`);
    }
    for (const b of blocks) {
      const e = textProblem(b, "messages");
      if (e) return fail(e);
      if (str(b, "type") === "tool_result" && Array.isArray(prop(b, "content"))) {
        for (const inner of prop(b, "content") as Json[]) {
          const e2 = textProblem(inner, "messages");
          if (e2) return fail(e2);
        }
      }
    }
  }

  // 4. Roles: consecutive same-role messages merge into one turn; the first turn must be user, unless it
  // opens with a compaction block (on-demand compaction: the returned message goes first, in place of
  // the messages it summarises).
  const turns = mergeTurns(messages);
  const opensWithSummary = str(asBlocks(prop(messages[0], "content"))[0], "type") === "compaction";
  if (turns.length > 0 && turns[0]!.role !== "user" && !opensWithSummary) return fail('messages: first message must use the "user" role');

  // 5. tool_use / tool_result blocks need tool definitions.
  const usesTools = messages.some((m) => asBlocks(prop(m, "content")).some((b) => ["tool_use", "tool_result"].includes(str(b, "type") ?? "")));
  if (usesTools && !(Array.isArray(body.tools) && body.tools.length > 0)) {
    return fail("Requests which include tool_use or tool_result blocks must define tools.");
  }

  // 6. Pairing: tool_use ids are unique; results answer the previous turn's tool_use ids; every
  //    tool_use is answered at the head of the next turn.
  const pairing = checkUniqueToolUseIds(messages) ?? checkPairing(messages, turns);
  if (pairing) return fail(pairing);

  // 7. Thinking blocks.
  const thinking = checkThinking(body, messages, turns, ctx);
  return thinking ? fail(thinking) : null;
}

function countCacheControl(body: { [k: string]: Json }): number {
  const has = (v: Json | undefined) => (isObject(v) && v.cache_control !== undefined && v.cache_control !== null ? 1 : 0);
  let n = has(body);
  for (const t of Array.isArray(body.tools) ? body.tools : []) n += has(t);
  if (Array.isArray(body.system)) for (const b of body.system) n += has(b);
  for (const m of Array.isArray(body.messages) ? body.messages : []) {
    for (const b of asBlocks(prop(m, "content"))) {
      n += has(b);
      const inner = prop(b, "content");
      if (str(b, "type") === "tool_result" && Array.isArray(inner)) for (const x of inner) n += has(x);
    }
  }
  return n;
}

function textProblem(block: Json, where: "system" | "messages"): string | null {
  if (str(block, "type") !== "text") return null;
  const text = str(block, "text") ?? "";
  if (text === "") return `${where}: text content blocks must be non-empty`;
  if (text.trim() === "") return `${where}: text content blocks must contain non-whitespace text`;
  return null;
}

/** User/assistant turns; mid-conversation system messages are not turns and never split one. */
function mergeTurns(messages: Json[]): Turn[] {
  const turns: Turn[] = [];
  messages.forEach((m, i) => {
    const role = str(m, "role")!;
    if (role === "system") return;
    const last = turns[turns.length - 1];
    if (last && last.role === role) last.messages.push(i);
    else turns.push({ role, messages: [i] });
  });
  return turns;
}

function blocksOf(messages: Json[], turn: Turn): { block: Json; msg: number; idx: number }[] {
  return turn.messages.flatMap((msg) => asBlocks(prop(messages[msg], "content")).map((block, idx) => ({ block, msg, idx })));
}

/** A16: no tool_use id appears twice in the request. */
function checkUniqueToolUseIds(messages: Json[]): string | null {
  const seen = new Set<string>();
  for (let i = 0; i < messages.length; i++) {
    const blocks = asBlocks(prop(messages[i], "content"));
    for (let j = 0; j < blocks.length; j++) {
      if (str(blocks[j], "type") !== "tool_use") continue;
      const id = str(blocks[j], "id") ?? "";
      if (seen.has(id)) return `messages.${i}.content.${j}: \`tool_use\` ids must be unique`;
      seen.add(id);
    }
  }
  return null;
}

function checkPairing(messages: Json[], turns: Turn[]): string | null {
  for (let t = 0; t < turns.length; t++) {
    const turn = turns[t]!;
    const blocks = blocksOf(messages, turn);
    if (turn.role === "user") {
      const prev = t > 0 ? turns[t - 1]! : undefined;
      const useIds = new Set(prev ? blocksOf(messages, prev).filter((b) => str(b.block, "type") === "tool_use").map((b) => str(b.block, "id")) : []);
      for (const b of blocks) {
        if (str(b.block, "type") !== "tool_result") continue;
        const id = str(b.block, "tool_use_id") ?? "";
        if (!useIds.has(id)) {
          return `messages.${b.msg}.content.${b.idx}: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${id}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`;
        }
      }
      continue;
    }
    const uses = blocks.filter((b) => str(b.block, "type") === "tool_use");
    const next = turns[t + 1];
    if (uses.length === 0 || !next) continue;
    const answered = new Set<string>();
    for (const b of blocksOf(messages, next)) {
      if (str(b.block, "type") !== "tool_result") break; // results must lead the next turn
      answered.add(str(b.block, "tool_use_id") ?? "");
    }
    const missing = uses.filter((b) => !answered.has(str(b.block, "id") ?? ""));
    if (missing.length > 0) {
      const ids = missing.map((b) => str(b.block, "id")).join(", ");
      return `messages.${missing[0]!.msg}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${ids}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`;
    }
  }
  return null;
}

function checkThinking(body: { [k: string]: Json }, messages: Json[], turns: Turn[], ctx: AnthropicValidationContext): string | null {
  const enabled = ["enabled", "adaptive"].includes(str(body.thinking, "type") ?? "");
  let latestAssistant = -1;
  for (let i = 0; i < messages.length; i++) {
    if (str(messages[i], "role") !== "assistant") continue;
    latestAssistant = i;
    const blocks = asBlocks(prop(messages[i], "content"));
    const types = blocks.map((b) => str(b, "type") ?? "");
    // The API drops every block up to a compaction block (compaction doc), so the order rule reads what follows it.
    const own = lastCompactionIndex(blocks) + 1;
    if (types.slice(own).some((x) => THINKING.has(x)) && !THINKING.has(types[own]!)) {
      return `messages.${i}.content.${own}: If an assistant message contains any thinking blocks, the first block must be thinking or redacted_thinking. Found ${types[own]}.`;
    }
    if (types.length > 0 && types[types.length - 1] === "thinking") return `messages.${i}: The final block in an assistant message cannot be \`thinking\`.`;
    if (!enabled && i === messages.length - 1) {
      const j = types.findIndex((x) => THINKING.has(x));
      if (j >= 0) {
        return `messages.${i}.content.${j}: When thinking is disabled, an \`assistant\` message in the final position cannot contain \`thinking\`. To use thinking blocks, enable \`thinking\` in your request.`;
      }
    }
  }
  if (latestAssistant < 0) return null;

  // The latest assistant message must be exactly as issued when it carries a thinking block the
  // emulator issued; a compaction block answered with it is issued apart (handle-messages.ts), so
  // the blocks compared are the ones after the message's last compaction block.
  const sent = asBlocks(prop(messages[latestAssistant], "content"));
  const offset = lastCompactionIndex(sent) + 1;
  const latest = sent.slice(offset);
  for (const b of latest) {
    const key = THINKING.has(str(b, "type") ?? "") ? thinkingKey(b) : undefined;
    const issued = key !== undefined ? ctx.issuedThinking.get(key) : undefined;
    if (issued === undefined) continue;
    if (issued !== canonicalContent(latest)) {
      const original = JSON.parse(issued) as Json[];
      let j = 0;
      while (j < latest.length && j < original.length && stableStringify(latest[j], CACHE_MARKER_KEYS) === stableStringify(original[j], CACHE_MARKER_KEYS)) j++;
      return `messages.${latestAssistant}.content.${offset + Math.min(j, Math.max(latest.length - 1, 0))}: \`thinking\` or \`redacted_thinking\` blocks in the latest assistant message cannot be modified. These blocks must remain as they were in the original response.`;
    }
    break;
  }

  // With thinking on, an assistant turn still inside a tool loop must start with a thinking block.
  const lastTurn = turns[turns.length - 1]!;
  const inToolLoop = lastTurn.role === "user" && blocksOf(messages, lastTurn).some((b) => str(b.block, "type") === "tool_result");
  if (enabled && inToolLoop && turns.length >= 2) {
    // The turn is read from its last compaction block on, as the API reads it (compaction doc).
    const assistantTurn = turns[turns.length - 2]!;
    const turnBlocks = blocksOf(messages, assistantTurn);
    const head = turnBlocks[turnBlocks.findLastIndex((b) => str(b.block, "type") === "compaction") + 1];
    const type = str(head?.block, "type") ?? "";
    if (!THINKING.has(type)) {
      return `messages.${head?.msg ?? assistantTurn.messages[0]}.content.${head?.idx ?? 0}.type: Expected \`thinking\` or \`redacted_thinking\`, but found \`${type}\`. When \`thinking\` is enabled, a final \`assistant\` message must start with a thinking block (preceeding the lastmost set of \`tool_use\` and \`tool_result\` blocks). We recommend you include thinking blocks from previous turns. To avoid this requirement, disable \`thinking\`. Please consult our documentation at ${DOCS}`;
    }
  }
  return null;
}
