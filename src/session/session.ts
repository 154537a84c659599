/**
 * The session (DESIGN §6): one agent session's state and behaviour over its SQL storage, the same
 * code in the Durable Object (./session-object.ts, a thin shell) and in the offline replay
 * (tools/replay/sluice/run-in-process.ts, over an in-memory SQLite), so a replayed figure is what
 * the deployed code does. Per request the gateway calls `step` once before the forward and
 * `report` once after the answer (./contract.ts, checked here with zod); the host calls `alarm`
 * when `nextAlarmAt` comes. Every method is one unit of work over the state (./state.ts).
 *
 * The config: the session loads it from its own env (the Worker's loader, memoised per isolate)
 * and the step carries only its hash; a config the gateway sent for an unknown hash is kept in
 * the state (validated again on every read), so alarms find it after an eviction too.
 *
 * Observers (features that only watch the session) are registered in OBSERVERS below: the
 * savings ledger, the cache diagnostics, project memory.
 */
import { compactionConfigSchema, type CompactionConfig } from "../config/schema";
import { loadConfig } from "../config/load-config";
import type { StepFacts } from "../core/facts/step-facts";
import { growthRatio, removalRatio } from "../core/tokens/calibrate";
import type { TierMap } from "../core/memory/build-tier-map";
import type { TraceSink } from "../core/trace/record-tier-event";
import { ledgerReport, totalsFromCounters, type LedgerReport } from "../admin/ledger-report";
import { cacheDiagnostics, cacheReport, type CacheReport } from "../observers/cache-diagnostics";
import { ledgerMode, savingsLedger } from "../observers/savings-ledger";
import { projectKeyOf, projectMemory } from "../observers/project-memory";
import { loadLedger, stepRows, summaryStats, type StepRow, type SummaryStats } from "./compaction-ledger";
import { callReportSchema, checkInput, configHash, stepInputSchema, type FailOpenReason, type ReportAnswer, type StepAnswer, type StepInput } from "./contract";
import { precomputeVerdicts } from "./engine-verdicts";
import { callRows, recordReport, type CallRow } from "./record-report";
import { runStep } from "./run-step";
import { DEFAULT_TIMINGS, DISABLED, MAX_SENT_CONFIGS, MEMORY, nextAlarm, RECORD, runAlarm, SENT_CONFIGS, type AlarmTimings } from "./session-record";
import { archiveItems, archivedText, claimOwner, OWNER as OWNER_SLOT, purgeExpired, restore, restorableIds, type ArchiveItem, type Restored } from "./archive-store";
import { searchMemory } from "../admin/search-memory";
import { draftMapOf } from "../observers/project-memory";
import { DEFAULTS } from "../config/defaults";
import { SessionDb, type ProjectMemoryPort, type SessionObserver, type StateTx } from "./state";

/** The features that observe the session (./state.ts SessionObserver), in the order they run. */
const OBSERVERS: readonly SessionObserver[] = [cacheDiagnostics, savingsLedger, projectMemory];

/** What a session needs from its host. */
export interface SessionDeps {
  sql: SqlStorage;
  /** The env the config is loaded from (COMPACTION_CONFIG, SLUICE_COMPACTION, SLUICE_MEASURE) and engine keys are read from by name. */
  env: Record<string, unknown>;
  /** The project's memory (project memory and `memory_inject`); absent: none. */
  memory?: ProjectMemoryPort;
  fetch?: typeof fetch;
  trace?: TraceSink;
}

/** One session's answer to a memory search (Session.searchMemory). */
export interface SessionSearch {
  session_id: string | null;
  project_key: string | null;
  /** Reference entries matching the query, in key order; a path or command matched by a non-empty query shows the query as its key (the map keeps only its hash). */
  matches: { kind: string; key: string; count: number; first_message: number; last_message: number; restorable_call_ids: string[] }[];
  /** Matches found before the cap (../admin/search-memory.ts MATCHES_MAX). */
  total: number;
}

/** A session's statistics for operators: counts, sizes, ids and hashes only (DESIGN invariant 7). */
export interface SessionStats {
  session_id: string | null;
  model: string | null;
  provider: string | null;
  calls: number;
  last_activity_ms: number | null;
  last_tier: string | null;
  disabled: boolean;
  idle: boolean;
  complete: boolean;
  /** The project key its tier map is kept under, or null when project memory was off for it. */
  project_key: string | null;
  counters: Record<string, number>;
  /** Steps kept, with the cost model's terms each was taken on. */
  steps: StepRow[];
  /** The newest forwarded calls (at most record-report.ts MAX_CALL_ROWS): estimated tokens as sent by the client vs as forwarded. */
  calls_log: CallRow[];
  /** cache_read / (input + cache_read + cache_write) over reported usage; null before any report. */
  cache_hit_ratio: number | null;
  /** reported / estimated input tokens over the answers; null before any. */
  calibration_ratio: number | null;
  /** The calibration's learned ratios (../core/tokens/calibrate.ts); null before any answer. */
  calibration_growth_ratio: number | null;
  calibration_removal_ratio: number | null;
  /** Level `rewrite`: the summaries the session wrote and failed, their tokens and USD. */
  summaries: SummaryStats;
  /** The session's savings ledger (../admin/ledger-report.ts), in the mode it last ran in. */
  ledger: LedgerReport;
}

/** The env's config, memoised per isolate on the three vars that decide it; null when compaction is off or the config invalid. */
const envConfigs = new Map<string, { config: CompactionConfig; hash: string } | null>();
function envConfig(env: Record<string, unknown>): { config: CompactionConfig; hash: string } | null {
  const key = JSON.stringify([env.COMPACTION_CONFIG ?? "", env.SLUICE_COMPACTION ?? "", env.SLUICE_MEASURE ?? ""]);
  if (!envConfigs.has(key)) {
    const r = loadConfig(env);
    envConfigs.set(key, r.ok ? { config: r.config, hash: configHash(r.config) } : null);
  }
  return envConfigs.get(key)!;
}

/** One agent session (module header). */
export class Session {
  private readonly db: SessionDb;
  /** The last step's facts and config, in memory only (never stored: DESIGN invariant 7), for the idle alarm's precomputation. */
  private last: { facts: StepFacts; config: CompactionConfig } | null = null;

  constructor(private readonly deps: SessionDeps) {
    this.db = new SessionDb(deps.sql);
  }

  /** The config behind `hash`: the env's, or one the gateway sent (`sent`, kept), or a stored one; null when unknown. */
  private configFor(tx: StateTx, hash: string | null, sent?: unknown): CompactionConfig | null {
    if (hash === null) return null;
    const own = envConfig(this.deps.env);
    if (own !== null && own.hash === hash) return own.config;
    const stored = tx.get(SENT_CONFIGS);
    if (sent !== undefined && stored[hash] === undefined) {
      const kept = Object.entries({ ...stored, [hash]: sent }).slice(-MAX_SENT_CONFIGS);
      tx.set(SENT_CONFIGS, Object.fromEntries(kept));
    }
    const parsed = compactionConfigSchema.safeParse(sent ?? stored[hash]);
    if (!parsed.success) return null;
    return configHash(parsed.data) === hash ? parsed.data : null;
  }

  /** How long archived results stay restorable, seconds (the session's config, else the default). */
  private archiveRetention(tx: StateTx): number {
    return this.configFor(tx, tx.get(RECORD).config_hash)?.archive_retention_seconds ?? DEFAULTS.archive_retention_seconds;
  }

  private timings(tx: StateTx): AlarmTimings {
    return this.configFor(tx, tx.get(RECORD).config_hash) ?? DEFAULT_TIMINGS;
  }

  /** The one pre-forward call (./run-step.ts). Throws an Error naming the field for input that fails the contract. */
  step(input: StepInput): Promise<StepAnswer> {
    const checked = checkInput("step input", stepInputSchema, input) as StepInput;
    return this.db.run(async (tx) => {
      const config = this.configFor(tx, checked.config_hash, checked.config);
      if (config === null) return { config_unknown: true } as const;
      claimOwner(tx, checked.caller_id);
      const { out, facts } = await runStep(tx, { env: this.deps.env, fetch: this.deps.fetch, trace: this.deps.trace, memory: this.deps.memory, observers: OBSERVERS }, checked, config, checked.config_hash);
      this.last = { facts, config };
      return out;
    });
  }

  /** The after-the-answer call: the outcome and the usage (./record-report.ts), then the observers. Throws naming the field for bad input. */
  report(r: unknown): Promise<ReportAnswer> {
    const checked = checkInput("report", callReportSchema, r);
    return this.db.run((tx) => {
      const { recorded, settled } = recordReport(tx, checked, (step) => {
        for (const o of OBSERVERS) o.onRollback?.(tx, step);
      });
      let answer: ReportAnswer = { recorded };
      for (const o of OBSERVERS) answer = { ...answer, ...(o.afterReport?.(tx, { report: settled }) ?? {}) };
      return answer;
    });
  }

  /** When the next alarm is due, epoch ms; null before the first activity. */
  nextAlarmAt(): Promise<number | null> {
    return this.db.run((tx) => nextAlarm(tx.get(RECORD), this.timings(tx))?.at_ms ?? null);
  }

  /**
   * Runs the alarm due at `now_ms`: idle marks the session idle (and asks an HTTP engine about
   * the next step, off the request path); complete marks it complete and leaves project memory;
   * retention wipes every table. Returns the next alarm's time, or null (wiped, or no activity).
   */
  async alarm(now_ms: number): Promise<number | null> {
    const wiped = await this.db.run(async (tx) => {
      const record = tx.get(RECORD);
      const timings = this.timings(tx);
      const due = nextAlarm(record, timings);
      // The pending alarm runs when the platform fires it (the host sets it to nextAlarmAt after every step and report).
      if (due === null) return false;
      const ran = runAlarm(record, now_ms, timings);
      if (!ran.delete) {
        purgeExpired(tx, now_ms, this.archiveRetention(tx));
        tx.set(RECORD, ran.record);
        for (const [name, n] of Object.entries(ran.counters)) tx.add(name, n);
      }
      // Complete (or an alarm so late that retention passed too): the session leaves its tier map
      // with its project before anything is deleted.
      if (!record.complete && (ran.delete || ran.record.complete)) {
        const config = this.configFor(tx, record.config_hash);
        if (config !== null) {
          const e = { now_ms, session_id: record.session_id, config, ledger: loadLedger(tx), ...(this.deps.memory ? { memory: this.deps.memory } : {}) };
          for (const o of OBSERVERS) await o.atComplete?.(tx, e);
        }
      }
      if (!ran.delete && due.kind === "idle" && this.last !== null) {
        await precomputeVerdicts({ tx, env: this.deps.env, fetch: this.deps.fetch }, this.last.config, this.last.facts, loadLedger(tx)).catch(() => undefined);
      }
      return ran.delete;
    });
    if (wiped) {
      this.db.wipe();
      this.last = null;
      return null;
    }
    return this.nextAlarmAt();
  }

  /** Counts a fail-open that happened before any step (e.g. the body did not parse). */
  countFailOpen(reason: FailOpenReason): Promise<void> {
    return this.db.run((tx) => tx.add(`fail_open_${reason}`, 1));
  }

  /**
   * Keeps removed tool results (`archive_removed` on; ./archive-store.ts) archived at `now_ms`
   * for `caller_id`, the session's owner (claimed when it has none). Returns how many were kept:
   * 0 when the session belongs to another caller.
   */
  archive(items: ArchiveItem[], caller_id: string | null = null, now_ms: number = Date.now()): Promise<number> {
    return this.db.run((tx) => archiveItems(tx, items, caller_id, now_ms, this.archiveRetention(tx)));
  }

  /** An archived result by call id, or null (the operator's route: no owner check). */
  getArchive(call_id: string): Promise<string | null> {
    return this.db.run((tx) => archivedText(tx, call_id));
  }

  /** The archived pair `call_id` for `caller_id` at `now_ms`: only the owner's, until its retention (./archive-store.ts). */
  restore(call_id: string, caller_id: string, now_ms: number): Promise<Restored> {
    return this.db.run((tx) => restore(tx, call_id, caller_id, now_ms, this.archiveRetention(tx)));
  }

  /**
   * For the owner `caller_id` only: the reference entries of the session's tier map (the stored
   * one, else the live draft project memory keeps) that match `query` (../admin/search-memory.ts),
   * each with the call ids of its pairs still restorable; and the session id and project key.
   * Null for any other caller.
   */
  searchMemory(caller_id: string, query: string, now_ms: number): Promise<SessionSearch | null> {
    return this.db.run((tx) => {
      const owner = tx.get(OWNER_SLOT);
      if (owner === null || owner !== caller_id) return null;
      const map = tx.get(MEMORY) ?? draftMapOf(tx);
      const retention = this.archiveRetention(tx);
      const found = map === null ? { matches: [], total: 0 } : searchMemory(map, query, null);
      const matches = found.matches.map((e) => ({
        kind: e.kind, key: (e.kind === "path" || e.kind === "command") && query !== "" ? query : e.key, count: e.count,
        first_message: e.first_message, last_message: e.last_message, restorable_call_ids: restorableIds(tx, e.pair_ids, now_ms, retention),
      }));
      return { session_id: tx.get(RECORD).session_id, project_key: projectKeyOf(tx), matches, total: found.total };
    });
  }

  /** The per-session kill switch. */
  setDisabled(disabled: boolean): Promise<void> {
    return this.db.run((tx) => tx.set(DISABLED, disabled));
  }

  /** The stored tier map (session_memory or the complete alarm), or null. */
  memory(): Promise<TierMap | null> {
    return this.db.run((tx) => tx.get(MEMORY));
  }

  /** What broke the provider's cache between the session's calls (../observers/cache-diagnostics.ts). */
  cacheBreaks(): Promise<CacheReport> {
    return this.db.run((tx) => cacheReport(tx));
  }

  /** Counters, usage totals, steps, the newest calls, calibration, summaries, the savings ledger. */
  stats(): Promise<SessionStats> {
    return this.db.run((tx) => {
      const r = tx.get(RECORD);
      const c = tx.counters();
      const inp = c.usage_input_tokens ?? 0, rd = c.usage_cache_read_input_tokens ?? 0, wr = c.usage_cache_creation_input_tokens ?? 0;
      const cal = r.calibration;
      return {
        session_id: r.session_id, model: r.model, provider: r.provider, calls: r.calls, last_activity_ms: r.last_activity_ms, last_tier: r.last_tier,
        disabled: tx.get(DISABLED), idle: r.idle, complete: r.complete, project_key: projectKeyOf(tx), counters: c, steps: stepRows(tx), calls_log: callRows(tx),
        cache_hit_ratio: inp + rd + wr === 0 ? null : rd / (inp + rd + wr),
        calibration_ratio: cal.estimated_sum === 0 ? null : cal.reported_sum / cal.estimated_sum,
        calibration_growth_ratio: cal.answers === 0 ? null : growthRatio(cal),
        calibration_removal_ratio: cal.answers === 0 ? null : removalRatio(cal),
        summaries: summaryStats(c),
        ledger: ledgerReport(ledgerMode(tx), totalsFromCounters(c)),
      };
    });
  }

  /** Counters only (the replay's per-session figures). */
  counters(): Promise<Record<string, number>> {
    return this.db.run((tx) => tx.counters());
  }
}
