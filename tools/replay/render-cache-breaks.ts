/**
 * The replay report's cache-breaks section (pure): per session of the in-process `sluice` run,
 * what the session DO found broke the emulator's prompt cache between consecutive calls
 * (src/observers/cache-diagnostics.ts, confirmed against the emulator's billed usage), as terminal lines and
 * as an HTML table, with the meaning of every cause shown. Counts, tokens and USD only.
 */
import { CACHE_BREAK_CAUSES, type CacheBreakCause } from "../../src/core/cache/diagnose-break";
import type { CacheReport } from "../../src/observers/cache-diagnostics";
import type { ReplayReport } from "./summarize-report";

/** One line per cause (docs/operations.md "Cache-breaker diagnostics" says what to do about each). */
export const CAUSE_MEANING: Record<CacheBreakCause, string> = {
  ttl_expired: "the gap since the previous call exceeded the cache lifetime (of every breakpoint, or of those after a 1-hour one: then only what follows the last live breakpoint is written again)",
  tools_changed: "tool definitions were added, removed, changed or reordered",
  timestamp_in_prefix: "a date or time inside the system prompt changed",
  id_in_prefix: "an id (uuid, hex, request id) inside the system prompt changed",
  system_changed: "other bytes of the system prompt changed",
  settings_changed: "another cached request member changed (tool_choice, thinking, a moved marker among tools or system blocks)",
  sluice_step: "Sluice's own compaction step rewrote the history after its first edit",
  sluice_restore: "a removal Sluice had made was undone: the pair came back because a later result refers to it, or its result changed",
  system_message_cleared: "a mid-conversation system message with clear_at was no longer shown (a later user message came): the prompt was written again from it",
  history_edited: "the client changed or removed a message the previous call had sent",
  breakpoint_moved: "no cache_control breakpoint of the call reached what the previous call cached",
  unexplained: "the usage showed a miss the request bytes do not explain (eviction, another replica)",
};

/** The causes that occur in any session, in diagnosis order. */
function causesSeen(reports: readonly CacheReport[]): CacheBreakCause[] {
  return CACHE_BREAK_CAUSES.filter((c) => reports.some((r) => r.causes[c].count > 0));
}

/** Rows: header, then per session [id, pairs checked, misses, count per seen cause, sluice step cost USD]. */
export function cacheBreakRows(report: ReplayReport): string[][] {
  const entries = Object.entries(report.cache_breaks ?? {});
  const causes = causesSeen(entries.map(([, r]) => r));
  return [
    ["session", "pairs checked", "misses", ...causes, "sluice step cost"],
    ...entries.map(([id, r]) => [id, String(r.pairs_checked), String(r.misses), ...causes.map((c) => String(r.causes[c].count)), `$${r.sluice_step_cost_usd.toFixed(4)}`]),
  ];
}

/**
 * Terminal lines of the section ([] without a sluice run): one line per session — "id: 54 pairs
 * checked, 2 misses (ttl_expired 1, sluice_step 1), sluice step cost $0.0843" — then the meaning
 * of every cause seen. One line per session rather than a column per cause, so the terminal
 * stays narrow whatever causes occur.
 */
export function cacheBreaksSummary(report: ReplayReport): string[] {
  const entries = Object.entries(report.cache_breaks ?? {});
  if (entries.length === 0) return [];
  const causes = causesSeen(entries.map(([, r]) => r));
  return [
    "Cache breaks (sluice run: what missed the provider cache between consecutive calls, per session):",
    ...entries.map(([id, r]) => {
      const by = causes.filter((c) => r.causes[c].count > 0).map((c) => `${c} ${r.causes[c].count}`);
      return `  ${id}: ${r.pairs_checked} pairs checked, ${r.misses} misses${by.length > 0 ? ` (${by.join(", ")})` : ""}, sluice step cost $${r.sluice_step_cost_usd.toFixed(4)}`;
    }),
    ...causes.map((c) => `  ${c}: ${CAUSE_MEANING[c]}`),
  ];
}

/** The section as HTML ("" without a sluice run); `esc` escapes text. */
export function cacheBreaksHtml(report: ReplayReport, esc: (s: string) => string): string {
  const rows = cacheBreakRows(report);
  if (rows.length === 1) return "";
  const causes = rows[0]!.slice(3, -1) as CacheBreakCause[];
  const head = `<tr>${rows[0]!.map((h) => `<th>${esc(h)}</th>`).join("")}</tr>`;
  const body = rows.slice(1).map((r) => `<tr>${r.map((c) => `<td>${esc(c)}</td>`).join("")}</tr>`).join("");
  const legend = causes.map((c) => `<dt>${esc(c)}</dt><dd>${esc(CAUSE_MEANING[c])}</dd>`).join("");
  return `<h2>Cache breaks (sluice run)</h2><p class="note">What made the provider cache miss between consecutive calls, found by the session's diagnostics and confirmed against the billed usage.</p><table id="cache-breaks">${head}${body}</table><dl>${legend}</dl>`;
}
