/**
 * OpenAI Chat Completions wire vocabulary (pure data), tied to the official `openai` package's
 * request types with `satisfies`, so a renamed role or part type fails the typecheck. Bodies are
 * never deserialised into these types (edits splice the original bytes); the scanner's nodes are
 * read against these names instead.
 */
import type {
  ChatCompletionAssistantMessageParam,
  ChatCompletionContentPart,
  ChatCompletionMessageParam,
  ChatCompletionMessageToolCall,
} from "openai/resources/chat/completions/completions";
import type { PartKinds } from "../shared/edit-result-content";

/** Every `messages[].role` the API accepts (ChatCompletionMessageParam). */
export const CHAT_ROLES = ["system", "developer", "user", "assistant", "tool", "function"] as const satisfies readonly ChatCompletionMessageParam["role"][];
export type ChatRole = (typeof CHAT_ROLES)[number];

/** `tool_calls[].type` values (ChatCompletionMessageToolCall): function and custom (freeform) calls. */
export const TOOL_CALL_TYPES = ["function", "custom"] as const satisfies readonly ChatCompletionMessageToolCall["type"][];

/** Content part types: `text` carries prose; the others are media (ChatCompletionContentPart). */
export const CHAT_PART_KINDS: PartKinds = {
  text: new Set<string>(["text"] satisfies ChatCompletionContentPart["type"][]),
  media: new Set<string>(["image_url", "input_audio", "file"] satisfies ChatCompletionContentPart["type"][]),
};

/**
 * Members of an assistant message that belong to its calls (checked per pair, not by identity).
 * `function_call` is the deprecated single-call form (ChatCompletionAssistantMessageParam).
 */
export const ASSISTANT_TOOL_KEYS = ["tool_calls", "function_call"] as const satisfies readonly (keyof ChatCompletionAssistantMessageParam)[];

/**
 * Members an assistant message may carry and still be removed with its last call: its role and
 * name, an empty `content` (null, "" or absent: the API requires content only when there are no
 * calls — "content is required unless tool_calls or function_call is specified", vercel/ai#14950),
 * and reasoning that exists for those calls (`reasoning_content` / `reasoning`, sent by DeepSeek-
 * style and Codex-derived clients; not an OpenAI field, and meaningless without the calls).
 */
export const REMOVABLE_ASSISTANT_KEYS: ReadonlySet<string> = new Set(["role", "name", "content", "reasoning_content", "reasoning", ...ASSISTANT_TOOL_KEYS]);

/** Thrown by `read` when the body does not have the Chat Completions shape (the gateway then fails open). */
export class ChatWireError extends Error {
  constructor(readonly field: string, problem: string) {
    super(`${field}: ${problem}`);
    this.name = "ChatWireError";
  }
}

export function isChatRole(role: string): role is ChatRole {
  return (CHAT_ROLES as readonly string[]).includes(role);
}
