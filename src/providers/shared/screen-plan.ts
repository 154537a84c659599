/**
 * First step of every adapter's plan compiler (pure): sorts a plan's requested actions into pair
 * drops and result edits, refusing the ones no provider may apply — any action on a
 * server-managed request ("server_managed"), an id that is not an editable pair of the view
 * ("unknown_pair"), a pair the adapter locked (its lock reason), a `summarize` whose text is not
 * written yet ("summary_not_written"). Provider-specific refusals
 * (role order, reasoning links, thinking) come after, in each adapter's edit-rules.ts.
 */
import type { EditPlan } from "../../core/plan/types";
import type { ResultAction } from "./edit-result-content";

/** What screening needs of an adapter's located pair. */
export interface ScreenablePair {
  id: string;
  /** Lock reason, or null when editable. */
  locked: string | null;
}

/** Screened plan: pairs to drop whole and result-side edits, in plan order, plus refusals. */
export interface ScreenedPlan<P> {
  drops: P[];
  resultEdits: [P, ResultAction][];
  refused: Record<string, string>;
}

/** Sorts `plan`'s non-keep actions over `byId`. */
export function screenPlan<P extends ScreenablePair>(plan: EditPlan, byId: ReadonlyMap<string, P>, serverManaged: boolean): ScreenedPlan<P> {
  const out: ScreenedPlan<P> = { drops: [], resultEdits: [], refused: {} };
  for (const [id, action] of Object.entries(plan.actions)) {
    if (action.kind === "keep") continue;
    const pair = byId.get(id);
    if (serverManaged) out.refused[id] = "server_managed";
    else if (!pair) out.refused[id] = "unknown_pair";
    else if (pair.locked) out.refused[id] = pair.locked;
    else {
      switch (action.kind) {
        case "drop_pair":
          out.drops.push(pair);
          break;
        case "drop_result":
        case "truncate_result":
        case "strip_media":
          out.resultEdits.push([pair, action]);
          break;
        case "summarize":
          // The gateway writes the text before the plan is applied (src/gateway/write-summaries.ts); without it there is no block.
          if (action.text === null) out.refused[id] = "summary_not_written";
          else out.resultEdits.push([pair, action]);
          break;
        default: {
          const never: never = action;
          throw new Error(`unknown action ${(never as { kind: string }).kind}`);
        }
      }
    }
  }
  return out;
}

/** What refuseRequired needs of an adapter's located pair. */
export interface RequiringPair extends ScreenablePair {
  /** ToolPair.requires. */
  requires?: { rule: string; ids: string[] };
}

/**
 * The drops of `drops` that keep every `requires_call` rule (src/providers/dependencies.ts): a
 * pair some staying pair of `all` requires is refused with the rule's code (`codeOf`, recorded in
 * `refused`) and stays, which may make it require others in turn (repeated until stable).
 */
export function refuseRequired<P extends RequiringPair>(drops: readonly P[], all: readonly P[], refused: Record<string, string>, codeOf: (rule: string) => string): P[] {
  const dropped = new Set(drops.map((p) => p.id));
  for (let changed = true; changed; ) {
    changed = false;
    for (const q of all) {
      if (dropped.has(q.id) || q.requires === undefined) continue;
      for (const id of q.requires.ids) {
        if (!dropped.delete(id)) continue;
        refused[id] = codeOf(q.requires.rule);
        changed = true;
      }
    }
  }
  return drops.filter((p) => dropped.has(p.id));
}
