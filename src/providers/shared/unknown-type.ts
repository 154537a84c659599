/**
 * Standing aside on what Sluice does not model (pure; DESIGN §2): an adapter that meets a type,
 * role, item or top-level field that src/providers/known-types.ts does not list throws
 * `UnknownTypeError` while it locates the history, and its `read` returns `standAsideView`
 * instead of a view to edit: the request goes upstream as the client sent it, with
 * `x-sluice-compaction: skipped; reason=unknown_type; type=<type>` (src/gateway/prepare-compaction.ts).
 */
import type { ConversationView, Provider } from "../../core/view/types";
import { estimateTokensFromBytes } from "../../core/tokens/estimate";
import { getMember, stringValue, type JsonNode } from "./json-scan";
import { knownType, type KnownType, type TypePosition } from "../known-types";
import type { CoreCaches } from "../../core/caches";
import type { ParsedRequest } from "../types";

/** A type the known-types table does not list, at `field` (e.g. "messages[2].content[0].type"). */
export class UnknownTypeError extends Error {
  constructor(readonly field: string, readonly unknown: string) {
    super(`${field}: unknown type ${JSON.stringify(unknown)}`);
    this.name = "UnknownTypeError";
  }
}

/** The row of `type` at `position`; throws UnknownTypeError naming `field` when the table does not list it. */
export function requireKnown(provider: Provider, position: TypePosition, type: string, field: string): KnownType {
  const k = knownType(provider, position, type);
  if (k === undefined) throw new UnknownTypeError(field, type);
  return k;
}

/**
 * Checks every top-level member of `root` against the table's `field` rows. Returns the name the
 * first present `stand_aside` field carries (`stands_aside_as`; a member whose value is null
 * asks for nothing), else null. `asks` refines what "present" means for a field (e.g. an empty
 * Responses `context_management` array asks for nothing). Throws UnknownTypeError on a field the
 * table does not list.
 */
export function checkFields(provider: Provider, root: Extract<JsonNode, { type: "object" }>, asks: (key: string, value: JsonNode) => boolean = () => true): string | null {
  let aside: string | null = null;
  for (const e of root.entries) {
    const k = requireKnown(provider, "field", e.key, e.key);
    if (aside === null && k.stands_aside_as !== null && e.value.type !== "null" && asks(e.key, e.value)) aside = k.stands_aside_as;
  }
  return aside;
}

/** The view of a request Sluice stands aside on for an unknown type: no messages, no pairs, `server_managed` = the type. */
export function standAsideView(provider: Provider, bytes: Uint8Array, root: JsonNode, err: UnknownTypeError): ConversationView {
  const model = getMember(root, "model");
  return {
    provider,
    model: model?.type === "string" ? stringValue(bytes, model) : null,
    body_bytes: bytes.length,
    est_tokens: estimateTokensFromBytes(bytes.length),
    messages: [],
    pairs: [],
    orphans: [],
    turn_count: 0,
    server_managed: err.unknown,
    unknown_type: true,
  };
}

/**
 * An adapter's read: `readKnown` over the body's scan (`scanned` when already computed), or the
 * stand-aside view when it meets a type ../known-types.ts does not list. Any other error
 * (malformed JSON or history) is thrown, and the pipeline fails open.
 */
export function readOrStandAside(
  provider: Provider,
  bytes: Uint8Array,
  caches: CoreCaches,
  scanned: JsonNode,
  readKnown: (bytes: Uint8Array, caches: CoreCaches, root: JsonNode) => ParsedRequest,
): ParsedRequest {
  try {
    return readKnown(bytes, caches, scanned);
  } catch (e) {
    if (e instanceof UnknownTypeError) return { bytes, root: scanned, view: standAsideView(provider, bytes, scanned, e), caches };
    throw e;
  }
}
