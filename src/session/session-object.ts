/**
 * The session Durable Object (thin shell, DESIGN §6): one per agent session, SQLite-backed. Every
 * method delegates to the session (./session.ts) over the object's SQL storage; the object owns
 * only the platform's alarm, which it sets to the session's next deadline.
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
  private readonly session: Session;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    const memory = env.MEMORY ? (project: string) => projectMemoryStub(env.MEMORY!, project) : undefined;
    this.session = new Session({ sql: ctx.storage.sql, env: env as unknown as Record<string, unknown>, ...(memory ? { memory } : {}) });
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
    return this.session.restore(call_id, caller_id, now_ms);
  }
  searchMemory(caller_id: string, query: string, now_ms: number = Date.now()): Promise<SessionSearch | null> {
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
