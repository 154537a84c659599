/**
 * Every "a kept X requires an earlier Y" rule Sluice keeps, in one table (pure data; DESIGN §2
 * "A block that another kept block depends on … stays with it"): what the providers document
 * and what real clients rely on, each with its source. The edit rules (each adapter's
 * read-view.ts locks and edit-rules.ts refusals) and the independent checker
 * (src/core/plan/check-guarantee.ts and each adapter's check-rules.ts) read the codes and lists
 * here, so the two cannot keep different lists. Each row names how it is kept:
 * - `pair`: X and Y are one tool pair: dropped together, a result edit keeps the call
 *   (ToolPair; every tier goes through one pairing index, DESIGN invariant 3);
 * - `adjacency`: a removal that would break the order is refused (`code` is the refusal);
 * - `frozen_message`: the message holding X is sent back unchanged: a drop of a call in it is
 *   refused (`code`), and the checker fails a kept message that changed (MessageInfo.frozen);
 * - `requires_call`: a kept call requires another call of its message: the drop of the required
 *   call is refused while the other stays (`code`; ToolPair.requires), and the checker fails an
 *   output that kept one without the other;
 * - `lock`: the pair holding Y is locked (`code` is ToolPair.locked): nothing edits it;
 * - `never_removed`: Y is a non-tool part, which no edit removes (MessageInfo.non_tool_parts and
 *   identity_hash, checked for every message);
 * - `stand_aside`: the rule cannot be modelled: Sluice edits nothing in the request
 *   (./known-types.ts `stand_aside` rows).
 * Tests: one per row, test/unit/dependencies.test.ts.
 */
import type { Provider } from "../core/view/types";
import { REFERENCED_LOCK } from "../core/engine/referenced-results";

/** How a rule is kept (see the module header). */
export type Enforcement = "pair" | "adjacency" | "frozen_message" | "requires_call" | "lock" | "never_removed" | "stand_aside";

/** One rule. */
export interface DependencyRule {
  provider: Provider;
  /** What is kept. */
  kept: string;
  /** What it requires. */
  requires: string;
  enforcement: Enforcement;
  /** The refusal reason, lock reason or violation code the edit rules and the checker use; null where nothing is refused by name. */
  code: string | null;
  /** Provider doc page or SDK type, or the client issue that shows the rule. */
  source: string;
}

const RULES = {
  // ---- Anthropic Messages ----
  "anthropic.tool_result_needs_tool_use": {
    provider: "anthropic", kept: "a tool_result block", requires: "the tool_use with its id in the assistant message directly before", enforcement: "pair", code: null,
    source: 'provider error "unexpected `tool_use_id` found in `tool_result` blocks" (test/fixtures/cases/B01.json); platform.claude.com/docs/en/agents-and-tools/tool-use/handle-tool-calls',
  },
  "anthropic.tool_use_needs_tool_result": {
    provider: "anthropic", kept: "a tool_use block followed by another turn", requires: "a tool_result with its id in the next user message", enforcement: "pair", code: null,
    source: 'provider error "`tool_use` ids were found without `tool_result` blocks immediately after" (test/fixtures/cases/B02.json)',
  },
  "anthropic.user_first": {
    provider: "anthropic", kept: "the first kept message", requires: "the user role (and no two same-role messages made neighbours by a removal)", enforcement: "adjacency", code: "would_break_user_first",
    source: "platform.claude.com/docs/en/api/messages (the first message uses the user role; consecutive same-role turns are combined); src/providers/anthropic-messages/check-rules.ts",
  },
  "anthropic.system_after_user": {
    provider: "anthropic", kept: 'a mid-conversation role "system" message', requires: "a user message (or an assistant message ending in a server tool result) directly before it, and an assistant message (or the end) after it", enforcement: "adjacency", code: "would_orphan_system",
    source: "API errors \"role 'system' must follow a 'user' message or an 'assistant' message ending in a server tool result\" and \"… must precede an 'assistant' message or end the array\" (@anthropic-ai/sdk BetaSystemMessageParam); docs/emulator.md rule A17",
  },
  "anthropic.thinking_message_unchanged": {
    provider: "anthropic", kept: "a thinking or redacted_thinking block (signed)", requires: "its assistant message sent back unchanged, tool_use blocks included", enforcement: "frozen_message", code: "thinking_in_message",
    source: "platform.claude.com/docs/en/build-with-claude/thinking-tool-workflows (echo the assistant message exactly as received; filtering blocks is a 400); test/fixtures/cases/B03.json",
  },
  "anthropic.fallback_message_unchanged": {
    provider: "anthropic", kept: "a fallback block", requires: "its assistant message with the block in its original position", enforcement: "frozen_message", code: "fallback_in_message",
    source: "@anthropic-ai/sdk BetaFallbackBlockParam (the server validates the turn at the boundary it marks); platform.claude.com/docs/en/build-with-claude/refusals-and-fallback",
  },
  "anthropic.mcp_tool_listing_unchanged": {
    provider: "anthropic", kept: "an mcp_tool_listing block", requires: "its assistant message sent back unchanged", enforcement: "frozen_message", code: "mcp_tool_listing_in_message",
    source: '@anthropic-ai/sdk BetaMCPToolListingBlockParam ("Send the assistant message back unchanged, this block included")',
  },
  "anthropic.thinking_prefix": {
    provider: "anthropic", kept: "a thinking block on a model that binds thinking to its prefix", requires: "every message before it unchanged", enforcement: "lock", code: "thinking_prefix",
    source: "@anthropic-ai/sdk BetaThinkingBlockBinding (a thinking block whose earlier messages changed fails the conversation check); src/core/models/prefix-check-models.ts",
  },
  "anthropic.server_tool_result_needs_use": {
    provider: "anthropic", kept: "a server tool result (web_search_tool_result, web_fetch_tool_result, code_execution_tool_result, bash_/text_editor_code_execution_tool_result, tool_search_tool_result, advisor_tool_result, mcp_tool_result)", requires: "the server_tool_use / mcp_tool_use with its tool_use_id in the same assistant message", enforcement: "never_removed", code: null,
    source: "@anthropic-ai/sdk BetaWebSearchToolResultBlockParam.tool_use_id and the other server result types; platform.claude.com/docs/en/agents-and-tools/tool-use/server-tools",
  },
  "anthropic.tool_addition_before_use": {
    provider: "anthropic", kept: "a tool_use of a tool added mid-conversation", requires: "the system message whose tool_addition block added it", enforcement: "never_removed", code: null,
    source: '@anthropic-ai/sdk BetaRequestToolAdditionBlock ("The tool is offered to the model from this point in the conversation onward"; beta mid-conversation-tool-changes-2026-07-01)',
  },
  "anthropic.tool_reference_loads_tool": {
    provider: "anthropic", kept: "a tool_use of a deferred tool", requires: "the tool_result whose tool_reference part loaded it, whole", enforcement: "lock", code: "tool_reference",
    source: '@anthropic-ai/sdk BetaToolReferenceBlockParam and defer_loading ("Only loaded when returned via tool_reference from tool search"); platform.claude.com/docs/en/agents-and-tools/tool-use/tool-search-tool',
  },
  "anthropic.programmatic_call": {
    provider: "anthropic", kept: "the code execution that called a tool programmatically", requires: "the tool_use whose caller is that code execution, and its tool_result, unchanged", enforcement: "lock", code: "programmatic_call",
    source: "@anthropic-ai/sdk BetaToolUseBlockParam.caller (BetaServerToolCaller: code_execution_20250825, code_execution_20260120); platform.claude.com/docs/en/agents-and-tools/tool-use/programmatic-tool-calling",
  },
  "anthropic.reference_reply": {
    provider: "anthropic", kept: 'Claude Code\'s reference reply ("Wasted call — file unchanged since your last Read. Refer to that earlier tool_result instead.")', requires: "the earlier result of the same read", enforcement: "lock", code: REFERENCED_LOCK,
    source: "anthropics/claude-code#60684 (the reply's text), #68536 (the reply after the earlier result left the context); src/core/engine/referenced-results.ts",
  },
  "anthropic.compaction_block": {
    provider: "anthropic", kept: "the messages after a compaction block", requires: "the block (the provider summarised everything before it)", enforcement: "stand_aside", code: "compaction",
    source: "platform.claude.com/docs/en/build-with-claude/compaction and compaction-on-demand; @anthropic-ai/sdk BetaCompactionBlockParam (round-trip the block verbatim); a block Sluice did not cause makes the session stand aside from then on (src/session/session-record.ts SERVER_MANAGED)",
  },
  // ---- OpenAI Chat Completions ----
  "openai-chat.tool_message_needs_call": {
    provider: "openai-chat", kept: "a tool message", requires: "the assistant tool_calls entry with its tool_call_id, with only tool messages between", enforcement: "pair", code: null,
    source: "API error \"messages with role 'tool' must be a response to a preceeding message with 'tool_calls'\" (test/fixtures/cases/B06.json)",
  },
  "openai-chat.call_needs_tool_message": {
    provider: "openai-chat", kept: "an assistant tool_calls entry", requires: "a tool message answering its id in the run after it", enforcement: "pair", code: null,
    source: "API error \"An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'\"",
  },
  "openai-chat.function_message_needs_call": {
    provider: "openai-chat", kept: "a legacy function message", requires: "the assistant function_call of the same name directly before", enforcement: "pair", code: null,
    source: "openai ChatCompletionFunctionMessageParam (deprecated function calling)",
  },
  "openai-chat.content_or_calls": {
    provider: "openai-chat", kept: "an assistant message with null or empty content", requires: "its tool_calls (the message goes with its last call)", enforcement: "pair", code: null,
    source: 'API error "content is required unless tool_calls or function_call is specified" (vercel/ai#14950)',
  },
  "openai-chat.reasoning_content_with_calls": {
    provider: "openai-chat", kept: "an assistant message with tool_calls (DeepSeek thinking mode)", requires: "its reasoning_content, sent back with it (the message stays whole or goes whole)", enforcement: "pair", code: null,
    source: 'api-docs.deepseek.com/guides/thinking_mode#tool-calls ("Missing reasoning_content field in the assistant message"); anomalyco/opencode#24722',
  },
  "openai-chat.thought_signature": {
    provider: "openai-chat", kept: "a parallel tool call of Gemini's (OpenAI-compatible) without a thought signature", requires: "the call of the same message carrying extra_content.google.thought_signature (the first)", enforcement: "requires_call", code: "thought_signature",
    source: 'ai.google.dev/gemini-api/docs/thought-signatures (parallel calls: only the first carries the signature; a missing one is a 400 in the current turn); discuss.ai.google.dev/t/109823 ("Function call is missing a thought_signature"); openai/codex#7586',
  },
  // ---- OpenAI Responses ----
  "openai-responses.output_needs_call": {
    provider: "openai-responses", kept: "a function_call_output / custom_tool_call_output item", requires: "the function_call / custom_tool_call with its call_id earlier in input", enforcement: "pair", code: null,
    source: 'API error "No tool output found for function call …"; openai ResponseInputItem.FunctionCallOutput.call_id, ResponseCustomToolCallOutput.call_id',
  },
  "openai-responses.reasoning_needs_following_item": {
    provider: "openai-responses", kept: "a reasoning item", requires: "the item of its response that followed it", enforcement: "pair", code: "reasoning_link",
    source: "API error \"Item 'rs_…' of type 'reasoning' was provided without its required following item\" (continuedev/continue#8933)",
  },
  "openai-responses.call_needs_reasoning": {
    provider: "openai-responses", kept: "a function_call item of a reasoning model", requires: "its reasoning item before it", enforcement: "pair", code: "reasoning_link",
    source: "API error \"Item 'fc_…' of type 'function_call' was provided without its required 'reasoning' item\" (mastra-ai/mastra#8738; test/fixtures/cases/B08.json)",
  },
  "openai-responses.hosted_tool_pairs": {
    provider: "openai-responses", kept: "a computer_call_output, local_shell_call_output, shell_call_output, apply_patch_call_output, tool_search_output, program_output or mcp_approval_response item", requires: "its call (or approval request) earlier in input", enforcement: "never_removed", code: null,
    source: "openai ResponseInputItem (the *_output items' call_id, McpApprovalResponse.approval_request_id)",
  },
  "openai-responses.additional_tools": {
    provider: "openai-responses", kept: "a call of a tool declared in an additional_tools item", requires: "that item", enforcement: "never_removed", code: null,
    source: "openai ResponseInputItem.AdditionalTools; sent by Codex 0.171.0 on its default model (docs/dev/e2e-clients.md)",
  },
  "openai-responses.item_reference": {
    provider: "openai-responses", kept: "an item_reference, and an output answering a call it stands for", requires: "the item the server stored", enforcement: "never_removed", code: null,
    source: "openai ResponseInputItem.ItemReference (an output whose call is not in input is an orphan, never edited)",
  },
  "openai-responses.compaction_item": {
    provider: "openai-responses", kept: "the items after a compaction item", requires: "the item (its encrypted content summarises what came before)", enforcement: "stand_aside", code: "compaction",
    source: "openai ResponseCompactionItemParam; developers.openai.com/api/docs/guides/compaction; Codex puts it at the head of inputs after /responses/compact or a compaction_trigger turn; the session stands aside from then on (src/session/session-record.ts SERVER_MANAGED)",
  },
  "openai-responses.server_history": {
    provider: "openai-responses", kept: "a request with previous_response_id or conversation", requires: "the history the server holds", enforcement: "stand_aside", code: "previous_response_id",
    source: "openai ResponseCreateParams.previous_response_id, .conversation",
  },
} as const satisfies Record<string, DependencyRule>;

/** A rule's id (`<provider>.<name>`). */
export type DependencyId = keyof typeof RULES;

/** Every rule, by id. */
export const DEPENDENCIES: Readonly<Record<DependencyId, DependencyRule>> = RULES;

/** The rule `id`'s code (a refusal, lock or violation reason); throws when the row has none. */
export function codeOf(id: DependencyId): string {
  const code = RULES[id].code as string | null;
  if (code === null) throw new Error(`dependency ${id} has no code`);
  return code;
}

/**
 * Anthropic block types whose presence freezes their assistant message, with the rule each
 * falls under (the `frozen_message` rows): read-view.ts marks the message (MessageInfo.frozen),
 * edit-rules.ts refuses a drop of a call in it, check-guarantee.ts fails a kept one that changed.
 */
export const ANTHROPIC_FROZEN_BLOCKS: Readonly<Record<string, DependencyId>> = {
  thinking: "anthropic.thinking_message_unchanged",
  redacted_thinking: "anthropic.thinking_message_unchanged",
  fallback: "anthropic.fallback_message_unchanged",
  mcp_tool_listing: "anthropic.mcp_tool_listing_unchanged",
};

/**
 * Anthropic server tool result types (`anthropic.server_tool_result_needs_use`): an assistant
 * message ending in one may stand directly before a mid-conversation system message
 * (`anthropic.system_after_user`).
 */
export const ANTHROPIC_SERVER_TOOL_RESULTS: ReadonlySet<string> = new Set([
  "web_search_tool_result",
  "web_fetch_tool_result",
  "advisor_tool_result",
  "code_execution_tool_result",
  "bash_code_execution_tool_result",
  "text_editor_code_execution_tool_result",
  "tool_search_tool_result",
  "mcp_tool_result",
]);

/** Responses call item types Sluice pairs, each with its output item type, matched by `call_id` (`openai-responses.output_needs_call`). */
export const RESPONSES_PAIRED_CALLS = {
  function_call: "function_call_output",
  custom_tool_call: "custom_tool_call_output",
} as const;
