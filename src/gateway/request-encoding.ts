/**
 * Compressed request bodies (shell: uses the runtime's decoders). Codex CLI may send its
 * Responses requests with `content-encoding: zstd` (or gzip); the compaction pipeline reads JSON,
 * so a chat request's body is decoded before the hook sees it, and the hook never learns that it
 * was compressed: it gets the decoded bytes and the headers without `content-encoding`.
 *
 * What goes upstream:
 * - the hook returned the decoded bytes unchanged (nothing edited, measure mode, any skip): the
 *   client's ORIGINAL compressed bytes with its own headers, byte for byte;
 * - the hook edited the body: the edited bytes uncompressed (identity), with no
 *   `content-encoding` (the runtime sets `content-length` to their length). Not re-compressed:
 *   every provider accepts identity bodies, while which codings an upstream accepts on requests
 *   is not documented; re-encoding would spend the Worker's CPU on every edited request; and the
 *   upstream hop starts in Cloudflare's network, where the saved bytes cost little;
 * - the body cannot be decoded (a coding not in DECODERS, corrupt data, or more than
 *   MAX_DECODED_BODY_BYTES once decoded — a decompression bomb): the exact bytes and headers
 *   go, and the response carries `x-sluice-compaction: skipped; reason=content_encoding;
 *   coding=…; cause=…`. The hook still runs on the bytes as they came, as for any body it cannot
 *   read: it counts a `parse` fail-open for the session and taps the answer's usage, so nothing
 *   about the request is lost; whatever body it returns, the original goes.
 *
 * Decoders: workerd's `node:zlib` (compat flag `nodejs_compat`, set in wrangler.toml) has all
 * four HTTP codings — gzip (RFC 1952), deflate (the zlib format, RFC 9110 §8.4.1.2), br
 * (RFC 7932) and zstd (RFC 8878) — each with a hard output limit (`maxOutputLength`), so one
 * table serves them and no npm package is needed. DecompressionStream knows only gzip and
 * deflate in workerd (measured: "br" and "zstd" throw TypeError) and has no output limit.
 */
import { brotliDecompressSync, gunzipSync, inflateSync, zstdDecompressSync } from "node:zlib";
import { byteComparer } from "../core/plan/same-bytes";
import type { CompactionHook, IncomingRequest } from "./handle-request";
import { COMPACTION_HEADER } from "./prepare-compaction";

/**
 * Largest decoded request body Sluice decodes, bytes (32 MiB). Anthropic refuses Messages
 * requests over 32 MB with 413 request_too_large (docs.anthropic.com/en/api/overview, "Request
 * size limits"), so a larger decoded body is no request worth compacting; it also bounds the
 * memory a decompression bomb can take. Over it, the request fails open as it came.
 */
export const MAX_DECODED_BODY_BYTES = 32 * 1024 * 1024;

type Decoder = (bytes: Uint8Array, maxOutputLength: number) => Uint8Array;

/** Content codings (RFC 9110 §8.4.1, lowercase) Sluice decodes; `x-gzip` is gzip's legacy alias (§8.4.1.3). */
const DECODERS: Readonly<Record<string, Decoder>> = {
  gzip: (b, max) => gunzipSync(b, { maxOutputLength: max }),
  "x-gzip": (b, max) => gunzipSync(b, { maxOutputLength: max }),
  deflate: (b, max) => inflateSync(b, { maxOutputLength: max }),
  br: (b, max) => brotliDecompressSync(b, { maxOutputLength: max }),
  zstd: (b, max) => zstdDecompressSync(b, { maxOutputLength: max }),
};

/** The content codings decodeRequestBody decodes (for an `accept-encoding` answer). */
export const DECODED_CODINGS: readonly string[] = Object.keys(DECODERS);

/** Why a compressed body was not decoded. */
export type DecodeFailure = "unknown_coding" | "decode_error" | "too_large";

/** The body as the hook should see it. */
export type DecodedBody =
  /** No `content-encoding` (or only `identity`): the bytes are the body. */
  | { kind: "identity" }
  | { kind: "decoded"; bytes: Uint8Array; coding: string }
  | { kind: "failed"; coding: string; cause: DecodeFailure };

/** The codings of a `content-encoding` value, in the order they were applied; `identity` dropped. */
export function contentCodings(headers: Headers): string[] {
  const v = headers.get("content-encoding");
  if (v === null) return [];
  return v.split(",").map((s) => s.trim().toLowerCase()).filter((s) => s !== "" && s !== "identity");
}

/**
 * Decodes `body` per its `content-encoding` (codings undone last-applied first). `maxBytes` bounds
 * every decoded stage (default MAX_DECODED_BODY_BYTES). Never throws: a failure is a value.
 */
export function decodeRequestBody(headers: Headers, body: Uint8Array, maxBytes = MAX_DECODED_BODY_BYTES): DecodedBody {
  const codings = contentCodings(headers);
  if (codings.length === 0) return { kind: "identity" };
  const coding = codings.join(", ");
  const unknown = codings.find((c) => !(c in DECODERS));
  if (unknown !== undefined) return { kind: "failed", coding, cause: "unknown_coding" };
  let bytes = body;
  for (const c of [...codings].reverse()) {
    try {
      // A plain Uint8Array view, not node's Buffer (whose slice() shares memory instead of copying).
      const out = DECODERS[c]!(bytes, maxBytes);
      bytes = new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
    } catch (err) {
      // node:zlib reports an output over maxOutputLength as RangeError ERR_BUFFER_TOO_LARGE.
      const tooLarge = err instanceof RangeError || (err as { code?: string }).code === "ERR_BUFFER_TOO_LARGE";
      return { kind: "failed", coding, cause: tooLarge ? "too_large" : "decode_error" };
    }
  }
  return { kind: "decoded", bytes, coding };
}

/** `headers` without `content-encoding` and `content-length`: they describe the compressed bytes. */
export function identityHeaders(headers: Headers): Headers {
  const out = new Headers(headers);
  out.delete("content-encoding");
  out.delete("content-length");
  return out;
}

/** The compaction hook's answer plus the headers the forward must carry. */
export type DecodedHookResult = Awaited<ReturnType<CompactionHook>> & { forwardHeaders: Headers };

/**
 * Runs `hook` on the decoded body of `req` (see the module comment for what goes upstream).
 * Throws what the hook throws (the caller fails open with the original bytes and headers).
 */
export async function compactDecoded(hook: CompactionHook, req: IncomingRequest): Promise<DecodedHookResult> {
  const original = req.body!;
  const decoded = decodeRequestBody(req.headers, original);
  if (decoded.kind === "identity") return { ...(await hook(req)), forwardHeaders: req.headers };
  if (decoded.kind === "failed") {
    const out = await hook(req);
    const note = `skipped; reason=content_encoding; coding=${decoded.coding}; cause=${decoded.cause}`;
    return { ...out, body: original, headers: { ...out.headers, [COMPACTION_HEADER]: note }, forwardHeaders: req.headers };
  }
  const plain = identityHeaders(req.headers);
  const out = await hook({ ...req, headers: plain, body: decoded.bytes });
  const unchanged = out.body === decoded.bytes || (out.body.length === decoded.bytes.length && byteComparer(out.body, decoded.bytes)(0, out.body.length, 0, decoded.bytes.length));
  return unchanged ? { ...out, body: original, forwardHeaders: req.headers } : { ...out, forwardHeaders: plain };
}
