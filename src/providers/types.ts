/**
 * The contract every provider adapter implements (pure). Each wire format lives in its own
 * folder with the same file names (read-view.ts, edit-rules.ts, check-rules.ts, usage.ts,
 * wire.ts) and exports one `ProviderAdapter` from index.ts; `src/providers/registry.ts` maps
 * Provider → adapter. Shared logic (scanner, splicing, subsequence check) is in ./shared.
 */
import type { ByteRange, ConversationView, Provider } from "../core/view/types";
import type { EditPlan } from "../core/plan/types";
import type { JsonNode } from "./shared/json-scan";
import type { CoreCaches } from "../core/caches";

/** A parsed request: original bytes, their node tree, and the neutral view. */
export interface ParsedRequest {
  bytes: Uint8Array;
  root: JsonNode;
  view: ConversationView;
  /**
   * Raw byte range in `bytes` of each pair's call input, aligned with `view.pairs` (the JSON
   * value whose decoding is `input_text`, quotes included): equal raw bytes mean equal
   * `input_text`, so the guarantee checker compares these before decoding. Absent: unknown.
   */
  inputRanges?: readonly ByteRange[];
  /**
   * Raw byte range in `bytes` of each pair's result (its content/output value), aligned with
   * `view.pairs`: the guarantee checker at level `placeholders` attributes a marker to the pair
   * whose result holds it. Absent: no marker is accepted.
   */
  resultRanges?: readonly ByteRange[];
  /**
   * The adapter's own structural index of `root`, kept by `read` so that `compile` does not
   * locate everything again (opaque outside the adapter, which uses it only when `provider` is
   * its own). A plain field, not a cache keyed by the root: a WeakMap entry keeps its value alive
   * through V8's minor GCs, which made every scavenge copy (and promote) whole indexes. Absent:
   * `compile` locates again.
   */
  index?: AdapterIndex;
  /** The caches `read` read through (src/core/caches.ts): compiling and the step facts of this request read through them too. */
  caches: CoreCaches;
}

/** What every adapter's structural index carries: the adapter that built it. */
export interface AdapterIndex {
  readonly provider: Provider;
}

/** Result of compiling a plan: byte ranges to delete and the plan actually applied. */
export interface CompiledPlan {
  /** Sorted, non-overlapping deletions in the original bytes. */
  deletions: ByteRange[];
  /** Pair ids whose requested action was downgraded to keep (locked, or a provider rule forbade it), with the reason. */
  refused: Record<string, string>;
  /**
   * Pair id → input offset inside the result's kept text (a string literal, never inside an
   * escape or character) where a marker would stand, for each applied `drop_result` and
   * `truncate_result` that removed bytes (src/core/plan/placeholder.ts `markerPlace`; used only at
   * guarantee level `placeholders`), and where the summary block of each applied `summarize` goes
   * (right after the opening quote of the host result's first, emptied, text literal:
   * ./shared/summary-place.ts). Absent or missing an id: no place for that pair.
   */
  anchors?: Record<string, number>;
}

export interface ProviderAdapter {
  provider: Provider;
  /**
   * Top-level key of the history array ("messages" for Anthropic and OpenAI Chat, "input" for
   * Responses). The guarantee checker requires every other top-level field to be byte-identical
   * and allows deletions only inside this array.
   */
  historyKey: string;
  /**
   * Members of a history message (object) the compiler may delete whole, with one separating
   * comma — tool-call containers emptied by drop_pair (OpenAI Chat: `tool_calls` and the legacy
   * `function_call`, since an empty `tool_calls` array is invalid). The guarantee checker
   * accepts the removal of these members of history messages and of nothing else. Absent: none.
   */
  removableMembers?: readonly string[];
  /**
   * Parses the body into the neutral view, reading through `caches` (kept on the result). Throws
   * (→ fail open) on malformed or unexpected shapes. `root`, when given, must be
   * `scanJson(bytes)` already computed (saves a second scan).
   */
  read(bytes: Uint8Array, caches: CoreCaches, root?: JsonNode): ParsedRequest;
  /** Compiles a plan into deletions that keep every provider rule. Never throws for a plan over known pair ids. */
  compile(parsed: ParsedRequest, plan: EditPlan): CompiledPlan;
  /** Provider pairing/adjacency rule violations in a (possibly edited) body; [] when valid. */
  checkRules(bytes: Uint8Array, root: JsonNode, caches: CoreCaches): string[];
}
