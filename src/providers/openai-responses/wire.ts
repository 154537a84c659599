/**
 * OpenAI Responses API wire vocabulary (pure data), tied to the official `openai` package's
 * `ResponseInputItem` union with `satisfies`. Bodies are never deserialised into these types;
 * the scanner's nodes are read against these names.
 */
import type { ResponseInputItem } from "openai/resources/responses/responses";
import type { PartKinds } from "../shared/edit-result-content";
import { RESPONSES_ITEMS, RESPONSES_PARTS, RESPONSES_RESULT_PARTS } from "../known-types";
import { RESPONSES_PAIRED_CALLS } from "../dependencies";

type ItemType = NonNullable<ResponseInputItem["type"]>;

/** Tool call item types Sluice pairs, each with its output item type (matched by `call_id`): ../dependencies.ts RESPONSES_PAIRED_CALLS. */
export const PAIRED_CALLS = RESPONSES_PAIRED_CALLS satisfies Partial<Record<ItemType, ItemType>>;
export type PairedCallType = keyof typeof PAIRED_CALLS;
export type PairedOutputType = (typeof PAIRED_CALLS)[PairedCallType];

/** Call-input member of each paired call type (ResponseFunctionToolCall.arguments, ResponseCustomToolCall.input). */
export const CALL_INPUT_KEY: Record<PairedCallType, string> = { function_call: "arguments", custom_tool_call: "input" };

/**
 * Item types a model produces (the items of one response's `output`), besides assistant
 * messages: the `model_output` column of ../known-types.ts RESPONSES_ITEMS. A maximal run of them
 * is one model turn; client items (user/system/developer messages, `*_output` items, approvals)
 * separate runs. `item_reference` counts as model output: it stands for a stored item, most
 * often one of a previous response's outputs.
 */
export const MODEL_OUTPUT_TYPES: ReadonlySet<string> = new Set(Object.entries(RESPONSES_ITEMS).filter(([, r]) => r.model_output).map(([t]) => t));

/** Part types of message content and tool outputs: text parts and media parts (the `kind` column of ../known-types.ts RESPONSES_PARTS and RESPONSES_RESULT_PARTS). */
export const RESPONSES_PART_KINDS: PartKinds = {
  text: new Set([...Object.entries(RESPONSES_PARTS), ...Object.entries(RESPONSES_RESULT_PARTS)].filter(([, r]) => r.kind === "text").map(([t]) => t)),
  media: new Set([...Object.entries(RESPONSES_PARTS), ...Object.entries(RESPONSES_RESULT_PARTS)].filter(([, r]) => r.kind === "media").map(([t]) => t)),
};

/** Thrown by `read` when the body does not have the Responses shape (the gateway then fails open). */
export class ResponsesWireError extends Error {
  constructor(readonly field: string, problem: string) {
    super(`${field}: ${problem}`);
    this.name = "ResponsesWireError";
  }
}
