/**
 * The Sluice strategy in-process (Node host over the gateway's own code): for each call, the
 * same steps as the Worker pipeline (src/gateway/compaction-pipeline.ts), with the session
 * being the deployed `Session` (src/session/session.ts) over an in-memory SQLite
 * (./create-memory-sql.ts) instead of a Durable Object, on the replay's virtual clock:
 * 1. `prepareCompaction` (parse, session id) and the step facts the Worker sends;
 * 2. the alarms the virtual-time gap since the last activity would have fired, in order
 *    (`nextAlarmAt` / `alarm`, as the Durable Object's alarm runs them);
 * 3. `step`, carrying the config's hash as the Worker does;
 * 4. `decideWithSummaries` (summaries at level rewrite, then apply, check, fail-open decision);
 * 5. `report`: at once for a step to roll back (its outcome), and once the emulator answered with
 *    the outcome and the usage together (or without usage for a rejected call), as the Worker's
 *    usage tap does.
 * Like the Worker's scan cache, each session host keeps its last received body, so a changed
 * system prompt is placed to the exact byte. Not done here (no effect on what is forwarded): the
 * archive, the audit trail.
 */
import { loadConfig } from "../../../src/config/load-config";
import type { CompactionConfig } from "../../../src/config/schema";
import { decideWithSummaries } from "../../../src/gateway/write-summaries";
import { prepareCompaction, stepFactsFor } from "../../../src/gateway/prepare-compaction";
import { QUIET_TRACE } from "../../../src/core/trace/record-tier-event";
import { betaHeaderFor } from "../../../src/gateway/request-headers";
import { encodeStepFacts } from "../../../src/core/facts/wire-facts";
import type { CallUsage, SluiceTransform, SummaryFigures } from "../types";
import { configHash, type CallReport, type StepOutput, type WrittenSummary } from "../../../src/session/contract";
import { summariesCostUsd } from "../../../src/session/compaction-ledger";
import { Session } from "../../../src/session/session";
import type { CacheReport } from "../../../src/observers/cache-diagnostics";
import { commonPrefixLength } from "../../../src/providers/shared/common-prefix";
import type { JsonNode } from "../../../src/providers/shared/json-scan";
import { createMemorySql } from "./create-memory-sql";
import { newCoreCaches } from "../../../src/core/caches";

/** Options: the env vars the gateway would read (default: `SLUICE_COMPACTION=1`, every other setting at its default). */
export interface InProcessOptions {
  env?: { COMPACTION_CONFIG?: string; SLUICE_COMPACTION?: string; SLUICE_MEASURE?: string };
  /**
   * Opens the storage of one session's host (default: a fresh in-memory SQLite,
   * ./create-memory-sql.ts). A test in workerd passes a Durable Object's own `SqlStorage`, so the
   * replay host runs over the storage the deployed session uses.
   */
  openSql?: () => { sql: SqlStorage; close: () => void };
}

/** One session's host: the session over its own in-memory database. */
interface Host {
  session: Session;
  close: () => void;
  /** The last body received (what the Worker's scan cache holds per session). */
  last?: { bytes: Uint8Array; root: JsonNode };
}

/** The in-process transform, its config, and `close()` for the per-session databases. */
export interface InProcessSluice {
  transform: SluiceTransform;
  config: CompactionConfig;
  /** Per-session counters (tests and the JSON report). */
  counters: (session_id: string) => Promise<Record<string, number> | null>;
  /** The cache-breaker report of a recorded session (by its replay id: the host of its last call), or null. */
  cacheBreaks: (recorded_session_id: string) => Promise<CacheReport | null>;
  close: () => void;
}

/** Creates the in-process Sluice transform. Throws naming the field when the config is invalid or compaction is off. */
export function createInProcessSluice(opts: InProcessOptions = {}): InProcessSluice {
  const env = opts.env ?? { SLUICE_COMPACTION: "1" };
  const loaded = loadConfig(env);
  if (!loaded.ok) throw new Error(`sluice config: ${loaded.error.message}`);
  if (loaded.mode === "off") throw new Error("sluice config: compaction is off (set SLUICE_COMPACTION=1 or a COMPACTION_CONFIG block)");
  const { config, mode } = loaded;
  const config_hash = configHash(config);
  /** The core's memos for this run (the Worker keeps one per isolate: src/gateway/isolate-caches.ts). */
  const caches = newCoreCaches();
  const hosts = new Map<string, Host>();
  /** Recorded session id → the session key its last call was stepped under. */
  const hostOf = new Map<string, string>();
  const open = (): Host => {
    const m = (opts.openSql ?? createMemorySql)();
    return { session: new Session({ sql: m.sql, env, trace: QUIET_TRACE }), close: m.close };
  };
  /** Runs the alarms due by `now` (what the Durable Object's alarm would have done). */
  const catchUp = async (host: Host, now: number): Promise<void> => {
    for (let at = await host.session.nextAlarmAt(); at !== null && at <= now; ) at = await host.session.alarm(at);
  };

  const transform: SluiceTransform = async (body, headers, call) => {
    const requestHeaders = new Headers(headers);
    const prepared = prepareCompaction(call.provider, requestHeaders, body, { caches });
    if (prepared.kind === "skip") return { body, info: { note: prepared.note } };
    const id = prepared.session.id;
    let host = hosts.get(id);
    if (!host) hosts.set(id, (host = open()));
    await catchUp(host, call.time_ms);
    hostOf.set(call.session_id, id);
    const correlation_id = `${call.session_id}#${call.call_index}`;
    const previous = host.last ? { ...host.last, common: commonPrefixLength(host.last.bytes, body) } : null;
    host.last = { bytes: body, root: prepared.parsed.root };
    const facts = encodeStepFacts(stepFactsFor(prepared, config, requestHeaders, previous));
    const answer = await host.session.step({ session_id: id, facts, config_hash, mode, correlation_id, now_ms: call.time_ms });
    if ("config_unknown" in answer) throw new Error("sluice: the session did not know the replay's own config");
    const stepped: StepOutput = answer;
    const { decision } = await decideWithSummaries(prepared, body, stepped, mode, correlation_id, config, process.env, config.summarizer?.timeout_ms ?? 0);
    const session = host.session;
    const rollback = decision.report.rollback_step !== null;
    const early = rollback ? await session.report({ outcome: decision.report, usage: null, estimated_input_tokens: 0, now_ms: call.time_ms } satisfies CallReport) : null;
    const set = decision.kind === "edited" && decision.beta !== undefined ? betaHeaderFor(new Headers(headers), decision.beta) : undefined;
    const settle = async (u: CallUsage | null) => {
      const usage = u === null ? null : { input_tokens: u.input, cache_read_input_tokens: u.cache_read, cache_creation_input_tokens: u.cache_write, output_tokens: u.output };
      const report: CallReport = { outcome: rollback ? null : decision.report, usage, estimated_input_tokens: decision.report.tokens_sent, now_ms: call.time_ms };
      const d = (await session.report(report)).ledger;
      const counted = rollback ? early?.ledger : d;
      return { without_usd: d?.without_usd ?? 0, with_usd: d?.with_usd ?? 0, removals: counted?.removals ?? 0, removals_mentioned: counted?.removals_mentioned ?? 0, removals_deterministic: counted?.removals_deterministic ?? 0 };
    };
    const summaries = summaryFiguresOf(decision.report.summaries, config.guarantee_level === "rewrite");
    return { body: decision.body, info: { engine_cost_usd: summaries?.cost_usd ?? 0, note: decision.note, ...(summaries ? { summaries } : {}), ...(stepped.new_pair_rules ? { removal_rules: stepped.new_pair_rules } : {}), ...(stepped.declined ? { declined: stepped.declined } : {}) }, settle, ...(set ? { headers: set } : {}) };
  };

  return {
    transform,
    config,
    counters: async (session_id) => (await hosts.get(session_id)?.session.counters()) ?? null,
    cacheBreaks: async (recorded) => {
      const host = hosts.get(hostOf.get(recorded) ?? "");
      return host ? host.session.cacheBreaks() : null;
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
