/**
 * Session Durable Object (thin shell, DESIGN §6): one per agent session, SQLite-backed. Short
 * RPC methods delegate to run-step.ts (the hot path: one `step` call per request) and to the
 * SQL store. Alarms: idle (marks the session idle so the next request is priced as cache-cold),
 * complete (marks it complete → session_memory on the next request; its tier map is stored by
 * that step), retention (deletes all state).
 */
import { DurableObject } from "cloudflare:workers";
import type { Env } from "../config/env";
import type { Usage } from "../usage/extract-usage";
import { findModelPrice } from "../core/cost/find-model-price";
import type { Provider } from "../core/view/types";
import { recordOutcome } from "./record-outcome";
import { runStep } from "./run-step";
import { nextAlarm, runAlarm } from "./session-alarms";
import { precomputeVerdicts } from "./precompute-verdicts";
import { SessionStore } from "./session-store";
import type { OutcomeRecorded, OutcomeReport, StepInput, StepOutput } from "./step-types";
import { sessionStats, type SessionStats } from "./session-stats";

export class SessionObject extends DurableObject<Env> {
  private readonly store: SessionStore;
  /** The last request's slim view and config, in memory only (never stored: DESIGN invariant 7), for the idle alarm's precomputation. */
  private last: { view: StepInput["view"]; config: StepInput["config"] } | null = null;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.store = new SessionStore(ctx.storage.sql);
  }

  /** Hot path: re-apply the ledger, maybe take a step, return the plan. */
  async step(input: StepInput): Promise<StepOutput> {
    if (this.store.getMeta("session_id") === null) this.store.setMeta("session_id", input.session_id);
    const out = await runStep({ store: this.store, sql: this.ctx.storage.sql, env: this.env }, input);
    this.last = { view: input.view, config: input.config };
    await this.scheduleAlarm(input.now_ms);
    return out;
  }

  /** After forwarding: outcome counters, per-call figures, rollback of a step that was not forwarded. */
  async reportOutcome(r: OutcomeReport): Promise<OutcomeRecorded> {
    return recordOutcome(this.store, this.ctx.storage.sql, r, Date.now());
  }

  /** Provider-reported usage of one call, and the estimate of what was sent (calibration). */
  async reportUsage(u: Usage, estimated_input_tokens: number): Promise<void> {
    const s = this.store;
    s.add("usage_input_tokens", u.input_tokens);
    s.add("usage_cache_read_input_tokens", u.cache_read_input_tokens);
    s.add("usage_cache_creation_input_tokens", u.cache_creation_input_tokens);
    s.add("usage_output_tokens", u.output_tokens);
    s.add("calibration_estimated", estimated_input_tokens);
    s.add("calibration_reported", u.input_tokens + u.cache_read_input_tokens + u.cache_creation_input_tokens);
    s.add("usage_reports", 1);
    const price = findModelPrice(s.getMeta("model") || null, (s.getMeta("provider") || "anthropic") as Provider).price;
    s.add(
      "usage_cost_usd",
      (u.input_tokens * price.input_per_mtok +
        u.cache_read_input_tokens * price.cache_read_per_mtok +
        u.cache_creation_input_tokens * price.input_per_mtok * price.cache_write_multiplier +
        u.output_tokens * price.output_per_mtok) / 1e6,
    );
    s.setMeta("last_activity_ms", Math.max(Date.now(), s.getMetaNumber("last_activity_ms")));
  }

  /** Counts a fail-open that happened before any step (e.g. the body did not parse). */
  async countFailOpen(reason: string): Promise<void> {
    this.store.add(`fail_open_${reason}`, 1);
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
  }

  /** Counters, usage totals, ledger summary, calibration — counts only, never text. */
  async stats(): Promise<SessionStats> {
    return sessionStats(this.store, this.ctx.storage.sql);
  }

  /** The stored memory tier map (session_memory), or null. */
  async memory(): Promise<unknown> {
    const m = this.store.getMeta("memory");
    return m === null ? null : JSON.parse(m);
  }

  /** Runs the scheduled alarm (./session-alarms.ts): marks idle / complete, or deletes all state at retention. */
  override async alarm(): Promise<void> {
    const kind = this.store.getMeta("alarm_kind") ?? "idle";
    if (runAlarm(this.store, Date.now()) === "delete") {
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
      await precomputeVerdicts({ store: this.store, sql: this.ctx.storage.sql, env: this.env }, this.last.config, this.last.view).catch(() => undefined);
    }
    await this.scheduleAlarm(this.store.getMetaNumber("last_activity_ms", Date.now()));
  }

  /** Sets the alarm to the next pending deadline after `last` activity. */
  private async scheduleAlarm(last: number): Promise<void> {
    await this.ctx.storage.setAlarm(nextAlarm(this.store, last).at_ms);
  }
}
