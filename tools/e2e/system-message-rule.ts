/**
 * Mid-conversation `role: "system"` messages in a Messages request (pure). Claude Code puts them
 * inside `messages` on Opus (after the first user message and about every 10 turns); the API
 * accepts one only directly after a `user` message. Until the emulator's validator knows them
 * (it rejects any role but user/assistant), the scripted upstream checks that rule here and hands
 * the emulator a copy where each such message becomes user text (it then merges into the user
 * turn before it, so the tokens are still billed). Once the emulator accepts the request as is,
 * `needsSystemShim` is false and this file does nothing.
 */
import { arr, str, type Json, type JsonObject } from "../emulator/shared/json";

/** The emulator's rejection text for a role it does not know (tools/emulator/anthropic/validate-request.ts step 1). */
const UNKNOWN_ROLE = /^messages\.(\d+)\.role: Input should be 'user' or 'assistant'$/;

/** True when the emulator rejected `body` only for a mid-conversation system message it does not know. */
export function needsSystemShim(body: Json, rejectionMessage: string): boolean {
  const m = UNKNOWN_ROLE.exec(rejectionMessage);
  return m !== null && str((arr(body, "messages") ?? [])[Number(m[1])], "role") === "system";
}

/** The API's rule for system messages: null when every one directly follows a user message, else the problem. */
export function systemMessageProblem(body: Json): string | null {
  const messages = arr(body, "messages") ?? [];
  for (let i = 0; i < messages.length; i++) {
    if (str(messages[i], "role") !== "system") continue;
    const before = i > 0 ? str(messages[i - 1], "role") : undefined;
    if (before !== "user") return `messages.${i}: a system message must directly follow a user message (found ${before ?? "none"} before it)`;
  }
  return null;
}

/** `body` with each system message turned into a user message with the same content. */
export function systemAsUser(body: JsonObject): JsonObject {
  const messages = (arr(body, "messages") ?? []).map((m) => (str(m, "role") === "system" ? { ...(m as JsonObject), role: "user" } : m));
  return { ...body, messages };
}
