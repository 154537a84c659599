/**
 * The one memory budget of a gateway isolate (pure constants): everything an isolate keeps
 * between requests — the scan cache of received bodies (src/gateway/scan-cache.ts) with the
 * node memos of the isolate's core caches, which live as long as its nodes (src/core/caches.ts;
 * weighed in HELD_PER_BODY_BYTE), the tool-call classification memo of those caches
 * (src/core/engine/read-tool-call-memo.ts) and the admin index buffer
 * (src/gateway/index-buffer.ts) — shares ISOLATE_MEMORY_BUDGET_BYTES, each part bounded by its
 * share (least recently used, or oldest, dropped first). No part grows with the number of
 * sessions: each is an LRU or a queue bounded in bytes.
 *
 * Why 16 MiB: a Workers isolate has 128 MB (developers.cloudflare.com/workers/platform/limits/
 * "Memory"), and one isolate serves many requests at once, each holding its body (up to a few
 * MB for a long agent history), its scanned tree (≈ 2.1 heap bytes per body byte) and the edited
 * copy: an eighth of the limit for state kept between requests leaves the rest to the requests.
 */

/** Bytes everything kept between requests may hold, in all. */
export const ISOLATE_MEMORY_BUDGET_BYTES = 16 * 1024 * 1024;

/** The scan cache's share, bytes (weighed as HELD_PER_BODY_BYTE × each body's bytes). */
export const SCAN_CACHE_BUDGET_BYTES = 12 * 1024 * 1024;
/** The tool-call memo's share, bytes (2 bytes per UTF-16 unit of the inputs it holds, plus a flat 64 per entry). */
export const TOOL_CALL_MEMO_BUDGET_BYTES = 3 * 1024 * 1024;
/** The index buffer's share, bytes (INDEX_UPDATE_BYTES per update waiting to be sent). */
export const INDEX_BUFFER_BUDGET_BYTES = 1024 * 1024;

/** Bytes an index update is counted as while it waits (a JSON object of ~20 short fields). */
export const INDEX_UPDATE_BYTES = 512;
