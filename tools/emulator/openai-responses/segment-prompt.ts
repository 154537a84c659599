/**
 * Flattens a Responses request into prompt blocks (pure): `instructions`, then tool definitions,
 * then one block per input item. Tokens: o200k BPE of each item's text (message parts, call
 * names and arguments, outputs) plus ITEM_OVERHEAD; a reasoning item counts its summary text
 * only (its encrypted content is opaque; documented estimate).
 */
import { renderParts } from "../openai-chat/segment-prompt";
import { countTokens, MEDIA_TOKENS } from "../shared/count-tokens";
import { CACHE_MARKER_KEYS, prop, stableStringify, str, type Json } from "../shared/json";
import { explicitMarker, selectBreakpoints, type BreakpointCandidate } from "../shared/openai-cache-policy";
import { chainBlocks, type PromptBlock, type RawBlock } from "../shared/prompt-block";

export const ITEM_OVERHEAD = 3;

/** Text and media of one input or output item. */
export function renderItem(item: Json): { text: string; media: number } {
  const type = str(item, "type") ?? (str(item, "role") !== undefined ? "message" : "");
  switch (type) {
    case "message": {
      const r = renderParts(prop(item, "content"));
      return { text: (str(item, "role") ?? "") + "\n" + r.text, media: r.media };
    }
    case "function_call":
      return { text: (str(item, "name") ?? "") + (str(item, "arguments") ?? ""), media: 0 };
    case "custom_tool_call":
      return { text: (str(item, "name") ?? "") + (str(item, "input") ?? ""), media: 0 };
    case "function_call_output":
    case "custom_tool_call_output": {
      const out = prop(item, "output");
      return typeof out === "string" ? { text: out, media: 0 } : renderParts(out);
    }
    case "reasoning": {
      const summary = prop(item, "summary");
      return { text: Array.isArray(summary) ? summary.map((s) => str(s, "text") ?? "").join("\n") : "", media: 0 };
    }
    default:
      return { text: stableStringify(item, CACHE_MARKER_KEYS), media: 0 };
  }
}

/** Input items of a body (a string input is one user message). */
export function inputItems(body: Json): Json[] {
  const input = prop(body, "input");
  if (typeof input === "string") return [{ type: "message", role: "user", content: input }];
  return Array.isArray(input) ? input : [];
}

/** Prompt blocks of a (validated) Responses body; `breakpoints` as in segmentChatPrompt. */
export function segmentResponsesPrompt(body: Json, breakpoints: boolean): PromptBlock[] {
  const raw: RawBlock[] = [];
  const candidates: BreakpointCandidate[] = [];
  const instructions = str(body, "instructions");
  if (instructions !== undefined && instructions !== "") {
    raw.push({ canon: "<instructions>" + instructions, tokens: ITEM_OVERHEAD + countTokens(instructions), breakpointTtlMs: null });
    candidates.push({ userOrTool: false, explicit: null });
  }
  const tools = prop(body, "tools");
  for (const tool of Array.isArray(tools) ? tools : []) {
    const canon = "<tool>" + stableStringify(tool, CACHE_MARKER_KEYS);
    raw.push({ canon, tokens: countTokens(canon), breakpointTtlMs: null });
    candidates.push({ userOrTool: false, explicit: null });
  }
  for (const item of inputItems(body)) {
    const r = renderItem(item);
    raw.push({ canon: stableStringify(item, CACHE_MARKER_KEYS), tokens: ITEM_OVERHEAD + countTokens(r.text) + r.media * MEDIA_TOKENS, breakpointTtlMs: null });
    const type = str(item, "type") ?? "message";
    const userOrTool = (type === "message" && str(item, "role") === "user") || type.endsWith("_output");
    candidates.push({ userOrTool, explicit: explicitMarker(prop(item, "content")) });
  }
  if (breakpoints) selectBreakpoints(body, candidates).forEach((ttl, i) => (raw[i]!.breakpointTtlMs = ttl));
  return chainBlocks(str(body, "model") ?? "", raw);
}
