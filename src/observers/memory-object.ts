/**
 * Project memory Durable Object (thin shell, SQLite-backed; DESIGN §7 "memory"): one instance per
 * project key (src/gateway/project-key.ts; the DO name is the key). Holds the tier map each
 * completed session of the project left at its complete alarm (src/observers/project-memory.ts), one
 * row per session, until `expires_at_ms` (the `memory_retention_seconds` counted from that
 * alarm): the row outlives the session's own state, which its retention alarm deletes. The
 * maps hold short keys and hashes only (src/core/memory/build-tier-map.ts; DESIGN invariant 7).
 * Its alarm deletes the expired rows. Operators read it through `GET /admin/memory/:project`.
 * `memory_inject` (level `rewrite`): `claim` gives the newest map to one new session of the
 * project, once (table `consumed`), so one previous session's memory is injected into one
 * session only.
 */
import { DurableObject } from "cloudflare:workers";
import type { Env } from "../config/env";
import type { TierMap } from "../core/memory/build-tier-map";
import { tierMapSchema } from "../admin/search-memory";

/** Rows kept per project, newest first. Our bound: 100 maps × a few hundred KB stays far below a DO's SQLite size limit. */
export const MAX_MAPS_PER_PROJECT = 100;

/** One completed session's tier map, as kept. Times are epoch ms. */
export interface ProjectMemoryEntry {
  session_id: string;
  /** When the complete alarm built it. */
  built_at_ms: number;
  /** When the row is deleted. */
  expires_at_ms: number;
  tier_map: TierMap;
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS maps (session_id TEXT PRIMARY KEY, built_at_ms INTEGER NOT NULL, expires_at_ms INTEGER NOT NULL, tier_map TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS maps_by_expiry ON maps (expires_at_ms);
CREATE TABLE IF NOT EXISTS consumed (session_id TEXT PRIMARY KEY, by_session TEXT NOT NULL, at_ms INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS consumed_by ON consumed (by_session);
`;

/** The namespace's instance for `project` (the DO name is the project key). */
export function projectMemoryStub(ns: DurableObjectNamespace<MemoryObject>, project: string): DurableObjectStub<MemoryObject> {
  return ns.get(ns.idFromName(project));
}

export class MemoryObject extends DurableObject<Env> {
  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    ctx.storage.sql.exec(SCHEMA);
  }

  /** Keeps (or replaces) one session's map; throws naming the field when the map does not match its schema. */
  async put(entry: ProjectMemoryEntry): Promise<void> {
    const parsed = tierMapSchema.safeParse(entry.tier_map);
    if (!parsed.success) throw new Error(`tier_map does not match its schema at ${parsed.error.issues[0]?.path.join(".") ?? "?"}`);
    const sql = this.ctx.storage.sql;
    sql.exec("INSERT OR REPLACE INTO maps (session_id, built_at_ms, expires_at_ms, tier_map) VALUES (?, ?, ?, ?)", entry.session_id, entry.built_at_ms, entry.expires_at_ms, JSON.stringify(parsed.data));
    sql.exec("DELETE FROM maps WHERE session_id NOT IN (SELECT session_id FROM maps ORDER BY built_at_ms DESC LIMIT ?)", MAX_MAPS_PER_PROJECT);
    await this.scheduleExpiry();
  }

  /** The kept maps not yet expired at `now_ms`, newest first. */
  async list(now_ms: number = Date.now()): Promise<ProjectMemoryEntry[]> {
    const rows = this.ctx.storage.sql.exec<{ session_id: string; built_at_ms: number; expires_at_ms: number; tier_map: string }>(
      "SELECT session_id, built_at_ms, expires_at_ms, tier_map FROM maps WHERE expires_at_ms > ? ORDER BY built_at_ms DESC, session_id", now_ms).toArray();
    return rows.map((r) => ({ session_id: r.session_id, built_at_ms: r.built_at_ms, expires_at_ms: r.expires_at_ms, tier_map: JSON.parse(r.tier_map) as TierMap }));
  }

  /**
   * For the first call of session `by_session` (memory_inject): the newest map not expired at
   * `now_ms`, not left by `by_session` itself and not yet claimed, which is then marked claimed
   * by it; the map it claimed before when it asks again (a retried first call gets the same
   * map); null when there is none.
   */
  async claim(by_session: string, now_ms: number = Date.now()): Promise<ProjectMemoryEntry | null> {
    const sql = this.ctx.storage.sql;
    const mine = sql.exec<{ session_id: string }>("SELECT session_id FROM consumed WHERE by_session = ?", by_session).toArray()[0];
    const pick = (where: string, ...args: unknown[]) => sql.exec<{ session_id: string; built_at_ms: number; expires_at_ms: number; tier_map: string }>(
      `SELECT session_id, built_at_ms, expires_at_ms, tier_map FROM maps WHERE expires_at_ms > ? AND ${where} ORDER BY built_at_ms DESC, session_id LIMIT 1`, now_ms, ...args).toArray()[0];
    const row = mine !== undefined
      ? pick("session_id = ?", mine.session_id)
      : pick("session_id != ? AND session_id NOT IN (SELECT session_id FROM consumed)", by_session);
    if (row === undefined) return null;
    if (mine === undefined) sql.exec("INSERT INTO consumed (session_id, by_session, at_ms) VALUES (?, ?, ?)", row.session_id, by_session, now_ms);
    return { session_id: row.session_id, built_at_ms: row.built_at_ms, expires_at_ms: row.expires_at_ms, tier_map: JSON.parse(row.tier_map) as TierMap };
  }

  /** Deletes the expired rows and sets the alarm to the next expiry. */
  override async alarm(): Promise<void> {
    this.ctx.storage.sql.exec("DELETE FROM maps WHERE expires_at_ms <= ?", Date.now());
    this.ctx.storage.sql.exec("DELETE FROM consumed WHERE session_id NOT IN (SELECT session_id FROM maps)");
    await this.scheduleExpiry();
  }

  private async scheduleExpiry(): Promise<void> {
    const next = this.ctx.storage.sql.exec<{ at: number | null }>("SELECT MIN(expires_at_ms) AS at FROM maps").one().at;
    if (next === null) await this.ctx.storage.deleteAlarm();
    else await this.ctx.storage.setAlarm(next);
  }
}
