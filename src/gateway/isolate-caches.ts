/**
 * The isolate's core caches (shell state: isolate memory only, never stored), shared by its
 * requests so that a session's next request re-reads none of what the scan cache lends it
 * (../core/caches.ts: what each memo holds, its bound, and why one per isolate).
 */
import { newCoreCaches, type CoreCaches } from "../core/caches";

/** The isolate's instance (module scope: one per isolate). */
export const isolateCaches: CoreCaches = newCoreCaches();
