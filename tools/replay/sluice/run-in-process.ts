/**
 * The Sluice strategy in-process (Node host over the gateway's own code): for each call, the
 * same steps as the Worker pipeline (src/gateway/compaction-pipeline.ts) with the Workers parts
 * replaced —
 * 1. `prepareCompaction` (parse, session id; src/gateway/prepare-compaction.ts), then the step
 *    facts (src/core/facts/step-facts.ts) that the Worker sends in its one step RPC;
 * 2. the session's state: one in-memory SQLite `SqlStorage` per session id (./create-memory-sql.ts)
 *    under the DO's own `SessionStore`; before the step, the alarms the virtual-time gap since the
 *    last activity would have fired run (src/do/session-alarms.ts: idle → complete → retention);
 * 3. `runStep` (src/do/run-step.ts) with the replay's virtual clock as `now_ms`;
 * 4. `decideWithSummaries` (at level rewrite the step's summaries, then decideForward: apply,
 *    guarantee check, fail-open decision; src/gateway/write-summaries.ts), and the request headers it needs (the native edit's beta: src/gateway/request-headers.ts);
 * 5. `recordOutcome` (src/do/record-outcome.ts: rollback of a step that was not forwarded) and
 *    the savings ledger's outcome half (src/do/savings-ledger.ts) at once, as the Worker's report
 *    RPC does;
 * 6. once the emulator billed the call (`settle`), its usage as the Worker's usage tap reports
 *    it: `recordUsage` (src/do/record-usage.ts: the estimator calibration learns from it),
 *    `settleCachePair` (src/do/cache-breaks.ts: the cache-breaker diagnostics' confirmation) and
 *    the savings ledger's usage half, as the session DO's report RPC does (there one RPC carries
 *    both halves; the ledger reads them in the same order).
 * Like the Worker's scan cache, each session host keeps its last received body, so a changed
 * system prompt is placed to the exact byte.
 * Not done here (no effect on what is forwarded): the archive, the audit trail.
 */
import { loadConfig } from "../../../src/config/load-config";
import type { CompactionConfig } from "../../../src/config/schema";
import { decideWithSummaries } from "../../../src/gateway/write-summaries";
import { prepareCompaction, stepFactsFor } from "../../../src/gateway/prepare-compaction";
import { QUIET_TRACE } from "../../../src/core/trace/record-tier-event";
import { betaHeaderFor } from "../../../src/gateway/request-headers";
import { recordOutcome } from "../../../src/do/record-outcome";
import { recordUsage } from "../../../src/do/record-usage";
import { settleLedger } from "../../../src/do/savings-ledger";
import { runStep } from "../../../src/do/run-step";
import { nextAlarm, runAlarm } from "../../../src/do/session-alarms";
import { SessionStore } from "../../../src/do/session-store";
import { encodeStepFacts } from "../../../src/core/facts/wire-facts";
import type { CallUsage, SluiceTransform, SummaryFigures } from "../types";
import type { WrittenSummary } from "../../../src/session/step-types";
import { summariesCostUsd } from "../../../src/do/summary-ledger";
import { cacheReport, settleCachePair, type CacheReport } from "../../../src/do/cache-breaks";
import { commonPrefixLength } from "../../../src/providers/shared/common-prefix";
import type { JsonNode } from "../../../src/providers/shared/json-scan";
import { createMemorySql } from "./create-memory-sql";

/** The step's trace lines are the Worker log's; the replay's report says what each call decided. */

/** Options: the env vars the gateway would read (default: `SLUICE_COMPACTION=1`, every other setting at its default). */
export interface InProcessOptions {
  env?: { COMPACTION_CONFIG?: string; SLUICE_COMPACTION?: string; SLUICE_MEASURE?: string };
}

/** One session's state host. */
interface Host {
  store: SessionStore;
  sql: SqlStorage;
  close: () => void;
  /** The last body received (what the Worker's scan cache holds per session). */
  last?: { bytes: Uint8Array; root: JsonNode };
}

/** The in-process transform, its config, and `close()` for the per-session databases. */
export interface InProcessSluice {
  transform: SluiceTransform;
  config: CompactionConfig;
  /** Per-session counters of the store (tests and the JSON report). */
  counters: (session_id: string) => Record<string, number> | null;
  /** The cache-breaker report of a recorded session (by its replay id: the host of its last call), or null. */
  cacheBreaks: (recorded_session_id: string) => CacheReport | null;
  close: () => void;
}

/** Creates the in-process Sluice transform. Throws naming the field when the config is invalid or compaction is off. */
export function createInProcessSluice(opts: InProcessOptions = {}): InProcessSluice {
  const loaded = loadConfig(opts.env ?? { SLUICE_COMPACTION: "1" });
  if (!loaded.ok) throw new Error(`sluice config: ${loaded.error.message}`);
  if (loaded.mode === "off") throw new Error("sluice config: compaction is off (set SLUICE_COMPACTION=1 or a COMPACTION_CONFIG block)");
  const { config, mode } = loaded;
  const hosts = new Map<string, Host>();
  /** Recorded session id → the session key its last call was stepped under. */
  const hostOf = new Map<string, string>();
  const open = (): Host => {
    const m = createMemorySql();
    return { store: new SessionStore(m.sql), sql: m.sql, close: m.close };
  };
  /** Runs the alarms due between the last activity and `now` (what the DO's alarm would have done). */
  const catchUp = (id: string, host: Host, now: number): Host => {
    for (;;) {
      const last = host.store.getMeta("last_activity_ms");
      if (last === null) return host;
      const alarm = nextAlarm(host.store, Number(last));
      if (alarm.at_ms > now) return host;
      if (runAlarm(host.store, alarm.at_ms) === "delete") {
        host.close();
        const fresh = open();
        hosts.set(id, fresh);
        return fresh;
      }
    }
  };

  const transform: SluiceTransform = async (body, headers, call) => {
    const requestHeaders = new Headers(headers);
    const prepared = prepareCompaction(call.provider, requestHeaders, body);
    if (prepared.kind === "skip") return { body, info: { note: prepared.note } };
    const id = prepared.session.id;
    let host = hosts.get(id);
    if (!host) hosts.set(id, (host = open()));
    host = catchUp(id, host, call.time_ms);
    if (host.store.getMeta("session_id") === null) host.store.setMeta("session_id", id);
    hostOf.set(call.session_id, id);
    const correlation_id = `${call.session_id}#${call.call_index}`;
    const previous = host.last ? { ...host.last, common: commonPrefixLength(host.last.bytes, body) } : null;
    host.last = { bytes: body, root: prepared.parsed.root };
    const facts = encodeStepFacts(stepFactsFor(prepared, config, requestHeaders, previous));
    const stepped = await runStep({ store: host.store, sql: host.sql, env: {}, trace: QUIET_TRACE }, { session_id: id, facts, config, mode, correlation_id, now_ms: call.time_ms });
    const { decision } = await decideWithSummaries(prepared, body, stepped, mode, correlation_id, config, process.env, config.summarizer?.timeout_ms ?? 0);
    recordOutcome(host.store, host.sql, decision.report, call.time_ms);
    const counted = settleLedger(host.store, { outcome: decision.report, usage: null, estimated_input_tokens: 0 });
    host.store.flush();
    const set = decision.kind === "edited" && decision.beta !== undefined ? betaHeaderFor(new Headers(headers), decision.beta) : undefined;
    const store = host.store, sqlOf = host.sql;
    const settle = (u: CallUsage) => {
      const usage = { input_tokens: u.input, cache_read_input_tokens: u.cache_read, cache_creation_input_tokens: u.cache_write, output_tokens: u.output };
      recordUsage(store, usage, { est_original: decision.report.tokens_original, est_sent: decision.report.tokens_sent }, call.time_ms);
      settleCachePair(store, sqlOf, usage);
      const d = settleLedger(store, { outcome: null, usage, estimated_input_tokens: decision.report.tokens_sent });
      store.flush();
      return { without_usd: d.without_usd, with_usd: d.with_usd, removals: counted.removals, removals_mentioned: counted.removals_mentioned, removals_deterministic: counted.removals_deterministic };
    };
    const summaries = summaryFiguresOf(decision.report.summaries, config.guarantee_level === "rewrite");
    return { body: decision.body, info: { engine_cost_usd: summaries?.cost_usd ?? 0, note: decision.note, ...(summaries ? { summaries } : {}), ...(stepped.new_pair_rules ? { removal_rules: stepped.new_pair_rules } : {}) }, settle, ...(set ? { headers: set } : {}) };
  };

  return {
    transform,
    config,
    counters: (session_id) => hosts.get(session_id)?.store.counters() ?? null,
    cacheBreaks: (recorded) => {
      const host = hosts.get(hostOf.get(recorded) ?? "");
      return host ? cacheReport(host.store, host.sql) : null;
    },
    close: () => {
      for (const h of hosts.values()) h.close();
      hosts.clear();
    },
  };
}

/** The figures of a report's written summaries: zeros at level rewrite when it wrote none, undefined below that level (nothing to measure). */
function summaryFiguresOf(summaries: readonly WrittenSummary[] | undefined, rewrite: boolean): SummaryFigures | undefined {
  if (summaries === undefined || summaries.length === 0) return rewrite ? { written: 0, failed: 0, cost_usd: 0 } : undefined;
  const written = summaries.filter((w) => w.ok);
  return { written: written.length, failed: summaries.length - written.length, cost_usd: summariesCostUsd(summaries) };
}
