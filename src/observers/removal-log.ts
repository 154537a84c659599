/**
 * The session's removals as the savings ledger follows them (the savings ledger's own
 * table): one row per removed pair — a hash of its tool call (tool name + input hash), the hashes
 * of the file paths it named, its result's estimated tokens, whether the tool is deterministic
 * (a read or read-only call: re-running it gives the result back) — and two flags set when a
 * later request issues the same tool call again (re-fetch) or names one of its paths again
 * (mention). Hashes and counts only, never text (DESIGN invariant 7). A step the gateway rolled
 * back takes its rows with it (`forgetRemovals`).
 */
import { hashText } from "../core/hash";
import type { PairFacts, StepFacts } from "../core/facts/step-facts";
import type { Ledger, LedgerAdditions } from "../core/policy/ledger";
import { defineTables } from "../session/state";

defineTables(["removals"], `CREATE TABLE IF NOT EXISTS removals (
  pair_id TEXT PRIMARY KEY, step INTEGER NOT NULL, tool_key TEXT NOT NULL, paths TEXT NOT NULL, tokens INTEGER NOT NULL,
  deterministic INTEGER NOT NULL, refetched INTEGER NOT NULL DEFAULT 0, mentioned INTEGER NOT NULL DEFAULT 0);`);

/** Forgets the removals of a step the gateway rolled back. */
export function forgetRemovals(sql: SqlStorage, step: number): void {
  sql.exec("DELETE FROM removals WHERE step = ?", step);
}

/** What one step did to the removals. */
export interface RemovalCounts {
  removals: number;
  removals_deterministic: number;
  /** Estimated tokens of the removed results. */
  removed_tokens: number;
  removals_refetched: number;
  removals_mentioned: number;
}

const toolKey = (p: PairFacts) => hashText(`${p.tool_name}\u0000${p.input_hash}`);
const pathsOf = (p: PairFacts) => (p.call_class.kind === "other" ? [] : p.call_class.paths);

/**
 * Notes one step: first flags earlier removals that the pairs new in this request (not in
 * `before.first_seen`) fetch or name again, then records the removals the step added (`add`
 * entries whose action is not keep; a pair already recorded is not counted twice).
 */
export function noteRemovals(sql: SqlStorage, facts: StepFacts, before: Ledger, add: LedgerAdditions): RemovalCounts {
  const fresh = facts.pairs.filter((p) => before.first_seen[p.id] === undefined);
  let refetched = 0, mentioned = 0;
  if (fresh.length > 0) {
    const keys = [...new Set(fresh.map(toolKey))];
    refetched = sql.exec(`UPDATE removals SET refetched = 1 WHERE refetched = 0 AND tool_key IN (${keys.map(() => "?").join(", ")}) RETURNING pair_id`, ...keys).toArray().length;
    const paths = [...new Set(fresh.flatMap(pathsOf))];
    if (paths.length > 0) {
      mentioned = sql.exec(
        `UPDATE removals SET mentioned = 1 WHERE mentioned = 0 AND EXISTS (SELECT 1 FROM json_each(removals.paths) WHERE value IN (${paths.map(() => "?").join(", ")})) RETURNING pair_id`,
        ...paths,
      ).toArray().length;
    }
  }
  const byId = new Map(facts.pairs.map((p) => [p.id, p]));
  let removals = 0, deterministic = 0, tokens = 0;
  for (const e of add.entries) {
    const p = byId.get(e.pair_id);
    if (e.action.kind === "keep" || p === undefined) continue;
    const det = p.call_class.kind === "read" || p.call_class.readonly;
    const written = sql.exec(
      "INSERT OR IGNORE INTO removals (pair_id, step, tool_key, paths, tokens, deterministic) VALUES (?, ?, ?, ?, ?, ?) RETURNING pair_id",
      e.pair_id, e.step, toolKey(p), JSON.stringify(pathsOf(p)), p.result_est_tokens, det ? 1 : 0,
    ).toArray().length;
    if (written === 0) continue;
    removals++;
    if (det) deterministic++;
    tokens += p.result_est_tokens;
  }
  return { removals, removals_deterministic: deterministic, removed_tokens: tokens, removals_refetched: refetched, removals_mentioned: mentioned };
}
