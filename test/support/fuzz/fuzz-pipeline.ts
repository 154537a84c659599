/**
 * The pure-pipeline fuzz target (no I/O): for one case, does what the gateway does around the
 * session DO — adapter.read, session id, the tiers under aggressive settings and forced
 * pressures, plus random plans — and checks every edit the guarantee checker accepts with the
 * independent checks of ./check-forwarded.ts. Used by `npm run fuzz` (tools/fuzz/run-fuzz.ts,
 * volume) and by a fixed-seed unit test.
 *
 * Findings (each one is a bug to fix and a named regression test):
 * - `unsafe_edit`: the checker accepted an edit that fails an independent check (the gateway
 *   would have forwarded it) — the severe kind;
 * - `throw:<where>`: applyPlan, checkGuarantee, sessionIdOf or a tier threw on input the adapter
 *   had accepted (the gateway's boundary would catch it, but the contract says they do not throw);
 * - `tier_plan_rejected`: a plan a tier produced for a body that keeps both the oracle's and
 *   the adapter's rules was rejected by the checker (the gateway fails open: no safety issue, a lost saving).
 */
import { loadConfig } from "../../../src/config/load-config";
import type { CompactionConfig } from "../../../src/config/schema";
import { MODEL_PRICES } from "../../../src/core/cost/prices";
import { applyPlan } from "../../../src/core/plan/apply-plan";
import { checkGuarantee } from "../../../src/core/plan/check-guarantee";
import type { EditPlan, PairAction } from "../../../src/core/plan/types";
import { compact } from "../../../src/core/policy/compact";
import { EMPTY_LEDGER, type Ledger } from "../../../src/core/policy/ledger";
import type { BudgetPressure, TierContext } from "../../../src/core/policy/types";
import type { ParsedRequest } from "../../../src/providers/types";
import { adapterFor } from "../../../src/providers/registry";
import { stepFactsOf } from "../../../src/core/facts/step-facts";
import { sessionIdOf } from "../../../src/gateway/session-id";
import { checkForwarded, sameBytes } from "./check-forwarded";
import type { FuzzCase } from "./make-case";
import { makeRng, pick, type Rng } from "./mutate-body";
import { wireViolations } from "./wire-oracle";
import { newCoreCaches } from "../../../src/core/caches";
import { ToolCallMemo } from "../../../src/core/engine/read-tool-call-memo";

/** The aggressive settings the fuzz runs the tiers with (every gate as low as the schema allows). */
export const AGGRESSIVE_CONFIG = {
  threshold_tokens: 0,
  min_reduction: 0,
  min_result_bytes: 0,
  preserve_recent_turns: 0,
  decision_threshold: 0,
  head_chars: 16,
  auto_context_pct: 0.01,
  idle_seconds: 1,
  complete_after_seconds: 2,
  retention_seconds: 60,
} as const;

function config(extra: Record<string, unknown>): CompactionConfig {
  const r = loadConfig({ COMPACTION_CONFIG: JSON.stringify({ ...AGGRESSIVE_CONFIG, ...extra }) });
  if (!r.ok) throw new Error(r.error.message);
  return r.config;
}
const STRICT = config({});
const REWRITE = config({ guarantee_level: "rewrite" });

/** Pressures that force each tier (selectTier's order): micro, auto, time_based, session_memory. */
const PRESSURES: Array<{ name: string; pressure: BudgetPressure; config: CompactionConfig; old: boolean }> = [
  { name: "micro", pressure: { turn_count: 9, context_pct_used: 0.06, idle_seconds: 0, session_complete: false }, config: { ...STRICT, auto_context_pct: 1 }, old: false },
  { name: "auto", pressure: { turn_count: 9, context_pct_used: 0.95, idle_seconds: 0, session_complete: false }, config: STRICT, old: false },
  { name: "time_based", pressure: { turn_count: 9, context_pct_used: 0.06, idle_seconds: 4_000, session_complete: false }, config: { ...STRICT, auto_context_pct: 1 }, old: true },
  { name: "session_memory", pressure: { turn_count: 9, context_pct_used: 0.06, idle_seconds: 0, session_complete: true }, config: REWRITE, old: false },
];

export interface Finding {
  kind: "unsafe_edit" | `throw:${string}` | "tier_plan_rejected";
  detail: string;
}

/** What one case did. */
export interface CaseOutcome {
  parsed: boolean;
  plans: number;
  /** Edits the checker accepted (each verified independently). */
  accepted: number;
  findings: Finding[];
}

const NOW = 1_800_000_000_000;
const ACTIONS: PairAction[] = [{ kind: "keep" }, { kind: "drop_pair" }, { kind: "drop_result" }, { kind: "strip_media" }];

function randomPlan(rng: Rng, ids: readonly string[]): EditPlan {
  const actions: Record<string, PairAction> = {};
  for (const id of [...ids, "fuzz_unknown_id"]) {
    const r = rng();
    if (r < 0.25) continue;
    actions[id] = r < 0.85 ? pick(rng, ACTIONS) : { kind: "truncate_result", head_bytes: Math.floor(rng() * 300), ...(rng() < 0.4 ? { tail_bytes: Math.floor(rng() * 100) } : {}) };
  }
  return { actions };
}

const errText = (e: unknown): string => (e instanceof Error ? `${e.name}: ${e.message}` : String(e)).slice(0, 200);

/** Runs the pure pipeline over `c` with `randomPlans` random plans besides the four tiers. */
export function fuzzPipeline(c: FuzzCase, randomPlans: number): CaseOutcome {
  const out: CaseOutcome = { parsed: false, plans: 0, accepted: 0, findings: [] };
  const adapter = adapterFor(c.provider)!;
  let parsed: ParsedRequest;
  try {
    parsed = adapter.read(c.body, newCoreCaches());
  } catch {
    return out; // refused: the gateway forwards the original bytes
  }
  out.parsed = true;
  try {
    sessionIdOf(c.provider, new Headers(c.headers), c.body, parsed.root);
  } catch (e) {
    out.findings.push({ kind: "throw:sessionIdOf", detail: errText(e) });
  }
  let inputValid: boolean | null = null;
  const isInputValid = (): boolean => {
    if (inputValid === null) {
      try {
        inputValid =
          wireViolations(c.provider, JSON.parse(new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(c.body))).length === 0 &&
          adapter.checkRules(c.body, parsed.root, parsed.caches).length === 0;
      } catch {
        inputValid = false;
      }
    }
    return inputValid;
  };

  const tryPlan = (plan: EditPlan, from: string) => {
    out.plans++;
    let edited: Uint8Array;
    try {
      edited = applyPlan(adapter, parsed, plan).bytes;
    } catch (e) {
      out.findings.push({ kind: "throw:applyPlan", detail: `${from}: ${errText(e)}` });
      return;
    }
    if (sameBytes(edited, c.body)) return;
    let ok: boolean;
    let violations: string[];
    try {
      ({ ok, violations } = checkGuarantee(adapter, c.body, edited, { input: parsed }));
    } catch (e) {
      out.findings.push({ kind: "throw:checkGuarantee", detail: `${from}: ${errText(e)}` });
      return;
    }
    if (!ok) {
      if (from.startsWith("tier:") && isInputValid() && !plan.actions["fuzz_unknown_id"]) out.findings.push({ kind: "tier_plan_rejected", detail: `${from}: ${violations.slice(0, 3).join("; ")}` });
      return;
    }
    out.accepted++;
    const problems = checkForwarded(c.provider, c.body, edited);
    if (problems.length > 0) out.findings.push({ kind: "unsafe_edit", detail: `${from}: ${problems.slice(0, 3).join("; ")}` });
  };

  let view: ReturnType<typeof stepFactsOf>;
  try {
    view = stepFactsOf(parsed.view, STRICT, new ToolCallMemo()); // reads every lazy field, as the step facts do (F03 threw here)
  } catch (e) {
    out.findings.push({ kind: "throw:slim_view", detail: errText(e) });
    return out;
  }
  for (const p of PRESSURES) {
    const firstSeen: Record<string, number> = {};
    if (p.old) for (const pair of view.pairs) firstSeen[pair.id] = NOW - 10_000_000;
    const ledger: Ledger = { ...EMPTY_LEDGER, first_seen: firstSeen };
    const ctx: TierContext = { view, ledger, pressure: p.pressure, config: p.config, prices: MODEL_PRICES, now_ms: NOW, expected_remaining_calls: 30, correlation_id: `fuzz-${c.index}` };
    let plan: EditPlan;
    try {
      plan = compact(ctx).plan;
    } catch (e) {
      out.findings.push({ kind: `throw:tier_${p.name}`, detail: errText(e) });
      continue;
    }
    if (Object.keys(plan.actions).length > 0) tryPlan(plan, `tier:${p.name}`);
  }
  const rng = makeRng(c.index * 31 + 7);
  const ids = parsed.view.pairs.map((p) => p.id);
  for (let k = 0; k < randomPlans; k++) tryPlan(randomPlan(rng, ids), `random#${k}`);
  return out;
}
