/**
 * The one history message a checked output may add (pure; `memory_inject`): the
 * memory block's element, with exactly its bytes, directly after the first user message
 * (src/providers/shared/memory-message.ts places it). The guarantee checker
 * (./check-guarantee.ts) takes it out here — written apart from the placement code, found again
 * in the output's own scan — and checks the rest as a subtraction of the input, as at any level;
 * the provider's rules are then judged on the output as sent.
 */
import type { ParsedRequest, ProviderAdapter } from "../../providers/types";
import { getMember, scanJson, stringValue, type JsonNode } from "../../providers/shared/json-scan";
import type { GuaranteeResult } from "./check-guarantee";
import type { CoreCaches } from "../caches";

/** The output without the inserted message, or why the message is not where and what it must be. */
export type Stripped = { ok: true; bytes: Uint8Array; root: JsonNode } | { ok: false; violation: string };

/**
 * `output` without `element`, which must be the history element directly after the first
 * element whose `role` is "user", byte-identical to `element`, separated from it by exactly one
 * comma (the separator after it is the input's own).
 */
export function withoutInserted(adapter: ProviderAdapter, output: Uint8Array, element: Uint8Array): Stripped {
  let root: JsonNode;
  try {
    root = scanJson(output);
  } catch (e) {
    return { ok: false, violation: `output is not valid JSON: ${(e as Error).message}` };
  }
  const history = getMember(root, adapter.historyKey);
  if (history?.type !== "array") return { ok: false, violation: `"${adapter.historyKey}" is not an array: no place for the inserted message` };
  const k = history.items.findIndex((m) => {
    const role = getMember(m, "role");
    return role?.type === "string" && stringValue(output, role) === "user";
  });
  const user = history.items[k];
  const next = history.items[k + 1];
  if (user === undefined || next === undefined) return { ok: false, violation: "no message after the first user message: the inserted message is missing" };
  const same = next.end - next.start === element.length && element.every((b, i) => output[next.start + i] === b);
  if (!same || next.start !== user.end + 1 || output[user.end] !== 0x2c) {
    return { ok: false, violation: "the message after the first user message is not the inserted message's exact bytes" };
  }
  const bytes = new Uint8Array(output.length - (next.end - user.end));
  bytes.set(output.subarray(0, user.end), 0);
  bytes.set(output.subarray(next.end), user.end);
  return { ok: true, bytes, root };
}

/** The verdict on the output as sent once the rest passed: the adapter reads it (through `caches`) and its provider rules hold. */
export function insertedVerdict(adapter: ProviderAdapter, output: Uint8Array, root: JsonNode, caches: CoreCaches): GuaranteeResult {
  let parsed: ParsedRequest;
  try {
    parsed = adapter.read(output, caches, root);
  } catch (e) {
    return { ok: false, violations: [`output unreadable: ${(e as Error).message}`] };
  }
  const violations = adapter.checkRules(output, root, caches).map((r) => `rule: ${r}`);
  return { ok: violations.length === 0, violations, output: parsed };
}
