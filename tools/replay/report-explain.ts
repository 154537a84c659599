/**
 * What the report says in words (pure): one line per strategy (the rule it applies and where the
 * rule comes from: ./strategies/*.ts), and the reason beside a saving shown as 0.0%.
 */
import { pct } from "./report-format";
import { savedPercent, type StrategyMetrics } from "./summarize-report";

/** One line per known strategy (every name of ./strategies/registry.ts STRATEGY_NAMES). */
export const STRATEGY_LEGEND: Readonly<Record<string, string>> = {
  none: "baseline: every recorded request sent as the agent sent it; every saving is measured against it",
  "anthropic-clear": "Anthropic context editing (clear_tool_uses_20250919) done client-side: over 100k input tokens, every tool result but the last 3 tool uses' → [cleared]",
  "observation-mask": "SWE-agent LastNObservations: keep the last 5 tool results, older ones → \"Old environment output: (N lines omitted)\"",
  "idle-microcompact": "Claude Code time-based microcompact: after ≥ 60 min idle, every tool result but the 5 newest → [Old tool result content cleared]",
  sluice: "Sluice, default config: the gateway's pipeline and session step remove stale tool results (superseded calls whole) when the cost model says a step pays, never breaking a request",
  "sluice-splice": "Sluice with config mechanism = splice: removed results are cut out of the forwarded body",
  "sluice-native": "Sluice with config mechanism = native: a context-management edit in the request has the provider clear them",
  "sluice-strict": "Sluice with guarantee_level = strict (the default): removals only, nothing written into a request",
  "sluice-placeholders": "Sluice with guarantee_level = placeholders: one fixed marker where a result was cut",
  "sluice-rewrite": "Sluice with guarantee_level = rewrite: under context pressure a stretch of old tool calls becomes one summary (the configured summariser, else the extractive one)",
};

/** The legend line of `name` (an unknown name says so). */
export const strategyMeaning = (name: string): string => STRATEGY_LEGEND[name] ?? "no description (not a built-in strategy)";

/** Words for the skip reasons of src/core/policy/types.ts SkipReason and src/gateway/prepare-compaction.ts. */
const DECISION_WORDS: Readonly<Record<string, string>> = {
  step: "step taken",
  under_threshold: "under threshold",
  no_candidates: "no candidates",
  server_managed: "server-managed",
  under_min_reduction: "reduction under the minimum",
  not_positive: "cost model says no gain",
  gathering: "paying step waits to gather removals",
  not_selected: "tier not selected",
  client_header: "client opted out",
  no_adapter: "no adapter",
  parse: "body not parsed",
  no_tier: "no tier (first call)",
  no_step: "no step",
};

/** "under threshold ×27, no candidates ×3": decisions by count, most frequent first. */
export function describeDecisions(decisions: Readonly<Record<string, number>>): string {
  return Object.entries(decisions)
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([d, n]) => `${DECISION_WORDS[d] ?? d} ×${n}`)
    .join(", ");
}

/**
 * Why `strategy`'s saving is 0.0% as displayed, or null when it is not: the baseline; Sluice's
 * decisions per call (from its x-sluice-compaction note); a strategy that removed nothing (its
 * trigger was never reached); or removals whose saving the cache writes they caused cancelled.
 */
export function zeroReason(strategy: string, m: StrategyMetrics): string | null {
  if (pct(savedPercent(m)) !== "0.0%") return null;
  if (strategy === "none") return "baseline";
  if (Object.keys(m.decisions).length > 0) return describeDecisions(m.decisions);
  if (m.pairs_removed === 0) return "nothing removed: its trigger was never reached";
  return `${m.pairs_removed} pairs removed; the cache writes they caused cost what they saved`;
}

/** Meaning of the held-back column (also the legend's). */
export const HELD_BACK_MEANING =
  "held back by: the gate that refused the step Sluice would best have taken — at each call where it priced a cut and stepped no further (cost model says no gain, the timing rule waited, under the minimum reduction), that one step in hindsight (the session's real later calls and gaps, the hindsight cache model, against no removal); named when it alone would have saved more than the whole run did (tools/replay/held-back.ts). Total: sessions by gate";

/**
 * The held-back cell: "cost model says no gain: 27.9% at call 38" for a session (calls 1-based),
 * "cost model says no gain ×2" in the total, "" when no gate held a saving back.
 */
export function heldBackText(m: Pick<StrategyMetrics, "held_back" | "held_back_by">): string {
  const h = m.held_back;
  if (h !== null) return `${DECISION_WORDS[h.gate] ?? h.gate}: ${pct(h.saved_pct)} at call ${h.call + 1}`;
  return describeDecisions(m.held_back_by);
}
