/**
 * Scans a received chat body reusing the last body received for the same session (shell state:
 * isolate memory only, never stored; its share of the isolate's one budget:
 * ../core/isolate-memory-budget.ts). It serves received bodies only: the guarantee checker
 * scans the edited bytes fresh (../core/plan/check-guarantee.ts). An agent's next request repeats its last one and appends a turn, so
 * the history elements inside the shared byte prefix are lent to the new scan
 * (../providers/shared/json-scan.ts ScanReuse) instead of being scanned again; the nodes are
 * the same objects, which also lets adapters memoise per element. Correctness never depends on
 * the cache: only elements that lie wholly inside the byte-identical prefix are reused, so a
 * wrong or stale entry costs a full scan and nothing else.
 */
import { BoundedLru } from "../core/bounded-lru";
import { SCAN_CACHE_BUDGET_BYTES } from "../core/isolate-memory-budget";
import { commonPrefixLength } from "../providers/shared/common-prefix";
import { REUSE_DEPTH, scanJson, type JsonNode } from "../providers/shared/json-scan";

/** Entries kept (least recently used dropped first): one per session recently served. */
export const MAX_SCAN_ENTRIES = 64;
/** Memory all entries may hold, bytes, as HELD_PER_BODY_BYTE × their bodies' bytes: the scan cache's share of the isolate budget (≈ 3.75 MiB of bodies). */
export const MAX_SCAN_BYTES = SCAN_CACHE_BUDGET_BYTES;
/**
 * What an entry holds per byte of its body: the body itself (1, an ArrayBuffer outside the JS
 * heap) and its scanned tree with the per-node facts kept for its nodes (../core/caches.ts node
 * memos; measured 2.11–2.13 heap bytes per body byte over the corpus's last calls, read as the
 * gateway reads them, every lazy field and the step facts: `npx tsx
 * tools/load/scan-cache-memory.ts`): 3.13, rounded up. The body alone would count a third of it.
 */
export const HELD_PER_BODY_BYTE = 3.2;

interface Entry {
  bytes: Uint8Array;
  root: JsonNode;
  /** Depth-2 nodes by start offset, built on first reuse. */
  nodes: Map<number, JsonNode> | null;
}

/** The values at depth REUSE_DEPTH of `root` (elements of its members / items), by start offset. */
export function lendableNodes(root: JsonNode): Map<number, JsonNode> {
  const out = new Map<number, JsonNode>();
  const children = (n: JsonNode): JsonNode[] => (n.type === "object" ? n.entries.map((e) => e.value) : n.type === "array" ? n.items : []);
  const level = (nodes: JsonNode[], depth: number): void => {
    for (const c of nodes) {
      if (depth === REUSE_DEPTH) out.set(c.start, c);
      else level(children(c), depth + 1);
    }
  };
  level(children(root), 1);
  return out;
}

/** An LRU of the last scanned body per key (a session id, or a hash of the body's first bytes). */
export class ScanCache {
  private readonly entries: BoundedLru<string, Entry>;
  /** Bytes reused by the last `scan` (the shared prefix covered by lent nodes is at most this), for tests and profiling. */
  lastPrefix = 0;
  /** Scans that found an entry for their key (/admin/metrics sluice_scan_cache_lookups_total{result="hit"}). */
  hits = 0;
  /** Scans that found none. */
  misses = 0;

  /** @param maxHeld memory all entries may hold, bytes (each weighs HELD_PER_BODY_BYTE × its body's bytes) */
  constructor(maxEntries = MAX_SCAN_ENTRIES, maxHeld = MAX_SCAN_BYTES) {
    this.entries = new BoundedLru<string, Entry>(maxEntries, maxHeld, (e) => e.bytes.length * HELD_PER_BODY_BYTE);
  }

  /** `scanJson(bytes)`, reusing what the last body under `key` shares with it; remembers `bytes` under `key`. Throws JsonScanError. */
  scan(key: string, bytes: Uint8Array): JsonNode {
    return this.scanWithPrevious(key, bytes).root;
  }

  /**
   * `scan`, also handing back the body it replaced under `key` with the length of the byte prefix
   * the two share (null: none held), for the cache diagnostics' exact system-prompt offset
   * (../core/cache/system-diff.ts). The caller holds it for its request only.
   */
  scanWithPrevious(key: string, bytes: Uint8Array): { root: JsonNode; previous: { bytes: Uint8Array; root: JsonNode; common: number } | null } {
    const prev = this.entries.get(key);
    let root: JsonNode;
    let previous: { bytes: Uint8Array; root: JsonNode; common: number } | null = null;
    if (prev) {
      this.hits++;
      const limit = commonPrefixLength(prev.bytes, bytes);
      this.lastPrefix = limit;
      prev.nodes ??= lendableNodes(prev.root);
      root = scanJson(bytes, { limit, nodes: prev.nodes });
      previous = { bytes: prev.bytes, root: prev.root, common: limit };
    } else {
      this.misses++;
      this.lastPrefix = 0;
      root = scanJson(bytes);
    }
    this.entries.set(key, { bytes, root, nodes: null });
    return { root, previous };
  }

  get size(): number {
    return this.entries.size;
  }

  /** Bytes held (HELD_PER_BODY_BYTE × the bodies' bytes). */
  get held(): number {
    return this.entries.weight;
  }
}

/** The isolate's instance (module scope: one per isolate, shared by its requests). */
export const scanCache = new ScanCache();
