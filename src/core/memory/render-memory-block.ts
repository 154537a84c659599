/**
 * The memory block's text (pure, deterministic; DESIGN §7, issue 29 item 4): what the first
 * request of a new session carries of its project's previous tier map (src/core/memory/build-tier-map.ts)
 * when `memory_inject` is on at level `rewrite`. Documented in docs/configuration.md "Memory block".
 *
 * Layout, lines joined with "\n":
 * ```
 * [sluice: memory of this project's previous session]
 * Working set: the last <turns> turn(s), from turn <t>, message <m>.
 * Reference index (key → kind → where):
 * - <key> → <kind> → <n> use(s), message <a>[–<b>]
 * Archival summaries (oldest first):
 * - summary of <n> tool call(s):
 * <text>
 * - turns <a>–<b>: <n> tool call(s) (<tool> <n>, …), <e> error(s), ~<tokens> tokens
 * ```
 * A section with no entries is left out. Reference lines: at most REFERENCE_MAX_LINES, most
 * used first (ties: kind, then key). Summaries (oldest first) come before the stretches still
 * shown as counts; each summary text is cut to SUMMARY_MAX_CHARS. The whole block is at most
 * MEMORY_BLOCK_MAX_CHARS characters (UTF-16 units): entries that would pass it are left out and
 * one line `[sluice: <n> more entr(y|ies) left out]` says how many. Paths and commands appear as
 * the hashes the map keys them by (the map holds no call input text: DESIGN invariant 7).
 */
import { headChars } from "../text/head-chars";
import type { ReferenceEntry, TierMap } from "./build-tier-map";

/** The block's first line, fixed: marks the text as Sluice's, not the user's. */
export const MEMORY_BLOCK_HEADER = "[sluice: memory of this project's previous session]";
/** Longest block, characters (UTF-16 units): about 1,500 tokens, a small share of any window (our bound). */
export const MEMORY_BLOCK_MAX_CHARS = 6_000;
/** Most reference index lines (our bound: the most used keys say most about the project). */
export const REFERENCE_MAX_LINES = 40;
/** Longest summary text kept in the block, characters (our bound); a longer one ends with "…". */
export const SUMMARY_MAX_CHARS = 2_000;

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

function referenceLine(e: ReferenceEntry): string {
  const where = e.first_message === e.last_message ? `message ${e.first_message}` : `messages ${e.first_message}–${e.last_message}`;
  return `- ${e.key} → ${e.kind} → ${plural(e.count, "use", "uses")}, ${where}`;
}

/** The block's text for `map` (never empty: at least the header). */
export function renderMemoryBlock(map: TierMap): string {
  const w = map.working;
  const head = [MEMORY_BLOCK_HEADER, `Working set: the last ${plural(w.turns, "turn", "turns")}, from turn ${w.from_turn}, message ${w.from_message}.`];
  // Each entry is one unit of the bound: kept whole or left out.
  const sections: { title: string; entries: string[] }[] = [];
  const refs = Object.values(map.reference)
    .sort((a, b) => b.count - a.count || cmp(a.kind, b.kind) || cmp(a.key, b.key))
    .slice(0, REFERENCE_MAX_LINES);
  sections.push({ title: "Reference index (key → kind → where):", entries: refs.map(referenceLine) });
  const archival = [
    ...(map.summaries ?? []).map((s) => {
      const text = s.text.length > SUMMARY_MAX_CHARS ? `${headChars(s.text, SUMMARY_MAX_CHARS - 1)}…` : s.text;
      return `- summary of ${plural(s.covers, "tool call", "tool calls")}:\n${text}`;
    }),
    ...map.archival.map((a) => {
      const tools = Object.entries(a.tool_counts).map(([name, n]) => `${name} ${n}`).join(", ");
      return `- turns ${a.from_turn}–${a.to_turn}: ${plural(a.tool_calls, "tool call", "tool calls")}${tools === "" ? "" : ` (${tools})`}, ${plural(a.errors, "error", "errors")}, ~${a.est_tokens} tokens`;
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
