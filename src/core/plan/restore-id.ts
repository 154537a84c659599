/**
 * The restore id (pure): what a `placeholders` marker names so that the MCP tool
 * `restore_tool_result` (src/mcp/restore-tools.ts) finds the removed result with no other
 * context — the session that archived it and the pair's call id.
 *
 * Form: `<esc(session_id)>/<esc(call_id)>`, split at the first "/". `esc` writes `%`, `/`, `"`,
 * `\`, `]` and the control characters (U+0000–U+001F, U+007F) as `%XX` (two uppercase hex
 * digits) and keeps every other character as it is, so the common ids read as they are
 * (`cc:<uuid>:conv:<hash>/toolu_01A`) and the id never ends the marker's quoted argument or its
 * bracket. The id depends only on the two ids, so a pair's marker has the same bytes on every
 * request of the session (DESIGN invariant 6).
 */

const ESCAPED = /[%/"\\\]\u0000-\u001f\u007f]/g;

function esc(s: string): string {
  return s.replace(ESCAPED, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0")}`);
}

/** Undoes `esc`; null when a `%` is not followed by two hex digits naming an escaped character. */
function unesc(s: string): string | null {
  let bad = false;
  const out = s.replace(/%(..)?/gs, (_, hex: string | undefined) => {
    const c = hex !== undefined && /^[0-9A-F]{2}$/.test(hex) ? String.fromCharCode(parseInt(hex, 16)) : "";
    if (c === "" || esc(c) === c) bad = true;
    return c;
  });
  return bad ? null : out;
}

/** The restore id of call `call_id` in session `session_id` (module comment). */
export function restoreId(session_id: string, call_id: string): string {
  return `${esc(session_id)}/${esc(call_id)}`;
}

/**
 * The session and call ids a restore id names, or null when it is not one restoreId could have
 * written (no "/", an empty part, a bad escape, a character that should have been escaped).
 */
export function parseRestoreId(id: string): { session_id: string; call_id: string } | null {
  const slash = id.indexOf("/");
  if (slash <= 0 || slash === id.length - 1) return null;
  const session_id = unesc(id.slice(0, slash));
  const call_id = unesc(id.slice(slash + 1));
  if (session_id === null || call_id === null) return null;
  return restoreId(session_id, call_id) === id ? { session_id, call_id } : null;
}
