/**
 * Buffers session-index updates in the isolate and sends them in batches (shell state, isolate
 * memory only). The index is one global Durable Object; one RPC per request costs more than the
 * update itself (measured in workerd: ~0.8 ms per read RPC and ~1.4 ms per writing RPC, with 50
 * concurrent callers), so requests that end within WINDOW_MS of each other share one
 * `recordMany`. The first request to add updates to an empty buffer becomes the flusher: its
 * waitUntil waits the window, then sends everything buffered (with its own index stub) until
 * the buffer is empty; later requests only add and return. Updates are plain data, so nothing
 * crosses request contexts but values. A failed send loses that batch's metrics, never a request.
 */
import type { IndexUpdate } from "../admin/index-update";

/** How long the flusher waits for other requests' updates before sending, ms. Short enough that an operator reading the dashboard right after a call sees it. */
export const INDEX_WINDOW_MS = 50;
/** Updates per `recordMany` call (the index validates and writes them in one transaction). */
export const INDEX_BATCH_MAX = 200;

export class IndexBuffer {
  private pending: IndexUpdate[] = [];
  private flushing = false;

  constructor(private readonly windowMs = INDEX_WINDOW_MS, private readonly batchMax = INDEX_BATCH_MAX) {}

  /**
   * Adds `updates`. Returns the promise to hand to waitUntil: the flush this call started (it
   * settles when the buffer is empty; never rejects), or an already settled one when a flush
   * under way will carry them.
   */
  add(updates: readonly IndexUpdate[], send: (batch: IndexUpdate[]) => Promise<unknown>): Promise<void> {
    if (updates.length === 0) return Promise.resolve();
    this.pending.push(...updates);
    if (this.flushing) return Promise.resolve();
    this.flushing = true;
    return new Promise<void>((resolve) => setTimeout(resolve, this.windowMs)).then(async () => {
      for (;;) {
        const batch = this.pending.splice(0, this.batchMax);
        if (batch.length === 0) {
          this.flushing = false; // in the same step as the emptiness check: no update can be stranded
          return;
        }
        await send(batch).catch(() => undefined);
      }
    });
  }

  /** Updates waiting to be sent. */
  get size(): number {
    return this.pending.length;
  }
}

/** The isolate's instance (module scope: one per isolate, shared by its requests). */
export const indexBuffer = new IndexBuffer();
