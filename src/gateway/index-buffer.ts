/**
 * Buffers session-index updates in the isolate and sends them in batches (shell state, isolate
 * memory only). The index is INDEX_SHARDS Durable Objects (a batch goes as one RPC per shard it
 * touches: ../admin/sharded-index.ts); one RPC per request costs more than the
 * update itself (measured in workerd: ~0.8 ms per read RPC and ~1.4 ms per writing RPC, with 50
 * concurrent callers), so requests that end within WINDOW_MS of each other share one
 * `recordMany`. The first request to add updates to an empty buffer becomes the flusher: its
 * waitUntil waits the window, then sends everything buffered (with its own index stub) until
 * the buffer is empty; later requests only add and return. Updates are plain data, so nothing
 * crosses request contexts but values. A failed send loses that batch's metrics, never a request;
 * a flush stalled for 30 s is replaced by the next add's (./window-flusher.ts).
 */
import type { IndexUpdate } from "../admin/index-update";
import { FLUSH_STALL_MS, WindowFlusher } from "./window-flusher";
import { INDEX_BUFFER_BUDGET_BYTES, INDEX_UPDATE_BYTES } from "../core/isolate-memory-budget";

/**
 * How long the flusher waits for other requests' updates before sending, ms. A constant, not a
 * var: the index shards are what every request's report fans into, so batching is what
 * keeps it off the critical path, and no setting of it may break forwarding. At 24 requests/s
 * an isolate sends about one `recordMany` per 6 requests; an operator reading the dashboard
 * sees a call within a quarter second.
 */
export const INDEX_WINDOW_MS = 250;
/** Updates per `recordMany` call (the index validates and writes them in one transaction). */
export const INDEX_BATCH_MAX = 200;
/** Most updates waiting (the index buffer's share of the isolate budget); past it the oldest are dropped (metrics only, never a request). */
export const INDEX_PENDING_MAX = Math.floor(INDEX_BUFFER_BUDGET_BYTES / INDEX_UPDATE_BYTES);

export class IndexBuffer {
  private pending: IndexUpdate[] = [];
  private readonly flusher: WindowFlusher;

  /** Updates dropped because the buffer was full. */
  dropped = 0;

  constructor(windowMs = INDEX_WINDOW_MS, private readonly batchMax = INDEX_BATCH_MAX, stallMs = FLUSH_STALL_MS, private readonly pendingMax = INDEX_PENDING_MAX) {
    this.flusher = new WindowFlusher(windowMs, stallMs);
  }

  /**
   * Adds `updates`. Returns the promise to hand to waitUntil: the flush this call started (it
   * settles when the buffer is empty; never rejects), or an already settled one when a flush
   * under way will carry them (./window-flusher.ts).
   */
  add(updates: readonly IndexUpdate[], send: (batch: IndexUpdate[]) => Promise<unknown>): Promise<void> {
    if (updates.length === 0) return Promise.resolve();
    this.pending.push(...updates);
    if (this.pending.length > this.pendingMax) this.dropped += this.pending.splice(0, this.pending.length - this.pendingMax).length;
    return this.flusher.schedule(() => this.pending.length === 0, async (progress) => {
      await send(this.pending.splice(0, this.batchMax)).catch(() => undefined);
      progress();
    });
  }

  /** Updates waiting to be sent. */
  get size(): number {
    return this.pending.length;
  }
}

/** The isolate's instance (module scope: one per isolate, shared by its requests). */
export const indexBuffer = new IndexBuffer();
