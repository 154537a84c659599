/**
 * Sluice's Prometheus metrics (pure): the catalogue of families, the counter deltas an index
 * update adds, and the families built from the stored totals. Label values come from closed
 * sets (providers, outcome labels, tiers, usage kinds) or our own snake_case fail-open codes,
 * so cardinality stays bounded and no request text can appear.
 */
import type { IndexUpdate } from "./index-update";
import type { MetricFamily, MetricType, Sample, SampleSuffix } from "./render-exposition";

/**
 * Histogram buckets of the step latency, seconds. Source: the Prometheus client default buckets
 * (client_golang `prometheus.DefBuckets`), which span 5 ms … 10 s — our step RPC deadline and a
 * remote engine call both fall inside.
 */
export const LATENCY_BUCKETS_S = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10] as const;

export const METRICS = {
  requests: { name: "sluice_requests_total", type: "counter", help: "Chat requests through the compaction pipeline, by provider and outcome (compacted, unchanged, measured, disabled, fail_open, stood_aside)." },
  steps: { name: "sluice_compaction_steps_total", type: "counter", help: "Compaction steps taken and kept, by tier." },
  failOpen: { name: "sluice_fail_open_total", type: "counter", help: "Requests forwarded with their original bytes after a failure, by reason." },
  tokensOriginal: { name: "sluice_tokens_original_total", type: "counter", help: "Estimated input tokens of requests as the clients sent them." },
  tokensSent: { name: "sluice_tokens_sent_total", type: "counter", help: "Estimated input tokens of requests as forwarded upstream." },
  tokensSaved: { name: "sluice_tokens_saved_total", type: "counter", help: "Estimated input tokens removed by compaction." },
  usdSaved: { name: "sluice_usd_saved_total", type: "counter", help: "Estimated input cost removed by compaction, US dollars." },
  usage: { name: "sluice_usage_tokens_total", type: "counter", help: "Provider-reported tokens, by provider and kind (input, cache_read, cache_write, output)." },
  latency: { name: "sluice_engine_latency_seconds", type: "histogram", help: "Time of the session step (ledger, tier choice, decision engine) as seen by the gateway, seconds." },
  sessions: { name: "sluice_sessions", type: "gauge", help: "Sessions held in the session index." },
  ledgerWithout: { name: "sluice_ledger_input_cost_without_usd_total", type: "counter", help: "Savings ledger: input cost without Sluice (the client's bodies priced with the session's cache behaviour), US dollars, by mode (compact, measure)." },
  ledgerWith: { name: "sluice_ledger_input_cost_with_usd_total", type: "counter", help: "Savings ledger: input cost with Sluice (compact: the provider's usage; measure: what would have been billed), US dollars, by mode." },
  ledgerEngine: { name: "sluice_ledger_engine_cost_usd_total", type: "counter", help: "Savings ledger: what decision engines charged, US dollars, by mode." },
  ledgerLoss: { name: "sluice_ledger_worst_case_loss_usd_total", type: "counter", help: "Savings ledger: cost of re-sending every removed result once as uncached input, US dollars, by mode." },
  ledgerPriced: { name: "sluice_ledger_priced_calls_total", type: "counter", help: "Savings ledger: calls priced from the provider's usage, by mode." },
  ledgerRequests: { name: "sluice_ledger_requests_total", type: "counter", help: "Savings ledger: requests whose outcome reached the ledger, by mode." },
  ledgerRemovals: { name: "sluice_ledger_removals_total", type: "counter", help: "Savings ledger: tool pairs removed (measure: that would have been), by mode and kind (all; deterministic: read-only tools; refetched: the same call issued again later; mentioned: a later call named the same file)." },
  ledgerWaits: { name: "sluice_ledger_engine_waits_total", type: "counter", help: "Savings ledger: requests that waited on a decision engine, by mode." },
  ledgerWaitSeconds: { name: "sluice_ledger_engine_wait_seconds_total", type: "counter", help: "Savings ledger: time requests waited on a decision engine, seconds, by mode." },
  memoryInjections: { name: "sluice_memory_injections_total", type: "counter", help: "memory_inject: sessions that took their project's previous tier map as a memory block (once per map)." },
  memoryBlockTokens: { name: "sluice_memory_block_tokens_total", type: "counter", help: "memory_inject: estimated tokens of the memory blocks taken (each block is then carried by every request of its session)." },
  standAside: { name: "sluice_stood_aside_total", type: "counter", help: "Requests forwarded as the client sent them because Sluice stood aside, by provider, reason (server_managed: the client asked the provider to manage the history; unknown_type: a type Sluice does not model) and type (the feature or the unknown type; other: not a snake_case word)." },
  scanCache: { name: "sluice_scan_cache_lookups_total", type: "counter", help: "Scans of received bodies by the isolate answering this scrape, by result (hit: the session's last body was kept and its shared prefix reused; miss)." },
} as const satisfies Record<string, { name: string; type: MetricType; help: string }>;

/** The savings ledger's families (labelled by mode; they appear once a ledger update was seen). */
const LEDGER_FAMILIES = [METRICS.ledgerWithout, METRICS.ledgerWith, METRICS.ledgerEngine, METRICS.ledgerLoss, METRICS.ledgerPriced, METRICS.ledgerRequests, METRICS.ledgerRemovals, METRICS.ledgerWaits, METRICS.ledgerWaitSeconds];

/** Counters of the isolate that answers the scrape (not stored: per isolate, since it started). */
export interface IsolateCounters {
  scan_hits: number;
  scan_misses: number;
}

/** One stored series: family name, sample suffix, labels (in render order), value. */
export interface SeriesDelta {
  family: string;
  suffix: SampleSuffix;
  labels: Record<string, string>;
  delta: number;
}

const d = (family: string, delta: number, labels: Record<string, string> = {}, suffix: SampleSuffix = ""): SeriesDelta => ({ family, suffix, labels, delta });

/** The counter deltas of one update (zero deltas are kept: a series exists once seen). */
export function deltasOf(u: IndexUpdate): SeriesDelta[] {
  switch (u.kind) {
    case "outcome": {
      const out = [
        d(METRICS.requests.name, 1, { provider: u.provider, outcome: u.outcome }),
        d(METRICS.tokensOriginal.name, u.tokens_original),
        d(METRICS.tokensSent.name, u.tokens_sent),
        d(METRICS.tokensSaved.name, u.tokens_saved),
        d(METRICS.usdSaved.name, u.usd_saved),
      ];
      if (u.step_tier !== null) out.push(d(METRICS.steps.name, 1, { tier: u.step_tier }));
      if (u.fail_open_reason !== null) out.push(d(METRICS.failOpen.name, 1, { reason: u.fail_open_reason }));
      if (u.stand_aside !== undefined) out.push(d(METRICS.standAside.name, 1, { provider: u.provider, reason: u.stand_aside.reason, type: u.stand_aside.type }));
      if (u.memory_injected_tokens !== undefined) out.push(d(METRICS.memoryInjections.name, 1), d(METRICS.memoryBlockTokens.name, u.memory_injected_tokens));
      if (u.step_ms !== null) {
        const s = u.step_ms / 1000;
        for (const le of LATENCY_BUCKETS_S) if (s <= le) out.push(d(METRICS.latency.name, 1, { le: String(le) }, "_bucket"));
        out.push(d(METRICS.latency.name, 1, { le: "+Inf" }, "_bucket"), d(METRICS.latency.name, s, {}, "_sum"), d(METRICS.latency.name, 1, {}, "_count"));
      }
      return out;
    }
    case "usage":
      return [
        d(METRICS.usage.name, u.input_tokens, { provider: u.provider, kind: "input" }),
        d(METRICS.usage.name, u.cache_read_input_tokens, { provider: u.provider, kind: "cache_read" }),
        d(METRICS.usage.name, u.cache_creation_input_tokens, { provider: u.provider, kind: "cache_write" }),
        d(METRICS.usage.name, u.output_tokens, { provider: u.provider, kind: "output" }),
      ];
    case "ledger": {
      const m = { mode: u.mode };
      return [
        d(METRICS.ledgerWithout.name, u.without_usd, m),
        d(METRICS.ledgerWith.name, u.with_usd, m),
        d(METRICS.ledgerEngine.name, u.engine_cost_usd, m),
        d(METRICS.ledgerLoss.name, u.loss_usd, m),
        d(METRICS.ledgerPriced.name, u.priced_calls, m),
        d(METRICS.ledgerRequests.name, u.requests, m),
        d(METRICS.ledgerRemovals.name, u.removals, { ...m, kind: "all" }),
        d(METRICS.ledgerRemovals.name, u.removals_deterministic, { ...m, kind: "deterministic" }),
        d(METRICS.ledgerRemovals.name, u.removals_refetched, { ...m, kind: "refetched" }),
        d(METRICS.ledgerRemovals.name, u.removals_mentioned, { ...m, kind: "mentioned" }),
        d(METRICS.ledgerWaits.name, u.engine_waits, m),
        d(METRICS.ledgerWaitSeconds.name, u.engine_wait_ms / 1000, m),
      ];
    }
    default: {
      const never: never = u;
      throw new Error(`unknown update kind: ${JSON.stringify(never)}`);
    }
  }
}

/**
 * Sums `deltas` by series (family, suffix, labels as stored: their JSON) into rows
 * `[family, suffix, labels_json, delta]`, in first-seen order — what the index writes for one
 * request in one multi-row statement. Zero sums are kept (a series exists once seen).
 */
export function sumDeltas(deltas: readonly SeriesDelta[]): [string, string, string, number][] {
  const rows = new Map<string, [string, string, string, number]>();
  for (const x of deltas) {
    const labels = JSON.stringify(x.labels);
    const key = `${x.family}\u0000${x.suffix}\u0000${labels}`;
    const row = rows.get(key);
    if (row) row[3] += x.delta;
    else rows.set(key, [x.family, x.suffix, labels, x.delta]);
  }
  return [...rows.values()];
}

/**
 * Most `type` label values rendered per provider and reason of `sluice_stood_aside_total`: a
 * client can send any number of made-up types, so beyond the most counted ones (ties: by name)
 * the rest are summed into `type="other"`. 20 is far more than the provider features a deployment
 * meets, and bounds the family at 3 providers × 2 reasons × 21 series.
 */
export const MAX_STAND_ASIDE_TYPES = 20;

/**
 * Stand-aside rows grouped by provider and reason, each group's named types (not "other") ranked
 * by count, then type: `kept` the first `max`, `over` the rest. The metric (boundedTypes) and the
 * index (./bound-stand-aside.ts) fold `over` into the group's "other" series.
 */
export function rankStandAsideTypes<T extends { labels: Record<string, string>; value: number }>(rows: readonly T[], max = MAX_STAND_ASIDE_TYPES): { group: T[]; kept: T[]; over: T[] }[] {
  const groups = new Map<string, T[]>();
  for (const r of rows) {
    const key = `${r.labels.provider}\u0000${r.labels.reason}`;
    groups.set(key, [...(groups.get(key) ?? []), r]);
  }
  return [...groups.values()].map((group) => {
    const named = group.filter((r) => r.labels.type !== "other").sort((a, b) => b.value - a.value || (a.labels.type! < b.labels.type! ? -1 : 1));
    return { group, kept: named.slice(0, max), over: named.slice(max) };
  });
}

/** The stand-aside samples with at most MAX_STAND_ASIDE_TYPES types per provider and reason (the rest folded into "other"), sorted by labels. */
function boundedTypes(samples: Sample[]): Sample[] {
  const out: Sample[] = [];
  for (const { group, kept } of rankStandAsideTypes(samples)) {
    const rest = group.filter((s) => !kept.includes(s)).reduce((t, s) => t + s.value, 0);
    out.push(...kept);
    if (rest > 0 || group.some((s) => s.labels.type === "other")) out.push({ suffix: "", labels: { ...group[0]!.labels, type: "other" }, value: rest });
  }
  const key = (s: Sample) => JSON.stringify(Object.entries(s.labels));
  return out.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}

/** A stored series total (as SessionIndex keeps it). */
export interface StoredSeries {
  family: string;
  suffix: SampleSuffix;
  labels: Record<string, string>;
  value: number;
}

/**
 * The families to render, in catalogue order. Unlabelled counters and the histogram always
 * appear (zero before any request); labelled series appear once seen, sorted by labels.
 */
export function buildFamilies(stored: readonly StoredSeries[], sessions: number, isolate: IsolateCounters = { scan_hits: 0, scan_misses: 0 }): MetricFamily[] {
  const byFamily = new Map<string, StoredSeries[]>();
  for (const s of stored) byFamily.set(s.family, [...(byFamily.get(s.family) ?? []), s]);
  const labelKey = (s: { labels: Record<string, string> }) => JSON.stringify(Object.entries(s.labels));
  const sorted = (name: string): Sample[] =>
    (byFamily.get(name) ?? []).map((s) => ({ suffix: s.suffix, labels: s.labels, value: s.value })).sort((a, b) => (labelKey(a) < labelKey(b) ? -1 : labelKey(a) > labelKey(b) ? 1 : 0));
  const single = (name: string): Sample[] => [{ suffix: "", labels: {}, value: byFamily.get(name)?.[0]?.value ?? 0 }];
  const series = (name: string, suffix: SampleSuffix, le?: string) =>
    byFamily.get(name)?.find((s) => s.suffix === suffix && (le === undefined || s.labels.le === le))?.value ?? 0;

  const m = METRICS;
  const fam = (c: { name: string; type: MetricType; help: string }, samples: Sample[]): MetricFamily => ({ name: c.name, help: c.help, type: c.type, samples });
  const latency: Sample[] = [
    ...[...LATENCY_BUCKETS_S.map(String), "+Inf"].map((le) => ({ suffix: "_bucket" as const, labels: { le }, value: series(m.latency.name, "_bucket", le) })),
    { suffix: "_sum", labels: {}, value: series(m.latency.name, "_sum") },
    { suffix: "_count", labels: {}, value: series(m.latency.name, "_count") },
  ];
  return [
    fam(m.requests, sorted(m.requests.name)),
    fam(m.steps, sorted(m.steps.name)),
    fam(m.failOpen, sorted(m.failOpen.name)),
    fam(m.tokensOriginal, single(m.tokensOriginal.name)),
    fam(m.tokensSent, single(m.tokensSent.name)),
    fam(m.tokensSaved, single(m.tokensSaved.name)),
    fam(m.usdSaved, single(m.usdSaved.name)),
    fam(m.usage, sorted(m.usage.name)),
    fam(m.latency, latency),
    ...LEDGER_FAMILIES.map((c) => fam(c, sorted(c.name))),
    fam(m.memoryInjections, single(m.memoryInjections.name)),
    fam(m.memoryBlockTokens, single(m.memoryBlockTokens.name)),
    fam(m.standAside, boundedTypes(sorted(m.standAside.name))),
    fam(m.sessions, [{ suffix: "", labels: {}, value: sessions }]),
    fam(m.scanCache, [{ suffix: "", labels: { result: "hit" }, value: isolate.scan_hits }, { suffix: "", labels: { result: "miss" }, value: isolate.scan_misses }]),
  ];
}
