/**
 * Session Durable Object (thin shell, DESIGN §6): one per agent session, SQLite-backed. Short
 * RPC methods delegate to run-step.ts (the hot path: one `step` call per request) and to the
 * SQL store. Alarms: idle (marks the session idle so the next request is priced as cache-cold),
 * complete (marks it complete → session_memory on the next request; its tier map is stored by
 * that step), retention (deletes all state).
 */
import { DurableObject } from "cloudflare:workers";
import type { Env } from "../config/env";
import { DEFAULTS } from "../config/defaults";
import type { Usage } from "../usage/extract-usage";
import { findModelPrice } from "../core/cost/find-model-price";
import type { Provider } from "../core/view/types";
import { rollbackStep } from "./ledger-sql";
import { runStep } from "./run-step";
import { SessionStore } from "./session-store";
import type { OutcomeRecorded, OutcomeReport, StepInput, StepOutput } from "./step-types";
import { sessionStats, type SessionStats } from "./session-stats";

/** Outcomes counted under their own name; any other outcome is a fail-open reason. */
const OUTCOMES = new Set(["compacted", "unchanged", "measured"]);

export class SessionObject extends DurableObject<Env> {
  private readonly store: SessionStore;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.store = new SessionStore(ctx.storage.sql);
  }

  /** Hot path: re-apply the ledger, maybe take a step, return the plan. */
  async step(input: StepInput): Promise<StepOutput> {
    if (this.store.getMeta("session_id") === null) this.store.setMeta("session_id", input.session_id);
    const out = await runStep({ store: this.store, sql: this.ctx.storage.sql, env: this.env }, input);
    await this.scheduleAlarm(input.now_ms);
    return out;
  }

  /** After forwarding: outcome counters, per-call figures, rollback of a step that was not forwarded. */
  async reportOutcome(r: OutcomeReport): Promise<OutcomeRecorded> {
    const s = this.store;
    if (r.rollback_step !== null) rollbackStep(this.ctx.storage.sql, r.rollback_step);
    s.add(OUTCOMES.has(r.outcome) ? r.outcome : `fail_open_${r.outcome}`, 1);
    const saved = Math.max(0, r.tokens_original - r.tokens_sent);
    s.add("tokens_original", r.tokens_original);
    s.add("tokens_sent", r.tokens_sent);
    s.add("tokens_saved", saved);
    const price = findModelPrice(s.getMeta("model") || null, (s.getMeta("provider") || "anthropic") as Provider).price;
    const usdPerToken = effectiveInputPrice(s, price) / 1e6;
    s.add("usd_saved", saved * usdPerToken);
    if (r.would_send !== null) {
      // Measurement mode (DESIGN §8): what the edit would have removed; counts only, no text.
      const would = Math.max(0, r.tokens_original - r.would_send);
      s.add("measure_requests", 1);
      s.add("measure_pairs", r.pairs_removed);
      s.add("measure_tokens", would);
      s.add("measure_usd", would * usdPerToken);
    }
    if (r.pairs_removed > 0 && r.outcome === "compacted") s.add("pairs_removed", r.pairs_removed);
    const seq = s.getMetaNumber("call_seq") + 1;
    s.setMeta("call_seq", seq);
    this.ctx.storage.sql.exec(
      "INSERT INTO calls (seq, at_ms, tokens_original, tokens_sent, tier, outcome) VALUES (?, ?, ?, ?, ?, ?)",
      seq, Date.now(), r.tokens_original, r.tokens_sent, r.tier, r.outcome,
    );
    return { calls: s.getMetaNumber("calls"), tokens_saved: saved, usd_saved: saved * usdPerToken };
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

  /**
   * Runs the alarm that was scheduled (`alarm_kind`): idle → mark idle, schedule complete;
   * complete → mark complete, schedule retention; retention → delete everything. An alarm that
   * fires late (clock jump, eviction) also applies every later deadline already passed.
   */
  override async alarm(): Promise<void> {
    const now = Date.now();
    const s = this.store;
    const t = this.timings();
    const last = s.getMetaNumber("last_activity_ms", now);
    const kind = s.getMeta("alarm_kind") ?? "idle";
    if (kind === "retention" || now >= last + t.retention_seconds * 1000) {
      await this.ctx.storage.deleteAlarm();
      await this.ctx.storage.deleteAll();
      // deleteAll drops the SQL tables too: recreate them so this live instance serves the
      // session's next request as a new session instead of failing on a missing table.
      this.store.init();
      return;
    }
    if (kind === "complete" || now >= last + t.complete_after_seconds * 1000) {
      s.setMeta("complete", 1);
      s.add("alarms_complete", 1);
    }
    if (kind === "idle") s.add("alarms_idle", 1);
    s.setMeta("idle", 1);
    await this.scheduleAlarm(last);
  }

  /** Timing settings from the last config the session saw (defaults before any). */
  private timings(): { idle_seconds: number; complete_after_seconds: number; retention_seconds: number } {
    const raw = this.store.getMeta("config");
    const c = raw ? (JSON.parse(raw) as Partial<typeof DEFAULTS>) : {};
    return {
      idle_seconds: c.idle_seconds ?? DEFAULTS.idle_seconds,
      complete_after_seconds: c.complete_after_seconds ?? DEFAULTS.complete_after_seconds,
      retention_seconds: c.retention_seconds ?? DEFAULTS.retention_seconds,
    };
  }

  /** Sets the alarm to the next pending deadline after `last` activity, remembering its kind. */
  private async scheduleAlarm(last: number): Promise<void> {
    const t = this.timings();
    const s = this.store;
    const [kind, at] =
      s.getMeta("idle") !== "1" ? (["idle", last + t.idle_seconds * 1000] as const)
      : s.getMeta("complete") !== "1" ? (["complete", last + t.complete_after_seconds * 1000] as const)
      : (["retention", last + t.retention_seconds * 1000] as const);
    s.setMeta("alarm_kind", kind);
    await this.ctx.storage.setAlarm(at);
  }
}

/** USD per input token actually paid in this session (reported usage), else the cache-read price (conservative). */
function effectiveInputPrice(s: SessionStore, price: { input_per_mtok: number; cache_read_per_mtok: number; cache_write_multiplier: number }): number {
  const c = s.counters();
  const inp = c.usage_input_tokens ?? 0, rd = c.usage_cache_read_input_tokens ?? 0, wr = c.usage_cache_creation_input_tokens ?? 0;
  const total = inp + rd + wr;
  if (total === 0) return price.cache_read_per_mtok;
  return (inp * price.input_per_mtok + rd * price.cache_read_per_mtok + wr * price.input_per_mtok * price.cache_write_multiplier) / total;
}
