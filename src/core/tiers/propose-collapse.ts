/**
 * The collapse proposal shared by micro, time_based and auto (pure). For each eligible pair:
 * 1. an engine removal verdict at or above decision_threshold → that action (drop_pair or
 *    drop_result; DESIGN §2 note: remove superseded, duplicated and failed calls whole rather
 *    than truncate them);
 * 2. else, for a pair the engine keeps as the agent's working set (verdict rule `working_set`:
 *    a current view of a file, src/core/engine/file-views.ts), nothing: what the agent is working
 *    on stays whole;
 * 3. else a result longer than min_result_bytes → truncate_result to an exact head of
 *    head_chars characters cut at a line boundary (./cut-head.ts);
 * 4. else nothing.
 */
import { isRemoval, type Verdicts } from "../engine/verdict";
import type { Proposal } from "../policy/take-step";
import type { CoreConfig } from "../policy/types";
import type { PairFacts } from "../facts/step-facts";

/** Proposals for `eligible` pairs under `verdicts`. */
export function proposeCollapse(eligible: PairFacts[], verdicts: Verdicts, config: CoreConfig): Proposal[] {
  const out: Proposal[] = [];
  for (const pair of eligible) {
    const v = verdicts[pair.id];
    if (isRemoval(v, config.decision_threshold)) {
      out.push({ pair, action: { kind: v.kind }, rule: v.rule });
      continue;
    }
    if (v?.rule === "working_set" || pair.result_bytes <= config.min_result_bytes) continue;
    const head = pair.head_bytes;
    if (head !== null) out.push({ pair, action: { kind: "truncate_result", head_bytes: head }, rule: "long_result" });
  }
  return out;
}
