/**
 * The step facts of a parsed request (pure): src/core/facts/step-facts.ts over the view, with
 * what is read from the body's bytes: the mention keys of every message's assistant prose
 * (src/providers/shared/message-mentions.ts) and, when given, the prefix hashes
 * (src/core/facts/prefix-facts.ts). The Worker pipeline and the in-process replay both reach it
 * through ./prepare-compaction.ts stepFactsFor, so both send the same facts.
 */
import { stepFactsOf, type FactsOptions, type StepFacts } from "../core/facts/step-facts";
import type { PrefixFacts } from "../core/facts/prefix-facts";
import { messageMentions } from "../providers/shared/message-mentions";
import type { ParsedRequest } from "../providers/types";

/** The step facts of `parsed` for `opts`; `headers`, when given, are the request's; `prefix`, the body's prefix facts (null: none). */
export function requestFactsOf(parsed: Pick<ParsedRequest, "bytes" | "root" | "view" | "caches">, opts: FactsOptions, headers?: Headers, prefix: PrefixFacts | null = null): StepFacts {
  return stepFactsOf(parsed.view, opts, parsed.caches.toolCalls, headers, { prefix, mentions: messageMentions(parsed) });
}
