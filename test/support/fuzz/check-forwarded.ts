/**
 * The fuzz suite's verdict on one forwarded body (pure): what reached the upstream must be the
 * client's bytes, or an edit that (1) the guarantee checker accepts, (2) keeps the adapter's
 * provider rules, (3) is a byte-subsequence of the original (subtraction only, DESIGN §2),
 * (4) parses as JSON, and (5) breaks no rule of the independent oracle (./wire-oracle.ts) that
 * the original kept. Returns the problems ([] = fine).
 */
import { checkGuarantee } from "../../../src/core/plan/check-guarantee";
import type { Provider } from "../../../src/core/view/types";
import { adapterFor } from "../../../src/providers/registry";
import { scanJson } from "../../../src/providers/shared/json-scan";
import { wireViolations } from "./wire-oracle";

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
  const adapter = adapterFor(provider)!;
  const problems: string[] = [];
  const g = checkGuarantee(adapter, original, forwarded);
  if (!g.ok) problems.push(...g.violations.map((v) => `checker: ${v}`));
  if (!isSubsequence(forwarded, original)) problems.push("edit is not a byte-subsequence of the original");
  let out: unknown;
  try {
    out = JSON.parse(dec.decode(forwarded));
    problems.push(...adapter.checkRules(forwarded, scanJson(forwarded)).map((v) => `rules: ${v}`));
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
