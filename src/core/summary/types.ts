/**
 * The provider-neutral stretch of turns a summariser reads (pure data). A stretch is closed: every
 * tool call in it has its result in it. Tool inputs and results travel as text; ids are the
 * provider's (tool_use id / tool_call_id / call_id) so a summary can name them.
 */

/** One part of a turn. */
export type SummaryPart =
  | { type: "text"; text: string }
  | {
      type: "tool_call";
      /** tool_use id / tool_call_id / call_id. */
      id: string;
      name: string;
      /** The call's input as text (JSON arguments, or a custom tool's raw input). */
      input: string;
    }
  | {
      type: "tool_result";
      /** The id of the call this answers. */
      id: string;
      /** The result as text (media omitted). */
      text: string;
      is_error: boolean;
    };

/** One message of the stretch: `tool` is OpenAI's tool-result role; Anthropic results sit in `user`. */
export interface SummaryTurn {
  role: "user" | "assistant" | "tool";
  parts: SummaryPart[];
}

/** A produced summary and what it cost. */
export interface SummaryText {
  summary: string;
  /** Tokens the summariser read. */
  input_tokens: number;
  /** Tokens the summariser wrote. */
  output_tokens: number;
}
