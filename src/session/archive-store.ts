/**
 * The session's archive of removed tool results (`archive_removed` on; DESIGN §7), over the
 * session's SQL storage, and its owner: the caller id (src/http/middleware/caller.ts) of the
 * request that created the session. The archive answers the MCP tools (src/mcp/) only for that
 * caller, so one caller never reads another's content, even when two callers share a session
 * name (an `x-sluice-session` value, a `prompt_cache_key`).
 *
 * - `archive`: the result text of each removed pair (and the call's input when the whole pair
 *   went), chunked below the DO SQLite row cap, with the time it was archived. Refused (nothing
 *   kept) when the session's owner is another caller.
 * - `restore`: the archived item, for the owner only, until `archive_retention_seconds` after it
 *   was archived; an expired item is deleted when met. `purgeExpired` deletes every expired item
 *   (run by the session's alarms and archive writes); the retention alarm wipes all tables.
 */
import { z } from "zod";
import { defineSlot, defineTables, type StateTx } from "./state";

/** Largest archive chunk: 64 Ki UTF-16 code units (≤ 192 KiB as UTF-8), far below the DO SQLite 2 MB row cap. */
export const ARCHIVE_CHUNK_CHARS = 64 * 1024;

defineTables(["archive", "archive_inputs", "archive_items"], `
CREATE TABLE IF NOT EXISTS archive (call_id TEXT NOT NULL, chunk INTEGER NOT NULL, data TEXT NOT NULL, PRIMARY KEY (call_id, chunk));
CREATE TABLE IF NOT EXISTS archive_inputs (call_id TEXT NOT NULL, chunk INTEGER NOT NULL, data TEXT NOT NULL, PRIMARY KEY (call_id, chunk));
CREATE TABLE IF NOT EXISTS archive_items (call_id TEXT PRIMARY KEY, archived_at_ms INTEGER NOT NULL, tool_name TEXT NOT NULL, has_input INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS archive_items_by_time ON archive_items (archived_at_ms);`);

/** The caller id that created the session ("g:…"/"p:…"), null before a request that carried one. */
export const OWNER = defineSlot<string | null>("owner", z.string().min(1).nullable(), () => null);

/** One removed pair to keep. `input`: the call's input text, only when the whole pair was removed. */
export interface ArchiveItem {
  call_id: string;
  tool_name: string;
  text: string;
  input?: string;
}

/** What `restore` found. */
export type Restored =
  | { kind: "ok"; tool_name: string; text: string; input: string | null }
  /** Another caller's session, no owner yet, or nothing archived under the id: told apart from nothing, so nothing leaks. */
  | { kind: "not_found" }
  /** The owner's item, past its retention (deleted now). */
  | { kind: "expired" };

/** Records `caller_id` as the owner when the session has none; true when `caller_id` is (now) the owner. */
export function claimOwner(tx: StateTx, caller_id: string | null | undefined): boolean {
  if (!caller_id) return false;
  const owner = tx.get(OWNER);
  if (owner === null) tx.set(OWNER, caller_id);
  return owner === null || owner === caller_id;
}

function writeChunks(tx: StateTx, table: "archive" | "archive_inputs", call_id: string, text: string): void {
  tx.sql.exec(`DELETE FROM ${table} WHERE call_id = ?`, call_id);
  for (let i = 0, chunk = 0; i < text.length || chunk === 0; i += ARCHIVE_CHUNK_CHARS, chunk++) {
    tx.sql.exec(`INSERT INTO ${table} (call_id, chunk, data) VALUES (?, ?, ?)`, call_id, chunk, text.slice(i, i + ARCHIVE_CHUNK_CHARS));
  }
}

function readChunks(tx: StateTx, table: "archive" | "archive_inputs", call_id: string): string | null {
  const rows = tx.sql.exec<{ data: string }>(`SELECT data FROM ${table} WHERE call_id = ? ORDER BY chunk`, call_id).toArray();
  return rows.length === 0 ? null : rows.map((r) => r.data).join("");
}

function deleteItem(tx: StateTx, call_id: string): void {
  for (const table of ["archive", "archive_inputs", "archive_items"]) tx.sql.exec(`DELETE FROM ${table} WHERE call_id = ?`, call_id);
}

/**
 * Keeps `items` (replacing an earlier copy of the same call id) archived at `now_ms`, when
 * `caller_id` owns the session (claimed here when it has no owner). A host without callers (the
 * replay, `caller_id` null) archives only in a session without owner, which no MCP caller can
 * read. Returns how many were kept (0 when another caller owns it). Deletes the expired items first.
 */
export function archiveItems(tx: StateTx, items: readonly ArchiveItem[], caller_id: string | null, now_ms: number, retention_s: number): number {
  if (caller_id === null ? tx.get(OWNER) !== null : !claimOwner(tx, caller_id)) return 0;
  purgeExpired(tx, now_ms, retention_s);
  for (const it of items) {
    writeChunks(tx, "archive", it.call_id, it.text);
    if (it.input !== undefined) writeChunks(tx, "archive_inputs", it.call_id, it.input);
    else tx.sql.exec("DELETE FROM archive_inputs WHERE call_id = ?", it.call_id);
    tx.sql.exec("INSERT OR REPLACE INTO archive_items (call_id, archived_at_ms, tool_name, has_input) VALUES (?, ?, ?, ?)", it.call_id, now_ms, it.tool_name, it.input !== undefined ? 1 : 0);
  }
  return items.length;
}

/** The archived result text under `call_id` whoever asks (the operator's admin route), or null. */
export function archivedText(tx: StateTx, call_id: string): string | null {
  return readChunks(tx, "archive", call_id);
}

/** The archived item `call_id` for `caller_id` at `now_ms` (see Restored). */
export function restore(tx: StateTx, call_id: string, caller_id: string, now_ms: number, retention_s: number): Restored {
  const owner = tx.get(OWNER);
  if (owner === null || owner !== caller_id) return { kind: "not_found" };
  const item = tx.sql.exec<{ archived_at_ms: number; tool_name: string; has_input: number }>("SELECT archived_at_ms, tool_name, has_input FROM archive_items WHERE call_id = ?", call_id).toArray()[0];
  if (item === undefined) return { kind: "not_found" };
  if (now_ms >= item.archived_at_ms + retention_s * 1000) {
    deleteItem(tx, call_id);
    return { kind: "expired" };
  }
  const text = readChunks(tx, "archive", call_id);
  if (text === null) return { kind: "not_found" };
  return { kind: "ok", tool_name: item.tool_name, text, input: item.has_input ? readChunks(tx, "archive_inputs", call_id) ?? "" : null };
}

/** Of `call_ids`, those archived and not expired at `now_ms`. */
export function restorableIds(tx: StateTx, call_ids: readonly string[], now_ms: number, retention_s: number): string[] {
  const since = now_ms - retention_s * 1000;
  return call_ids.filter((id) => tx.sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM archive_items WHERE call_id = ? AND archived_at_ms > ?", id, since).one().n > 0);
}

/** Deletes every item archived at or before `now_ms` − retention. */
export function purgeExpired(tx: StateTx, now_ms: number, retention_s: number): void {
  const expired = tx.sql.exec<{ call_id: string }>("SELECT call_id FROM archive_items WHERE archived_at_ms <= ?", now_ms - retention_s * 1000).toArray();
  for (const { call_id } of expired) deleteItem(tx, call_id);
}
