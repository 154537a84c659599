/**
 * Buffers the after-the-answer reports of requests (../do/step-types.ts CallReport) in the
 * isolate and sends them per session in one `reportCalls` RPC per window (shell state, isolate
 * memory only; reports are counts, never text). Why: under `wrangler dev` every DO call costs
 * about as much thread time as the whole compaction-off request (docs/reliability.md), and a
 * session with a step lease makes no other call per request. What it costs: the session's
 * counters lag the answers by up to the window.
 *
 * The first report added to an empty buffer makes its request the flusher: its waitUntil waits
 * the window, then sends everything buffered — per session, in order, at most `batchMax`
 * reports per RPC, sessions in parallel — through its own `send`, and hands the index updates
 * each report yields (built from what the DO recorded for it, or null when the send failed) to
 * its own `record`, without waiting for the index flush that starts (the flusher's promise ends
 * when those have ended too); until the buffer is empty. Later requests only add and return: workerd
 * cancels a request whose waitUntil waits on a promise only another request can settle, so
 * nothing crosses request contexts but plain data and pure functions (as ./index-buffer.ts).
 * A failed send loses counts, never a request.
 */
import type { IndexUpdate } from "../admin/index-update";
import type { CallReport, OutcomeRecorded } from "../do/step-types";
import { FLUSH_STALL_MS, WindowFlusher } from "./window-flusher";

/** How long reports wait for others before they are sent, ms (each `reportCalls` costs ≈ 2 ms of thread time under `wrangler dev`: ./index-buffer.ts INDEX_WINDOW_MS). */
export const REPORT_WINDOW_MS = 2000;
/** Reports per `reportCalls` RPC. */
export const REPORT_BATCH_MAX = 64;
/** A flush that has made no progress for this long, ms, is taken for dead (./window-flusher.ts). */
export const REPORT_STALL_MS = FLUSH_STALL_MS;

/** Sends one session's batch; resolves with what each report recorded, in order. */
export type SendReports = (sid: string, batch: CallReport[]) => Promise<(OutcomeRecorded | null)[]>;

/** One request's report and the index updates it yields once the DO answered (a pure function). */
export interface BufferedReport {
  report: CallReport;
  updates: (recorded: OutcomeRecorded | null) => IndexUpdate[];
}

export class ReportBuffer {
  private pending = new Map<string, BufferedReport[]>();
  private readonly flusher: WindowFlusher;

  constructor(windowMs = REPORT_WINDOW_MS, private readonly batchMax = REPORT_BATCH_MAX, stallMs = REPORT_STALL_MS) {
    this.flusher = new WindowFlusher(windowMs, stallMs);
  }

  /**
   * Adds `item` for session `sid`. Returns the promise to hand to waitUntil: the flush this
   * call started (it settles when the buffer is empty; never rejects), or an already settled
   * one when a flush under way will carry the report. `windowMs` (default: the constructor's;
   * the gateway passes SLUICE_REPORT_WINDOW_MS) is the wait of a flush this call starts.
   */
  add(sid: string, item: BufferedReport, send: SendReports, record: (u: IndexUpdate[]) => Promise<unknown>, windowMs?: number): Promise<void> {
    const list = this.pending.get(sid);
    if (list) list.push(item);
    else this.pending.set(sid, [item]);
    // The index flushes this flush's `record` calls start: awaited after the drain, not inside it,
    // so the reports of a busy session never wait out the index window too (review, 2026-12-01).
    const indexFlushes: Promise<unknown>[] = [];
    const opens = this.flusher.opens();
    const flush = this.flusher.schedule(() => this.pending.size === 0, async (progress) => {
      const batches = this.pending;
      this.pending = new Map();
      await Promise.all([...batches].map(([s, items]) => this.sendSession(s, items, send, record, progress, indexFlushes)));
    }, windowMs);
    return opens ? flush.then(() => Promise.all(indexFlushes)).then(() => undefined, () => undefined) : flush;
  }

  /** Reports waiting to be sent. */
  get size(): number {
    let n = 0;
    for (const l of this.pending.values()) n += l.length;
    return n;
  }

  private async sendSession(sid: string, items: BufferedReport[], send: SendReports, record: (u: IndexUpdate[]) => Promise<unknown>, progress: () => void, indexFlushes: Promise<unknown>[]): Promise<void> {
    for (let i = 0; i < items.length; i += this.batchMax) {
      const part = items.slice(i, i + this.batchMax);
      // try/await, not .catch(): a send, updates or record that throws synchronously must lose its batch only, not reject the flush and leave `flushing` set for good.
      let recorded: (OutcomeRecorded | null)[] | null = null;
      try {
        recorded = await send(sid, part.map((p) => p.report));
      } catch { /* a failed send loses counts */ }
      progress();
      try {
        indexFlushes.push(Promise.resolve(record(part.flatMap((p, k) => p.updates(recorded?.[k] ?? null)))).catch(() => undefined));
      } catch { /* as above */ }
    }
  }
}

/** The isolate's instance (module scope: one per isolate, shared by its requests). */
export const reportBuffer = new ReportBuffer();
