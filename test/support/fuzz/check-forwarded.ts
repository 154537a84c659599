/**
 * The fuzz suite's verdict on one forwarded body (pure): what reached the upstream must be the
 * client's bytes, or an edit that (1) the guarantee checker accepts, (2) keeps the adapter's
 * provider rules, (3) is a byte-subsequence of the original (subtraction only, DESIGN §2),
 * (4) parses as JSON, and (5) breaks no rule of the independent oracle (./wire-oracle.ts) that
 * the original kept. An Anthropic body that grew is judged as a native-mechanism edit instead
 * (checkNativeForwarded). Returns the problems ([] = fine).
 */
import { checkGuarantee } from "../../../src/core/plan/check-guarantee";
import type { Provider } from "../../../src/core/view/types";
import { adapterFor } from "../../../src/providers/registry";
import { scanJson } from "../../../src/providers/shared/json-scan";
import { wireViolations } from "./wire-oracle";
import { newCoreCaches } from "../../../src/core/caches";

const dec = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });

export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** True when `small` is `big` with some bytes deleted. */
export function isSubsequence(small: Uint8Array, big: Uint8Array): boolean {
  let j = 0;
  for (let i = 0; i < big.length && j < small.length; i++) if (big[i] === small[j]) j++;
  return j === small.length;
}

/** Problems with forwarding `forwarded` for a client that sent `original` on `provider`'s route. */
export function checkForwarded(provider: Provider, original: Uint8Array, forwarded: Uint8Array): string[] {
  if (sameBytes(original, forwarded)) return [];
  if (provider === "anthropic" && forwarded.length > original.length) return checkNativeForwarded(original, forwarded);
  const adapter = adapterFor(provider)!;
  const problems: string[] = [];
  const g = checkGuarantee(adapter, original, forwarded);
  if (!g.ok) problems.push(...g.violations.map((v) => `checker: ${v}`));
  if (!isSubsequence(forwarded, original)) problems.push("edit is not a byte-subsequence of the original");
  let out: unknown;
  try {
    out = JSON.parse(dec.decode(forwarded));
    problems.push(...adapter.checkRules(forwarded, scanJson(forwarded), newCoreCaches()).map((v) => `rules: ${v}`));
  } catch (e) {
    return [...problems, `edit is not JSON: ${(e as Error).message}`];
  }
  let before: string[] = [];
  try {
    before = wireViolations(provider, JSON.parse(dec.decode(original)));
  } catch {
    before = ["original is not JSON"];
  }
  if (before.length === 0) problems.push(...wireViolations(provider, out).map((v) => `oracle: ${v}`));
  return problems;
}

type Obj = Record<string, unknown>;

/**
 * The native mechanism's verdict (docs/how-it-works.md "Mechanisms"), written apart from the product's
 * checker: the original bytes are a byte-subsequence of the forwarded ones (insertion only), and
 * the forwarded JSON is the original's with exactly one `clear_tool_uses_20250919` edit appended
 * to `context_management.edits` (keep: tool_uses, an integer from 0 to the number of tool_use
 * blocks; trigger: input_tokens ≥ 1; clear_tool_inputs false), nothing else.
 */
export function checkNativeForwarded(original: Uint8Array, forwarded: Uint8Array): string[] {
  const problems: string[] = [];
  if (!isSubsequence(original, forwarded)) problems.push("native: the original is not a byte-subsequence of the forwarded body");
  let a: Obj;
  let b: Obj;
  try {
    a = JSON.parse(dec.decode(original)) as Obj;
    b = JSON.parse(dec.decode(forwarded)) as Obj;
  } catch (e) {
    return [...problems, `native: not JSON: ${(e as Error).message}`];
  }
  const cm = b.context_management as Obj | undefined;
  const edits = cm?.edits;
  if (!Array.isArray(edits) || edits.length === 0) return [...problems, "native: no edits"];
  const added = edits.at(-1) as Obj;
  const uses = JSON.stringify(a.messages ?? []).split('"type":"tool_use"').length - 1;
  const keep = added.keep as Obj | undefined;
  const trigger = added.trigger as Obj | undefined;
  if (added.type !== "clear_tool_uses_20250919") problems.push("native: added edit type");
  if (keep?.type !== "tool_uses" || !Number.isInteger(keep.value) || (keep.value as number) < 0 || (keep.value as number) > uses) problems.push("native: keep");
  if (trigger?.type !== "input_tokens" || !Number.isInteger(trigger.value) || (trigger.value as number) < 1) problems.push("native: trigger");
  if (added.clear_tool_inputs !== false) problems.push("native: clear_tool_inputs");
  // Remove the added edit (and what was created to hold it): the rest must be the original.
  const stripped: Obj = { ...b, context_management: { ...cm, edits: edits.slice(0, -1) } };
  const had = a.context_management as Obj | undefined;
  if (had === undefined) delete stripped.context_management;
  else if (!("edits" in had)) delete (stripped.context_management as Obj).edits;
  if (JSON.stringify(stripped) !== JSON.stringify(a)) problems.push("native: something besides the added edit changed");
  return problems;
}
