/**
 * The agent's views of its files (pure; DESIGN §2 "The agent's working set stays"): which read
 * and edit pairs a complete newer view of the same file supersedes, and which are the agent's
 * current view of a file.
 *
 * A later call gives a complete view of a file when it did not fail, its result is not a
 * reference reply (./reference-replies.ts: no content), and it is
 * - a full read of the file (lines 1 to the end: Read without offset/limit, `cat`, `nl`), or
 * - a whole write (CallFacts edit with `whole`: Write, write_file, create_file, an apply_patch
 *   that adds the file, a here-document or PowerShell here-string written to it: ./shell-writes.ts).
 * A partial read (offset/limit, `sed -n`, `head`, `tail`) shows only its lines, and an edit that
 * carries only the changed lines (Edit, MultiEdit, an apply_patch that updates the file) is never
 * a complete view: after it, the file is the earlier view plus the change.
 *
 * Hence:
 * 1. a read is superseded when each of its files has a later complete view or a later read
 *    covering the lines it showed (a later edit alone does not supersede it);
 * 2. an edit that carries only the changed lines (a failed one too: it changed nothing) is
 *    superseded when each of its files has a later full read; a whole write when each has a later
 *    complete view (a full read or another whole write). A later edit alone supersedes neither. A
 *    whole rewrite does not show what the agent wrote in a patch before it: on the recorded Codex
 *    sessions the agent went on to write code that only such patches held (7 of 10 calls that
 *    used a removed token on codex-rtchess-01, docs/dev/decisions/working-set.md);
 * 3. a read or edit with files that did not fail, is not a reference reply and is not superseded
 *    is a current view: with the other current views of the file it is what the agent knows of
 *    that file now; so is a failed edit that no later edit of its files has yet redone without
 *    failing (the agent's draft, which its retry takes up: ./rule-failed-retried.ts removes it
 *    once the retry succeeded);
 * 4. the agent's working set is the current views of the files it read or edited (any such call,
 *    failed ones too) in the last `turns` turns (./run-heuristic-engine.ts guards them).
 *
 * Evidence: the hashed paths and ranges of the calls (CallFacts), their order, the failure and
 * reference-reply flags — no text.
 */
import type { CallFacts, LineRangeFacts, PairFacts } from "../facts/step-facts";

/** What the file rules and the working-set guard read. */
export interface FileViews {
  /** Ids of the read and edit pairs a complete newer view supersedes (rules 1 and 2 above). */
  superseded: Set<string>;
  /** Ids of the current views (rule 3 above). */
  current: Set<string>;
  /** Per file (path hash), the turn index of the last call that read or edited it. */
  last_touch: Map<string, number>;
}

/** The file views of `pairs` (call order); `infos` and `failed` are parallel to it. */
export function fileViews(pairs: readonly PairFacts[], infos: readonly CallFacts[], failed: readonly boolean[]): FileViews {
  const superseded = new Set<string>();
  const current = new Set<string>();
  const last_touch = new Map<string, number>();
  // Walking backwards: the files with a later complete view, and the later partial reads' ranges per file.
  const complete = new Set<string>();
  // The files with a later full read: the only view that supersedes a partial edit (rule 2).
  const fullRead = new Set<string>();
  const partial = new Map<string, LineRangeFacts[]>();
  // The files a later edit changed without failing.
  const edited = new Set<string>();
  for (let i = pairs.length - 1; i >= 0; i--) {
    const c = infos[i]!;
    if (c.kind === "other" || c.paths.length === 0) continue;
    const p = pairs[i]!;
    for (const path of c.paths) if (!last_touch.has(path)) last_touch.set(path, p.turn_index);
    const counts = !failed[i] && !p.reference_reply;
    if (c.kind === "read") {
      if (!failed[i] && c.paths.every((path) => complete.has(path) || (partial.get(path) ?? []).some((r) => covers(r, c.range)))) superseded.add(p.id);
      else if (counts) current.add(p.id);
      if (!counts) continue;
      for (const path of c.paths) {
        if (isFull(c.range)) {
          complete.add(path);
          fullRead.add(path);
        }
        else if (c.range !== null) partial.set(path, [...(partial.get(path) ?? []), c.range]);
      }
    } else {
      if (c.paths.every((path) => (c.whole ? complete : fullRead).has(path))) superseded.add(p.id);
      else if (counts || (failed[i] && !c.paths.every((path) => edited.has(path)))) current.add(p.id);
      if (counts) for (const path of c.paths) edited.add(path);
      if (counts && c.whole) for (const path of c.paths) complete.add(path);
    }
  }
  return { superseded, current, last_touch };
}

/**
 * The working set (rule 4 above): ids of the current views one of whose files was read or edited
 * at turn index `turn_count − turns` or later; `turns` null = every current view.
 */
export function workingSet(pairs: readonly PairFacts[], infos: readonly CallFacts[], views: FileViews, turn_count: number, turns: number | null): Set<string> {
  if (turns === null) return views.current;
  const since = turn_count - turns;
  const out = new Set<string>();
  for (let i = 0; i < pairs.length; i++) {
    const c = infos[i]!;
    if (c.kind === "other" || !views.current.has(pairs[i]!.id)) continue;
    if (c.paths.some((path) => (views.last_touch.get(path) ?? -1) >= since)) out.add(pairs[i]!.id);
  }
  return out;
}

/** A range from line 1 to the end. */
function isFull(r: LineRangeFacts | null): boolean {
  return r !== null && r.from === 1 && r.to === null;
}

/** Whether `later` covers `earlier` (`to` null = to the end of the file; `earlier` null = unknown extent, covered only by a full range). */
function covers(later: LineRangeFacts, earlier: LineRangeFacts | null): boolean {
  if (earlier === null) return isFull(later);
  return later.from <= earlier.from && (later.to === null || (earlier.to !== null && later.to >= earlier.to));
}
