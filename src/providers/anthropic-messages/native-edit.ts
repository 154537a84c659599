/**
 * The native mechanism's request edit for Anthropic Messages (pure; DESIGN §2 "Two mechanisms,
 * one decision"): Sluice forwards the history byte for byte and inserts one server-side
 * `clear_tool_uses_20250919` edit (or, on a summarising step at level `rewrite`, one
 * `compact_20260112` edit) into `context_management.edits`, after the client's own edits
 * (the documented rule: `clear_thinking_20251015` stays first). Nothing is re-serialised: the edit
 * is the only inserted text (with its separator), every other byte is the client's.
 *
 * Parameters (platform.claude.com build-with-claude/context-editing; @anthropic-ai/sdk
 * BetaClearToolUses20250919Edit): the provider clears the oldest clearable tool uses and keeps
 * the most recent `keep`; `exclude_tools` are never cleared. Chosen so the cleared set changes
 * only at Sluice's steps:
 * - `trigger` {type "input_tokens", value 1}: the lowest value the API accepts (≥ 1); the edit
 *   fires once the prompt exceeds it, i.e. on every real request;
 * - `keep` {type "tool_uses", value clearable − C}: C = the number of leading clearable tool uses
 *   the session's ledger removed. Each new tool use raises `keep` by one, so the provider clears
 *   the same C uses on every request until Sluice's next step, and the cached prefix stays stable;
 * - `exclude_tools`: the config's `exclude_tools` (omitted when empty). They are left out of the
 *   clearable count (read as "excluded uses are neither cleared nor counted toward keep"; if the
 *   provider counted them, `applied_edits` reports a different count and the session records it);
 * - `clear_tool_inputs` false: only results go. One flag covers every cleared use, so following a
 *   per-pair `drop_pair` verdict would change already-cleared uses (and the cache) at each step;
 *   the inputs are small and keep the model aware of what was called.
 * `clear_at_least` is not sent: Sluice's cost model already decided the step is worth its cache
 * write, and a floor could stop the provider from clearing what the ledger counts as removed.
 */
import type { NativeParams } from "../../core/policy/resolve-mechanism";
import type { EditPlan } from "../../core/plan/types";
import { getMember, type JsonNode } from "../shared/json-scan";
import { decodeString, locateHistory } from "./locate-blocks";
import type { AnthropicMemos } from "../../core/caches";

/** The beta the edit needs in `anthropic-beta` (platform.claude.com build-with-claude/context-editing). */
export const CONTEXT_MANAGEMENT_BETA = "context-management-2025-06-27";

/** The one edit Sluice adds (key order as serialised). */
export interface NativeClearEdit {
  type: "clear_tool_uses_20250919";
  trigger: { type: "input_tokens"; value: 1 };
  keep: { type: "tool_uses"; value: number };
  exclude_tools?: string[];
  clear_tool_inputs: false;
}

/**
 * The server-side compaction edit Sluice adds on its summarising step (src/core/policy/native-compaction.ts;
 * @anthropic-ai/sdk BetaCompact20260112Edit): only `trigger`, so the provider's defaults hold for
 * everything else (no `pause_after_compaction`: the answer continues after the summary; no
 * `instructions`: the provider's own summarisation prompt).
 */
export interface NativeCompactEdit {
  type: "compact_20260112";
  trigger: { type: "input_tokens"; value: number };
}

/** The beta the compaction edit needs in `anthropic-beta` (platform.claude.com build-with-claude/compaction). */
export const COMPACTION_BETA = "compact-2026-01-12";

/** The rendered edit and what it stands for. */
export interface NativeRender {
  edit: NativeClearEdit | NativeCompactEdit;
  /** C: leading clearable tool uses the ledger removed (what the provider should report as cleared_tool_uses). */
  cleared: number;
  /** Clearable tool uses in the request (client `tool_use` blocks whose tool is not excluded). */
  clearable: number;
  /** Ids of the C cleared tool uses, in history order. */
  cleared_ids: string[];
}

/** Plan actions that the provider's clearing stands for (the result goes; its call stays). */
const CLEARED_KINDS = new Set(["drop_result", "drop_pair"]);

/**
 * The edit for `plan` over the request (`bytes`, `root` as scanned), or null when the plan
 * clears no leading tool use (nothing to send). With `params.compact` (the summarising step), the
 * compaction edit alone, clearing nothing: the summary covers the whole history, and a clearing
 * before it would change what the trigger counts. Tool uses before the history's last `compaction`
 * block are not counted: the provider drops every block before it. `memos` keeps the located
 * messages (the request's read already filled it). Throws AnthropicShapeError on a malformed
 * history.
 */
export function renderNativeEdit(bytes: Uint8Array, root: JsonNode, plan: EditPlan, params: NativeParams, memos: Pick<AnthropicMemos, "messages">): NativeRender | null {
  if (params.compact !== undefined) {
    const edit: NativeCompactEdit = { type: "compact_20260112", trigger: { type: "input_tokens", value: params.compact.trigger_tokens } };
    return { edit, cleared: 0, clearable: 0, cleared_ids: [] };
  }
  const excluded = new Set(params.exclude_tools);
  const ids: string[] = [];
  for (const m of locateHistory(bytes, root, memos).messages) {
    if (m.role !== "assistant") continue;
    for (const b of m.blocks) {
      if (b.kind === "compaction") ids.length = 0;
      if (b.kind !== "tool_use") continue;
      const name = getMember(b.node, "name");
      const field = `messages[${m.index}].content[${b.index}]`;
      if (name !== undefined && excluded.has(decodeString(bytes, name, `${field}.name`))) continue;
      const id = getMember(b.node, "id");
      ids.push(id === undefined ? "" : decodeString(bytes, id, `${field}.id`));
    }
  }
  let cleared = 0;
  while (cleared < ids.length && CLEARED_KINDS.has(plan.actions[ids[cleared]!]?.kind ?? "keep")) cleared++;
  if (cleared === 0) return null;
  const edit: NativeClearEdit = {
    type: "clear_tool_uses_20250919",
    trigger: { type: "input_tokens", value: 1 },
    keep: { type: "tool_uses", value: ids.length - cleared },
    ...(params.exclude_tools.length > 0 ? { exclude_tools: [...params.exclude_tools] } : {}),
    clear_tool_inputs: false,
  };
  return { edit, cleared, clearable: ids.length, cleared_ids: ids.slice(0, cleared) };
}

/** Thrown when the request's `context_management` cannot take an inserted edit (the gateway then fails open). */
export class NativeInsertError extends Error {
  constructor(field: string, problem: string) {
    super(`${field}: ${problem}`);
    this.name = "NativeInsertError";
  }
}

const encoder = new TextEncoder();

/**
 * `bytes` with `edit` inserted as the last element of `context_management.edits` (creating
 * `edits`, or a top-level `"context_management":{"edits":[…]}` after the last member, when
 * absent). One contiguous insertion; every other byte is unchanged. Throws NativeInsertError when
 * `context_management` or its `edits` is present but not an object / array (e.g. `null`).
 */
export function insertNativeEdit(bytes: Uint8Array, root: JsonNode, edit: NativeClearEdit | NativeCompactEdit): Uint8Array {
  if (root.type !== "object") throw new NativeInsertError("body", "expected an object");
  const e = JSON.stringify(edit);
  const cm = getMember(root, "context_management");
  let at: number;
  let text: string;
  if (cm === undefined) {
    const last = root.entries.at(-1);
    at = last ? last.value.end : root.start + 1;
    text = `${last ? "," : ""}"context_management":{"edits":[${e}]}`;
  } else {
    if (cm.type !== "object") throw new NativeInsertError("context_management", `expected an object, got ${cm.type}`);
    if (cm.duplicateKeys) throw new NativeInsertError("context_management", "duplicate keys");
    const edits = getMember(cm, "edits");
    if (edits === undefined) {
      at = cm.start + 1;
      text = `"edits":[${e}]${cm.entries.length > 0 ? "," : ""}`;
    } else {
      if (edits.type !== "array") throw new NativeInsertError("context_management.edits", `expected an array, got ${edits.type}`);
      const last = edits.items.at(-1);
      at = last ? last.end : edits.start + 1;
      text = `${last ? "," : ""}${e}`;
    }
  }
  const ins = encoder.encode(text);
  const out = new Uint8Array(bytes.length + ins.length);
  out.set(bytes.subarray(0, at), 0);
  out.set(ins, at);
  out.set(bytes.subarray(at), at + ins.length);
  return out;
}
