/**
 * `npx tsx tools/load/scan-cache-memory.ts` (Node, bounded; measurement only): how much heap a
 * scan-cache entry holds besides its body (src/gateway/scan-cache.ts HELD_PER_BODY_BYTE). For
 * the last model call of every corpus session it scans the body into one ScanCache (bounds off),
 * reads it as the gateway does — the view through the session's adapter and one CoreCaches
 * (src/core/caches.ts), every lazy field (JSON.stringify), then the step facts — so every node
 * memo is filled, then prints the heap held (after a full GC, against one taken before) per byte
 * of the bodies kept. The bodies themselves are
 * ArrayBuffers outside the JS heap: an entry holds them plus this.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { ScanCache } from "../../src/gateway/scan-cache";
import { newCoreCaches, type CoreCaches } from "../../src/core/caches";
import { ToolCallMemo } from "../../src/core/engine/read-tool-call-memo";
import { prepareCompaction, stepFactsFor } from "../../src/gateway/prepare-compaction";
import { loadConfig } from "../../src/config/load-config";
import { readSessionText } from "../replay/read-session-text";
import { SEED_CORPUS_DIR } from "../shared/seed-corpus";

const CORPUS_DIR = SEED_CORPUS_DIR;

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

const sessions = readdirSync(CORPUS_DIR).filter((f) => f.endsWith(".json")).sort().map((f) => readSessionText(readFileSync(join(CORPUS_DIR, f), "utf8"), f));
const bodies = sessions.map((s) => ({ s, bytes: new TextEncoder().encode(JSON.stringify(s.calls[s.calls.length - 1]!.body)) }));
const loaded = loadConfig({ SLUICE_COMPACTION: "1" });
if (!loaded.ok) throw new Error(loaded.error.message);
const config = loaded.config;

/** Reads every body as the gateway does, into `cache` and the node memos of `caches`; returns the bytes read. */
function fill(cache: ScanCache, caches: CoreCaches): number {
  let bodyBytes = 0;
  for (const [i, { s, bytes }] of bodies.entries()) {
    // The tool-call memo has its own share of the budget: a fresh one per body, so it is not counted here.
    const prepared = prepareCompaction(s.provider, new Headers(), bytes, { scan: (b) => cache.scan(`session-${i}`, b), caches: { ...caches, toolCalls: new ToolCallMemo() } });
    if (prepared.kind !== "ready") continue;
    bodyBytes += bytes.length;
    JSON.stringify(prepared.parsed.view);
    stepFactsFor(prepared, config, new Headers());
  }
  return bodyBytes;
}

// A first pass compiles the code on the path (bytecode and feedback live on the heap too), so the measured pass counts data only.
fill(new ScanCache(Number.MAX_SAFE_INTEGER, Number.POSITIVE_INFINITY), newCoreCaches());
const cache = new ScanCache(Number.MAX_SAFE_INTEGER, Number.POSITIVE_INFINITY);
const caches = newCoreCaches();
gc();
const before = process.memoryUsage().heapUsed;
const bodyBytes = fill(cache, caches);
gc();
const held = process.memoryUsage().heapUsed - before;
console.log(`${cache.size} entries, ${(bodyBytes / 1e6).toFixed(2)} MB of bodies; heap held by their trees and per-node facts: ${(held / 1e6).toFixed(2)} MB = ${(held / bodyBytes).toFixed(2)} bytes per body byte`);
