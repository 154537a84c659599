/**
 * The report's one number format (pure), shared by the terminal table, the HTML page and the
 * demo's summary: percentages with one decimal and a "%" sign (ratios such as the cache hit
 * ratio are shown as percentages too), dollars with two decimals, token counts with thousands
 * separators, milliseconds with two decimals; and the terminal's line wrapping.
 */

/** A percentage (already ×100) with one decimal: 90.3 → "90.3%". `signed` adds "+" to positives. */
export function pct(x: number, signed = false): string {
  const s = `${x.toFixed(1)}%`;
  return signed && x > 0 ? `+${s}` : s === "-0.0%" ? "0.0%" : s;
}

/** A ratio 0..1 as a percentage: 0.903 → "90.3%". */
export const ratioPct = (r: number): string => pct(r * 100);

/** US dollars, two decimals, no sign: 4.891 → "4.89" (the column or label says "$"). */
export const usd = (x: number): string => (Math.abs(x) < 0.005 ? 0 : x).toFixed(2);

/** US dollars with the sign: "$4.89", "-$3.03". */
export const dollars = (x: number): string => (usd(x).startsWith("-") ? `-$${usd(-x)}` : `$${usd(x)}`);

/** A token or call count: 4600000 → "4,600,000". */
export const count = (n: number): string => n.toLocaleString("en-US");

/** Milliseconds, two decimals. */
export const ms = (x: number): string => x.toFixed(2);

/**
 * `text` broken at spaces into lines of at most `width` characters, the first prefixed by
 * `first`, the others by `rest` (a word longer than a line stays whole on its own line).
 */
export function wrap(text: string, width: number, first = "", rest = first): string[] {
  const lines: string[] = [];
  let line = first;
  let empty = true;
  for (const word of text.split(" ").filter((w) => w !== "")) {
    if (!empty && line.length + 1 + word.length > width) {
      lines.push(line);
      line = rest;
      empty = true;
    }
    line += (empty ? "" : " ") + word;
    empty = false;
  }
  lines.push(line);
  return lines;
}
