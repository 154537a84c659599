/**
 * The last step view this isolate sent to each session DO (shell state, in isolate memory only;
 * never stored, DESIGN invariant 7), so the next request can send a delta (../do/view-delta.ts).
 * Losing an entry only costs one whole view on the next request; a wrong entry costs one
 * `need_full` round trip. Bounded: least recently used sessions are forgotten first.
 */
import type { SentView } from "../do/view-delta";

/**
 * Sessions remembered per isolate. Each entry holds references to one slim view (≤ a few hundred
 * KB, shared with nothing else once the request ends), so 256 sessions stay well under the
 * 128 MB isolate memory limit (developers.cloudflare.com/workers/platform/limits/).
 */
export const MAX_SENT_VIEWS = 256;

/** An LRU map session id → SentView. */
export class SentViews {
  private readonly map = new Map<string, SentView>();
  constructor(private readonly max = MAX_SENT_VIEWS) {}

  get(sessionId: string): SentView | undefined {
    const v = this.map.get(sessionId);
    if (v) { this.map.delete(sessionId); this.map.set(sessionId, v); }
    return v;
  }
  set(sessionId: string, v: SentView): void {
    this.map.delete(sessionId);
    this.map.set(sessionId, v);
    while (this.map.size > this.max) this.map.delete(this.map.keys().next().value!);
  }
  delete(sessionId: string): void {
    this.map.delete(sessionId);
  }
  get size(): number {
    return this.map.size;
  }
}

/** The isolate's instance (module scope: one per isolate, shared by its requests). */
export const sentViews = new SentViews();
