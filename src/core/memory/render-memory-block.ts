/**
 * The memory block's text (pure, deterministic; DESIGN §7): what the first
 * request of a new session carries of its project's previous tier map (src/core/memory/build-tier-map.ts)
 * when `memory_inject` is on at level `rewrite`. Documented in docs/configuration.md "Memory block".
 *
 * Layout, lines joined with "\n":
 * ```
 * [sluice: memory of this project's previous session]
 * Working set: the last <turns> turn(s) of the previous session.
 * Tools and errors of the previous session (most used first):
 * - tool <name>: <n> call(s)
 * - error "<first line>": <n> time(s)
 * Archival summaries (oldest first):
 * - summary of <n> tool call(s):
 * <text>
 * - <n> turn(s): <n> tool call(s) (<tool> <n>, …), <e> error(s), ~<tokens> tokens
 * ```
 * Only what a model can read is shown: the map's path and command entries are keyed by hashes
 * (it holds no call input text: DESIGN invariant 7) and are left out, and the previous session's
 * message and turn numbers, which point into a history this session does not have, are not
 * shown. A section with no entries is left out. Reference lines: at most REFERENCE_MAX_LINES,
 * most used first (ties: kind, then key). Summaries (oldest first) come before the stretches
 * still shown as counts; each summary text is cut to SUMMARY_MAX_CHARS. The whole block is at
 * most MEMORY_BLOCK_MAX_CHARS characters (UTF-16 units): entries that would pass it are left out
 * and one line `[sluice: <n> more entr(y|ies) left out]` says how many.
 */
import { headChars } from "../text/head-chars";
import type { ReferenceEntry, ReferenceKind, TierMap } from "./build-tier-map";

/** The block's first line, fixed: marks the text as Sluice's, not the user's. */
export const MEMORY_BLOCK_HEADER = "[sluice: memory of this project's previous session]";
/** Longest block, characters (UTF-16 units): about 1,500 tokens, a small share of any window (our bound). */
export const MEMORY_BLOCK_MAX_CHARS = 6_000;
/** Most reference index lines (our bound: the most used keys say most about the project). */
export const REFERENCE_MAX_LINES = 40;
/** Longest summary text kept in the block, characters (our bound); a longer one ends with "…". */
export const SUMMARY_MAX_CHARS = 2_000;

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** The reference kinds whose keys are readable text (tool names, error lines); path and command keys are hashes. */
const READABLE_KINDS: ReadonlySet<ReferenceKind> = new Set(["tool", "error"]);

function referenceLine(e: ReferenceEntry): string {
  return e.kind === "tool" ? `- tool ${e.key}: ${plural(e.count, "call", "calls")}` : `- error ${JSON.stringify(e.key)}: ${plural(e.count, "time", "times")}`;
}

/** The block's text for `map` (never empty: at least the header). */
export function renderMemoryBlock(map: TierMap): string {
  const head = [MEMORY_BLOCK_HEADER, `Working set: the last ${plural(map.working.turns, "turn", "turns")} of the previous session.`];
  // Each entry is one unit of the bound: kept whole or left out.
  const sections: { title: string; entries: string[] }[] = [];
  const refs = Object.values(map.reference)
    .filter((e) => READABLE_KINDS.has(e.kind))
    .sort((a, b) => b.count - a.count || cmp(a.kind, b.kind) || cmp(a.key, b.key))
    .slice(0, REFERENCE_MAX_LINES);
  sections.push({ title: "Tools and errors of the previous session (most used first):", entries: refs.map(referenceLine) });
  const archival = [
    ...(map.summaries ?? []).map((s) => {
      const text = s.text.length > SUMMARY_MAX_CHARS ? `${headChars(s.text, SUMMARY_MAX_CHARS - 1)}…` : s.text;
      return `- summary of ${plural(s.covers, "tool call", "tool calls")}:\n${text}`;
    }),
    ...map.archival.map((a) => {
      const tools = Object.entries(a.tool_counts).map(([name, n]) => `${name} ${n}`).join(", ");
      return `- ${plural(a.to_turn - a.from_turn + 1, "turn", "turns")}: ${plural(a.tool_calls, "tool call", "tool calls")}${tools === "" ? "" : ` (${tools})`}, ${plural(a.errors, "error", "errors")}, ~${a.est_tokens} tokens`;
    }),
  ];
  sections.push({ title: "Archival summaries (oldest first):", entries: archival });

  const lines = [...head];
  let size = head.join("\n").length;
  const total = sections.reduce((n, s) => n + s.entries.length, 0);
  let kept = 0;
  // Room for the last line that counts what was left out (its longest form).
  const reserve = `\n[sluice: ${total} more entries left out]`.length;
  outer: for (const s of sections) {
    let titled = false;
    for (const e of s.entries) {
      const add = (titled ? 0 : s.title.length + 1) + e.length + 1;
      if (size + add + (kept + 1 < total ? reserve : 0) > MEMORY_BLOCK_MAX_CHARS) break outer;
      if (!titled) lines.push(s.title);
      titled = true;
      lines.push(e);
      size += add;
      kept += 1;
    }
  }
  const left = total - kept;
  if (left > 0) lines.push(`[sluice: ${left} more ${left === 1 ? "entry" : "entries"} left out]`);
  return lines.join("\n");
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
