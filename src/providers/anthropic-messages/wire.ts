/**
 * Anthropic Messages wire vocabulary (pure, types + one classifier). Types come from the
 * official `@anthropic-ai/sdk` package (type-only imports: nothing of the SDK is bundled).
 * The Beta union is used because it is the superset: a client may send any beta block.
 *
 * Sluice never re-serialises these shapes; it reads them through the byte-offset scanner
 * (../shared/json-scan.ts). The types pin the names we branch on to the SDK's own literals, so
 * a renamed block type breaks the typecheck instead of silently changing behaviour.
 */
import type { MessageParam } from "@anthropic-ai/sdk/resources/messages/messages";
import type { BetaContentBlockParam, BetaToolResultBlockParam } from "@anthropic-ai/sdk/resources/beta/messages/messages";
import { ANTHROPIC_BLOCKS, type AnthropicBlockKind } from "../known-types";
import { ANTHROPIC_SERVER_TOOL_RESULTS } from "../dependencies";

/** `messages[i].role` values (SDK `MessageParam["role"]`: user, assistant, and the newer in-history `system`). */
export type WireRole = MessageParam["role"];

/** Every request content-block `type` the SDK knows (Beta superset). */
export type WireBlockType = BetaContentBlockParam["type"];

/** Block types allowed inside `tool_result.content` (SDK `BetaToolResultBlockParam`). */
export type WireToolResultPartType = Exclude<BetaToolResultBlockParam["content"], string | undefined | null>[number]["type"];

/**
 * How Sluice treats a block (the `kind` column of ../known-types.ts ANTHROPIC_BLOCKS):
 * - `prose`: user/assistant text — never altered.
 * - `media`: image / document — never altered outside a tool result.
 * - `thinking`: thinking / redacted_thinking — never altered; constrains edits (B03, prefix checks).
 * - `tool_use` / `tool_result`: the client tool pair, the only thing Sluice edits.
 * - `compaction`: a server compaction block — the provider manages the history, Sluice edits nothing.
 * - `other`: server tool blocks, search results, container uploads, MCP blocks, tool changes —
 *   kept as is, counted as a non-tool part. A type the table does not list never reaches the
 *   view: the adapter stands aside (./locate-blocks.ts).
 */
export type BlockKind = AnthropicBlockKind;

/** Classifies a block `type` string (ANTHROPIC_BLOCKS); a type the table does not list is `other`. */
export function blockKind(type: string): BlockKind {
  return Object.hasOwn(ANTHROPIC_BLOCKS, type) ? ANTHROPIC_BLOCKS[type as WireBlockType].kind : "other";
}

/** Whether a `tool_result.content` part is media (image/document), which `strip_media` removes. */
export function isMediaPart(type: string): boolean {
  return type === "image" || type === "document";
}

/**
 * Whether an assistant content block `type` is a server tool result (web_search_tool_result,
 * code_execution_tool_result, mcp_tool_result, …: ../dependencies.ts ANTHROPIC_SERVER_TOOL_RESULTS;
 * the client's own `tool_result` lives in user messages). An assistant message ending in one may
 * precede a mid-conversation system message (the API's error: "role 'system' must follow a
 * 'user' message or an 'assistant' message ending in a server tool result").
 */
export function isServerToolResult(type: string): boolean {
  return ANTHROPIC_SERVER_TOOL_RESULTS.has(type);
}

/**
 * Anthropic's limit on cache breakpoints per request: "A maximum of 4 blocks with cache_control
 * may be provided" (provider error quoted in case B05; docs: prompt caching).
 */
export const MAX_CACHE_BREAKPOINTS = 4;

/** The prefix-check model list lives with its source in src/core/models/prefix-check-models.ts. */
export { modelChecksThinkingPrefix } from "../../core/models/prefix-check-models";
