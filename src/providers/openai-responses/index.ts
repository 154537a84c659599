/**
 * OpenAI Responses adapter (pure): read → neutral view, compile → byte deletions, checkRules →
 * pairing/reasoning violations. Registered as "openai-responses" in ../registry.ts.
 */
import type { ProviderAdapter } from "../types";
import { checkResponsesRules } from "./check-rules";
import { compileResponses } from "./edit-rules";
import { readResponses } from "./read-view";

export const openaiResponsesAdapter: ProviderAdapter = {
  provider: "openai-responses",
  historyKey: "input",
  read: readResponses,
  compile: compileResponses,
  checkRules: checkResponsesRules,
};
