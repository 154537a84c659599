/**
 * JSON Lines parsing (pure): one JSON object per non-blank line. A bad line is an error naming
 * its 1-based line number; a line that is valid JSON but not an object is skipped.
 */
import type { JsonObject } from "./types";

/** One parsed line and its 1-based line number. */
export interface JsonlLine {
  line: number;
  value: JsonObject;
}

/** Parses JSONL text into objects. */
export function parseJsonl(text: string, name: string): JsonlLine[] {
  const out: JsonlLine[] = [];
  text.split("\n").forEach((raw, i) => {
    if (raw.trim() === "") return;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch (e) {
      throw new Error(`${name}: line ${i + 1} is not JSON (${(e as Error).message})`);
    }
    if (typeof value === "object" && value !== null && !Array.isArray(value)) out.push({ line: i + 1, value: value as JsonObject });
  });
  return out;
}
