/**
 * Session Durable Object (thin shell, DESIGN §6): one per agent session, SQLite-backed, the
 * single source of truth of the session. Per request the gateway calls `step` once before the
 * forward (run-step.ts: the call is counted, its activity and first-seen times written, the
 * plan decided) and `report` once after the answer (the outcome and the usage). Short RPC
 * methods delegate to run-step.ts, ./record-outcome.ts, ./record-usage.ts and the SQL store. Alarms: idle (marks the session idle so the next request is priced as cache-cold),
 * complete (marks it complete → session_memory on the next request; with project memory on it
 * also leaves the session's tier map under its project key: ./project-memory.ts), retention
 * (deletes all state; the project's map stays in ./memory-object.ts). The store buffers meta and counter writes
 * (./session-store.ts): every method ends with `store.flush()`, which also drops its read
 * snapshot, so each RPC reads the state as stored.
 */
import { DurableObject } from "cloudflare:workers";
import type { Env } from "../config/env";
import { recordOutcome } from "./record-outcome";
import { decodeStepFacts } from "../core/facts/wire-facts";
import { recordUsage } from "./record-usage";
import { settleNative } from "../usage/settle-native";
import { PROVIDER_CLEARED_META, runStep } from "./run-step";
import { COMPACTION_STATE_META } from "./native-compaction-state";
import { nextAlarm, runAlarm } from "./session-alarms";
import { precomputeVerdicts } from "./precompute-verdicts";
import { keepProjectMemory } from "./project-memory";
import { projectMemoryStub } from "./memory-object";
import { SessionStore } from "./session-store";
import type { CallReport, FailOpenReason, StepInput, StepOutput } from "../session/step-types";
import { sessionStats, type SessionStats } from "./session-stats";
import { cacheReport, settleCachePair, type CacheReport } from "./cache-breaks";
import { settleLedger } from "./savings-ledger";
import type { ReportAnswer } from "../session/ledger-types";

export class SessionObject extends DurableObject<Env> {
  private readonly store: SessionStore;
  /** The last request's facts and config, in memory only (never stored: DESIGN invariant 7), for the idle alarm's precomputation. */
  private last: { facts: StepInput["facts"]; config: StepInput["config"] } | null = null;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.store = new SessionStore(ctx.storage.sql);
  }

  /** The one pre-forward RPC: count the call, re-apply the ledger, maybe take a step, return the plan. */
  async step(input: StepInput): Promise<StepOutput> {
    if (this.store.getMeta("session_id") === null) this.store.setMeta("session_id", input.session_id);
    const memory = (project: string) => projectMemoryStub(this.env.MEMORY, project);
    const out = await runStep({ store: this.store, sql: this.ctx.storage.sql, env: this.env, memory }, input);
    this.last = { facts: input.facts, config: input.config };
    await this.scheduleAlarm(input.now_ms);
    this.store.flush();
    return out;
  }

  /**
   * The one after-the-answer RPC of a request: its outcome (./record-outcome.ts: counters, the
   * per-call row, a rollback) and its provider usage (./record-usage.ts), each possibly null,
   * then the savings ledger (./savings-ledger.ts); one flush for all; counted in `reports`.
   * Returns what the outcome recorded (null without one) and what the ledger added.
   */
  async report(r: CallReport): Promise<ReportAnswer> {
    const now = Date.now();
    this.store.add("reports", 1);
    // A native request's saving stands only once the provider reports its edit applied.
    const settled = settleNative(r.outcome, r.usage);
    for (const [name, n] of Object.entries(settled.counters)) this.store.add(name, n);
    if (settled.provider !== undefined) this.store.setMeta(PROVIDER_CLEARED_META, JSON.stringify(settled.provider));
    if (settled.compacted) this.store.setMeta(COMPACTION_STATE_META, "answered");
    const recorded = settled.outcome === null ? null : recordOutcome(this.store, this.ctx.storage.sql, settled.outcome, now);
    // The settled outcome's figures: a native edit the provider did not apply forwarded everything.
    const est = settled.outcome === null ? { est_original: r.estimated_input_tokens, est_sent: r.estimated_input_tokens } : { est_original: settled.outcome.tokens_original, est_sent: settled.outcome.tokens_sent };
    if (r.usage !== null) recordUsage(this.store, r.usage, est, now);
    settleCachePair(this.store, this.ctx.storage.sql, r.usage);
    const ledger = settleLedger(this.store, { ...r, outcome: settled.outcome });
    this.store.flush();
    return { recorded, ledger };
  }

  /** Counts a fail-open that happened before any step (e.g. the body did not parse). */
  async countFailOpen(reason: FailOpenReason): Promise<void> {
    this.store.add(`fail_open_${reason}`, 1);
    this.store.flush();
  }

  /** Keeps removed tool results (archive_removed on), by call id. */
  async archive(items: { call_id: string; text: string }[]): Promise<void> {
    for (const it of items) this.store.putArchive(it.call_id, it.text);
  }

  async getArchive(call_id: string): Promise<string | null> {
    return this.store.getArchive(call_id);
  }

  /** Per-session kill switch. */
  async setDisabled(disabled: boolean): Promise<void> {
    this.store.setMeta("disabled", disabled ? 1 : 0);
    this.store.flush();
  }

  /** Counters, usage totals, ledger summary, calibration — counts only, never text. */
  async stats(): Promise<SessionStats> {
    const stats = sessionStats(this.store, this.ctx.storage.sql);
    this.store.flush(); // ends the unit of work: the next call reads fresh state
    return stats;
  }

  /** What broke the provider's cache between the session's calls (./cache-breaks.ts): counts, offsets, the last events. */
  async cacheBreaks(): Promise<CacheReport> {
    const report = cacheReport(this.store, this.ctx.storage.sql);
    this.store.flush(); // ends the unit of work: the next call reads fresh state
    return report;
  }

  /** The stored memory tier map (session_memory), or null. */
  async memory(): Promise<unknown> {
    const m = this.store.getMeta("memory");
    this.store.flush(); // ends the unit of work: the next call reads fresh state
    return m === null ? null : JSON.parse(m);
  }

  /** Runs the scheduled alarm (./session-alarms.ts): marks idle / complete, or deletes all state at retention. */
  override async alarm(): Promise<void> {
    const kind = this.store.getMeta("alarm_kind") ?? "idle";
    const wasComplete = this.store.getMeta("complete") === "1";
    const now = Date.now();
    const next = runAlarm(this.store, now);
    // Complete (or an alarm so late that retention passed too): the session leaves its tier map
    // under its project key before anything is deleted (./project-memory.ts).
    if (!wasComplete && (next === "delete" || this.store.getMeta("complete") === "1")) {
      await keepProjectMemory(this.store, this.ctx.storage.sql, (project) => projectMemoryStub(this.env.MEMORY, project), now);
    }
    if (next === "delete") {
      this.last = null;
      await this.ctx.storage.deleteAlarm();
      await this.ctx.storage.deleteAll();
      // deleteAll drops the SQL tables too: recreate them so this live instance serves the
      // session's next request as a new session instead of failing on a missing table.
      this.store.init();
      return;
    }
    // Idle: a good moment to ask an HTTP engine about the next step, off the request path.
    if (kind === "idle" && this.last !== null) {
      await precomputeVerdicts({ store: this.store, sql: this.ctx.storage.sql, env: this.env }, this.last.config, decodeStepFacts(this.last.facts)).catch(() => undefined);
    }
    await this.scheduleAlarm(this.store.getMetaNumber("last_activity_ms", Date.now()));
    this.store.flush();
  }

  /** Sets the alarm to the next pending deadline after `last` activity. */
  private async scheduleAlarm(last: number): Promise<void> {
    await this.ctx.storage.setAlarm(nextAlarm(this.store, last).at_ms);
  }
}
