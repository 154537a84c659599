/**
 * Project memory, the session side (an observer of the session, ../session/state.ts
 * SessionObserver, owning the slot `project_memory`; DESIGN §7): what a session keeps so that
 * its complete alarm can leave a tier map under its project key without a later request.
 * - After each step (only with `memory_retention_seconds` > 0 and a project key from the
 *   gateway): the tier map of the request's facts (../core/memory/build-tier-map.ts: tool names,
 *   hashes of paths and commands, first error lines, counts) and the project key. The facts
 *   themselves stay in memory only (DESIGN invariant 7); the history only grows, so the last
 *   request's map covers the session.
 * - At the complete alarm: the draft, with the summaries the session's ledger holds (level
 *   `rewrite`: ../core/memory/archival-summaries.ts), becomes the session's tier map
 *   (../session/session-record.ts MEMORY) and is sent to the project's MemoryObject
 *   (./memory-object.ts), kept `memory_retention_seconds`. Counts `project_memory_kept`, or
 *   `project_memory_errors` when the MemoryObject refused or failed (the alarm goes on).
 */
import { z } from "zod";
import { buildTierMap, type TierMap } from "../core/memory/build-tier-map";
import { ledgerSummaries, withArchivalSummaries } from "../core/memory/archival-summaries";
import { tierMapSchema } from "../admin/search-memory";
import { MEMORY } from "../session/session-record";
import { defineSlot, type SessionObserver } from "../session/state";

const DRAFT = defineSlot<{ project_key: string; draft: TierMap } | null>(
  "project_memory",
  z.object({ project_key: z.string(), draft: tierMapSchema as unknown as z.ZodType<TierMap> }).nullable(),
  () => null,
);

/** The project key the session keeps its map under (null: project memory was off for it). */
export const projectKeyOf = (tx: Parameters<NonNullable<SessionObserver["afterStep"]>>[0]): string | null => tx.get(DRAFT)?.project_key ?? null;

/** The live session's draft tier map (project memory on), or null: what a memory search reads before the complete alarm stores the map. */
export const draftMapOf = (tx: Parameters<typeof projectKeyOf>[0]): TierMap | null => tx.get(DRAFT)?.draft ?? null;

/** The observer (module header). */
export const projectMemory: SessionObserver = {
  afterStep(tx, e) {
    if (e.result === null || e.project_key === undefined || !(e.config.memory_retention_seconds > 0)) return;
    tx.set(DRAFT, { project_key: e.project_key, draft: buildTierMap(e.facts, e.config.preserve_recent_turns) });
  },
  async atComplete(tx, e) {
    const kept = tx.get(DRAFT);
    const retention = e.config.memory_retention_seconds;
    if (kept === null || !(retention > 0)) return;
    const map = withArchivalSummaries(kept.draft, ledgerSummaries(Object.values(e.ledger.entries)));
    tx.set(MEMORY, map);
    if (e.memory === undefined) return;
    try {
      await e.memory(kept.project_key).put({ session_id: e.session_id ?? "", built_at_ms: e.now_ms, expires_at_ms: e.now_ms + retention * 1000, tier_map: map });
      tx.add("project_memory_kept", 1);
    } catch {
      tx.add("project_memory_errors", 1);
    }
  },
};
