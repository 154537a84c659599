/**
 * The step facts of a parsed request (pure): src/core/facts/step-facts.ts over the view, with
 * the mention keys of every message's assistant prose read from the body
 * (src/providers/shared/message-mentions.ts). The one builder the Worker pipeline and the
 * in-process replay share, so both send the same facts.
 */
import { stepFactsOf, type FactsOptions, type StepFacts } from "../core/facts/step-facts";
import { messageMentions } from "../providers/shared/message-mentions";
import type { ParsedRequest } from "../providers/types";

/** The step facts of `parsed` for `opts`; `headers`, when given, are the request's. */
export function requestFactsOf(parsed: Pick<ParsedRequest, "bytes" | "root" | "view">, opts: FactsOptions, headers?: Headers): StepFacts {
  return stepFactsOf(parsed.view, opts, headers, messageMentions(parsed));
}
