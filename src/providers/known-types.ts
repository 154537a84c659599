/**
 * Every wire type Sluice knows, in one table (pure data): content block types, tool_result
 * parts, roles, history items, content parts, tool call types, context-management edits and
 * top-level request fields, per provider, each with its source (the provider's SDK type or docs
 * page, or the real client that sends it). A type a request carries in one of these positions
 * that is not listed here is a provider feature Sluice cannot reason about: the adapters stand
 * aside (DESIGN §2 "What Sluice does not model … the request goes as it came"; the view's
 * `server_managed` with `unknown_type`, src/core/view/types.ts), and the gateway forwards the
 * client's bytes with `x-sluice-compaction: skipped; reason=unknown_type; type=<type>`.
 *
 * Rows marked `stand_aside` are known features that hand the history to the provider (DESIGN §6):
 * present and not null, Sluice edits nothing (`server_managed` names them, or their
 * `stands_aside_as`). Each record is typed against the official SDK's union with `satisfies`, so
 * a type the SDK adds or renames fails the typecheck until it has a row; extras beyond the SDK
 * (sent by real clients, documented elsewhere) are listed apart with their source.
 */
import type { BetaContentBlockParam, BetaContextManagementConfig, BetaToolResultBlockParam, MessageCreateParamsBase as AnthropicCreateParams } from "@anthropic-ai/sdk/resources/beta/messages/messages";
import type { MessageParam } from "@anthropic-ai/sdk/resources/messages/messages";
import type { ChatCompletionContentPart, ChatCompletionContentPartRefusal, ChatCompletionCreateParamsBase, ChatCompletionMessageParam, ChatCompletionMessageToolCall } from "openai/resources/chat/completions/completions";
import type { EasyInputMessage, ResponseCreateParamsBase, ResponseFunctionCallOutputItem, ResponseInputContent, ResponseInputItem, ResponseOutputMessage } from "openai/resources/responses/responses";
import type { Provider } from "../core/view/types";

/** Where in a request a type sits. */
export type TypePosition =
  /** Anthropic `messages[].content[].type`; OpenAI Chat / Responses message content part `type`. */
  | "block"
  /** Anthropic `tool_result.content[].type`; Responses `*_output.output[].type`. */
  | "result_part"
  /** `messages[].role` / Responses message item `role`. */
  | "role"
  /** Responses `input[].type`. */
  | "item"
  /** OpenAI Chat `tool_calls[].type`. */
  | "tool_call"
  /** Anthropic `context_management.edits[].type`. */
  | "context_edit"
  /** A top-level member of the request body. */
  | "field";

/** How Sluice treats a known type: reads it and edits around it (`model`), or leaves the whole request to the provider (`stand_aside`). */
export type Handling = "model" | "stand_aside";

/** One row of the table. */
export interface TypeRow {
  /** Provider doc page or SDK type, or the real client that sends it. */
  source: string;
  /** Absent: `model`. */
  handling?: "stand_aside";
  /** The name `server_managed` carries when this row stands aside (absent: the type itself); distinct from every block and item type. */
  stands_aside_as?: string;
}

/** How Sluice treats an Anthropic block (see src/providers/anthropic-messages/wire.ts). */
export type AnthropicBlockKind = "prose" | "media" | "thinking" | "tool_use" | "tool_result" | "compaction" | "other";
/** What an OpenAI content part carries: prose (in `text`), media, or neither. */
export type PartKind = "text" | "media" | "other";

const S = {
  anthropicBlocks: "@anthropic-ai/sdk BetaContentBlockParam (platform.claude.com/docs/en/api/messages)",
  claudeCode: "sent by Claude Code 2.1.332 (docs/dev/e2e-clients.md) and in corpus/seed",
  anthropicResultParts: "@anthropic-ai/sdk BetaToolResultBlockParam.content",
  anthropicFields: "@anthropic-ai/sdk beta MessageCreateParamsBase",
  openaiChatFields: "openai ChatCompletionCreateParamsBase (platform.openai.com/docs/api-reference/chat/create)",
  openaiChatParts: "openai ChatCompletionContentPart",
  responsesItems: "openai ResponseInputItem (platform.openai.com/docs/api-reference/responses/create)",
  responsesFields: "openai ResponseCreateParamsBase",
  codex: "sent by Codex 0.171.0 (docs/dev/e2e-clients.md) and in corpus/seed",
} as const;

const row = (source: string): TypeRow => ({ source });
const asideRow = (source: string, stands_aside_as?: string): TypeRow => ({ source, handling: "stand_aside", ...(stands_aside_as ? { stands_aside_as } : {}) });

// ---- Anthropic Messages ----

type AnthropicBlockType = BetaContentBlockParam["type"];
type AnthropicResultPartType = Exclude<BetaToolResultBlockParam["content"], string | undefined | null>[number]["type"];
type AnthropicEditType = NonNullable<BetaContextManagementConfig["edits"]>[number]["type"];

/** Anthropic content blocks, with how Sluice treats each (BlockKind). */
export const ANTHROPIC_BLOCKS = {
  text: { kind: "prose", source: `${S.anthropicBlocks}; ${S.claudeCode}` },
  image: { kind: "media", source: `${S.anthropicBlocks} BetaImageBlockParam` },
  document: { kind: "media", source: `${S.anthropicBlocks} BetaRequestDocumentBlock` },
  search_result: { kind: "other", source: `${S.anthropicBlocks} BetaSearchResultBlockParam` },
  thinking: { kind: "thinking", source: `${S.claudeCode}; platform.claude.com/docs/en/build-with-claude/thinking-tool-workflows` },
  redacted_thinking: { kind: "thinking", source: "platform.claude.com/docs/en/build-with-claude/thinking-tool-workflows (echo redacted_thinking blocks unchanged)" },
  tool_use: { kind: "tool_use", source: S.claudeCode },
  tool_result: { kind: "tool_result", source: S.claudeCode },
  server_tool_use: { kind: "other", source: `${S.anthropicBlocks} BetaServerToolUseBlockParam` },
  web_search_tool_result: { kind: "other", source: `${S.anthropicBlocks} BetaWebSearchToolResultBlockParam` },
  web_fetch_tool_result: { kind: "other", source: `${S.anthropicBlocks} BetaWebFetchToolResultBlockParam` },
  advisor_tool_result: { kind: "other", source: `${S.anthropicBlocks} BetaAdvisorToolResultBlockParam` },
  code_execution_tool_result: { kind: "other", source: `${S.anthropicBlocks} BetaCodeExecutionToolResultBlockParam` },
  bash_code_execution_tool_result: { kind: "other", source: `${S.anthropicBlocks} BetaBashCodeExecutionToolResultBlockParam` },
  text_editor_code_execution_tool_result: { kind: "other", source: `${S.anthropicBlocks} BetaTextEditorCodeExecutionToolResultBlockParam` },
  tool_search_tool_result: { kind: "other", source: `${S.anthropicBlocks} BetaToolSearchToolResultBlockParam` },
  mcp_tool_use: { kind: "other", source: `${S.anthropicBlocks} BetaMCPToolUseBlockParam` },
  mcp_tool_result: { kind: "other", source: `${S.anthropicBlocks} BetaRequestMCPToolResultBlockParam` },
  container_upload: { kind: "other", source: `${S.anthropicBlocks} BetaContainerUploadBlockParam` },
  compaction: { kind: "compaction", ...asideRow("platform.claude.com/docs/en/build-with-claude/compaction; @anthropic-ai/sdk BetaCompactionBlockParam") },
  tool_addition: { kind: "other", source: "@anthropic-ai/sdk BetaRequestToolAdditionBlock (beta mid-conversation-tool-changes-2026-07-01, which Claude Code sends)" },
  tool_removal: { kind: "other", source: "@anthropic-ai/sdk BetaRequestToolRemovalBlock (beta mid-conversation-tool-changes-2026-07-01)" },
  mcp_tool_listing: { kind: "other", source: `${S.anthropicBlocks} BetaMCPToolListingBlockParam` },
  fallback: { kind: "other", source: "@anthropic-ai/sdk BetaFallbackBlockParam; platform.claude.com/docs/en/build-with-claude/refusals-and-fallback" },
} as const satisfies Record<AnthropicBlockType, TypeRow & { kind: AnthropicBlockKind }>;

/** Parts of an Anthropic `tool_result.content` array. */
export const ANTHROPIC_RESULT_PARTS = {
  text: row(`${S.anthropicResultParts}; ${S.claudeCode}`),
  image: row(`${S.anthropicResultParts} (Claude Code's Read of an image)`),
  document: row(S.anthropicResultParts),
  search_result: row(`${S.anthropicResultParts}; platform.claude.com/docs/en/build-with-claude/search-results`),
  tool_reference: row(`${S.anthropicResultParts} BetaToolReferenceBlockParam (client-side tool search)`),
  browser_state: row(`${S.anthropicResultParts} BetaBrowserStateBlockParam`),
} as const satisfies Record<AnthropicResultPartType, TypeRow>;

/** Anthropic `messages[].role`. */
export const ANTHROPIC_ROLES = {
  user: row(S.claudeCode),
  assistant: row(S.claudeCode),
  system: row(`@anthropic-ai/sdk BetaSystemMessageParam (mid-conversation system messages); ${S.claudeCode}`),
} as const satisfies Record<MessageParam["role"], TypeRow>;

/** Anthropic `context_management.edits[].type` (src/providers/shared/client-context-management.ts). */
export const ANTHROPIC_CONTEXT_EDITS = {
  clear_tool_uses_20250919: asideRow("platform.claude.com/docs/en/build-with-claude/context-editing; @anthropic-ai/sdk BetaClearToolUses20250919Edit"),
  clear_thinking_20251015: row("platform.claude.com/docs/en/build-with-claude/context-editing; Claude Code sends it whenever thinking is on"),
  compact_20260112: asideRow("platform.claude.com/docs/en/build-with-claude/compaction; @anthropic-ai/sdk BetaCompact20260112Edit"),
} as const satisfies Record<AnthropicEditType, TypeRow>;

/** Anthropic top-level request fields. */
export const ANTHROPIC_FIELDS = {
  max_tokens: row(`${S.anthropicFields}; ${S.claudeCode}`),
  messages: row(`${S.anthropicFields}; ${S.claudeCode}`),
  model: row(`${S.anthropicFields}; ${S.claudeCode}`),
  billing_policy: row(S.anthropicFields),
  cache_control: row(S.anthropicFields),
  // On-demand compaction (beta compact-2026-09-04): the provider summarises the history; it cannot be combined with context_management.
  compaction: asideRow(`${S.anthropicFields} compaction (BetaCompactionConfig, beta compact-2026-09-04)`, "on_demand_compaction"),
  container: row(S.anthropicFields),
  context_management: row(`${S.anthropicFields}; ${S.claudeCode} (its edits are judged one by one: context_edit rows)`),
  diagnostics: row(S.anthropicFields),
  fallback_credit_token: row(S.anthropicFields),
  fallbacks: row(S.anthropicFields),
  inference_geo: row(S.anthropicFields),
  mcp_servers: row(S.anthropicFields),
  metadata: row(`${S.anthropicFields}; ${S.claudeCode}`),
  output_config: row(`${S.anthropicFields}; ${S.claudeCode}`),
  output_format: row(S.anthropicFields),
  service_tier: row(S.anthropicFields),
  speed: row(S.anthropicFields),
  stop_sequences: row(S.anthropicFields),
  stream: row(`${S.anthropicFields}; ${S.claudeCode}`),
  system: row(`${S.anthropicFields}; ${S.claudeCode}`),
  thinking: row(`${S.anthropicFields}; ${S.claudeCode}`),
  // Server-held conversation state: a `continue` request sends only the new turn.
  thread: asideRow(`${S.anthropicFields} thread (BetaMessageThreadParam: server-held conversation state)`),
  tool_choice: row(S.anthropicFields),
  tools: row(`${S.anthropicFields}; ${S.claudeCode}`),
  betas: row(S.anthropicFields),
  user_profile_id: row(S.anthropicFields),
  workspace_id: row(S.anthropicFields),
} as const satisfies Record<keyof AnthropicCreateParams, TypeRow>;

/** Anthropic request fields the API reference documents beyond this SDK's types (sent by third-party clients). */
export const ANTHROPIC_EXTRA_FIELDS: Record<string, TypeRow> = {
  temperature: row("docs.anthropic.com/en/api/messages (temperature)"),
  top_p: row("docs.anthropic.com/en/api/messages (top_p)"),
  top_k: row("docs.anthropic.com/en/api/messages (top_k)"),
};

// ---- OpenAI Chat Completions ----

/** Chat `messages[].role`. */
export const CHAT_ROLES = {
  system: row(`openai ChatCompletionSystemMessageParam; corpus/seed (tau-bench)`),
  developer: row("openai ChatCompletionDeveloperMessageParam"),
  user: row("openai ChatCompletionUserMessageParam; corpus/seed"),
  assistant: row("openai ChatCompletionAssistantMessageParam; corpus/seed"),
  tool: row("openai ChatCompletionToolMessageParam; corpus/seed"),
  function: row("openai ChatCompletionFunctionMessageParam (deprecated)"),
} as const satisfies Record<ChatCompletionMessageParam["role"], TypeRow>;

/** Chat message content parts, with what each carries. */
export const CHAT_PARTS = {
  text: { kind: "text", source: S.openaiChatParts },
  image_url: { kind: "media", source: S.openaiChatParts },
  input_audio: { kind: "media", source: S.openaiChatParts },
  file: { kind: "media", source: S.openaiChatParts },
  refusal: { kind: "other", source: "openai ChatCompletionContentPartRefusal (assistant content)" },
} as const satisfies Record<ChatCompletionContentPart["type"] | ChatCompletionContentPartRefusal["type"], TypeRow & { kind: PartKind }>;

/** Chat `tool_calls[].type`. */
export const CHAT_TOOL_CALLS = {
  function: row("openai ChatCompletionMessageFunctionToolCall; corpus/seed"),
  custom: row("openai ChatCompletionMessageCustomToolCall; corpus/seed (codex-rtchess-01)"),
} as const satisfies Record<ChatCompletionMessageToolCall["type"], TypeRow>;

/** Chat top-level request fields. */
export const CHAT_FIELDS = {
  messages: row(S.openaiChatFields),
  model: row(S.openaiChatFields),
  audio: row(S.openaiChatFields),
  frequency_penalty: row(S.openaiChatFields),
  function_call: row(S.openaiChatFields),
  functions: row(S.openaiChatFields),
  logit_bias: row(S.openaiChatFields),
  logprobs: row(S.openaiChatFields),
  max_completion_tokens: row(S.openaiChatFields),
  max_tokens: row(S.openaiChatFields),
  metadata: row(S.openaiChatFields),
  modalities: row(S.openaiChatFields),
  moderation: row(S.openaiChatFields),
  n: row(S.openaiChatFields),
  parallel_tool_calls: row(S.openaiChatFields),
  prediction: row(S.openaiChatFields),
  presence_penalty: row(S.openaiChatFields),
  prompt_cache_key: row(S.openaiChatFields),
  prompt_cache_options: row(S.openaiChatFields),
  prompt_cache_retention: row(S.openaiChatFields),
  reasoning_effort: row(S.openaiChatFields),
  response_format: row(S.openaiChatFields),
  safety_identifier: row(S.openaiChatFields),
  seed: row(S.openaiChatFields),
  service_tier: row(S.openaiChatFields),
  stop: row(S.openaiChatFields),
  store: row(S.openaiChatFields),
  stream: row(S.openaiChatFields),
  stream_options: row(S.openaiChatFields),
  temperature: row(`${S.openaiChatFields}; test/fixtures/cases/B12.json`),
  tool_choice: row(S.openaiChatFields),
  tools: row(S.openaiChatFields),
  top_logprobs: row(S.openaiChatFields),
  top_p: row(S.openaiChatFields),
  user: row(S.openaiChatFields),
  verbosity: row(S.openaiChatFields),
  web_search_options: row(S.openaiChatFields),
} as const satisfies Record<keyof ChatCompletionCreateParamsBase, TypeRow>;

/** Chat request fields of OpenAI-compatible providers, documented by them. */
export const CHAT_EXTRA_FIELDS: Record<string, TypeRow> = {
  thinking: row("DeepSeek thinking mode switch (api-docs.deepseek.com/guides/thinking_mode)"),
};

// ---- OpenAI Responses ----

type ResponsesItemType = NonNullable<ResponseInputItem["type"]>;

/** Responses `input[].type`; `model_output`: an item a model produces (it belongs to a model turn, ./openai-responses/locate-items.ts). */
export const RESPONSES_ITEMS = {
  message: { model_output: false, source: `${S.responsesItems}; ${S.codex}` },
  file_search_call: { model_output: true, source: S.responsesItems },
  computer_call: { model_output: true, source: S.responsesItems },
  computer_call_output: { model_output: false, source: S.responsesItems },
  web_search_call: { model_output: true, source: S.responsesItems },
  function_call: { model_output: true, source: `${S.responsesItems}; ${S.codex}` },
  function_call_output: { model_output: false, source: `${S.responsesItems}; ${S.codex}` },
  tool_search_call: { model_output: true, source: S.responsesItems },
  tool_search_output: { model_output: false, source: S.responsesItems },
  // Codex's default model sends its tools in this item (role developer; docs/dev/e2e-clients.md).
  additional_tools: { model_output: false, source: `${S.responsesItems} AdditionalTools; sent by Codex 0.171.0 on its default model` },
  reasoning: { model_output: true, source: `${S.responsesItems}; ${S.codex}` },
  compaction: { model_output: false, ...asideRow(`${S.responsesItems} ResponseCompactionItemParam (Codex puts it at the head of inputs after /responses/compact)`) },
  image_generation_call: { model_output: true, source: S.responsesItems },
  code_interpreter_call: { model_output: true, source: S.responsesItems },
  local_shell_call: { model_output: true, source: S.responsesItems },
  local_shell_call_output: { model_output: false, source: S.responsesItems },
  shell_call: { model_output: true, source: S.responsesItems },
  shell_call_output: { model_output: false, source: S.responsesItems },
  apply_patch_call: { model_output: true, source: S.responsesItems },
  apply_patch_call_output: { model_output: false, source: S.responsesItems },
  mcp_list_tools: { model_output: true, source: S.responsesItems },
  mcp_approval_request: { model_output: true, source: S.responsesItems },
  mcp_approval_response: { model_output: false, source: S.responsesItems },
  mcp_call: { model_output: true, source: S.responsesItems },
  custom_tool_call_output: { model_output: false, source: `${S.responsesItems}; ${S.codex}` },
  custom_tool_call: { model_output: true, source: `${S.responsesItems}; ${S.codex}` },
  // Codex ends `input` with it to ask for compaction (docs/dev/e2e-clients.md).
  compaction_trigger: { model_output: false, ...asideRow(`${S.responsesItems} CompactionTrigger; sent by Codex 0.171.0`) },
  // Stands for a stored item, most often one of a previous response's outputs.
  item_reference: { model_output: true, source: S.responsesItems },
  program: { model_output: true, source: S.responsesItems },
  program_output: { model_output: false, source: S.responsesItems },
} as const satisfies Record<ResponsesItemType, TypeRow & { model_output: boolean }>;

/** Responses message item `role`. */
export const RESPONSES_ROLES = {
  user: row(`openai EasyInputMessage; ${S.codex}`),
  assistant: row(`openai EasyInputMessage; ${S.codex}`),
  system: row("openai EasyInputMessage"),
  developer: row(`openai EasyInputMessage; ${S.codex}`),
} as const satisfies Record<EasyInputMessage["role"], TypeRow>;

/** Responses message content parts, with what each carries. */
export const RESPONSES_PARTS = {
  input_text: { kind: "text", source: `openai ResponseInputText; ${S.codex}` },
  input_image: { kind: "media", source: "openai ResponseInputImage" },
  input_file: { kind: "media", source: "openai ResponseInputFile" },
  input_audio: { kind: "media", source: "openai ResponseInputAudio" },
  output_text: { kind: "text", source: `openai ResponseOutputText; ${S.codex}` },
  refusal: { kind: "other", source: "openai ResponseOutputRefusal" },
} as const satisfies Record<ResponseInputContent["type"] | ResponseOutputMessage["content"][number]["type"] | "input_audio", TypeRow & { kind: PartKind }>;

/** Parts of a Responses tool output (`function_call_output.output`, `custom_tool_call_output.output`). */
export const RESPONSES_RESULT_PARTS = {
  input_text: { kind: "text", source: "openai ResponseFunctionCallOutputItem" },
  input_image: { kind: "media", source: "openai ResponseFunctionCallOutputItem (Codex's view_image tool)" },
  input_file: { kind: "media", source: "openai ResponseFunctionCallOutputItem" },
} as const satisfies Record<ResponseFunctionCallOutputItem["type"], TypeRow & { kind: PartKind }>;

/** Responses top-level request fields. */
export const RESPONSES_FIELDS = {
  background: row(S.responsesFields),
  // Any entry asks for server-side compaction (src/providers/shared/client-context-management.ts).
  context_management: asideRow(`${S.responsesFields} context_management ([{type: "compaction", compact_threshold}])`),
  conversation: asideRow(`${S.responsesFields} conversation (the server holds the history)`),
  include: row(`${S.responsesFields}; ${S.codex}`),
  input: row(`${S.responsesFields}; ${S.codex}`),
  instructions: row(S.responsesFields),
  max_output_tokens: row(S.responsesFields),
  metadata: row(S.responsesFields),
  model: row(`${S.responsesFields}; ${S.codex}`),
  moderation: row(S.responsesFields),
  parallel_tool_calls: row(`${S.responsesFields}; ${S.codex}`),
  previous_response_id: asideRow(`${S.responsesFields} previous_response_id (the server holds the history)`),
  prompt: row(S.responsesFields),
  prompt_cache_key: row(`${S.responsesFields}; ${S.codex}`),
  prompt_cache_options: row(S.responsesFields),
  prompt_cache_retention: row(S.responsesFields),
  reasoning: row(`${S.responsesFields}; ${S.codex}`),
  safety_identifier: row(S.responsesFields),
  service_tier: row(S.responsesFields),
  store: row(`${S.responsesFields}; ${S.codex}`),
  stream: row(`${S.responsesFields}; ${S.codex}`),
  stream_options: row(S.responsesFields),
  temperature: row(S.responsesFields),
  text: row(`${S.responsesFields}; ${S.codex}`),
  tool_choice: row(`${S.responsesFields}; ${S.codex}`),
  tools: row(`${S.responsesFields}; ${S.codex}`),
  top_logprobs: row(S.responsesFields),
  top_p: row(S.responsesFields),
  truncation: row(S.responsesFields),
  user: row(S.responsesFields),
} as const satisfies Record<keyof ResponseCreateParamsBase, TypeRow>;

/** Responses request fields real clients send beyond the SDK's types. */
export const RESPONSES_EXTRA_FIELDS: Record<string, TypeRow> = {
  client_metadata: row("sent by Codex 0.171.0 on every request (docs/dev/e2e-clients.md)"),
};

// ---- Lookup ----

/** One row of the flat table (`KNOWN_TYPES`). */
export interface KnownType {
  provider: Provider;
  position: TypePosition;
  type: string;
  handling: Handling;
  /** What `server_managed` names when the row stands aside; null for `model` rows. */
  stands_aside_as: string | null;
  source: string;
}

const POSITIONS: readonly [Provider, TypePosition, Record<string, TypeRow>][] = [
  ["anthropic", "block", ANTHROPIC_BLOCKS],
  ["anthropic", "result_part", ANTHROPIC_RESULT_PARTS],
  ["anthropic", "role", ANTHROPIC_ROLES],
  ["anthropic", "context_edit", ANTHROPIC_CONTEXT_EDITS],
  ["anthropic", "field", ANTHROPIC_FIELDS],
  ["anthropic", "field", ANTHROPIC_EXTRA_FIELDS],
  ["openai-chat", "role", CHAT_ROLES],
  ["openai-chat", "block", CHAT_PARTS],
  ["openai-chat", "tool_call", CHAT_TOOL_CALLS],
  ["openai-chat", "field", CHAT_FIELDS],
  ["openai-chat", "field", CHAT_EXTRA_FIELDS],
  ["openai-responses", "item", RESPONSES_ITEMS],
  ["openai-responses", "role", RESPONSES_ROLES],
  ["openai-responses", "block", RESPONSES_PARTS],
  ["openai-responses", "result_part", RESPONSES_RESULT_PARTS],
  ["openai-responses", "field", RESPONSES_FIELDS],
  ["openai-responses", "field", RESPONSES_EXTRA_FIELDS],
];

/** Every known type, flat (for listing and tests). */
export const KNOWN_TYPES: readonly KnownType[] = POSITIONS.flatMap(([provider, position, rows]) =>
  Object.entries(rows).map(([type, r]): KnownType => ({
    provider,
    position,
    type,
    handling: r.handling ?? "model",
    stands_aside_as: r.handling === "stand_aside" ? (r.stands_aside_as ?? type) : null,
    source: r.source,
  })),
);

const BY_KEY = new Map(KNOWN_TYPES.map((k) => [`${k.provider}\u0000${k.position}\u0000${k.type}`, k]));

/** The row of `type` at `position` of `provider`'s requests, or undefined when Sluice does not know it (→ stand aside, unknown_type). */
export function knownType(provider: Provider, position: TypePosition, type: string): KnownType | undefined {
  return BY_KEY.get(`${provider}\u0000${position}\u0000${type}`);
}

/** The types at `position` of `provider` whose rows satisfy `pick`. */
export function typesWhere(provider: Provider, position: TypePosition, pick: (k: KnownType) => boolean = () => true): string[] {
  return KNOWN_TYPES.filter((k) => k.provider === provider && k.position === position && pick(k)).map((k) => k.type);
}
