/**
 * The global kill switch as an isolate sees it (shell state, isolate memory only). The flag lives
 * in the audit Durable Object (src/do/audit-object.ts `compactionDisabled`); each isolate caches
 * the value it last read for GLOBAL_SWITCH_TTL_MS, so in steady state an isolate makes one read
 * RPC per TTL, not one per request. Bound: a change reaches every isolate's next request at most
 * GLOBAL_SWITCH_TTL_MS (plus one read's latency) after the admin call returns; the isolate that
 * served the admin call sees it at once.
 *
 * A read that fails or outlasts GLOBAL_SWITCH_READ_TIMEOUT_MS keeps the last known value (on
 * when none was read yet) for another TTL: the switch never breaks or delays a request for
 * longer than one read deadline per TTL.
 */
import { withDeadline } from "./deadline";

/**
 * How long an isolate trusts the flag it read, ms. A constant: 5 s keeps the audit object at
 * one read per isolate per 5 s (e.g. 200 isolates → 40 reads/s, far under the ~1,000 req/s one
 * Durable Object serves) while an operator's switch takes effect within seconds.
 */
export const GLOBAL_SWITCH_TTL_MS = 5_000;
/** Deadline of the read RPC, ms (a warm DO answers in about 1 ms; a cold start stays well under it). */
export const GLOBAL_SWITCH_READ_TIMEOUT_MS = 1_000;

/** Reads the stored flag: true when compaction is off for the whole deployment. */
export type ReadSwitch = () => Promise<boolean>;

export class GlobalSwitch {
  private value = false;
  private readAt = Number.NEGATIVE_INFINITY;
  private inFlight: Promise<boolean> | null = null;

  constructor(private readonly ttlMs = GLOBAL_SWITCH_TTL_MS, private readonly timeoutMs = GLOBAL_SWITCH_READ_TIMEOUT_MS) {}

  /** True when compaction is globally off, as of at most `ttlMs` before `now` (epoch ms). Never rejects. */
  disabled(read: ReadSwitch, now: number): Promise<boolean> {
    if (now - this.readAt < this.ttlMs) return Promise.resolve(this.value);
    // Concurrent requests of one isolate share one read.
    this.inFlight ??= withDeadline(read(), this.timeoutMs)
      .then((v) => { this.value = v; return v; }, () => this.value)
      .finally(() => { this.readAt = now; this.inFlight = null; });
    return this.inFlight;
  }

  /** Sets the cached value (the isolate that served the admin call knows the new value at once). */
  set(disabled: boolean, now: number): void {
    this.value = disabled;
    this.readAt = now;
  }
}

/** The isolate's instance (module scope: one per isolate, shared by its requests). */
export const globalSwitch = new GlobalSwitch();
