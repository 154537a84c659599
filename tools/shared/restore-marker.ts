/**
 * Sluice's restore markers, read from a text (pure). At `guarantee_level: "placeholders"` with
 * `archive_removed` on, Sluice writes, where a result's removed text began, one fixed marker that
 * names what went (src/core/plan/placeholder.ts; docs/configuration.md):
 * - `[sluice: rest of tool result removed; restore_tool_result("<restore id>")]`, the restore id
 *   being `<esc(session id)>/<esc(call id)>` (esc: `%`, `/`, `"`, `\`, `]` and control
 *   characters as `%XX`), the argument of the MCP tool `restore_tool_result`;
 * - `[sluice: rest of tool result removed; archive id <call id>]`, the form before the tool
 *   existed (the operator's `GET /admin/sessions/:id/archive/:call_id`).
 * The replay (which removals a restore would answer) and the e2e's scripted model (which id to
 * restore) both read markers here, so they agree on what counts as one.
 */
import { parseRestoreId } from "../../src/core/plan/restore-id";

/** One marker found in a text. */
export interface RestoreMarker {
  /** What the agent passes to `restore_tool_result`: the restore id, or, in the older form, the archive id. */
  restore_id: string;
  /** The tool call id the marker names (the restore id's part after its first "/", unescaped). */
  call_id: string;
}

const MARKER = /\[sluice: [^\]\n]*? removed; (?:restore_tool_result\("([^"\\\]]*)"\)|archive id ([^\]\n]+))\]/g;

/** `%XX` back to the character (the esc() of the restore id's parts). */
/** The call id a restore id names (src/core/plan/restore-id.ts parseRestoreId); an id that is not a restore id (the archive-id form) is the call id itself. */
export function callIdOf(restoreId: string): string {
  return parseRestoreId(restoreId)?.call_id ?? restoreId;
}

/** Every marker in `text`, in order. */
export function restoreMarkersIn(text: string): RestoreMarker[] {
  const out: RestoreMarker[] = [];
  for (const m of text.matchAll(MARKER)) {
    if (m[1] !== undefined) {
      const parsed = parseRestoreId(m[1]);
      if (parsed === null) continue;
      out.push({ restore_id: m[1], call_id: parsed.call_id });
    } else if (m[2] !== undefined) {
      out.push({ restore_id: m[2], call_id: m[2] });
    }
  }
  return out;
}
