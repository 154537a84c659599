/**
 * Memoised lazy fields on view objects (pure). Some view fields (token estimates, decoded result
 * text) cost a pass over their bytes and are read only for some requests or some pairs: the
 * guarantee checker reads none of them. A lazy field is an own, enumerable getter computed on
 * first read, so `toEqual`, JSON.stringify and structured clone see a plain value.
 */

/** Replaces `obj[key]` with an enumerable getter that computes `compute()` once. */
export function lazyField<T extends object, K extends keyof T>(obj: T, key: K, compute: () => T[K]): void {
  let done = false;
  let value: T[K];
  Object.defineProperty(obj, key, {
    enumerable: true,
    configurable: true,
    get: () => {
      if (!done) {
        value = compute();
        done = true;
      }
      return value;
    },
  });
}
