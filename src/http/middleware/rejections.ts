/**
 * The one metric a refused caller leaves (shell): a per-isolate counter per reason and one
 * structured JSON log line (Workers Logs counts them across isolates). No Durable Object, no
 * session state, no token counts: a flood of refused requests costs the deployment nothing else.
 * The line holds the reason, the provider family and the request id; never a credential.
 */
import type { ProviderFamily } from "../../gateway/provider-errors";

export type RejectionReason = "unauthenticated" | "rate_limited";

const counts: Record<RejectionReason, number> = { unauthenticated: 0, rate_limited: 0 };

/** Counts a refused request and logs `{"event":"client_rejected","reason",…}`. */
export function recordRejection(reason: RejectionReason, family: ProviderFamily, requestId: string, log: (line: string) => void = console.log): void {
  counts[reason]++;
  log(JSON.stringify({ event: "client_rejected", reason, family, request_id: requestId }));
}

/** Refusals counted in this isolate since it started. */
export function rejectionCounts(): Readonly<Record<RejectionReason, number>> {
  return { ...counts };
}
