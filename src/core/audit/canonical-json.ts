/**
 * Canonical JSON (pure): object keys sorted by UTF-16 code unit order at every depth, no
 * whitespace, numbers and strings as JSON.stringify writes them (deterministic in every JS
 * engine, ECMA-262 Number::toString). The audit chain hashes these bytes, so two writers of the
 * same record always produce the same hash.
 */

/** A JSON value (what canonicalJson accepts). */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** Canonical text of `value`. Throws on non-finite numbers (JSON has none). */
export function canonicalJson(value: JsonValue): string {
  if (value === null || typeof value === "boolean" || typeof value === "string") return JSON.stringify(value);
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new Error("canonicalJson: non-finite number");
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  const keys = Object.keys(value).filter((k) => value[k] !== undefined).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(value[k]!)}`).join(",")}}`;
}
