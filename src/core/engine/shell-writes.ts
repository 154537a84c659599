/**
 * Which files a shell command writes, and whether it writes them whole (pure): the file writes
 * agents run through their shell tool instead of an edit tool, so the agent's own text of a file
 * counts as its view of that file (./file-views.ts) whatever tool wrote it.
 *
 * - a here-document into `cat` or `tee`: `cat > F <<'EOF'`, `cat <<EOF > F`, `tee F <<EOF`
 *   (whole; `cat >> F`, `tee -a F` append: an edit that shows only the added lines);
 * - a PowerShell here-string into a content cmdlet (Codex on Windows): `@'…'@ | Set-Content F`,
 *   `Set-Content -Path F -Value @'…'@`, `Out-File -FilePath F` (whole; `Add-Content` appends);
 * - `Set-Content $p …` / `Set-Content -Path $p …` where the command assigned `$p = 'F'`
 *   (an edit, not whole: the value written is computed, e.g. `$t.Replace(…)`, so the command
 *   does not show the new content).
 * Anything else (a script that writes files, `sed -i`, `>` from another program) is not a write
 * here (null). Paths are returned as written; the caller resolves and normalises them.
 *
 * Checked against the corpus sessions (corpus/seed, corpus/eval/dev: the Codex rollout on
 * Windows writes whole source files with `@'…'@ | Set-Content`).
 */
import { shellWords } from "./shell-words";

/** The files a command writes; `whole` when it holds the complete new content of every one. */
export interface ShellWrite {
  paths: string[];
  whole: boolean;
}

/** Content cmdlets (lower-cased) and whether they replace the file (Add-Content appends). */
const CONTENT_CMDLETS: ReadonlyMap<string, boolean> = new Map([
  ["set-content", true],
  ["out-file", true],
  ["add-content", false],
]);
/** Content-cmdlet parameters that name the file. */
const PS_PATH_FLAGS = new Set(["-path", "-literalpath", "-filepath"]);
/** Content-cmdlet parameters that take a value other than the file. */
const PS_VALUE_FLAGS = new Set(["-value", "-encoding", "-width", "-delimiter", "-stream", "-filter", "-include", "-exclude", "-credential"]);

/**
 * The writes `command` (the whole shell command, here-document bodies included) performs, or null
 * when it performs none. Only the command's own lines are read: the body of a here-document or a
 * here-string is the text written, and a command inside it (a script's `cat > F <<EOF`) is not run.
 */
export function shellWrite(command: string): ShellWrite | null {
  const found: Array<{ path: string; whole: boolean }> = [];
  const lines = commandLines(command);
  const vars = psAssignments(lines.join("\n"));
  for (const line of lines) {
    for (const seg of line.split(/\s*(?:;|&&|\|\|)\s*/)) {
      const heredoc = heredocWrite(seg);
      if (heredoc !== null) found.push(heredoc);
    }
    const ps = psWrite(line, vars);
    if (ps !== null) found.push(ps);
  }
  if (found.length === 0) return null;
  return { paths: [...new Set(found.map((w) => w.path))], whole: found.every((w) => w.whole) };
}

/**
 * The lines of `command` outside here-document and here-string bodies. A here-document's body
 * runs from the line after its `<<DELIM` (`<<-DELIM`: leading tabs allowed on the closing line) to
 * the line that is DELIM; a PowerShell here-string's from the line after one ending in `@'` / `@"`
 * to the line starting with `'@` / `"@`, which is kept (its `'@ | Set-Content F` is the write).
 */
function commandLines(command: string): string[] {
  const out: string[] = [];
  const delims: Array<{ word: string; tabs: boolean }> = [];
  let closer: string | null = null;
  for (const line of command.split("\n")) {
    if (delims.length > 0) {
      const d = delims[0]!;
      if ((d.tabs ? line.replace(/^\t+/, "") : line) === d.word) delims.shift();
      continue;
    }
    if (closer !== null) {
      if (!line.startsWith(closer)) continue;
      closer = null;
    }
    out.push(line);
    for (const m of line.matchAll(/<<(?!<)(-?)\s*(?:'([^']*)'|"([^"]*)"|([A-Za-z_]\w*))/g)) delims.push({ word: m[2] ?? m[3] ?? m[4]!, tabs: m[1] === "-" });
    const opener = /@(['"])\s*$/.exec(line);
    if (opener !== null && delims.length === 0) closer = `${opener[1]}@`;
  }
  return out;
}


/** `cat > F <<EOF`, `cat <<EOF >> F`, `tee [-a] F <<EOF`: the file and whether it is replaced. */
function heredocWrite(seg: string): { path: string; whole: boolean } | null {
  const at = seg.search(/<<(?!<)/);
  if (at < 0) return null;
  // The here-document marker (`<<'EOF'`, `<<-EOF`) is not an operand.
  const rest = (seg.slice(0, at) + " " + seg.slice(at).replace(/^<<-?\s*(?:'[^']*'|"[^"]*"|\S+)/, "")).trim();
  const w = shellWords(rest);
  if (w[0] === "cat") {
    const m = /(>>?)\s*(?:'([^']+)'|"([^"]+)"|([^\s;&|<>]+))/.exec(rest);
    if (m === null) return null;
    const path = m[2] ?? m[3] ?? m[4]!;
    // A path held in a variable (`cat > "$OUT"`) names no file the command shows.
    return path === "/dev/null" || path.startsWith("$") ? null : { path, whole: m[1] === ">" };
  }
  if (w[0] === "tee") {
    const operands = w.slice(1).filter((x) => !x.startsWith("-") && !x.startsWith(">"));
    if (operands.length !== 1 || operands[0] === "/dev/null") return null;
    return { path: operands[0]!, whole: !w.slice(1).some((x) => x === "-a" || x === "--append") };
  }
  return null;
}

/** `$name = 'literal'` assignments in a PowerShell command (name lower-cased → value). */
function psAssignments(command: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of command.matchAll(/\$(\w+)\s*=\s*(?:'([^'\n]+)'|"([^"\n$]+)")/g)) out.set(m[1]!.toLowerCase(), m[2] ?? m[3]!);
  return out;
}

/**
 * A content cmdlet on `line`: after a here-string's closing `'@ |` / `"@ |`, or with `-Value @'`
 * opening one, it writes the here-string (whole for Set-Content and Out-File); with a variable
 * naming an assigned path, a computed value (never whole). Another program's output piped into it
 * (`npm test | Set-Content t.log`) is not the agent's text of the file: no write.
 */
function psWrite(line: string, vars: ReadonlyMap<string, string>): { path: string; whole: boolean } | null {
  const m = /(?:^|[;|(]\s*|^\s*['"]@\s*\|\s*)(set-content|out-file|add-content)\b([^;|]*)/i.exec(line);
  if (m === null) return null;
  const replaces = CONTENT_CMDLETS.get(m[1]!.toLowerCase())!;
  const fromHereString = /^\s*['"]@\s*\|/.test(line) || /-value\s+@['"]\s*$/i.test(m[2]!);
  const path = psPathOperand(shellWords(m[2]!));
  if (path === null) return null;
  if (path.startsWith("$")) {
    const value = vars.get(path.slice(1).toLowerCase());
    return value === undefined ? null : { path: value, whole: false };
  }
  return fromHereString ? { path, whole: replaces } : null;
}

/** The file a content cmdlet's arguments name: its -Path/-LiteralPath/-FilePath value, else the first positional operand. */
function psPathOperand(args: readonly string[]): string | null {
  let positional: string | null = null;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const flag = a.toLowerCase();
    if (PS_PATH_FLAGS.has(flag)) return args[i + 1] ?? null;
    if (PS_VALUE_FLAGS.has(flag)) {
      i++;
      continue;
    }
    if (flag.startsWith("-")) continue;
    if (positional === null) positional = a;
  }
  return positional;
}
