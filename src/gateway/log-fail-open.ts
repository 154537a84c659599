/**
 * The structured log line of a fail-open (shell): every request forwarded with its original
 * bytes because of a failure writes exactly one JSON object on one line (console.log), so an
 * operator can count and filter them (`wrangler tail --format json`, Logpush). Counts, sizes and
 * ids only — never prompt text (DESIGN invariant 7).
 */
import type { FailOpenReason } from "../session/contract";

/** One fail-open log line. */
export interface FailOpenLog {
  /** Always "sluice_fail_open": the line's kind, for filters. */
  event: "sluice_fail_open";
  reason: FailOpenReason;
  /** The session key, or null when none was derived (the body did not parse and no header named one). */
  session_id: string | null;
  /** The request's correlation id (`x-sluice-request-id`). */
  request_id: string;
  /** The route kind (src/gateway/handle-request.ts RouteKind). */
  route: string;
  /** Bytes of the client's body. */
  body_bytes: number;
  /** Estimated input tokens of the request, or null before a parse. */
  est_tokens: number | null;
  /** The error's class name (e.g. "TypeError"), or null; never its message, which may quote the body. */
  error: string | null;
}

/** Writes `entry` as one JSON line. Never throws. */
export function logFailOpen(entry: Omit<FailOpenLog, "event">): void {
  try {
    console.log(JSON.stringify({ event: "sluice_fail_open", ...entry } satisfies FailOpenLog));
  } catch { /* logging is best effort */ }
}

/** The class name of a thrown value, or null. */
export function errorName(err: unknown): string | null {
  return err instanceof Error ? err.name : null;
}
