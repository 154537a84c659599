/**
 * The last step view this isolate sent to each session DO (shell state, in isolate memory only;
 * never stored, DESIGN invariant 7), so the next request can send a delta (../do/view-delta.ts).
 * Losing an entry only costs one whole view on the next request; a wrong entry costs one
 * `need_full` round trip. Bounded: least recently used sessions are forgotten first.
 */
import { BoundedLru } from "../core/bounded-lru";
import { retainedBytes, type SentView } from "../do/view-delta";

/**
 * Bounds of what an isolate remembers: at most 64 sessions and 16 MiB of retained records (mostly
 * tool-call input texts; ../do/view-delta.ts retainedBytes), well under the 128 MB isolate memory
 * limit (developers.cloudflare.com/workers/platform/limits/) beside the scan cache's 32 MiB.
 */
export const MAX_SENT_VIEWS = 64;
export const MAX_SENT_VIEW_BYTES = 16 * 1024 * 1024;

/** An LRU map session id → SentView, bounded by entries and by retained bytes. */
export class SentViews extends BoundedLru<string, SentView> {
  constructor(max = MAX_SENT_VIEWS, maxBytes = MAX_SENT_VIEW_BYTES) {
    super(max, maxBytes, retainedBytes);
  }
}

/** The isolate's instance (module scope: one per isolate, shared by its requests). */
export const sentViews = new SentViews();
