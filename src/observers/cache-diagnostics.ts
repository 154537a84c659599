/**
 * The session's cache-breaker diagnostics (an observer of the session: ../session/state.ts
 * SessionObserver; it owns the slot `cache` and the table `cache_breaks`): at each step the pair
 * (previous request, this request) is diagnosed from hashes (../core/cache/diagnose-break.ts),
 * with Sluice's own step and the removals it undid (./restores.ts), and
 * held as pending; when this call's usage arrives (the `report` RPC), the provider's own
 * `cache_read_input_tokens` says whether the cache really missed, and the verdict is recorded:
 * per-cause counters (`cache_break_<cause>`, `cache_break_tokens_<cause>`) and the last
 * MAX_CACHE_EVENTS events in the `cache_breaks` table. A miss the hashes do not explain is
 * `unexplained` (the provider evicted the entry, or served another replica). Without usage for
 * the previous call there is nothing to compare with, so the diagnosis stands unconfirmed.
 * Counts, positions and offsets only, never text (DESIGN invariant 7). Sluice never rewrites a
 * prefix to repair it: it reports (docs/operations.md "Cache-breaker diagnostics").
 */
import { CACHE_BREAK_CAUSES, diagnoseBreak, type CacheBreak, type CacheBreakCause, type SluiceEdit, type SluiceRestore } from "../core/cache/diagnose-break";
import { findModelPrice } from "../core/cost/find-model-price";
import { cacheRegime } from "../core/cost/cache-regime";
import type { ModelPrice } from "../core/cost/prices";
import { z } from "zod";
import { sessionPrice } from "../session/record-report";
import type { StepFacts } from "../core/facts/step-facts";
import type { TierResult } from "../core/policy/types";
import type { Usage } from "../usage/extract-usage";
import type { LastPrefix } from "../session/session-record";
import { defineSlot, defineTables, type SessionObserver, type StateTx } from "../session/state";
import { firstEditedMessage } from "../core/plan/first-edited-message";
import { forgetRestores, noteRestores } from "./restores";

/** Events kept per session (older ones are deleted). */
export const MAX_CACHE_EVENTS = 20;
/**
 * A call read "all" of what the previous call left in the cache when its cache read falls short
 * by less than this share (plus one 128-token OpenAI cache block): estimates and block rounding
 * differ by a few percent, a real miss by far more.
 */
export const MISS_TOLERANCE = 0.05;
const OPENAI_BLOCK_TOKENS = 128;

defineTables(["cache_breaks"], `CREATE TABLE IF NOT EXISTS cache_breaks (
  seq INTEGER PRIMARY KEY, call INTEGER NOT NULL, at_ms INTEGER NOT NULL, cause TEXT NOT NULL, detail TEXT NOT NULL, confirmed INTEGER NOT NULL);`);

interface Pending {
  call: number;
  at_ms: number;
  /** Since the previous request, ms. */
  gap_ms: number;
  /** Estimated tokens of the previous request. */
  prev_tokens: number;
  diagnosis: CacheBreak | null;
}

const pendingSchema = z.object({ call: z.number(), at_ms: z.number(), gap_ms: z.number(), prev_tokens: z.number(), diagnosis: z.looseObject({ cause: z.enum(CACHE_BREAK_CAUSES), tokens_affected: z.number() }).nullable() }) as unknown as z.ZodType<Pending>;

/** The diagnosis awaiting this call's usage, and the tokens the last reported call left in the cache (null: no report yet). */
const CACHE = defineSlot<{ pending: Pending | null; last_cached: number | null }>("cache", z.object({ pending: pendingSchema.nullable(), last_cached: z.number().nullable() }), () => ({ pending: null, last_cached: null }));

/** One recorded event: the call (1-based) whose request broke the cache, and the diagnosis. */
export interface CacheEvent extends CacheBreak {
  call: number;
  at_ms: number;
  /** The provider's usage showed the miss (false: no usage to compare with). */
  confirmed: boolean;
}

/** What GET /admin/sessions/:id/cache returns (counts, offsets, tokens, USD). */
export interface CacheReport {
  /** Consecutive call pairs judged against the provider's usage. */
  pairs_checked: number;
  /** Of those, the ones whose cache read fell short of what the previous call left. */
  misses: number;
  /** Per cause: events and estimated tokens affected. */
  causes: Record<CacheBreakCause, { count: number; tokens: number }>;
  /** Sum of sluice_step events' cost, USD. */
  sluice_step_cost_usd: number;
  /** Sum of sluice_restore events' cost, USD. */
  sluice_restore_cost_usd: number;
  /** The last MAX_CACHE_EVENTS events, oldest first. */
  events: CacheEvent[];
}

/** The first message Sluice's step edits on this request and what it removes, or null (no new step, or nothing reaches the provider). */
export function sluiceEditOf(result: TierResult, facts: StepFacts, mode: "compact" | "measure"): SluiceEdit | null {
  if (result.step === null || mode !== "compact") return null;
  // A server-side compaction (native, level rewrite) replaces the history from its first message.
  if (result.native?.compact !== undefined) return { message_index: 0, tokens_removed: result.step.tokens_removed };
  const ids = new Set(result.step.pair_ids);
  let first = Number.POSITIVE_INFINITY;
  for (const p of facts.pairs) {
    if (!ids.has(p.id)) continue;
    const at = firstEditedMessage(p, result.plan.actions[p.id]?.kind);
    first = Math.min(first, at);
  }
  return Number.isFinite(first) ? { message_index: first, tokens_removed: result.step.tokens_removed } : null;
}

/**
 * At a step: diagnoses (`previous`, this request) and holds it until this call's usage. A pending
 * diagnosis that no usage settled (the report came without one) is recorded unconfirmed first.
 */
function noteCachePair(tx: StateTx, previous: LastPrefix | null, facts: StepFacts, call: number, now_ms: number, sluice: SluiceEdit | null, restore: SluiceRestore | null): void {
  const stale = tx.get(CACHE).pending;
  if (stale?.diagnosis) recordEvent(tx, stale, false);
  if (previous === null || facts.prefix === null) {
    tx.update(CACHE, { pending: null });
    return;
  }
  const { price } = findModelPrice(facts.model, facts.provider);
  const ttl_ms = facts.prefix.cache?.ttl_ms ?? price.cache_ttl_seconds * 1000;
  // A step's rewrite is written at the request's own write price: its last breakpoint's (../core/cost/cache-regime.ts).
  const write = cacheRegime(price, facts.prefix.cache).write_multiplier;
  const current = { at_ms: now_ms, prefix: facts.prefix, message_tokens: facts.messages.map((m) => m.est_tokens), est_tokens: facts.est_tokens };
  const diagnosis = diagnoseBreak(previous, current, ttl_ms, sluice, { cache_write: (price.input_per_mtok * write) / 1e6, cache_read: price.cache_read_per_mtok / 1e6 }, restore);
  tx.update(CACHE, { pending: { call, at_ms: now_ms, gap_ms: now_ms - previous.at_ms, prev_tokens: previous.est_tokens, diagnosis } });
}

/**
 * When a call's usage arrives: confirms or drops the pending diagnosis against the cache read,
 * and remembers what this call left in the cache (Anthropic: reads + writes, up to its last
 * breakpoint; OpenAI: the whole prompt). A report without usage changes nothing.
 */
function settleCachePair(tx: StateTx, usage: Usage | null): void {
  if (usage === null) return;
  const { pending, last_cached: cached } = tx.get(CACHE);
  tx.set(CACHE, { pending: null, last_cached: leftInCache(sessionPrice(tx), usage) });
  if (pending === null) return;
  if (cached === null) {
    if (pending.diagnosis) recordEvent(tx, pending, false);
    return;
  }
  if (cached === 0) return; // nothing was left in the cache: no hit to miss
  const missed = usage.cache_read_input_tokens + OPENAI_BLOCK_TOKENS + cached * MISS_TOLERANCE < cached;
  tx.add("cache_pairs_checked", 1);
  if (!missed) return;
  tx.add("cache_misses", 1);
  const diagnosis = pending.diagnosis ?? unexplained(pending);
  recordEvent(tx, { ...pending, diagnosis }, true);
}

/**
 * Tokens a call leaves in the provider's cache for the next one: Anthropic, what it read and
 * wrote (the prefix up to its last breakpoint); OpenAI, its whole prompt when it reaches the
 * model's minimum cacheable length; a model without prompt caching, none (so no pair of its
 * calls counts as a miss).
 */
function leftInCache(price: ModelPrice, u: Usage): number {
  switch (price.prompt_cache) {
    case "none":
      return 0;
    case "anthropic-breakpoints":
      return u.cache_read_input_tokens + u.cache_creation_input_tokens;
    case "openai-prefix-128":
    case "openai-breakpoints": {
      const prompt = u.input_tokens + u.cache_read_input_tokens + u.cache_creation_input_tokens;
      return prompt >= price.min_cache_tokens ? prompt : 0;
    }
    default: {
      const never: never = price.prompt_cache;
      throw new Error(`unknown prompt cache kind ${String(never)}`);
    }
  }
}

/** A miss the hashes do not explain: the whole previous prefix was lost. */
const unexplained = (p: Pending): CacheBreak => ({ cause: "unexplained", byte_offset: null, offset_exact: false, message_index: null, tools: null, members: [], gap_ms: p.gap_ms, tokens_affected: p.prev_tokens, cost_usd: null });

/** Counts the event and keeps it among the last MAX_CACHE_EVENTS. */
function recordEvent(tx: StateTx, p: Pending, confirmed: boolean): void {
  const d = p.diagnosis!;
  tx.add(`cache_break_${d.cause}`, 1);
  tx.add(`cache_break_tokens_${d.cause}`, d.tokens_affected);
  if (d.cost_usd !== null) tx.add(`cache_break_${d.cause}_usd`, d.cost_usd);
  const sql = tx.sql;
  sql.exec("INSERT INTO cache_breaks (call, at_ms, cause, detail, confirmed) VALUES (?, ?, ?, ?, ?)", p.call, p.at_ms, d.cause, JSON.stringify(d), confirmed ? 1 : 0);
  sql.exec("DELETE FROM cache_breaks WHERE seq <= (SELECT MAX(seq) FROM cache_breaks) - ?", MAX_CACHE_EVENTS);
}

/** The session's cache report (admin API, dashboard, replay report). */
export function cacheReport(tx: StateTx): CacheReport {
  const c = tx.counters();
  const causes = Object.fromEntries(CACHE_BREAK_CAUSES.map((k) => [k, { count: c[`cache_break_${k}`] ?? 0, tokens: c[`cache_break_tokens_${k}`] ?? 0 }])) as CacheReport["causes"];
  const rows = tx.sql.exec<{ call: number; at_ms: number; detail: string; confirmed: number }>("SELECT call, at_ms, detail, confirmed FROM cache_breaks ORDER BY seq").toArray();
  return {
    pairs_checked: c.cache_pairs_checked ?? 0,
    misses: c.cache_misses ?? 0,
    causes,
    sluice_step_cost_usd: c.cache_break_sluice_step_usd ?? 0,
    sluice_restore_cost_usd: c.cache_break_sluice_restore_usd ?? 0,
    events: rows.map((r) => ({ ...(JSON.parse(r.detail) as CacheBreak), call: r.call, at_ms: r.at_ms, confirmed: r.confirmed === 1 })),
  };
}

/**
 * The observer: at a step, the diagnosis of (previous request, this one) with Sluice's own edit
 * and the removals it undid; at a report, forgets the held-back pairs of a call whose edit did
 * not go and settles the diagnosis against the usage.
 */
export const cacheDiagnostics: SessionObserver = {
  afterStep(tx, e) {
    const restore = e.result === null ? null : noteRestores(tx, e.before, e.result, e.facts, e.call, e.mode);
    const edit = e.result === null ? null : sluiceEditOf(e.result, e.facts, e.mode);
    noteCachePair(tx, e.previous, e.facts, e.call, e.now_ms, edit, restore);
  },
  afterReport(tx, e) {
    const o = e.report.outcome;
    if (o !== null && o.outcome !== "compacted") forgetRestores(tx);
    settleCachePair(tx, e.report.usage);
  },
};
