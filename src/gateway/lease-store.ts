/**
 * The step leases this isolate holds, by session id (shell state, isolate memory only; never
 * stored), and the isolate's holder token (../core/policy/step-lease.ts). A lease is not used
 * while a step call of its session from this isolate is in flight: the DO may be changing the
 * ledger, and the request waits for it like any other. Losing an entry only costs the next
 * request its step call. Bounded: least recently used sessions are forgotten first.
 */
import { BoundedLru } from "../core/bounded-lru";
import type { StepLease } from "../core/policy/step-lease";
import type { CallReport, LeasedCall } from "../do/step-types";

/**
 * Bounds: 256 sessions and 8 MiB of ledgers (a ledger entry weighs ~200 B and a first-seen time
 * ~64 B as estimated by leaseWeight), beside the scan cache's 32 MiB and the sent views' 16 MiB
 * within the 128 MB isolate limit (developers.cloudflare.com/workers/platform/limits/).
 */
export const MAX_LEASES = 256;
export const MAX_LEASE_BYTES = 8 * 1024 * 1024;
/** Reports kept per session until they are sent (older ones are just reported, not carried by a step call). */
export const MAX_UNREPORTED = 256;

/** Estimated bytes a lease retains: ~200 per ledger entry, ~64 per first-seen time, ~80 per step. */
export function leaseWeight(l: StepLease): number {
  return 200 * Object.keys(l.ledger.entries).length + 64 * Object.keys(l.ledger.first_seen).length + 80 * l.ledger.steps.length;
}

export class LeaseStore {
  private readonly leases: BoundedLru<string, StepLease>;
  private readonly inflight = new Map<string, number>();
  /** For sessions with step calls in flight: the `seq` of the last drop (leases answered to calls begun before it are void). */
  private readonly droppedAt = new Map<string, number>();
  private seq = 0;
  /**
   * Reports of requests decided under a lease whose call the DO has not got yet (the answer is
   * streaming, or the report waits in the report buffer), per session, in order: a step call of
   * the session carries their calls (StepInput.leased_calls), so the DO decides it from the state
   * it would have without a lease. Bounded as the leases; losing an entry only loses that.
   */
  private readonly unreported = new BoundedLru<string, CallReport[]>(MAX_LEASES);
  private token: string | null;

  /** `holder`: the isolate's token (default: a random UUID made on first use: Workers allow no random values at module scope). */
  constructor(holder: string | null = null, max = MAX_LEASES, maxBytes = MAX_LEASE_BYTES) {
    this.token = holder;
    this.leases = new BoundedLru(max, maxBytes, leaseWeight);
  }

  /** This isolate's holder token. */
  get holder(): string {
    return (this.token ??= crypto.randomUUID());
  }

  /** The lease for `sid`, unless none is held or a step call for `sid` is in flight. */
  usable(sid: string): StepLease | undefined {
    return this.busy(sid) ? undefined : this.leases.get(sid);
  }

  /** Whether a step (or lease) call for `sid` is in flight from this isolate (its answer may bring a lease, or void the one held). */
  busy(sid: string): boolean {
    return (this.inflight.get(sid) ?? 0) > 0;
  }

  set(sid: string, lease: StepLease): void {
    this.leases.set(sid, lease);
  }

  /** Forgets `sid`'s lease, and voids the leases its step calls now in flight will bring (`grant` refuses them). */
  drop(sid: string): void {
    this.leases.delete(sid);
    if (this.inflight.has(sid)) this.droppedAt.set(sid, ++this.seq);
  }

  /** Keeps `report` (its `leased` set: a call decided under `sid`'s lease) until it is sent or a step call takes its call. */
  track(sid: string, report: CallReport): void {
    const list = this.unreported.get(sid);
    if (list === undefined) this.unreported.set(sid, [report]);
    else if (list.push(report) > MAX_UNREPORTED) list.shift();
  }

  /** The calls of `sid`'s kept reports, in order, for a step call to carry; their reports no longer carry them (`leased` set to null). */
  takeUnreported(sid: string): LeasedCall[] {
    const list = this.unreported.get(sid);
    if (list === undefined) return [];
    this.unreported.delete(sid);
    const calls: LeasedCall[] = [];
    for (const r of list) {
      if (r.leased !== null) calls.push(r.leased);
      r.leased = null;
    }
    return calls;
  }

  /** `batch` of `sid` is being sent (call this in the same step as the send): its reports carry their calls themselves. */
  sent(sid: string, batch: readonly CallReport[]): void {
    const list = this.unreported.get(sid);
    if (list === undefined) return;
    const gone = new Set(batch);
    const rest = list.filter((r) => !gone.has(r));
    if (rest.length > 0) this.unreported.set(sid, rest);
    else this.unreported.delete(sid);
  }

  /**
   * Marks a step call for `sid` in flight (until the matching `end`); returns its ticket for
   * `grant`. A lease answered to a call begun before a `drop` (e.g. the rollback of a step that
   * call's answer still holds: ../core/policy/step-lease.ts rule 4) is not kept.
   */
  begin(sid: string): number {
    this.inflight.set(sid, (this.inflight.get(sid) ?? 0) + 1);
    return ++this.seq;
  }

  /** Keeps `lease`, answered to the step call of `ticket` (call before its `end`), unless `sid`'s lease was dropped since that call began. */
  grant(sid: string, lease: StepLease, ticket: number): void {
    if ((this.droppedAt.get(sid) ?? 0) > ticket) return;
    this.leases.set(sid, lease);
  }

  end(sid: string): void {
    const n = (this.inflight.get(sid) ?? 1) - 1;
    if (n <= 0) {
      this.inflight.delete(sid);
      this.droppedAt.delete(sid);
    } else this.inflight.set(sid, n);
  }

  /** Leases held. */
  get size(): number {
    return this.leases.size;
  }
}

/** The isolate's instance (module scope: one per isolate, shared by its requests). */
export const leaseStore = new LeaseStore();
