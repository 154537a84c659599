/**
 * The heuristic engine (`engine: "heuristic"`, the default; pure, no network): runs every rule
 * over the view's pairs and keeps, per pair, the verdict with the highest confidence (drop_pair
 * wins a tie). Guards first: a pair whose tool is in `exclude_tools` or that the adapter locked
 * is always keep with confidence 1 (DESIGN §5), and so is a pair of the agent's working set (a
 * current view of a file: ./file-views.ts; no tier drops or shortens it either) and a pair a later
 * assistant message still talks about (./rule-mentioned-later.ts).
 */
import type { PairFacts, StepFacts } from "../facts/step-facts";
import { ruleDuplicateResult } from "./rule-duplicate-result";
import { ruleFailedRetried } from "./rule-failed-retried";
import { ruleStaleLargeOutput } from "./rule-stale-large-output";
import { ruleSupersededRead } from "./rule-superseded-read";
import { ruleSupersededEdit } from "./rule-superseded-edit";
import { ruleSupersededCommand } from "./rule-superseded-command";
import { ruleMentionedLater } from "./rule-mentioned-later";
import { fileViews, workingSet } from "./file-views";
import { KEEP, type RuleName, type Verdict, type Verdicts } from "./verdict";
import { DEFAULTS } from "../../config/defaults";

/** Config the engine reads (names from src/config/defaults.ts). */
export interface HeuristicConfig {
  exclude_tools: readonly string[];
  min_result_bytes: number;
  /** Turns a file stays in the working set after the agent last read or edited it (./file-views.ts workingSet); null = for good; absent = the default. */
  working_set_turns?: number | null;
}

/** The engine's answer. */
export interface EngineRun {
  /** Final verdict per pair (every pair of the view has one). */
  verdicts: Verdicts;
  /** Pair ids each rule fired on (before combining), for reports and tests. */
  hits: Record<Exclude<RuleName, "none">, string[]>;
}

/** Pairs in call order (message index, then block index). */
export function pairsInCallOrder(pairs: readonly PairFacts[]): PairFacts[] {
  return [...pairs].sort((a, b) => a.call.message_index - b.call.message_index || a.call.block_index - b.call.block_index);
}

/** The keep verdicts, one frozen object each, shared by every pair they apply to (verdicts are read, never changed). */
const KEEP_EXCLUDED: Verdict = Object.freeze({ kind: "keep", confidence: 1, rule: "exclude_tools" });
const KEEP_LOCKED: Verdict = Object.freeze({ kind: "keep", confidence: 1, rule: "locked" });
const KEEP_MENTIONED: Verdict = Object.freeze({ kind: "keep", confidence: 1, rule: "mentioned_later" });
const KEEP_WORKING_SET: Verdict = Object.freeze({ kind: "keep", confidence: 1, rule: "working_set" });

/** Runs the heuristic rules over `view`. */
export function runHeuristicEngine(view: StepFacts, config: HeuristicConfig): EngineRun {
  const pairs = pairsInCallOrder(view.pairs);
  const infos = pairs.map((p) => p.call_class);
  const failed = pairs.map((p) => p.looks_failed);
  const views = fileViews(pairs, infos, failed);
  const working = workingSet(pairs, infos, views, view.turn_count, config.working_set_turns === undefined ? DEFAULTS.working_set_turns : config.working_set_turns);
  const byRule: Array<[Exclude<RuleName, "none" | "exclude_tools" | "locked" | "mentioned_later" | "working_set">, Verdicts]> = [
    ["superseded_read", ruleSupersededRead(pairs, infos, views)],
    ["duplicate_result", ruleDuplicateResult(pairs)],
    ["failed_then_retried", ruleFailedRetried(pairs, infos, failed)],
    ["stale_large_output", ruleStaleLargeOutput(pairs, infos, view.turn_count, config.min_result_bytes)],
    ["superseded_edit", ruleSupersededEdit(pairs, infos, views)],
    ["superseded_command", ruleSupersededCommand(pairs, infos, failed)],
  ];
  const mentioned = ruleMentionedLater(pairs, view.messages);
  const hits: EngineRun["hits"] = {
    superseded_read: [], duplicate_result: [], failed_then_retried: [], stale_large_output: [], superseded_edit: [], superseded_command: [], exclude_tools: [], locked: [], mentioned_later: [], working_set: [],
  };
  const verdicts: Verdicts = {};
  const excluded = new Set(config.exclude_tools);
  for (const p of pairs) {
    if (excluded.has(p.tool_name)) {
      verdicts[p.id] = KEEP_EXCLUDED;
      hits.exclude_tools.push(p.id);
      continue;
    }
    if (p.locked !== null) {
      verdicts[p.id] = KEEP_LOCKED;
      hits.locked.push(p.id);
      continue;
    }
    if (working.has(p.id)) {
      verdicts[p.id] = KEEP_WORKING_SET;
      hits.working_set.push(p.id);
      continue;
    }
    if (mentioned.has(p.id)) {
      verdicts[p.id] = KEEP_MENTIONED;
      hits.mentioned_later.push(p.id);
      continue;
    }
    let best: Verdict = KEEP;
    // An indexed loop: `for (const [rule, vs] of byRule)` here made an iterator and an entry per pair and rule (≈ 50–60 KB per load call: V8 heap sampling, docs/reliability.md).
    for (let r = 0; r < byRule.length; r++) {
      const [rule, vs] = byRule[r]!;
      const v = vs[p.id];
      if (v === undefined) continue;
      hits[rule].push(p.id);
      if (v.confidence > best.confidence || (v.confidence === best.confidence && v.kind === "drop_pair")) best = v;
    }
    verdicts[p.id] = best;
  }
  return { verdicts, hits };
}
