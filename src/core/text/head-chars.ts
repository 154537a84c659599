/**
 * The one string-cutting helper of the core (pure): the first `n` UTF-16 units of a string,
 * never ending on half a surrogate pair. Byte-level cuts of the request itself are the
 * adapters' (src/providers/shared/cut-string.ts); this cuts decoded text for facts and engines.
 */

/** `text` cut to at most `n` UTF-16 units (one fewer when the n-th is a high surrogate); unchanged when shorter. */
export function headChars(text: string, n: number): string {
  if (text.length <= n) return text;
  const code = text.charCodeAt(n - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? n - 1 : n);
}
