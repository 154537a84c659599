/**
 * Which Anthropic models run the preserved-thinking prefix check (pure data, with its source).
 * On these models a thinking block sent back is valid only if `system`, `tools` and every
 * earlier message are unchanged since it was produced: any byte edit of earlier history
 * invalidates later thinking (a 400 "The block is bound to a different conversation", or the
 * block dropped under `thinking.block_binding`).
 *
 * Source: platform.claude.com build-with-claude/preserved-thinking and its prefix-checks page,
 * `supportedModels`: claude-fable-5-1, claude-fable-5-2, claude-mythos-5-1, claude-mythos-5-2,
 * claude-opus-5-5, claude-sonnet-5-5, claude-haiku-5-5. Families known to predate preserved
 * thinking (they ignore old thinking blocks): Claude 2, 3, Instant, 4.x, and Opus/Sonnet 5.0.
 * Matched anywhere in the id, so Bedrock/Vertex prefixes and date suffixes work.
 */

/** Model id patterns of the models listed as running the prefix check. */
export const PREFIX_CHECK_MODEL_PATTERNS: readonly RegExp[] = [
  /claude-fable-5-[12](?![0-9])/,
  /claude-mythos-5-[12](?![0-9])/,
  /claude-(?:opus|sonnet|haiku)-5-5(?![0-9])/,
];

/** Model id patterns of families known not to run it. */
export const NO_PREFIX_CHECK_MODEL_PATTERNS: readonly RegExp[] = [
  /claude-(?:2|3|instant)/,
  /claude-(?:opus|sonnet|haiku)-4/,
  /claude-(?:opus|sonnet)-5(?:$|-\d{8})/,
];

/** True when `model` is one of the models the source lists as running the prefix check. */
export function modelListedAsPrefixChecking(model: string | null): boolean {
  return model !== null && PREFIX_CHECK_MODEL_PATTERNS.some((p) => p.test(model));
}

/**
 * Whether a byte edit before a thinking block must be refused for this model (the splice lock).
 * Unknown or absent models count as checking (conservative: nothing before the last thinking
 * block is spliced); listed ones check; known older families do not.
 */
export function modelChecksThinkingPrefix(model: string | null): boolean {
  if (model === null || modelListedAsPrefixChecking(model)) return true;
  return !NO_PREFIX_CHECK_MODEL_PATTERNS.some((p) => p.test(model));
}
