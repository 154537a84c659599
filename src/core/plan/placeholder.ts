/**
 * The `placeholders` guarantee level's marker (pure; DESIGN §2). Where a
 * `truncate_result` or `drop_result` removed text from a result, one fixed marker stands at the
 * place the removed text began, inside the same JSON string. Its bytes depend only on the pair
 * id and, when removed results are archived, on the session id, so the same removal yields the
 * same bytes on every request and the compacted prefix stays cacheable (DESIGN invariant 6).
 *
 * Marker text (decoded), documented in docs/configuration.md:
 * - `archive_removed` off: `\n[sluice: rest of tool result removed]`
 * - `archive_removed` on:  `\n[sluice: rest of tool result removed; restore_tool_result("<id>")]`,
 *   where `<id>` is the restore id (./restore-id.ts: session id and call id) under which the MCP
 *   tool `restore_tool_result` (POST /mcp) returns the removed result to the session's caller.
 * On the wire it is that text JSON-escaped for a string literal (the newline is the two bytes
 * `\n`, the quotes `\"`; the id escaped as JSON.stringify escapes it).
 */
import type { ByteRange } from "../view/types";
import { restoreId } from "./restore-id";

/** What the placeholders level needs to know: the session whose archive keeps the removed results (the marker then names the restore id), or null when they are not archived. */
export interface PlaceholderOptions {
  archive_session: string | null;
}

/**
 * The placeholder options a config selects: non-null only at `guarantee_level: "placeholders"`
 * (at `strict` nothing is written into a request; `rewrite` adds no marker either). `session_id`:
 * the request's session, named by the marker when `archive_removed` is on.
 */
export function placeholderOptionsOf(config: { guarantee_level: string; archive_removed: boolean }, session_id: string): PlaceholderOptions | null {
  return config.guarantee_level === "placeholders" ? { archive_session: config.archive_removed ? session_id : null } : null;
}

/** The decoded marker text for pair `id` (see the module comment for the exact forms). */
export function placeholderText(id: string, opts: PlaceholderOptions): string {
  return opts.archive_session !== null
    ? `\n[sluice: rest of tool result removed; restore_tool_result("${restoreId(opts.archive_session, id)}")]`
    : "\n[sluice: rest of tool result removed]";
}

const encoder = new TextEncoder();

/** The marker's raw bytes inside a JSON string literal (UTF-8 of the JSON-escaped text, quotes excluded). */
export function placeholderBytes(id: string, opts: PlaceholderOptions): Uint8Array {
  return encoder.encode(JSON.stringify(placeholderText(id, opts)).slice(1, -1));
}

/** One insertion: `bytes` placed before original byte `at` (offsets in the input body). */
export interface Insertion {
  at: number;
  bytes: Uint8Array;
}

/**
 * Where a result's marker goes, given the string literal nodes holding its text (in body order,
 * quotes included in each range) and the deletions made inside that result: the first removed
 * byte that lies inside a text literal, or, when the first removal after the first text literal
 * is a whole part, the closing quote of the last kept text literal before it. Removals before the
 * first text literal (a media part in front) are skipped. Null when no text literal stays in front
 * of a removal (no place for a marker: the level then keeps that pair).
 */
export function markerPlace(texts: readonly ByteRange[], deletions: readonly ByteRange[]): number | null {
  if (texts.length === 0) return null;
  const sorted = [...deletions].filter((d) => d.end > d.start && d.start >= texts[0]!.start).sort((a, b) => a.start - b.start);
  const first = sorted[0];
  if (!first) return null;
  const inside = texts.find((t) => first.start > t.start && first.start < t.end);
  if (inside) return first.start;
  let place: number | null = null;
  for (const t of texts) {
    if (t.end > first.start) break;
    if (!sorted.some((d) => d.start <= t.start && d.end >= t.end)) place = t.end - 1;
  }
  return place;
}
