/**
 * Where a summariser may send a stretch of turns (pure; DESIGN §5's address rules applied to the
 * summariser). A loopback or private host (check-local-address.ts) is local and needs nothing;
 * any other host — a public address or a name we cannot know to be local — receives whole turns
 * of the conversation (prose, tool inputs and results), so it needs the operator's
 * `consent_export_prompt: true`, the same consent a `remote` decision engine needs. Checked by the
 * config schema and again by the summariser client before every call.
 */
import { checkLocalHost } from "./check-local-address";

/** Whether `endpoint` is local; a remote one says why. */
export function summarizerLocality(endpoint: string): { local: true } | { local: false; host: string; why: string } {
  const host = new URL(endpoint).hostname;
  const problem = checkLocalHost(host);
  if (problem === null) return { local: true };
  return { local: false, host, why: problem === "public_address" ? "a public address" : "a hostname not known to be local" };
}

/** The refusal message for a remote summariser endpoint without consent, or null when allowed. */
export function summarizerConsentProblem(endpoint: string, consentExportPrompt: boolean): string | null {
  const where = summarizerLocality(endpoint);
  if (where.local || consentExportPrompt) return null;
  return `summarizer.endpoint host ${where.host} is ${where.why} (not 127.0.0.0/8, ::1, 10/8, 172.16/12, 192.168/16, fc00::/7 or localhost) and would receive whole turns: set consent_export_prompt to true to allow it`;
}
