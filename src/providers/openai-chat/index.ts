/**
 * OpenAI Chat Completions adapter (pure): read → neutral view, compile → byte deletions,
 * checkRules → pairing/adjacency violations. Registered as "openai-chat" in ../registry.ts.
 */
import type { ProviderAdapter } from "../types";
import { checkChatRules } from "./check-rules";
import { compileChat } from "./edit-rules";
import { readChat } from "./read-view";

export const openaiChatAdapter: ProviderAdapter = {
  provider: "openai-chat",
  historyKey: "messages",
  removableMembers: ["tool_calls", "function_call"],
  read: readChat,
  compile: compileChat,
  checkRules: checkChatRules,
};
