/**
 * Per-node memo of values derived from a JSON node's bytes (pure in effect: a transparent cache
 * of pure functions). A node reused by a later scan (src/gateway/scan-cache.ts) is the same
 * object only when its bytes, at the same offsets, are identical, so anything computed from
 * those bytes alone — a message's token estimate, its identity hash — is valid for it again.
 * Keyed weakly: an entry lives as long as its node. Every instance belongs to a CoreCaches
 * (src/core/caches.ts), which its host owns.
 */
import type { JsonNode } from "./json-scan";

/** A memo of one derived value per node. */
export class NodeMemo<T> {
  private readonly map = new WeakMap<JsonNode, T>();

  /** The value stored for `node`, or undefined when none was computed yet. */
  peek(node: JsonNode): T | undefined {
    return this.map.get(node);
  }

  /** Stores `value` for `node` (it must depend only on the bytes of `node`, or be checked on `peek`). */
  set(node: JsonNode, value: T): void {
    this.map.set(node, value);
  }

  /** `compute()`, or its earlier result for `node`. `compute` must depend only on the bytes of `node`. */
  get(node: JsonNode, compute: () => T): T {
    const hit = this.map.get(node);
    if (hit !== undefined) return hit;
    const v = compute();
    this.map.set(node, v);
    return v;
  }
}
