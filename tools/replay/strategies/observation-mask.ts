/**
 * Strategy `observation-mask` (pure): SWE-agent's `LastNObservations` history processor
 * (SWE-agent/SWE-agent sweagent/agent/history_processors.py; n = 5 as in its configs): keep the
 * content of the last `keep` tool results, replace every older one with
 * "Old environment output: (N lines omitted)", N = the result's text line count (Python
 * `str.splitlines`). Stateless: the window slides with every new result (the processor's own
 * docstring warns this breaks prompt caching). Applied to native tool results of all three APIs.
 */
import { historyOf, replaceToolResults, toolResultsIn } from "../tool-pairs";
import type { PureStrategy } from "../types";

/** Knobs of the mask. */
export interface ObservationMaskConfig {
  /** Most recent tool results kept verbatim. */
  keep: number;
}

export const OBSERVATION_MASK_DEFAULTS: ObservationMaskConfig = { keep: 5 };

/** Number of lines as Python's `str.splitlines()` counts them ("" → 0, a final newline adds none). */
export function countLines(text: string): number {
  if (text === "") return 0;
  const parts = text.split(/\r\n|\r|\n/);
  return parts[parts.length - 1] === "" ? parts.length - 1 : parts.length;
}

/** SWE-agent's elision text for a result of `lines` lines. */
export function maskText(lines: number): string {
  return `Old environment output: (${lines} lines omitted)`;
}

/** Builds the strategy. */
export function createObservationMask(config: ObservationMaskConfig = OBSERVATION_MASK_DEFAULTS): PureStrategy<null> {
  return {
    kind: "pure",
    name: "observation-mask",
    source: "SWE-agent LastNObservations (sweagent/agent/history_processors.py): keep the last 5 observations, elide older ones",
    initial: () => null,
    apply(body, ctx, state) {
      const firstKept = toolResultsIn(ctx.provider, historyOf(ctx.provider, body)).length - config.keep;
      return { body: replaceToolResults(ctx.provider, body, (r) => (r.position >= firstKept ? null : maskText(countLines(r.text)))), state };
    },
  };
}
