/**
 * The known key an unknown one most likely meant (pure), for "did you mean" hints in config
 * errors: the closest by Levenshtein distance (the `leven` package), within
 * max(2, ⌊length / 4⌋) edits of the key compared in lower case (`treshold_tokens` →
 * `threshold_tokens`, `Head_Chars` → `head_chars`); else the one known key the unknown key
 * begins (`threshold` → `threshold_tokens`; four characters at least, and only when no other
 * known key begins with it). Null when nothing is close.
 */
import { closestMatch } from "leven";

export function nearestKey(key: string, known: readonly string[]): string | null {
  const lower = key.toLowerCase();
  const close = closestMatch(lower, known, { maxDistance: Math.max(2, Math.floor(key.length / 4)) });
  if (close !== undefined) return close;
  const begun = lower.length >= 4 ? known.filter((k) => k.startsWith(lower)) : [];
  return begun.length === 1 ? begun[0]! : null;
}
