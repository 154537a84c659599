/**
 * The session Durable Object (thin shell, DESIGN §6): one per agent session, SQLite-backed. Every
 * method delegates to the session (./session.ts) over the object's SQL storage; the object owns
 * only the platform's alarm, which it sets to the session's next deadline.
 *
 * The session (and with it the tables) is built on first use, and the caller-facing reads
 * (`restore`, `searchMemory`) answer "nothing here" from an object that never stored anything
 * without building it: an id anyone can guess must not leave an empty database behind that no
 * alarm would ever delete.
 */
import { DurableObject } from "cloudflare:workers";
import type { Env } from "../config/env";
import { projectMemoryStub } from "../observers/memory-object";
import type { FailOpenReason, ReportAnswer, StepAnswer, StepInput } from "./contract";
import { Session, type SessionSearch, type SessionStats } from "./session";
import type { ArchiveItem, Restored } from "./archive-store";
import type { CacheReport } from "../observers/cache-diagnostics";
import type { TierMap } from "../core/memory/build-tier-map";

export class SessionObject extends DurableObject<Env> {
  private built: Session | null = null;

  private get session(): Session {
    if (this.built === null) {
      const env = this.env;
      const memory = env.MEMORY ? (project: string) => projectMemoryStub(env.MEMORY!, project) : undefined;
      this.built = new Session({ sql: this.ctx.storage.sql, env: env as unknown as Record<string, unknown>, ...(memory ? { memory } : {}) });
    }
    return this.built;
  }

  /** True when this object has never stored anything (no session table exists); reading sqlite_master writes nothing. */
  private blank(): boolean {
    return this.built === null && this.ctx.storage.sql.exec("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'state'").toArray().length === 0;
  }

  async step(input: StepInput): Promise<StepAnswer> {
    const out = await this.session.step(input);
    await this.schedule();
    return out;
  }
  async report(r: unknown): Promise<ReportAnswer> {
    const answer = await this.session.report(r);
    // An answer moves the last activity: the idle deadline counts from it.
    await this.schedule();
    return answer;
  }
  countFailOpen(reason: FailOpenReason): Promise<void> {
    return this.session.countFailOpen(reason);
  }
  archive(items: ArchiveItem[], caller_id: string | null = null, now_ms: number = Date.now()): Promise<number> {
    return this.session.archive(items, caller_id, now_ms);
  }
  restore(call_id: string, caller_id: string, now_ms: number = Date.now()): Promise<Restored> {
    if (this.blank()) return Promise.resolve({ kind: "not_found" });
    return this.session.restore(call_id, caller_id, now_ms);
  }
  searchMemory(caller_id: string, query: string, now_ms: number = Date.now()): Promise<SessionSearch | null> {
    if (this.blank()) return Promise.resolve(null);
    return this.session.searchMemory(caller_id, query, now_ms);
  }
  getArchive(call_id: string): Promise<string | null> {
    return this.session.getArchive(call_id);
  }
  setDisabled(disabled: boolean): Promise<void> {
    return this.session.setDisabled(disabled);
  }
  stats(): Promise<SessionStats> {
    return this.session.stats();
  }
  cacheBreaks(): Promise<CacheReport> {
    return this.session.cacheBreaks();
  }
  memory(): Promise<TierMap | null> {
    return this.session.memory();
  }

  override async alarm(): Promise<void> {
    const next = await this.session.alarm(Date.now());
    if (next === null) await this.ctx.storage.deleteAlarm();
    else await this.ctx.storage.setAlarm(next);
  }

  private async schedule(): Promise<void> {
    const at = await this.session.nextAlarmAt();
    if (at !== null) await this.ctx.storage.setAlarm(at);
  }
}
