/**
 * Session Durable Object (thin shell, DESIGN §6): one per agent session, SQLite-backed. Short
 * RPC methods delegate to run-step.ts (the hot path: one `step` call per request a step lease
 * does not cover, ../core/policy/step-lease.ts), to ./session-calls.ts and to the
 * SQL store. Alarms: idle (marks the session idle so the next request is priced as cache-cold),
 * complete (marks it complete → session_memory on the next request; its tier map is stored by
 * that step), retention (deletes all state). The store buffers meta and counter writes
 * (./session-store.ts): every method ends with `store.flush()`, which also drops its read
 * snapshot, so each RPC reads the state as stored.
 */
import { DurableObject } from "cloudflare:workers";
import { BoundedLru } from "../core/bounded-lru";
import type { Env } from "../config/env";
import { recordOutcome } from "./record-outcome";
import { recordUsage } from "./record-usage";
import { settleNative } from "../usage/settle-native";
import { runStep } from "./run-step";
import { nextAlarm, runAlarm } from "./session-alarms";
import { precomputeVerdicts } from "./precompute-verdicts";
import { SessionStore } from "./session-store";
import { openLease, type LeaseInput } from "./open-lease";
import type { StepLease } from "../core/policy/step-lease";
import { recordLeasedCall } from "./session-calls";
import type { CallReport, NeedFullView, OutcomeRecorded, OutcomeReport, StepInput, StepOutput } from "./step-types";
import { rebuildView, type ViewDelta } from "./view-delta";
import { sessionStats, type SessionStats } from "./session-stats";

/** Delta bases kept per session instance (one per gateway isolate that recently served it; each a slim view of ≤ a few hundred KB). */
export const MAX_VIEW_BASES = 4;

export class SessionObject extends DurableObject<Env> {
  private readonly store: SessionStore;
  /** The last request's slim view and config, in memory only (never stored: DESIGN invariant 7), for the idle alarm's precomputation. */
  private last: { view: StepInput["view"]; config: StepInput["config"] } | null = null;
  /**
   * The last views received, by `view_token`: the bases of the next deltas. Several, because
   * more than one gateway isolate may serve a session and each sends deltas against the view
   * it sent last. Memory only, bounded by MAX_VIEW_BASES.
   */
  private readonly bases = new BoundedLru<string, StepInput["view"]>(MAX_VIEW_BASES);

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.store = new SessionStore(ctx.storage.sql);
  }

  /** Hot path: re-apply the ledger, maybe take a step, return the plan (`input.view` is the whole slim view). */
  async step(input: StepInput): Promise<StepOutput> {
    if (this.store.getMeta("session_id") === null) this.store.setMeta("session_id", input.session_id);
    const out = await runStep({ store: this.store, sql: this.ctx.storage.sql, env: this.env }, input);
    this.last = { view: input.view, config: input.config };
    if (input.view_token !== undefined) this.bases.set(input.view_token, input.view);
    await this.scheduleAlarm(input.now_ms);
    this.store.flush();
    return out;
  }

  /**
   * A step lease for a caller that holds none, asked for before any view is sent (./open-lease.ts:
   * "lease first"); null when the request must go to `step`. Schedules the alarms, so a session
   * whose reports never come is still deleted at retention.
   */
  async lease(input: LeaseInput): Promise<StepLease | null> {
    if (this.store.getMeta("session_id") === null) this.store.setMeta("session_id", input.session_id);
    const lease = openLease(this.store, this.ctx.storage.sql, input);
    await this.scheduleAlarm(this.store.getMetaNumber("last_activity_ms", input.now_ms));
    this.store.flush();
    return lease;
  }

  /**
   * `step` with `input.view` a delta against one of the last views this instance got
   * (./view-delta.ts), rebuilt here; without that base it answers `need_full` before touching
   * any state, and the gateway sends the whole view to `step`.
   */
  async stepDelta(input: StepInput & { delta: ViewDelta }): Promise<StepOutput | NeedFullView> {
    const base = this.bases.get(input.delta.base_token);
    const view = base !== undefined ? rebuildView(base, input.view, input.delta) : null;
    if (view === null) return { need_full: true };
    const { delta: _, ...rest } = input;
    return this.step({ ...rest, view });
  }

  /** After forwarding, at once (a step to roll back: it must be gone before the session's next request): outcome counters, per-call figures, the rollback. */
  async reportOutcome(r: OutcomeReport): Promise<OutcomeRecorded> {
    const recorded = recordOutcome(this.store, this.ctx.storage.sql, r, Date.now());
    this.store.flush();
    return recorded;
  }

  /**
   * The after-the-answer reports of one or more requests, in order, in one RPC (the gateway
   * batches them per session: ../gateway/report-buffer.ts): for each, the call itself when a
   * lease holder decided it (./session-calls.ts recordLeasedCall), then its outcome
   * (./record-outcome.ts) and its provider usage (./record-usage.ts), each possibly null; one
   * flush for all. Reschedules the alarms from the last activity when a leased call moved it.
   * Returns what each outcome recorded (null without one).
   */
  async reportCalls(reports: CallReport[]): Promise<(OutcomeRecorded | null)[]> {
    const now = Date.now();
    const recorded = reports.map((r) => {
      if (r.leased !== null) recordLeasedCall(this.store, this.ctx.storage.sql, r.leased, now);
      // A native request's saving stands only once the provider reports its edit applied.
      const settled = settleNative(r.outcome, r.usage);
      for (const [name, n] of Object.entries(settled.counters)) this.store.add(name, n);
      const rec = settled.outcome === null ? null : recordOutcome(this.store, this.ctx.storage.sql, settled.outcome, now);
      if (r.usage !== null) recordUsage(this.store, r.usage, r.estimated_input_tokens, now);
      return rec;
    });
    if (reports.some((r) => r.leased !== null)) await this.scheduleAlarm(this.store.getMetaNumber("last_activity_ms", now));
    this.store.flush();
    return recorded;
  }

  /** Counts a fail-open that happened before any step (e.g. the body did not parse). */
  async countFailOpen(reason: string): Promise<void> {
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

  /** The stored memory tier map (session_memory), or null. */
  async memory(): Promise<unknown> {
    const m = this.store.getMeta("memory");
    this.store.flush(); // ends the unit of work: the next call reads fresh state
    return m === null ? null : JSON.parse(m);
  }

  /** Runs the scheduled alarm (./session-alarms.ts): marks idle / complete, or deletes all state at retention. */
  override async alarm(): Promise<void> {
    const kind = this.store.getMeta("alarm_kind") ?? "idle";
    if (runAlarm(this.store, Date.now()) === "delete") {
      this.last = null;
      this.bases.clear();
      await this.ctx.storage.deleteAlarm();
      await this.ctx.storage.deleteAll();
      // deleteAll drops the SQL tables too: recreate them so this live instance serves the
      // session's next request as a new session instead of failing on a missing table.
      this.store.init();
      return;
    }
    // Idle: a good moment to ask an HTTP engine about the next step, off the request path.
    if (kind === "idle" && this.last !== null) {
      await precomputeVerdicts({ store: this.store, sql: this.ctx.storage.sql, env: this.env }, this.last.config, this.last.view).catch(() => undefined);
    }
    await this.scheduleAlarm(this.store.getMetaNumber("last_activity_ms", Date.now()));
    this.store.flush();
  }

  /** Sets the alarm to the next pending deadline after `last` activity. */
  private async scheduleAlarm(last: number): Promise<void> {
    await this.ctx.storage.setAlarm(nextAlarm(this.store, last).at_ms);
  }
}
