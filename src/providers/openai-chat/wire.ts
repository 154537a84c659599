/**
 * OpenAI Chat Completions wire vocabulary (pure data), tied to the official `openai` package's
 * request types with `satisfies`, so a renamed role or part type fails the typecheck. Bodies are
 * never deserialised into these types (edits splice the original bytes); the scanner's nodes are
 * read against these names instead.
 */
import type { ChatCompletionAssistantMessageParam, ChatCompletionMessageParam } from "openai/resources/chat/completions/completions";
import type { PartKinds } from "../shared/edit-result-content";
import { CHAT_PARTS, CHAT_ROLES } from "../known-types";

/** Every `messages[].role` the API accepts (ChatCompletionMessageParam; the `role` rows of ../known-types.ts). */
export type ChatRole = ChatCompletionMessageParam["role"];

/** Content part types: those that carry prose, and media (the `kind` column of ../known-types.ts CHAT_PARTS). */
export const CHAT_PART_KINDS: PartKinds = {
  text: new Set(Object.entries(CHAT_PARTS).filter(([, r]) => r.kind === "text").map(([t]) => t)),
  media: new Set(Object.entries(CHAT_PARTS).filter(([, r]) => r.kind === "media").map(([t]) => t)),
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
  return Object.hasOwn(CHAT_ROLES, role);
}
