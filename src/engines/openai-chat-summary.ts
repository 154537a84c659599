/**
 * The OpenAI-compatible chat summariser's wire shapes (pure): the chat completion request Sluice
 * sends and the reading of its answer. Any server speaking POST /v1/chat/completions answers it
 * (OpenAI, llama.cpp `llama-server`, vLLM, Ollama's /v1 endpoint).
 *
 * Request: {model, messages: [{role: "system", content: SUMMARY_INSTRUCTION}, {role: "user",
 * content: transcript}], temperature: 0, max_tokens, stream: false}. The transcript renders each
 * part on its own block, ids kept, so the model can cite calls verbatim.
 * Answer: `choices[0].message.content` (a string) is the summary; `usage.prompt_tokens` and
 * `usage.completion_tokens` are the token counts (OpenAI Chat Completions reference, "The chat
 * completion object": choices[].message.content, usage.prompt_tokens, usage.completion_tokens).
 */
import { z } from "zod";
import type { SummaryPart, SummaryTurn } from "../core/summary/types";
import { parseAnswer } from "./parse-answer";

/** The fixed summarising instruction (system message). Fixed so the same stretch costs the same. */
export const SUMMARY_INSTRUCTION = [
  "You summarise a finished stretch of a coding agent's session so the agent can continue without it.",
  "Write plain text with these sections, leaving out any that would be empty:",
  "Files touched: one line per path with what was done to it.",
  "Commands run: one line per command with its exit status.",
  "Errors: each error message verbatim, and how it was fixed (or that it was not).",
  "Decisions: each decision the assistant stated, with its rationale and evidence.",
  "Keep paths, commands, identifiers and error messages exactly as written. Do not invent anything.",
].join("\n");

/** Renders the stretch as the user message of the chat request. */
export function renderTranscript(turns: readonly SummaryTurn[]): string {
  const blocks: string[] = [];
  for (const turn of turns) {
    for (const part of turn.parts) blocks.push(renderPart(turn.role, part));
  }
  return blocks.join("\n\n");
}

function renderPart(role: SummaryTurn["role"], part: SummaryPart): string {
  switch (part.type) {
    case "text":
      return `[${role}]\n${part.text}`;
    case "tool_call":
      return `[tool_call ${part.id} ${part.name}]\n${part.input}`;
    case "tool_result":
      return `[tool_result ${part.id}${part.is_error ? " error" : ""}]\n${part.text}`;
    default: {
      const never: never = part;
      return never;
    }
  }
}

/** The chat completion request body for `turns`. */
export function chatSummaryRequest(model: string, turns: readonly SummaryTurn[], maxOutputTokens: number) {
  return {
    model,
    messages: [
      { role: "system" as const, content: SUMMARY_INSTRUCTION },
      { role: "user" as const, content: renderTranscript(turns) },
    ],
    temperature: 0,
    max_tokens: maxOutputTokens,
    stream: false,
  };
}

const chatAnswerSchema = z.object({
  choices: z.array(z.object({ message: z.object({ content: z.string().nullable() }) })).min(1),
  usage: z.object({ prompt_tokens: z.number().int().nonnegative(), completion_tokens: z.number().int().nonnegative() }),
});

/** A read answer: summary text and usage, or a short text-free detail (field path). */
export type ChatSummaryRead =
  | { ok: true; summary: string; input_tokens: number; output_tokens: number }
  | { ok: false; detail: string };

/** Reads a chat completion answer. `content: null` reads as "" (no summary). */
export function readChatSummary(text: string): ChatSummaryRead {
  const parsed = parseAnswer(text, chatAnswerSchema, "a chat completion");
  if (!parsed.ok) return parsed;
  const { choices, usage } = parsed.data;
  return { ok: true, summary: choices[0]!.message.content ?? "", input_tokens: usage.prompt_tokens, output_tokens: usage.completion_tokens };
}
