/**
 * The native mechanism's guarantee checker (pure, independent of the inserter: it re-scans both
 * bodies and compares members, never the inserter's offsets). At native, Sluice writes exactly
 * one documented request field: the forwarded body must equal the client's except for one added
 * `clear_tool_uses_20250919` edit (DESIGN §2 "Two mechanisms, one decision"). Checked:
 *
 * 1. Both bodies are JSON objects with the same top-level members in the same order, each value
 *    byte-identical (`messages`, `system`, `tools`, `thinking`, …), except `context_management`,
 *    which may be added as the last member when the client sent none.
 * 2. In `context_management`, every member but `edits` is byte-identical; the client's edits are
 *    the first ones, each byte-identical and in order; exactly one edit follows them.
 * 3. That edit is the expected one (same JSON value) and has the documented shape: type
 *    `clear_tool_uses_20250919`, `trigger` of type `input_tokens` with an integer value ≥ 1,
 *    `keep` of type `tool_uses` with an integer value ≥ 0, `exclude_tools` (when present) a list of strings, `clear_tool_inputs` false;
 *    or, at level `rewrite` only (a server-side summary is a rewrite), type `compact_20260112`
 *    with just a `trigger` of type `input_tokens` and an integer value ≥ 50,000 (the provider's
 *    minimum: platform.claude.com build-with-claude/compaction).
 *
 * A violation (or a body that does not scan) fails the check; the caller then forwards the
 * original bytes (DESIGN invariant 5).
 */
import { canonicalJson, type JsonValue } from "../../core/audit/canonical-json";
import { byteComparer } from "../../core/plan/same-bytes";
import { getMember, rawText, scanJson, type JsonNode } from "../shared/json-scan";
import type { GuaranteeLevel } from "../../config/defaults";
import { COMPACTION_MIN_TRIGGER } from "../../core/policy/native-compaction";

/** Violations of the native guarantee between `original` and `edited` at guarantee `level`; [] when it holds. */
export function checkNativeEdit(original: Uint8Array, edited: Uint8Array, expected: object, level: GuaranteeLevel = "strict"): string[] {
  let a: JsonNode;
  let b: JsonNode;
  try {
    a = scanJson(original);
    b = scanJson(edited);
  } catch (err) {
    return [`scan: ${(err as Error).message}`];
  }
  if (a.type !== "object" || b.type !== "object") return ["body: expected an object"];
  if (a.duplicateKeys || b.duplicateKeys) return ["body: duplicate keys"];
  const v: string[] = [];
  const cmp = byteComparer(original, edited);
  const same = (x: JsonNode, y: JsonNode) => cmp(x.start, x.end, y.start, y.end);
  const keysA = a.entries.map((e) => e.key);
  const keysB = b.entries.map((e) => e.key);
  const added = !keysA.includes("context_management");
  const wantKeys = added ? [...keysA, "context_management"] : keysA;
  if (keysB.join("\u0000") !== wantKeys.join("\u0000")) return [`members: expected ${JSON.stringify(wantKeys)}, got ${JSON.stringify(keysB)}`];
  for (let i = 0; i < a.entries.length; i++) {
    const ea = a.entries[i]!;
    if (ea.key !== "context_management" && !same(ea.value, b.entries[i]!.value)) v.push(`${ea.key}: changed`);
  }
  const cmA = getMember(a, "context_management");
  const cmB = getMember(b, "context_management")!;
  if (cmB.type !== "object" || cmB.duplicateKeys) return [...v, "context_management: expected an object"];
  const editsB = getMember(cmB, "edits");
  if (editsB?.type !== "array") return [...v, "context_management.edits: expected an array"];
  let clientEdits: JsonNode[] = [];
  if (cmA !== undefined) {
    if (cmA.type !== "object") return [...v, "context_management: the client's was not an object"];
    const keysCa = cmA.entries.map((e) => e.key);
    const keysCb = cmB.entries.map((e) => e.key);
    const hadEdits = keysCa.includes("edits");
    if ((hadEdits ? keysCb.join("\u0000") !== keysCa.join("\u0000") : keysCb.join("\u0000") !== ["edits", ...keysCa].join("\u0000"))) v.push("context_management: members changed");
    for (const e of cmA.entries) {
      if (e.key === "edits") continue;
      const other = getMember(cmB, e.key);
      if (other === undefined || !same(e.value, other)) v.push(`context_management.${e.key}: changed`);
    }
    const editsA = getMember(cmA, "edits");
    if (editsA !== undefined) {
      if (editsA.type !== "array") return [...v, "context_management.edits: the client's was not an array"];
      clientEdits = editsA.items;
    }
  }
  if (editsB.items.length !== clientEdits.length + 1) return [...v, `context_management.edits: expected ${clientEdits.length + 1} edits, got ${editsB.items.length}`];
  clientEdits.forEach((e, i) => {
    if (!same(e, editsB.items[i]!)) v.push(`context_management.edits[${i}]: the client's edit changed`);
  });
  const addedEdit = editsB.items.at(-1)!;
  let value: JsonValue;
  try {
    value = JSON.parse(rawText(edited, addedEdit)) as JsonValue;
  } catch {
    return [...v, "added edit: not JSON"];
  }
  const isCompact = typeof value === "object" && value !== null && (value as Record<string, unknown>).type === "compact_20260112";
  if (isCompact && level !== "rewrite") v.push(`added edit: compact_20260112 needs guarantee_level rewrite, not ${level}`);
  v.push(...(isCompact ? compactShapeViolations(value) : shapeViolations(value)));
  if (canonicalJson(value) !== canonicalJson(expected as JsonValue)) v.push("added edit: not the expected edit");
  return v;
}

/** Violations of the documented clear_tool_uses_20250919 shape (see module doc, rule 3). */
function shapeViolations(value: unknown): string[] {
  const o = value as Record<string, unknown>;
  if (typeof value !== "object" || value === null || Array.isArray(value)) return ["added edit: not an object"];
  const v: string[] = [];
  const allowed = new Set(["type", "trigger", "keep", "exclude_tools", "clear_tool_inputs"]);
  for (const k of Object.keys(o)) if (!allowed.has(k)) v.push(`added edit: unexpected member ${k}`);
  if (o.type !== "clear_tool_uses_20250919") v.push("added edit: type");
  for (const [k, type, min] of [["trigger", "input_tokens", 1], ["keep", "tool_uses", 0]] as const) {
    const c = o[k] as { type?: unknown; value?: unknown } | undefined;
    if (c?.type !== type || !Number.isInteger(c.value) || (c.value as number) < min) v.push(`added edit: ${k}`);
  }
  if (o.exclude_tools !== undefined && !(Array.isArray(o.exclude_tools) && o.exclude_tools.every((t) => typeof t === "string"))) v.push("added edit: exclude_tools");
  if (o.clear_tool_inputs !== false) v.push("added edit: clear_tool_inputs");
  return v;
}

/** Violations of the documented compact_20260112 shape Sluice sends (see module doc, rule 3). */
function compactShapeViolations(value: unknown): string[] {
  const o = value as Record<string, unknown>;
  const v: string[] = [];
  for (const k of Object.keys(o)) if (k !== "type" && k !== "trigger") v.push(`added edit: unexpected member ${k}`);
  const t = o.trigger as { type?: unknown; value?: unknown } | undefined;
  if (t?.type !== "input_tokens" || !Number.isInteger(t.value) || (t.value as number) < COMPACTION_MIN_TRIGGER) v.push("added edit: trigger");
  else if (Object.keys(t).length !== 2) v.push("added edit: trigger members");
  return v;
}
