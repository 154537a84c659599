/**
 * A prompt over the model's context window is refused (pure), with each API's real error:
 * - Anthropic: 400 `prompt is too long: {n} tokens > {window} maximum` (the API's body as quoted
 *   in earendil-works/pi#102 and boldsoftware/exe.dev#62);
 * - OpenAI Chat: 400 `This model's maximum context length is {window} tokens. However, your
 *   messages resulted in {n} tokens. Please reduce the length of the messages.`, param
 *   `messages`, code `context_length_exceeded` (rahul2002m/ChatPDF#6, chathub-dev/chathub#126);
 * - OpenAI Responses: 400 `Your input exceeds the context window of this model. Please adjust your
 *   input and try again.`, param `input`, code `context_length_exceeded` (dyad-sh/dyad#1672).
 * `n` is the emulator's own count of the prompt (docs/emulator.md "Tokens"): for Anthropic an
 * estimate, so a prompt close to the window may be refused or accepted where the API does the
 * opposite. The window is the price row's (src/core/cost/prices.ts), widened by a beta that
 * extends it (Anthropic `context-1m-2025-08-07`).
 */
import { anthropicInvalid, openaiInvalid, type Rejection } from "./errors";

/** Which API's error to give. */
export type WindowApi = "anthropic" | "openai-chat" | "openai-responses";

/** The refusal of a `tokens`-token prompt for a `window`-token model, or null when it fits. */
export function windowRejection(api: WindowApi, tokens: number, window: number): Rejection | null {
  if (tokens <= window) return null;
  switch (api) {
    case "anthropic":
      return anthropicInvalid(`prompt is too long: ${tokens} tokens > ${window} maximum`);
    case "openai-chat":
      return openaiInvalid(`This model's maximum context length is ${window} tokens. However, your messages resulted in ${tokens} tokens. Please reduce the length of the messages.`, "messages", "context_length_exceeded");
    case "openai-responses":
      return openaiInvalid("Your input exceeds the context window of this model. Please adjust your input and try again.", "input", "context_length_exceeded");
    default: {
      const never: never = api;
      throw new Error(`unknown api ${String(never)}`);
    }
  }
}
