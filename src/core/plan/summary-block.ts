/**
 * The `rewrite` guarantee level's summary block (pure; DESIGN §2, §3 auto tier).
 * A `summarize` action replaces its host result's text with one block: a fixed header that marks
 * it as Sluice's and says how many tool calls it stands for, then the summariser's text. The
 * bytes depend only on the number of pairs covered and the text, and the text is kept in the
 * session's ledger, so every later request carries the same bytes (DESIGN invariant 6).
 *
 * Decoded text (documented in docs/configuration.md):
 *   `[sluice: summary of <n> earlier tool calls; their full results were removed from this conversation]\n<text>`
 *   (n = 1: `1 earlier tool call; its full result was removed …`)
 * On the wire it is that text JSON-escaped for a string literal (quotes excluded).
 * The header says "full results", not "calls": a covered pair whose removal would join two
 * same-role messages (an assistant message with prose beside its tool_use) keeps its call, its
 * result cut to a short head (applyPlan's drop_pair → drop_result fallback), so only the full
 * result is certain to be gone.
 */

/** The decoded summary block for a stretch of `covered` pairs (≥ 1) and the summariser's `text`. */
export function summaryBlockText(covered: number, text: string): string {
  const what = covered === 1 ? "1 earlier tool call; its full result was" : `${covered} earlier tool calls; their full results were`;
  return `[sluice: summary of ${what} removed from this conversation]\n${text}`;
}

const encoder = new TextEncoder();

/** The block's raw bytes inside a JSON string literal (UTF-8 of the JSON-escaped text, quotes excluded). */
export function summaryBlockBytes(covered: number, text: string): Uint8Array {
  return encoder.encode(JSON.stringify(summaryBlockText(covered, text)).slice(1, -1));
}
