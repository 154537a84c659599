/**
 * OpenAI Responses API wire vocabulary (pure data), tied to the official `openai` package's
 * `ResponseInputItem` union with `satisfies`. Bodies are never deserialised into these types;
 * the scanner's nodes are read against these names.
 */
import type { ResponseCreateParamsBase, ResponseInputItem } from "openai/resources/responses/responses";
import type { PartKinds } from "../shared/edit-result-content";

type ItemType = NonNullable<ResponseInputItem["type"]>;

/** Tool call item types Sluice pairs, each with its output item type (matched by `call_id`). */
export const PAIRED_CALLS = {
  function_call: "function_call_output",
  custom_tool_call: "custom_tool_call_output",
} as const satisfies Partial<Record<ItemType, ItemType>>;
export type PairedCallType = keyof typeof PAIRED_CALLS;
export type PairedOutputType = (typeof PAIRED_CALLS)[PairedCallType];

/** Call-input member of each paired call type (ResponseFunctionToolCall.arguments, ResponseCustomToolCall.input). */
export const CALL_INPUT_KEY: Record<PairedCallType, string> = { function_call: "arguments", custom_tool_call: "input" };

/**
 * Item types a model produces (the items of one response's `output`), besides assistant
 * messages. A maximal run of them is one model turn; client items (user/system/developer
 * messages, `*_output` items, approvals) separate runs. `item_reference` counts as model
 * output: it stands for a stored item, most often one of a previous response's outputs.
 */
export const MODEL_OUTPUT_TYPES: ReadonlySet<string> = new Set([
  "reasoning",
  "function_call",
  "custom_tool_call",
  "file_search_call",
  "computer_call",
  "web_search_call",
  "image_generation_call",
  "code_interpreter_call",
  "local_shell_call",
  "shell_call",
  "apply_patch_call",
  "mcp_call",
  "mcp_list_tools",
  "mcp_approval_request",
  "tool_search_call",
  "program",
  "item_reference",
] satisfies ItemType[]);

/** Item types that mean the provider holds conversation state Sluice must not fight (DESIGN §6). */
export const SERVER_STATE_ITEM_TYPES: ReadonlySet<string> = new Set(["compaction", "compaction_trigger"] satisfies ItemType[]);

/** Top-level request members that mean server-side conversation state (DESIGN §6). */
export const SERVER_STATE_KEYS = ["previous_response_id", "conversation", "context_management"] as const satisfies readonly (keyof ResponseCreateParamsBase)[];

/** Part types of message content and tool outputs: text parts and media parts (ResponseInputContent, ResponseFunctionCallOutputItem). */
export const RESPONSES_PART_KINDS: PartKinds = {
  text: new Set(["input_text", "output_text"]),
  media: new Set(["input_image", "input_file", "input_audio"]),
};

/** Thrown by `read` when the body does not have the Responses shape (the gateway then fails open). */
export class ResponsesWireError extends Error {
  constructor(readonly field: string, problem: string) {
    super(`${field}: ${problem}`);
    this.name = "ResponsesWireError";
  }
}
