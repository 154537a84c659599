/**
 * Which file a read-only shell command shows, and which of its lines (pure): the one-command
 * reads agents run — `cat`, `nl`, `head`, `tail`, `sed -n 'A,Bp'`, and PowerShell's
 * `Get-Content` (Codex on Windows: `Get-Content -Path F -TotalCount N`, `-Tail N`) — and the
 * numbered listings piped to a line window (`nl -ba F | sed -n 'A,Bp'`, `cat -n F | sed -n
 * 'A,Bp'`: mini-swe-agent and Codex). Anything else is not a read (null). Paths are returned as
 * written; the caller normalises them.
 *
 * Checked against the corpus sessions (corpus/seed, corpus/eval/dev).
 */
import type { LineRange } from "./read-tool-call";

/** A read: the files and the lines shown (null = a part of unknown extent, e.g. `tail`). */
export interface ShellRead {
  paths: string[];
  range: LineRange | null;
}

const FULL: LineRange = { from: 1, to: Infinity };
/** PowerShell's names for Get-Content (case-insensitive). */
const GET_CONTENT = new Set(["get-content", "gc"]);
/** Get-Content parameters that take a value, and the ones that bound the lines shown. */
const GC_VALUE_FLAGS = new Set(["-path", "-literalpath", "-encoding", "-readcount", "-delimiter", "-totalcount", "-head", "-first", "-tail", "-last"]);

/** The read `segments` (the words of each `|`-separated part of one command) perform, or null. */
export function shellRead(segments: readonly (readonly string[])[]): ShellRead | null {
  if (segments.length === 1) return oneCommand(segments[0]!);
  if (segments.length === 2) return numberedWindow(segments[0]!, segments[1]!);
  return null;
}

function oneCommand(w: readonly string[]): ShellRead | null {
  const prog = w[0] ?? "";
  const operands = (from: number) => w.slice(from).filter((x) => !x.startsWith("-"));
  if (GET_CONTENT.has(prog.toLowerCase())) return getContent(w);
  switch (prog) {
    case "cat":
    case "nl": {
      const p = operands(1);
      return p.length > 0 ? { paths: p, range: FULL } : null;
    }
    case "sed": {
      // sed -n 'A,Bp' FILE
      if (w[1] !== "-n" || w.length !== 4) return null;
      const range = linesWindow(w[2]!);
      return range === null ? null : { paths: [w[3]!], range };
    }
    case "head": {
      let n = 10;
      let i = 1;
      if (w[1] === "-n" && w[2] !== undefined) {
        n = Number(w[2]);
        i = 3;
      } else if (w[1] !== undefined && /^-\d+$/.test(w[1])) {
        n = Number(w[1].slice(1));
        i = 2;
      }
      const p = operands(i);
      return p.length === 1 && Number.isFinite(n) ? { paths: p, range: { from: 1, to: n } } : null;
    }
    case "tail": {
      const p = w.slice(1).filter((x, k, a) => !x.startsWith("-") && !(k > 0 && a[k - 1] === "-n"));
      return p.length === 1 ? { paths: p, range: null } : null;
    }
    default:
      return null;
  }
}

/** `Get-Content [-Path] F [-TotalCount|-Head|-First N] [-Tail|-Last N] [-Raw]`; a variable or wildcard path is not a read. */
function getContent(w: readonly string[]): ShellRead | null {
  const paths: string[] = [];
  let range: LineRange | null = FULL;
  for (let i = 1; i < w.length; i++) {
    const x = w[i]!;
    const flag = x.toLowerCase();
    if (!flag.startsWith("-")) {
      paths.push(x);
      continue;
    }
    if (!GC_VALUE_FLAGS.has(flag)) continue;
    const v = w[++i];
    if (v === undefined) return null;
    if (flag === "-path" || flag === "-literalpath") paths.push(v);
    else if (flag === "-totalcount" || flag === "-head" || flag === "-first") range = /^\d+$/.test(v) ? { from: 1, to: Number(v) } : null;
    else if (flag === "-tail" || flag === "-last") range = null;
  }
  if (paths.length !== 1 || /[$*?]/.test(paths[0]!)) return null;
  return { paths, range };
}

/** `nl -ba F | sed -n 'A,Bp'` or `cat -n F | sed -n 'A,Bp'`: lines A to B of F. */
function numberedWindow(first: readonly string[], second: readonly string[]): ShellRead | null {
  if (first[0] !== "nl" && !(first[0] === "cat" && first.includes("-n"))) return null;
  const p = first.slice(1).filter((x) => !x.startsWith("-"));
  if (p.length !== 1 || second[0] !== "sed" || second[1] !== "-n" || second.length !== 3) return null;
  const range = linesWindow(second[2]!);
  return range === null ? null : { paths: p, range };
}

/** A sed line window `A,Bp`, or null. */
function linesWindow(script: string): LineRange | null {
  const m = /^(\d+),(\d+)p$/.exec(script);
  return m === null ? null : { from: Number(m[1]), to: Number(m[2]) };
}
