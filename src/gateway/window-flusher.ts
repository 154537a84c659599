/**
 * The flush schedule of the isolate's index buffer (./index-buffer.ts; shell state, isolate
 * memory only): the first add to an idle buffer makes its request the
 * flusher — its waitUntil waits `windowMs`, then drains the buffer until it is empty — and later
 * adds only return. Workers cancel a request whose waitUntil waits on a promise only another
 * request can settle, so each buffer's own data is all that crosses requests.
 *
 * A flush that has made no progress for `stallMs` (its send hangs, or the runtime cancelled its
 * request's waitUntil, 30 s after the response) is taken for dead: the next add starts a new
 * flusher instead of leaving every later item in the buffer for good.
 */

/** Default stall limit, ms: the Workers waitUntil limit after the response (developers.cloudflare.com/workers/runtime-apis/context/). */
export const FLUSH_STALL_MS = 30_000;

export class WindowFlusher {
  private flushing = false;
  /** Date.now() when the running flush last made progress (started, or a drain step settled). */
  private progressAt = 0;

  constructor(private readonly windowMs: number, private readonly stallMs = FLUSH_STALL_MS) {}

  /** Whether a `schedule` now would start a flush (none running, or the running one stalled). */
  opens(): boolean {
    return !(this.flushing && Date.now() - this.progressAt < this.stallMs);
  }

  /**
   * Called after each add. Returns the promise for the adder's waitUntil: the flush it starts
   * (settles when `isEmpty()`; never rejects), or a settled one when a live flush will carry the
   * item. `isEmpty` is checked synchronously right before the flush ends, so no item added in
   * between can be stranded; `drain` sends part or all of what is buffered and calls `progress`
   * whenever a send settles.
   */
  schedule(isEmpty: () => boolean, drain: (progress: () => void) => Promise<void>): Promise<void> {
    if (!this.opens()) return Promise.resolve();
    this.flushing = true;
    this.progressAt = Date.now();
    const progress = () => { this.progressAt = Date.now(); };
    return new Promise<void>((r) => setTimeout(r, this.windowMs)).then(async () => {
      for (;;) {
        progress();
        if (isEmpty()) {
          this.flushing = false; // in the same step as the emptiness check
          return;
        }
        try {
          await drain(progress);
        } catch { /* a failed drain loses that part, never the flush */ }
      }
    });
  }
}
