/**
 * The contract every provider adapter implements (pure). Each wire format lives in its own
 * folder with the same file names (read-view.ts, edit-rules.ts, check-rules.ts, usage.ts,
 * wire.ts) and exports one `ProviderAdapter` from index.ts; `src/providers/registry.ts` maps
 * Provider → adapter. Shared logic (scanner, splicing, subsequence check) is in ./shared.
 */
import type { ByteRange, ConversationView, Provider } from "../core/view/types";
import type { EditPlan } from "../core/plan/types";
import type { JsonNode } from "./shared/json-scan";

/** A parsed request: original bytes, their node tree, and the neutral view. */
export interface ParsedRequest {
  bytes: Uint8Array;
  root: JsonNode;
  view: ConversationView;
}

/** Result of compiling a plan: byte ranges to delete and the plan actually applied. */
export interface CompiledPlan {
  /** Sorted, non-overlapping deletions in the original bytes. */
  deletions: ByteRange[];
  /** Pair ids whose requested action was downgraded to keep (locked, or a provider rule forbade it), with the reason. */
  refused: Record<string, string>;
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
   * Members of a history message object that may vanish whole when every tool call they held
   * was removed (OpenAI Chat `tool_calls` and legacy `function_call`: the API refuses an empty
   * `tool_calls` array, so the compiler removes the member). Absent: members never vanish. The
   * guarantee checker still requires each removed call's result to be gone (provider rules).
   */
  removableMembers?: readonly string[];
  /**
   * Parses the body into the neutral view. Throws (→ fail open) on malformed or unexpected shapes.
   * `root`, when given, must be `scanJson(bytes)` already computed (saves a second scan).
   */
  read(bytes: Uint8Array, root?: JsonNode): ParsedRequest;
  /** Compiles a plan into deletions that keep every provider rule. Never throws for a plan over known pair ids. */
  compile(parsed: ParsedRequest, plan: EditPlan): CompiledPlan;
  /** Provider pairing/adjacency rule violations in a (possibly edited) body; [] when valid. */
  checkRules(bytes: Uint8Array, root: JsonNode): string[];
}
