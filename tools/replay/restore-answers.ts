/**
 * Would a restore have answered a call used after removal (pure)? A strategy can give removed
 * content back to the agent only when its marker names what went: Sluice at `guarantee_level:
 * "placeholders"` with `archive_removed` on leaves, where a result was cut, the fixed marker that
 * names the pair's restore id (tools/shared/restore-marker.ts), and the retrieval tool
 * `restore_tool_result(<id>)` answers with the removed bytes. The other strategies' markers
 * (`[cleared]`, `Old environment output: …`, `[Old tool result content cleared]`) and Sluice's
 * whole-pair removals, which leave no marker, name nothing the agent could ask for.
 *
 * - `restorablePairs`: the removed pairs (result keys) whose result the forwarded body still
 *   holds with a marker naming that pair;
 * - `restoreAnswers`: a call used after removal is answered when every token it used (./uar-probe.ts
 *   UsedToken) was held by at least one such pair — restoring those pairs gives the agent every
 *   token it wrote from memory. A token no marked pair held (its pair dropped whole, or another
 *   strategy's removal) leaves the call unanswered.
 */
import { restoreMarkersIn } from "../shared/restore-marker";
import { historyOf, parseResultKey, toolResultsIn } from "./tool-pairs";
import type { UsedToken } from "./uar-probe";
import type { JsonObject, Provider } from "./types";

/** The keys among `removed` whose result in `sent` carries a marker naming the pair's call id, in `removed`'s order. */
export function restorablePairs(provider: Provider, sent: JsonObject, removed: readonly string[]): string[] {
  if (removed.length === 0) return [];
  const texts = new Map(toolResultsIn(provider, historyOf(provider, sent)).map((r) => [r.key, r.text]));
  return removed.filter((key) => restoreMarkersIn(texts.get(key) ?? "").some((m) => m.call_id === parseResultKey(key).id));
}

export function restoreAnswers(used: readonly UsedToken[], restorable: readonly string[]): boolean {
  const marked = new Set(restorable);
  return used.length > 0 && used.every((u) => u.pairs.some((k) => marked.has(k)));
}
