/**
 * The first pure half of the compaction pipeline (DESIGN §1), shared by the Worker pipeline
 * (./compaction-pipeline.ts) and the replay's in-process host (tools/replay/strategies/):
 * honour the client's opt-out header, find the provider adapter, parse the body into the
 * neutral view, stand aside on server-managed requests and on types Sluice does not know, and
 * name the session; then `stepFactsFor`
 * builds the facts sent to the session step (src/core/facts/step-facts.ts and prefix-facts.ts).
 * No I/O, no clock.
 */
import type { ConversationView, Provider } from "../core/view/types";
import { adapterFor } from "../providers/registry";
import type { JsonNode } from "../providers/shared/json-scan";
import type { ParsedRequest, ProviderAdapter } from "../providers/types";
import { sessionIdOf, type SessionId } from "./session-id";
import type { FactsOptions, StepFacts } from "../core/facts/step-facts";
import { requestFactsOf } from "./request-facts";
import { prefixFactsOf } from "../core/facts/prefix-facts";
import { cacheFactsOf } from "../core/facts/cache-facts";
import { systemDiffOf } from "../core/cache/system-diff";
import { newCoreCaches, type CoreCaches } from "../core/caches";

/** Provider → adapter lookup (the registry unless a test injects another). */
export type AdapterLookup = (provider: Provider) => ProviderAdapter | undefined;

/** Response (and request) header describing what was done (DESIGN §7b). */
export const COMPACTION_HEADER = "x-sluice-compaction";

/** Why the pipeline stands aside on a request it read (DESIGN §6, §2 "What Sluice does not model"). */
export type StandAsideReason = "server_managed" | "unknown_type";

/** A request Sluice stood aside on: what it was and whose it is (the metrics count it: src/admin/index-update.ts standAsideUpdate). */
export interface StoodAside {
  provider: Provider;
  reason: StandAsideReason;
  /** The feature (server_managed) or the unknown type, role, item or field (unknown_type): `view.server_managed`. */
  type: string;
  view: ConversationView;
  /** The session the request belongs to, or null when its key could not be read. */
  session: SessionId | null;
}

/** A request the pipeline will not compact (`note` is the header value), or one ready for its session step. */
export type Prepared =
  | { kind: "skip"; note: string; reason: "client_header" | "no_adapter" | "parse" }
  | { kind: "skip"; note: string; reason: StandAsideReason; stand_aside: StoodAside }
  | {
      kind: "ready";
      provider: Provider;
      adapter: ProviderAdapter;
      parsed: ParsedRequest;
      session: SessionId;
    };

/**
 * The step facts of a prepared request (its view, its `anthropic-beta` header, its prefix hashes
 * with the cache facts, its mention keys: ./request-facts.ts). `previous`, when the host still holds the session's previous received
 * body (./scan-cache.ts), places a system-prompt change exactly (`common`: the bytes both share).
 */
export function stepFactsFor(prepared: Extract<Prepared, { kind: "ready" }>, opts: FactsOptions, headers: Headers, previous: PreviousBody | null = null): StepFacts {
  const { parsed, adapter } = prepared;
  const prefix = prefixFactsOf(parsed.bytes, parsed.root, adapter.historyKey, parsed.caches.messageHashes);
  const diff = previous === null ? null : systemDiffOf(previous, parsed, adapter.historyKey, previous.common);
  prefix.cache = cacheFactsOf(parsed.bytes, parsed.root, adapter.historyKey, prepared.provider, parsed.caches, diff);
  return requestFactsOf(parsed, opts, headers, prefix);
}

/** The session's previous received body as the host holds it, and the length of the byte prefix it shares with this one. */
export interface PreviousBody {
  bytes: Uint8Array;
  root: JsonNode;
  common: number;
}

/** What the host lends the preparation; each part optional. */
export interface PrepareHost {
  /** Provider → adapter (the registry unless a test injects another). */
  lookup?: AdapterLookup;
  /** Scans the body (e.g. reusing the session's last body: ./scan-cache.ts); must return exactly `scanJson(bytes)`. Absent: scanJson. */
  scan?: (bytes: Uint8Array) => JsonNode;
  /** The caches the body is read through (../core/caches.ts; the Worker's: ./isolate-caches.ts). Absent: fresh ones, which serve this request only. */
  caches?: CoreCaches;
}

/**
 * Prepares one chat request. `provider` is undefined for routes without an adapter; `host`
 * lends the adapter lookup, the scan and the caches (PrepareHost).
 * Order (each a skip note): `x-sluice-compaction: off` → "off; reason=client_header";
 * no adapter → "skipped; reason=no_adapter"; parse error → "skipped; reason=parse";
 * a type, role, item or field src/providers/known-types.ts does not list →
 * "skipped; reason=unknown_type; type=<type>" (headerType); provider-managed context (DESIGN §6)
 * → "skipped; reason=server_managed", except a history whose only reason is a `compaction`
 * block: the session decides whether the block is its own. Both stand-asides carry
 * `stand_aside` for the metrics.
 */
export function prepareCompaction(provider: Provider | undefined, headers: Headers, original: Uint8Array, host: PrepareHost = {}): Prepared {
  if ((headers.get(COMPACTION_HEADER) ?? "").trim().toLowerCase() === "off") return { kind: "skip", note: "off; reason=client_header", reason: "client_header" };
  const adapter = provider ? (host.lookup ?? adapterFor)(provider) : undefined;
  if (!provider || !adapter) return { kind: "skip", note: "skipped; reason=no_adapter", reason: "no_adapter" };
  let parsed: ParsedRequest;
  try {
    parsed = adapter.read(original, host.caches ?? newCoreCaches(), host.scan?.(original));
  } catch {
    return { kind: "skip", note: "skipped; reason=parse", reason: "parse" };
  }
  const view = parsed.view;
  // A compaction block alone goes to the session: it may be Sluice's own (src/core/policy/native-compaction.ts viewFromCompaction).
  if (view.server_managed !== null && (view.unknown_type === true || view.server_managed !== "compaction")) {
    const reason: StandAsideReason = view.unknown_type ? "unknown_type" : "server_managed";
    const note = reason === "unknown_type" ? `skipped; reason=unknown_type; type=${headerType(view.server_managed)}` : "skipped; reason=server_managed";
    return { kind: "skip", note, reason, stand_aside: { provider, reason, type: view.server_managed, view, session: sessionOrNull(provider, headers, original, parsed) } };
  }
  return { kind: "ready", provider, adapter, parsed, session: sessionIdOf(provider, headers, original, parsed.root) };
}

/** Longest type name the header carries, characters (a client may send any string as a type). */
export const HEADER_TYPE_CHARS = 64;

/**
 * A type name as the `x-sluice-compaction` header carries it: its first HEADER_TYPE_CHARS
 * characters, percent-encoded (encodeURIComponent) so that any string a client sends is a valid,
 * unambiguous header value (no `;`, `=`, spaces or control characters).
 */
export function headerType(type: string): string {
  return encodeURIComponent(Array.from(type).slice(0, HEADER_TYPE_CHARS).join(""));
}

/** The request's session key, or null when reading it throws (a stand-aside request is forwarded whatever its shape). */
function sessionOrNull(provider: Provider, headers: Headers, original: Uint8Array, parsed: ParsedRequest): SessionId | null {
  try {
    return sessionIdOf(provider, headers, original, parsed.root);
  } catch {
    return null;
  }
}
