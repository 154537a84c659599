/**
 * Memoised lazy fields on view objects (pure). Some view fields (token estimates, identity
 * hashes, decoded input and result text) cost a pass over their bytes and are read only for some
 * requests or some messages: the guarantee checker reads none of them for a byte-identical
 * message. A lazy field is an own, enumerable accessor computed on first read, so `toEqual`,
 * JSON.stringify and structured clone see a plain value.
 *
 * Layout, for speed: the getter (and setter) of a field name is one function shared by every
 * object, and the per-object computation sits under a non-enumerable symbol (invisible to
 * `toEqual`, JSON and structured clone). A per-object getter closure, or turning an existing
 * data property into an accessor, makes V8 move each object to dictionary mode (measured on
 * the OpenAI Chat bench request: ~1 KB more garbage per message and per pair).
 */

/** Per-object slots of pending computations and computed values, by field name. */
const SLOTS = Symbol("sluice.lazyFields");

interface Slot {
  compute: (() => unknown) | null;
  value: unknown;
}

type Slotted = { [SLOTS]?: Record<string, Slot> };

/** One descriptor per lazy field name (a handful, fixed by the readers): module state that holds no request's data. */
const accessors = new Map<string, PropertyDescriptor>();

/** The one accessor descriptor of field `key`, shared by every object that has it. */
function accessorFor(key: string): PropertyDescriptor {
  let d = accessors.get(key);
  if (!d) {
    d = {
      enumerable: true,
      configurable: true,
      get(this: Slotted): unknown {
        const slot = this[SLOTS]![key]!;
        if (slot.compute) {
          const compute = slot.compute;
          slot.compute = null;
          slot.value = compute();
        }
        return slot.value;
      },
      set(this: Slotted, value: unknown): void {
        const slot = this[SLOTS]![key]!;
        slot.compute = null;
        slot.value = value;
      },
    };
    accessors.set(key, d);
  }
  return d;
}

/**
 * Adds `obj[key]` as an enumerable field whose value is `compute()`, computed once on first
 * read (an assignment replaces it). Returns `obj` itself, typed with the new field.
 * Throws TypeError when `obj` already has an own `key` (define lazy fields instead of, not
 * after, the plain ones: replacing a property is what makes V8 slow, see the module header).
 */
export function lazyField<T extends object, K extends string, V>(obj: T, key: K, compute: () => V): T & Record<K, V> {
  if (Object.prototype.hasOwnProperty.call(obj, key)) throw new TypeError(`lazyField: "${key}" is already defined`);
  const o = obj as T & Slotted;
  let slots = o[SLOTS];
  if (!slots) {
    slots = {};
    Object.defineProperty(o, SLOTS, { value: slots });
  }
  slots[key] = { compute, value: undefined };
  Object.defineProperty(o, key, accessorFor(key));
  return o as T & Record<K, V>;
}

/**
 * Work (in bytes to hash or decode) below which `fieldByCost` computes a field at once. Setting
 * up a lazy field costs ≈ 0.3–0.6 µs (two defineProperty calls), about what hashing 500 bytes
 * takes; measured in Node 22 on the bench requests (most OpenAI Chat messages hash < 500 bytes,
 * while Responses reasoning items and Anthropic thinking blocks run to kilobytes).
 */
export const LAZY_ABOVE_BYTES = 1024;

/**
 * Adds `obj[key] = compute()`: computed now, as a plain field, when `workBytes` is under
 * LAZY_ABOVE_BYTES, else as a lazy field (`lazyField`). Either way readers see the same value.
 */
export function fieldByCost<T extends object, K extends string, V>(obj: T, key: K, workBytes: number, compute: () => V): T & Record<K, V> {
  if (workBytes >= LAZY_ABOVE_BYTES) return lazyField(obj, key, compute);
  const o = obj as T & Record<K, V>;
  (o as Record<K, V>)[key] = compute();
  return o;
}

/**
 * `obj[key]` as a plain data field holding `known` when it is defined, else a lazy field
 * (lazyField) computed by `compute`. For values a node memo (./node-memo.ts `peek`) may already
 * hold: the history elements a scan lent from the session's last body have theirs at hand, and
 * a plain field costs less to make and to read than an accessor. `known` must equal what
 * `compute()` would return.
 */
export function knownOrLazy<T extends object, K extends string, V>(obj: T, key: K, known: V | undefined, compute: () => V): T & Record<K, V> {
  if (known === undefined) return lazyField(obj, key, compute);
  if (Object.prototype.hasOwnProperty.call(obj, key)) throw new TypeError(`knownOrLazy: "${key}" is already defined`);
  (obj as Record<K, V>)[key] = known;
  return obj as T & Record<K, V>;
}

/**
 * `obj[key]`: `known` as a plain data field when it is defined (knownOrLazy), else `compute()` by
 * its cost (fieldByCost; `workBytes` is asked only then). For a value a reader's per-node memo may
 * hold, which `compute` stores there when it runs.
 */
export function knownOrByCost<T extends object, K extends string, V>(obj: T, key: K, known: V | undefined, workBytes: () => number, compute: () => V): T & Record<K, V> {
  return known !== undefined ? knownOrLazy(obj, key, known, compute) : fieldByCost(obj, key, workBytes(), compute);
}
