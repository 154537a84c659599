/**
 * The deployment's remaining-calls table as an isolate sees it (shell state, isolate memory
 * only): the cost model's R estimator (../core/cost/session-lengths.ts) reads how long the
 * deployment's finished sessions ran, which the sharded session index knows
 * (../admin/sharded-index.ts `lengths`). Each isolate keeps the table it last built for
 * SESSION_LENGTHS_TTL_MS and sends it in every step RPC (a few dozen numbers), so the request
 * path stays ONE step RPC: a stale table starts a refresh in `waitUntil`, never awaited by the
 * request, which goes with the table already held (none before the first read: the DO then uses
 * the seed prior). A read that fails or outlasts SESSION_LENGTHS_READ_TIMEOUT_MS keeps the last
 * table for another TTL.
 */
import { remainingCallsTable, type LengthRow, type RemainingCallsTable } from "../core/cost/session-lengths";
import { withDeadline } from "./deadline";

/**
 * How long an isolate trusts its table, ms. 5 minutes: a length distribution moves over hours,
 * and the read touches every index shard (16 reads), so at 200 isolates the index sees about 11
 * reads a second in all.
 */
export const SESSION_LENGTHS_TTL_MS = 300_000;
/** Deadline of one refresh (all shards in parallel), ms. */
export const SESSION_LENGTHS_READ_TIMEOUT_MS = 2_000;

/** Reads the finished sessions' length histogram. */
export type ReadLengths = () => Promise<LengthRow[]>;

export class SessionLengthsCache {
  private table: RemainingCallsTable | null = null;
  private readAt = Number.NEGATIVE_INFINITY;
  private inFlight: Promise<void> | null = null;

  constructor(private readonly ttlMs = SESSION_LENGTHS_TTL_MS, private readonly timeoutMs = SESSION_LENGTHS_READ_TIMEOUT_MS) {}

  /**
   * The table as last built (null before any read, or when it has no grid point), at `now`
   * (epoch ms). When it is older than the TTL and no refresh runs, starts one with `read` and
   * hands its promise to `waitUntil`. Never throws, never waits.
   */
  current(read: ReadLengths, now: number, waitUntil: (p: Promise<unknown>) => void): RemainingCallsTable | null {
    if (now - this.readAt >= this.ttlMs && this.inFlight === null) {
      this.readAt = now;
      let refresh: Promise<LengthRow[]>;
      try {
        refresh = withDeadline(read(), this.timeoutMs);
      } catch (err) {
        refresh = Promise.reject(err);
      }
      this.inFlight = refresh
        .then((rows) => { const t = remainingCallsTable(rows); this.table = t.at.length > 0 ? t : null; }, () => undefined)
        .finally(() => { this.inFlight = null; });
      waitUntil(this.inFlight);
    }
    return this.table;
  }
}

/** The isolate's instance (module scope: one per isolate, shared by its requests). */
export const sessionLengthsCache = new SessionLengthsCache();
