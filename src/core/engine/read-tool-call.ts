/**
 * Reads what a tool call does from its name and input (pure): which file paths it reads or
 * edits (and which line range a read covers), whether it is read-only and re-runnable, whether
 * its result reports a failure, and an "intent key" that identifies a retry of the same call.
 *
 * Tool names are the ones agents actually send (Claude Code: Read/Edit/MultiEdit/Write/Bash/
 * Glob/Grep/LS/WebFetch; Codex: shell_command/apply_patch; OpenCode: apply_patch with
 * `patchText`; shell reads: ./shell-reads.ts; shell writes: ./shell-writes.ts; SWE-agent-style read_file/
 * write_file; Serena memories; MCP read/list/get tools), checked against the corpus (corpus/seed, corpus/eval/dev).
 */
import type { ToolPair } from "../view/types";
import { shellRead } from "./shell-reads";
import { shellWords } from "./shell-words";
import { shellWrite } from "./shell-writes";

/** A line range of a read, 1-based inclusive; `to` = Infinity for "to the end". */
export interface LineRange {
  from: number;
  to: number;
}

/** What a call does, as far as the rules need to know. */
export type ToolCallInfo =
  /** Reads `paths`; `range` null = a partial read of unknown extent (e.g. tail). */
  | { kind: "read"; paths: string[]; range: LineRange | null; readonly: true; intent: string }
  /**
   * Changes the content of `paths`; `whole` when the call holds the complete new content of every
   * one of them (Write, write_file, create_file, write_memory; an apply_patch that only adds
   * files; the agent's plan or todo list, rewritten whole each time), not only the changed lines
   * (Edit, MultiEdit, an apply_patch that updates a file). A deletion is not whole: it shows
   * nothing of the file, and an agent that deletes a file to write it again writes the new one
   * from the old views.
   */
  | { kind: "edit"; paths: string[]; whole: boolean; readonly: false; intent: string }
  /** Anything else; `readonly` when it only inspects state and can be run again. */
  | { kind: "other"; readonly: boolean; intent: string };

const FULL: LineRange = { from: 1, to: Infinity };
const READ_TOOLS = new Set(["read", "read_file", "readfile", "view", "view_file", "notebookread", "read_text_file", "read_memory"]);
const EDIT_TOOLS = new Set(["edit", "multiedit", "write", "notebookedit", "write_file", "edit_file", "create_file", "apply_patch", "write_memory", "edit_memory", "delete_memory"]);
/** Edit tools whose input is the file's whole new content. */
const WHOLE_WRITE_TOOLS = new Set(["write", "write_file", "create_file", "write_memory"]);
/**
 * Tools that write the agent's plan or todo list whole (Claude Code TodoWrite and
 * exit_plan_mode/ExitPlanMode, Codex update_plan): each call is a whole write of one pseudo-file,
 * `plan:<tool>`, so the latest plan is a current view and the earlier ones are superseded.
 */
const PLAN_TOOLS = new Set(["todowrite", "exit_plan_mode", "exitplanmode", "update_plan"]);
const SHELL_TOOLS = new Set(["bash", "shell", "shell_command", "exec_command", "run_command", "run_shell_command", "terminal", "local_shell"]);
const READONLY_TOOLS = new Set(["glob", "grep", "ls", "list_dir", "webfetch", "websearch", "find_file", "search_files", "list_files", "list_memories", "list_notebooks"]);
/** MCP tool names (after the last "__") that only inspect state. */
const READONLY_VERBS = /^(read|list|get|search|find|export|query|sql_query|view|fetch|describe|show)(_|$)/;
const PATH_KEYS = ["file_path", "path", "filePath", "filename", "notebook_path", "relative_path"] as const;
/** Programs that only read, when used without writing flags (checked per segment). */
const READONLY_PROGRAMS = new Set(["cat", "sed", "head", "tail", "nl", "ls", "find", "rg", "grep", "git", "wc", "pwd", "tree", "du", "stat", "file", "echo", "which", "less", "awk", "jq", "diff", "sort", "uniq", "cut"]);
/** PowerShell cmdlets that only read (PowerShell names are case-insensitive: compared lower-cased). */
const READONLY_CMDLETS = new Set(["get-content", "gc", "select-string", "get-childitem", "select-object"]);
const READONLY_GIT = new Set(["status", "diff", "log", "show", "branch", "ls-files", "rev-parse", "blame"]);

/** The bare tool name: the part after the last "__" (MCP servers prefix theirs), lower-cased. */
export function baseToolName(name: string): string {
  const i = name.lastIndexOf("__");
  return (i >= 0 ? name.slice(i + 2) : name).toLowerCase();
}

/** Normalises a path for comparison: strips "./", collapses "//". */
export function normalisePath(p: string): string {
  let s = p.trim().replace(/\/{2,}/g, "/");
  while (s.startsWith("./")) s = s.slice(2);
  return s;
}

/** Classifies one pair's call. */
export function readToolCall(pair: Pick<ToolPair, "tool_name" | "input_text">): ToolCallInfo {
  const name = baseToolName(pair.tool_name);
  const input = parseInput(pair.input_text);
  if (SHELL_TOOLS.has(name)) return readShellCall(commandOf(input, pair.input_text));
  if (name === "apply_patch") return patchCall(patchTextOf(input) ?? pair.input_text);
  if (PLAN_TOOLS.has(name)) return { kind: "edit", paths: [`plan:${name}`], whole: true, readonly: false, intent: `edit:plan:${name}` };
  const paths = pathsOf(input, name);
  if (READ_TOOLS.has(name) && paths.length > 0) {
    return { kind: "read", paths, range: readRange(input), readonly: true, intent: `${name}:${paths.join(",")}` };
  }
  if (EDIT_TOOLS.has(name) && paths.length > 0) return { kind: "edit", paths, whole: WHOLE_WRITE_TOOLS.has(name), readonly: false, intent: `edit:${paths.join(",")}` };
  const readonly = READONLY_TOOLS.has(name) || READONLY_VERBS.test(name);
  return { kind: "other", readonly, intent: `${pair.tool_name}:${pair.input_text}` };
}

/** True when a result text reports a failure (besides the wire's own is_error flag). */
export function resultLooksFailed(pair: Pick<ToolPair, "tool_name" | "input_text" | "result_text" | "result_is_error">): boolean {
  if (pair.result_is_error) return true;
  const t = pair.result_text.trimStart();
  if (t.startsWith("<tool_use_error>") || t.startsWith("apply_patch verification failed")) return true;
  if (/"exit_code"\s*:\s*[1-9]/.test(t.slice(0, 400)) && t.startsWith("{")) return true;
  const exit = /^(?:Exit code:?|Process exited with code) (\d+)/.exec(t);
  if (exit !== null && exit[1] !== "0") {
    // rg/grep exit 1 means "no match", not a failure.
    const intent = readToolCall(pair).intent;
    const program = intent.startsWith("sh:") ? intent.slice(3).split(" ")[0] : "";
    return !(exit[1] === "1" && (program === "rg" || program === "grep"));
  }
  return /^(Error|error|ERROR)[: ]/.test(t);
}

function parseInput(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** The patch text of an apply_patch input object: its `input` (Codex), `patchText` (OpenCode) or `patch` field; null when none is a string. */
function patchTextOf(input: unknown): string | null {
  if (typeof input !== "object" || input === null) return null;
  const rec = input as Record<string, unknown>;
  for (const k of ["input", "patchText", "patch"]) if (typeof rec[k] === "string") return rec[k] as string;
  return null;
}

function commandOf(input: unknown, raw: string): string {
  if (typeof input === "object" && input !== null) {
    const c = (input as Record<string, unknown>).command ?? (input as Record<string, unknown>).cmd;
    if (typeof c === "string") return c;
    if (Array.isArray(c)) {
      const parts = c.filter((x): x is string => typeof x === "string");
      // ["bash", "-lc", "<script>"] → the script.
      return parts.length >= 3 && /sh$/.test(parts[0]!) && parts[1]!.startsWith("-") ? parts.slice(2).join(" ") : parts.join(" ");
    }
  }
  return typeof input === "string" ? input : raw;
}

function pathsOf(input: unknown, name: string): string[] {
  if (typeof input !== "object" || input === null) return [];
  const rec = input as Record<string, unknown>;
  if (name.endsWith("memory") && typeof rec.memory_file_name === "string") return [`memory:${rec.memory_file_name}`];
  for (const k of PATH_KEYS) {
    const v = rec[k];
    if (typeof v === "string" && v.length > 0) return [normalisePath(v)];
  }
  return [];
}

function readRange(input: unknown): LineRange | null {
  if (typeof input !== "object" || input === null) return FULL;
  const rec = input as Record<string, unknown>;
  const offset = typeof rec.offset === "number" ? rec.offset : null;
  const limit = typeof rec.limit === "number" ? rec.limit : null;
  if (offset === null && limit === null) return FULL;
  const from = Math.max(1, offset ?? 1);
  return { from, to: limit === null ? Infinity : from + limit - 1 };
}

/** File paths named by an apply_patch body ("*** Add/Update/Delete File:", "*** Move to:"), sorted, unique. */
export function patchPaths(text: string): string[] {
  const out = new Set<string>();
  for (const m of text.matchAll(/^\*\*\* (?:Add File|Update File|Delete File|Move to): (.+)$/gm)) out.add(normalisePath(m[1]!));
  return [...out].sort();
}

/** An apply_patch call: whole when it only adds files ("*** Add File:", the full content follows), none updated, deleted or moved. */
function patchCall(text: string): ToolCallInfo {
  const paths = patchPaths(text);
  const whole = paths.length > 0 && !/^\*\*\* (?:Update File|Delete File|Move to): /m.test(text);
  return { kind: "edit", paths, whole, readonly: false, intent: `patch:${paths.join(",")}` };
}


function readShellCall(command: string): ToolCallInfo {
  const cmd = command.trim();
  if (/^apply_patch\b/.test(cmd) || cmd.includes("*** Begin Patch")) return patchCall(cmd);
  const flat = cmd.replace(/\s+/g, " ");
  const intent = `sh:${flat}`;
  // A leading `cd DIR;` / `cd DIR &&` only sets where the rest runs: the rest's paths are under DIR.
  const cd = /^cd ("[^"]+"|'[^']+'|[^\s;&|]+) ?(?:;|&&) ?/.exec(flat);
  const dir = cd === null ? null : cd[1]!.replace(/^["']|["']$/g, "");
  const cleaned = (cd === null ? flat : flat.slice(cd[0].length)).replace(/\s2>(?:&1|\/dev\/null)/g, "");
  const resolve = (x: string) => normalisePath(dir === null || isAbsolute(x) ? x : `${dir}/${x}`);
  // A file the command writes from its own text (a here-document, a PowerShell here-string) is an edit of that file: ./shell-writes.ts.
  const write = shellWrite(cmd);
  if (write !== null) {
    const paths = write.paths.map(resolve);
    return { kind: "edit", paths, whole: write.whole, readonly: false, intent: `write:${paths.join(",")}` };
  }
  const segments = cleaned.split(/\s*(?:\|\||&&|\||;)\s*/);
  const readonly = !/[<>`]|\$\(/.test(cleaned) && !cmd.includes("\n") && segments.every(isReadonlySegment);
  const pipeline = cleaned.split(/\s*\|\s*/);
  if (readonly && !/\|\||&&|;/.test(cleaned)) {
    const read = shellRead(pipeline.map(shellWords));
    if (read !== null) return { kind: "read", paths: read.paths.map(resolve), range: read.range, readonly: true, intent };
  }
  return { kind: "other", readonly, intent };
}

/** An absolute path (POSIX, home-relative or a Windows drive). */
function isAbsolute(p: string): boolean {
  return p.startsWith("/") || p.startsWith("~") || /^[A-Za-z]:[\\/]/.test(p);
}

function isReadonlySegment(seg: string): boolean {
  const w = shellWords(seg);
  const prog = w[0] ?? "";
  if (READONLY_CMDLETS.has(prog.toLowerCase())) return true;
  if (!READONLY_PROGRAMS.has(prog)) return false;
  if (prog === "sed") return !w.some((x) => x.startsWith("-i"));
  if (prog === "find") return !w.some((x) => x === "-delete" || x === "-exec" || x === "-execdir");
  if (prog === "git") return READONLY_GIT.has(w[1] ?? "");
  return true;
}
