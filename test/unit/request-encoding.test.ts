/**
 * The decoding rules of src/gateway/request-encoding.ts in Node (whose node:zlib has the same
 * four decoders as workerd's): which `content-encoding` values mean "decode", in what order, and
 * the output limit at its exact edge. The forwarding that follows is tested in workerd
 * (test/workers/request-encoding.test.ts).
 */
import { describe, expect, it } from "vitest";
import { brotliCompressSync, gzipSync, zstdCompressSync } from "node:zlib";
import { contentCodings, decodeRequestBody } from "../../src/gateway/request-encoding";

const h = (ce: string | null) => new Headers(ce === null ? {} : { "content-encoding": ce });
const text = new TextEncoder().encode('{"model":"m","input":"caf\u00e9"}');

describe("contentCodings", () => {
  it("lowercases, trims, keeps the applied order and drops identity", () => {
    expect([contentCodings(h(null)), contentCodings(h("")), contentCodings(h("identity")), contentCodings(h(" GZip , identity,BR "))]).toEqual([[], [], [], ["gzip", "br"]]);
  });
});

describe("decodeRequestBody", () => {
  it("no coding or identity only: nothing to decode", () => {
    expect([decodeRequestBody(h(null), text), decodeRequestBody(h("identity"), text)]).toEqual([{ kind: "identity" }, { kind: "identity" }]);
  });

  it("x-gzip is gzip; `gzip, zstd` undoes zstd first; the result is a plain Uint8Array", () => {
    const a = decodeRequestBody(h("x-gzip"), gzipSync(text));
    const b = decodeRequestBody(h("gzip, zstd"), zstdCompressSync(gzipSync(text)));
    expect(a).toEqual({ kind: "decoded", bytes: text, coding: "x-gzip" });
    expect(b).toEqual({ kind: "decoded", bytes: text, coding: "gzip, zstd" });
    expect(a.kind === "decoded" && Object.getPrototypeOf(a.bytes)).toBe(Uint8Array.prototype);
  });

  it("the limit holds at its edge: exactly maxBytes decodes, one byte more is too_large (br and zstd)", () => {
    const at = new Uint8Array(1000).fill(97);
    const over = new Uint8Array(1001).fill(97);
    expect(decodeRequestBody(h("br"), brotliCompressSync(at), 1000)).toEqual({ kind: "decoded", bytes: at, coding: "br" });
    expect(decodeRequestBody(h("br"), brotliCompressSync(over), 1000)).toEqual({ kind: "failed", coding: "br", cause: "too_large" });
    expect(decodeRequestBody(h("zstd"), zstdCompressSync(over), 1000)).toEqual({ kind: "failed", coding: "zstd", cause: "too_large" });
  });

  it("a known coding over bytes of another (gzip bytes labelled br) is a decode_error; an unknown one is named", () => {
    expect(decodeRequestBody(h("br"), gzipSync(text))).toEqual({ kind: "failed", coding: "br", cause: "decode_error" });
    expect(decodeRequestBody(h("aes128gcm"), text)).toEqual({ kind: "failed", coding: "aes128gcm", cause: "unknown_coding" });
  });
});
