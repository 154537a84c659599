/**
 * A least-recently-used map bounded by entry count and by a total weight (pure data structure,
 * no I/O). The one bound cache behind the gateway's and the session's in-memory caches (scan
 * cache, sent views, delta bases, the readToolCall memo): `get` and `set` make a key the most
 * recent; `set` then drops least recent entries until both bounds hold. A value heavier than
 * `maxWeight` on its own is not kept (and its key is forgotten).
 */
export class BoundedLru<K, V> {
  private readonly map = new Map<K, { value: V; weight: number }>();
  private total = 0;

  /**
   * @param maxEntries most entries kept (≥ 1)
   * @param maxWeight most total weight kept, in the unit `weigh` returns (bytes, chars; default: unbounded)
   * @param weigh weight of one value (default 0)
   */
  constructor(private readonly maxEntries: number, private readonly maxWeight = Number.POSITIVE_INFINITY, private readonly weigh: (v: V) => number = () => 0) {}

  /** The value under `key` (now the most recent), or undefined. */
  get(key: K): V | undefined {
    const e = this.map.get(key);
    if (e === undefined) return undefined;
    this.map.delete(key);
    this.map.set(key, e);
    return e.value;
  }

  /** Keeps `value` under `key` as the most recent entry, then enforces the bounds. */
  set(key: K, value: V): void {
    this.delete(key);
    const weight = this.weigh(value);
    if (weight > this.maxWeight) return;
    this.map.set(key, { value, weight });
    this.total += weight;
    while (this.map.size > this.maxEntries || this.total > this.maxWeight) this.delete(this.map.keys().next().value!);
  }

  /** Forgets `key`, if present. */
  delete(key: K): void {
    const e = this.map.get(key);
    if (e === undefined) return;
    this.map.delete(key);
    this.total -= e.weight;
  }

  /** Forgets everything. */
  clear(): void {
    this.map.clear();
    this.total = 0;
  }

  get size(): number {
    return this.map.size;
  }

  /** Total weight held. */
  get weight(): number {
    return this.total;
  }
}
