/**
 * Figure markers in the docs (pure). A figure a command measures stands between
 * `<!-- figure:NAME -->` and `<!-- /figure -->`; `npm run docs:figures` (./main.ts) rewrites
 * what is between them with the value it measured, so no figure in the docs is typed in by hand.
 */

/** One marked figure found in a text: its name and current content. */
export interface MarkedFigure {
  name: string;
  content: string;
}

const MARKER = /<!-- figure:([a-z0-9-]+) -->([\s\S]*?)<!-- \/figure -->/g;

/** The marked figures of `text`, in order. */
export function findFigures(text: string): MarkedFigure[] {
  return [...text.matchAll(MARKER)].map((m) => ({ name: m[1]!, content: m[2]! }));
}

/**
 * `text` with the content of every marked figure named in `values` replaced by its value; figures
 * not in `values` stay as they are. Returns the new text and the names whose content changed.
 */
export function replaceFigures(text: string, values: Readonly<Record<string, string>>): { text: string; changed: string[] } {
  const changed: string[] = [];
  const out = text.replace(MARKER, (whole, name: string, content: string) => {
    const v = values[name];
    if (v === undefined) return whole;
    if (v !== content) changed.push(name);
    return `<!-- figure:${name} -->${v}<!-- /figure -->`;
  });
  return { text: out, changed };
}
