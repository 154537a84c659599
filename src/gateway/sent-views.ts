/**
 * The last step view this isolate sent to each session DO (shell state, in isolate memory only;
 * never stored, DESIGN invariant 7), so the next request can send a delta (../do/view-delta.ts).
 * Losing an entry only costs one whole view on the next request; a wrong entry costs one
 * `need_full` round trip. Bounded: least recently used sessions are forgotten first.
 */
import { retainedBytes, type SentView } from "../do/view-delta";

/**
 * Bounds of what an isolate remembers: at most 64 sessions and 16 MiB of retained records (mostly
 * tool-call input texts; ../do/view-delta.ts retainedBytes), well under the 128 MB isolate memory
 * limit (developers.cloudflare.com/workers/platform/limits/) beside the scan cache's 32 MiB.
 */
export const MAX_SENT_VIEWS = 64;
export const MAX_SENT_VIEW_BYTES = 16 * 1024 * 1024;

/** An LRU map session id → SentView, bounded by entries and by retained bytes. */
export class SentViews {
  private readonly map = new Map<string, { view: SentView; bytes: number }>();
  private bytes = 0;
  constructor(private readonly max = MAX_SENT_VIEWS, private readonly maxBytes = MAX_SENT_VIEW_BYTES) {}

  get(sessionId: string): SentView | undefined {
    const e = this.map.get(sessionId);
    if (e) { this.map.delete(sessionId); this.map.set(sessionId, e); }
    return e?.view;
  }
  set(sessionId: string, view: SentView): void {
    this.delete(sessionId);
    const bytes = retainedBytes(view);
    if (bytes > this.maxBytes) return;
    this.map.set(sessionId, { view, bytes });
    this.bytes += bytes;
    while (this.map.size > this.max || this.bytes > this.maxBytes) this.delete(this.map.keys().next().value!);
  }
  delete(sessionId: string): void {
    const e = this.map.get(sessionId);
    if (!e) return;
    this.map.delete(sessionId);
    this.bytes -= e.bytes;
  }
  get size(): number {
    return this.map.size;
  }
}

/** The isolate's instance (module scope: one per isolate, shared by its requests). */
export const sentViews = new SentViews();
