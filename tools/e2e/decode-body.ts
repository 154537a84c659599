/**
 * Decodes a request body by its `content-encoding` (Node shell over zlib: gzip, deflate, br,
 * zstd). Returns null for an unknown coding or a body that does not decode, so the caller can
 * record the surprise instead of crashing.
 */
import { brotliDecompressSync, gunzipSync, inflateSync, zstdDecompressSync } from "node:zlib";

/** Decoders by coding name (RFC 9110 §8.4.1; zstd: RFC 8878). */
const DECODERS: Record<string, (b: Buffer) => Buffer> = {
  gzip: gunzipSync,
  "x-gzip": gunzipSync,
  deflate: inflateSync,
  br: brotliDecompressSync,
  zstd: zstdDecompressSync,
};

/** `raw` decoded through each listed coding (applied in order, so decoded last to first); null when one fails or is unknown. */
export function decodeBody(raw: Buffer, contentEncoding: string | undefined): Buffer | null {
  const codings = (contentEncoding ?? "").split(",").map((c) => c.trim().toLowerCase()).filter((c) => c !== "" && c !== "identity");
  let out = raw;
  for (const coding of codings.reverse()) {
    const decode = DECODERS[coding];
    if (!decode) return null;
    try {
      out = decode(out);
    } catch {
      return null;
    }
  }
  return out;
}
