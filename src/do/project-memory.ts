/**
 * Project memory, the session side (shell over the SQL store; DESIGN §7): what a session keeps so
 * that its complete alarm can leave a tier map under its project key without a later request.
 * - Per request (`noteMemoryDraft`, only with `memory_retention_seconds` > 0 and a project key
 *   from the gateway): the tier map of the request's facts (src/core/memory/build-tier-map.ts:
 *   tool names, hashes of paths and commands, first error lines, counts) in meta `memory_draft`,
 *   and the project key in meta `project_key`. The facts themselves stay in memory only
 *   (DESIGN invariant 7); the history only grows, so the last request's map covers the session.
 * - At the complete alarm (`keepProjectMemory`): the draft, with the summaries the session's
 *   ledger holds (level `rewrite`: ../core/memory/archival-summaries.ts), becomes the session's
 *   `memory` and is sent to the project's MemoryObject (./memory-object.ts), kept
 *   `memory_retention_seconds`.
 */
import type { CompactionConfig } from "../config/schema";
import type { StepFacts } from "../core/facts/step-facts";
import { buildTierMap, type TierMap } from "../core/memory/build-tier-map";
import type { ProjectMemoryEntry } from "./memory-object";
import { ledgerSummaries, withArchivalSummaries } from "../core/memory/archival-summaries";
import { loadLedger } from "./ledger-sql";
import type { SessionStore } from "./session-store";

/** Where the project map goes (the MemoryObject of a project key). */
export type ProjectMemorySink = (project: string) => { put(entry: ProjectMemoryEntry): Promise<void> };

/** Stores the request's tier map and project key when project memory is on; otherwise does nothing. */
export function noteMemoryDraft(store: SessionStore, facts: StepFacts, config: CompactionConfig, project_key: string | undefined): void {
  if (project_key === undefined || !(config.memory_retention_seconds > 0)) return;
  store.setMeta("project_key", project_key);
  store.setMeta("memory_draft", JSON.stringify(buildTierMap(facts, config.preserve_recent_turns)));
}

/**
 * At the complete alarm (`now_ms`, epoch ms): the last draft becomes the session's `memory` and
 * is kept under its project key until now + `memory_retention_seconds`. Counts
 * `project_memory_kept`, or `project_memory_errors` when the MemoryObject refused or failed (the
 * alarm goes on: the session's own map stays readable). Returns the project key, or null when
 * there was nothing to keep (project memory off, or no request noted a draft).
 */
export async function keepProjectMemory(store: SessionStore, sql: SqlStorage, sink: ProjectMemorySink, now_ms: number): Promise<string | null> {
  const draft = store.getMeta("memory_draft");
  const project = store.getMeta("project_key");
  const raw = store.getMeta("config");
  const retention = raw ? ((JSON.parse(raw) as Partial<CompactionConfig>).memory_retention_seconds ?? 0) : 0;
  if (draft === null || project === null || retention <= 0) return null;
  const map = withArchivalSummaries(JSON.parse(draft) as TierMap, ledgerSummaries(Object.values(loadLedger(sql).entries)));
  store.setMeta("memory", JSON.stringify(map));
  try {
    await sink(project).put({ session_id: store.getMeta("session_id") ?? "", built_at_ms: now_ms, expires_at_ms: now_ms + retention * 1000, tier_map: map });
    store.add("project_memory_kept", 1);
  } catch {
    store.add("project_memory_errors", 1);
  }
  return project;
}
