/**
 * The reference engine's deterministic extractive summariser (pure): what a closed stretch of
 * turns did, in four sections, with paths, commands and error messages kept verbatim (the
 * seed's archival summaries keep "files touched, commands, errors and fixes,
 * decisions"):
 *
 *   Files touched:   one line per path, in first-seen order, with the actions on it
 *                    (`added`/`updated`/`deleted`/`moved` from apply_patch text; otherwise the tool name)
 *   Commands run:    one line per run with its exit status (`exit N`; `ok`/`error` when the
 *                    result states none); consecutive identical runs fold into `(×n)`
 *   Errors:          each failed call (result `is_error` or a non-zero exit) with its first
 *                    error line, and its fix: the next successful run of the same command (or the
 *                    same tool on the same file), naming the files changed in between
 *   Decisions:       assistant lines starting `Decision:`, `Rationale:` or `Evidence:` (the seed's
 *                    decision-record format; `- ` and `**` markers allowed)
 *
 * Sections with nothing are left out; a stretch with nothing to report gives "" (no summary).
 * Bounded: each line is cut at `line_chars`, each section at its item cap, the whole text at
 * `max_chars` (on a line boundary, with a closing note). Same input, same bytes out.
 */
import type { SummaryPart, SummaryTurn } from "./types";

/** Caps of the extractive summary (our bounds: a summary must stay far below what it replaces). */
export interface ExtractLimits {
  /** Whole summary, characters. */
  max_chars: number;
  /** One line (a path, a command, an error message), characters. */
  line_chars: number;
  files: number;
  commands: number;
  errors: number;
  decisions: number;
}

export const EXTRACT_LIMITS: ExtractLimits = { max_chars: 4_000, line_chars: 300, files: 40, commands: 40, errors: 20, decisions: 20 };

/** Tool names (lower case, prefix) that only read: their files are touched but not changed. */
const READ_ONLY_TOOL = /^(read|view|cat|grep|glob|ls|search|find)/i;
/** Input keys that name a file (Claude Code Read/Edit/Write/NotebookEdit, generic tools). */
const FILE_KEYS = ["file_path", "notebook_path", "path", "filePath", "filename"] as const;
const PATCH_FILE = /^\*\*\* (Add|Update|Delete) File: (.+)$/gm;
const PATCH_MOVE = /^\*\*\* Move to: (.+)$/gm;
const ERROR_WORDS = /error|fail|exception|traceback|fatal|panic|denied|cannot|can't|not found|no such|invalid|unexpected/i;
const EXCEPTION_LINE = /^[\w.]*(Error|Exception)\b:/;
const TRACEBACK_HEAD = /^Traceback \(most recent call last\)/;
const DECISION_LINE = /^\s*(?:[-*]\s+)?(?:\*\*)?(?:Decision|Rationale|Evidence)(?:\*\*)?\s*:/i;

interface CallFacts {
  name: string;
  files: { path: string; action: string }[];
  command: string | null;
  status: number | null;
  failed: boolean;
  result_text: string | null;
}

/** Summarises `turns` (oldest first). Returns "" when the stretch holds nothing to report. */
export function extractSummary(turns: readonly SummaryTurn[], limits: ExtractLimits = EXTRACT_LIMITS): string {
  const parts = turns.flatMap((t) => t.parts.map((p) => ({ role: t.role, part: p })));
  const results = new Map<string, Extract<SummaryPart, { type: "tool_result" }>>();
  for (const { part } of parts) if (part.type === "tool_result" && !results.has(part.id)) results.set(part.id, part);
  const calls: CallFacts[] = [];
  const decisions: string[] = [];
  for (const { role, part } of parts) {
    if (part.type === "tool_call") calls.push(callFacts(part.name, part.input, results.get(part.id) ?? null));
    if (part.type === "text" && role === "assistant") {
      for (const line of part.text.split("\n")) if (DECISION_LINE.test(line)) decisions.push(cut(line.trim(), limits.line_chars));
    }
  }
  const sections = [
    section("Files touched:", fileLines(calls, limits), limits.files),
    section("Commands run:", commandLines(calls, limits), limits.commands),
    section("Errors:", errorLines(calls, limits), limits.errors),
    section("Decisions:", decisions.map((d) => `- ${d}`), limits.decisions),
  ].filter((s) => s !== "");
  if (sections.length === 0) return "";
  return bound(sections.join("\n"), limits.max_chars);
}

function callFacts(name: string, input: string, result: { text: string; is_error: boolean } | null): CallFacts {
  const json = parseJson(input);
  const command = commandOf(json);
  const status = result === null ? null : exitStatus(result.text);
  return {
    name,
    files: filesOf(name, input, json),
    command,
    status,
    failed: result !== null && (result.is_error || (status !== null && status !== 0)),
    result_text: result?.text ?? null,
  };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** Every string inside a JSON value (depth-first, in order). */
function strings(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (Array.isArray(value)) return value.flatMap(strings);
  if (value !== null && typeof value === "object") return Object.values(value).flatMap(strings);
  return [];
}

function filesOf(name: string, input: string, json: unknown): { path: string; action: string }[] {
  const out: { path: string; action: string }[] = [];
  for (const text of [input, ...strings(json)]) {
    for (const m of text.matchAll(PATCH_FILE)) out.push({ path: m[2]!.trim(), action: `${m[1]!.toLowerCase()}${m[1] === "Add" ? "ed" : "d"}` });
    for (const m of text.matchAll(PATCH_MOVE)) out.push({ path: m[1]!.trim(), action: "moved" });
  }
  if (out.length === 0 && json !== null && typeof json === "object" && !Array.isArray(json)) {
    const record = json as Record<string, unknown>;
    for (const key of FILE_KEYS) {
      const v = record[key];
      if (typeof v === "string" && v !== "") { out.push({ path: v, action: name }); break; }
    }
  }
  return out;
}

/** The shell command of a call: `command` (string, or argv with `bash -lc X` unwrapped) or `cmd`. */
function commandOf(json: unknown): string | null {
  if (json === null || typeof json !== "object" || Array.isArray(json)) return null;
  const { command, cmd } = json as Record<string, unknown>;
  if (typeof command === "string") return command;
  if (Array.isArray(command) && command.every((c) => typeof c === "string") && command.length > 0) {
    const argv = command as string[];
    if (argv[0] === "apply_patch") return null;
    if (argv.length === 3 && /(^|\/)(ba|z|)sh$/.test(argv[0]!) && /^-l?c$/.test(argv[1]!)) return argv[2]!;
    return argv.join(" ");
  }
  return typeof cmd === "string" ? cmd : null;
}

/** The exit status a result states: Codex `Exit code: N` / `metadata.exit_code`, Claude Code `Exit code N`. */
function exitStatus(text: string): number | null {
  const head = /^Exit code:? (-?\d+)/m.exec(text);
  if (head) return Number(head[1]);
  const json = parseJson(text) as { metadata?: { exit_code?: unknown } } | null;
  const code = json?.metadata?.exit_code;
  if (typeof code === "number" && Number.isInteger(code)) return code;
  const said = /(?:exit status|exited with code)[: ]+(-?\d+)/i.exec(text);
  return said ? Number(said[1]) : null;
}

function fileLines(calls: readonly CallFacts[], limits: ExtractLimits): string[] {
  const files = new Map<string, string[]>();
  for (const c of calls) {
    for (const f of c.files) {
      const actions = files.get(f.path) ?? [];
      if (!actions.includes(f.action)) actions.push(f.action);
      files.set(f.path, actions);
    }
  }
  return [...files].map(([path, actions]) => `- ${cut(path, limits.line_chars)} (${actions.join(", ")})`);
}

function statusText(c: CallFacts): string {
  if (c.status !== null) return `exit ${c.status}`;
  return c.failed ? "error" : "ok";
}

function commandLines(calls: readonly CallFacts[], limits: ExtractLimits): string[] {
  const runs: { line: string; times: number }[] = [];
  for (const c of calls) {
    if (c.command === null) continue;
    const line = `\`${cut(firstLine(c.command), limits.line_chars)}\` → ${statusText(c)}`;
    const last = runs[runs.length - 1];
    if (last?.line === line) last.times++;
    else runs.push({ line, times: 1 });
  }
  return runs.map((r) => `- ${r.line}${r.times > 1 ? ` (×${r.times})` : ""}`);
}

function errorLines(calls: readonly CallFacts[], limits: ExtractLimits): string[] {
  // A retry is the same command's first line (a re-sent heredoc patch differs only below it), or
  // the same tool on the same file.
  const key = (c: CallFacts) => (c.command !== null ? firstLine(c.command) : `${c.name} ${c.files[0]?.path ?? ""}`);
  const out: string[] = [];
  calls.forEach((c, i) => {
    if (!c.failed) return;
    const on = c.files.length > 0 ? ` on ${c.files.map((f) => f.path).join(", ")}` : "";
    const what = c.command !== null ? `\`${cut(firstLine(c.command), limits.line_chars)}\` (${statusText(c)})${on}` : `${c.name}${on}`;
    const message = errorMessage(c.result_text ?? "", limits.line_chars);
    const j = calls.findIndex((later, k) => k > i && !later.failed && key(later) === key(c));
    let fix = "not resolved in this stretch";
    if (j >= 0) {
      const changed = [...new Set(calls.slice(i + 1, j).filter((b) => !READ_ONLY_TOOL.test(b.name)).flatMap((b) => b.files.map((f) => f.path)))];
      fix = changed.length > 0 ? `fixed: ${changed.join(", ")} changed, then it succeeded` : "fixed: it succeeded when run again";
    }
    out.push(`- ${what}: ${message} — ${fix}`);
  });
  return out;
}

/**
 * The error line of a result, verbatim (Codex headers skipped; JSON `output` unwrapped): the last
 * `SomethingError: …`/`…Exception: …` line (a traceback ends with it), else the first line with an
 * error word, else the first line.
 */
function errorMessage(text: string, max: number): string {
  const json = parseJson(text) as { output?: unknown } | null;
  const body = typeof json?.output === "string" ? json.output : text;
  const lines = body.split("\n").map((l) => l.trim()).filter((l) => l !== "" && !/^(Exit code:?|Wall time:|Output:)/.test(l));
  const raised = lines.filter((l) => EXCEPTION_LINE.test(l)).pop();
  const line = raised ?? lines.find((l) => ERROR_WORDS.test(l) && !TRACEBACK_HEAD.test(l)) ?? lines[0] ?? "(no output)";
  return cut(line, max);
}

function firstLine(text: string): string {
  const nl = text.indexOf("\n");
  return nl < 0 ? text : `${text.slice(0, nl)} …`;
}

function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}…`;
}

function section(title: string, lines: readonly string[], cap: number): string {
  if (lines.length === 0) return "";
  const shown = lines.slice(0, cap);
  if (lines.length > cap) shown.push(`- … and ${lines.length - cap} more`);
  return [title, ...shown].join("\n");
}

/** Cuts `text` at the last line break that leaves room for the closing note; a section title left without lines goes too. */
function bound(text: string, max: number): string {
  if (text.length <= max) return text;
  const note = `\n… (summary cut at ${max} characters)`;
  const lines = text.slice(0, Math.max(0, text.lastIndexOf("\n", Math.max(0, max - note.length)))).split("\n");
  if (lines.length > 0 && !lines[lines.length - 1]!.startsWith("- ")) lines.pop();
  return `${lines.join("\n")}${note}`;
}
