/**
 * Canonical JSON text (pure): object keys sorted, no whitespace. Used to compare tool inputs
 * ("same name and same input") independently of key order. A string that holds JSON (OpenAI
 * `arguments`) is parsed first; a string that is not JSON stays as is.
 */
import type { Json } from "./types";

/** Canonical text of a JSON value. */
export function canonicalJson(value: Json): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  const keys = Object.keys(value).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(value[k]!)}`).join(",")}}`;
}

/** Canonical text of a tool input given as a JSON string (OpenAI arguments) or free text. */
export function canonicalArguments(text: string): string {
  try {
    return canonicalJson(JSON.parse(text) as Json);
  } catch {
    return text;
  }
}
