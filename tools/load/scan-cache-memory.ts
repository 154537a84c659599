/**
 * `npx tsx tools/load/scan-cache-memory.ts` (Node, bounded; measurement only): how much heap a
 * scan-cache entry holds besides its body (src/gateway/scan-cache.ts HELD_PER_BODY_BYTE). For
 * the last model call of every corpus session it scans the body into one ScanCache (bounds off),
 * reads the view through the session's adapter and reads every lazy field (JSON.stringify), so
 * the per-node facts the readers keep are all filled, then prints the heap held (after a full
 * GC, against one taken before) per byte of the bodies kept. The bodies themselves are
 * ArrayBuffers outside the JS heap: an entry holds them plus this.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { ScanCache } from "../../src/gateway/scan-cache";
import { adapterFor } from "../../src/providers/registry";
import { readSessionText } from "../replay/read-session-text";
import { SEED_CORPUS_DIR } from "../shared/seed-corpus";

const CORPUS_DIR = SEED_CORPUS_DIR;

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

const sessions = readdirSync(CORPUS_DIR).filter((f) => f.endsWith(".json")).sort().map((f) => readSessionText(readFileSync(join(CORPUS_DIR, f), "utf8"), f));
const bodies = sessions.map((s) => ({ s, bytes: new TextEncoder().encode(JSON.stringify(s.calls[s.calls.length - 1]!.body)) }));
const cache = new ScanCache(Number.MAX_SAFE_INTEGER, Number.POSITIVE_INFINITY);
gc();
const before = process.memoryUsage().heapUsed;
let bodyBytes = 0;
for (const [i, { s, bytes }] of bodies.entries()) {
  bodyBytes += bytes.length;
  const view = adapterFor(s.provider)!.read(bytes, cache.scan(`session-${i}`, bytes)).view;
  JSON.stringify(view);
}
gc();
const held = process.memoryUsage().heapUsed - before;
console.log(`${cache.size} entries, ${(bodyBytes / 1e6).toFixed(2)} MB of bodies; heap held by their trees and per-node facts: ${(held / 1e6).toFixed(2)} MB = ${(held / bodyBytes).toFixed(2)} bytes per body byte`);
