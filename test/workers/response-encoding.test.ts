/**
 * Response headers describe the bytes actually sent. Measured workerd behaviour: its
 * fetch() decodes gzip and br bodies but keeps the upstream's `content-encoding` and (now stale)
 * `content-length`; other codings (deflate) come through raw. So Sluice drops both headers for
 * gzip/br and keeps them, with the raw bytes, otherwise.
 */
import { describe, expect, it } from "vitest";
import { ENCODED_PLAIN } from "../support/scenarios";
import { gateway, newTestId, utf8 } from "./helpers";

async function inflate(bytes: Uint8Array, format: "deflate" | "gzip"): Promise<Uint8Array> {
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream(format));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

describe("content-encoding from the upstream", () => {
  for (const enc of ["gzip", "br"]) {
    for (const acceptEncoding of [null, "gzip, deflate, br"]) {
      it(`${enc} (client accept-encoding: ${acceptEncoding}): decoded bytes, no content-encoding, no content-length`, async () => {
        const headers: Record<string, string> = { "x-test-id": newTestId("enc"), "x-test-scenario": `encoded:${enc}` };
        if (acceptEncoding) headers["accept-encoding"] = acceptEncoding;
        const res = await gateway("/openai/v1/models", { headers });
        expect(res.status).toBe(200);
        expect(res.headers.get("content-encoding")).toBeNull();
        expect(res.headers.get("content-length")).toBeNull();
        expect(new Uint8Array(await res.arrayBuffer())).toEqual(utf8(ENCODED_PLAIN));
      });
    }
  }

  it("deflate (not decoded by workerd): raw bytes with their content-encoding and exact content-length", async () => {
    const res = await gateway("/openai/v1/models", { headers: { "x-test-id": newTestId("enc"), "x-test-scenario": "encoded:deflate" } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-encoding")).toBe("deflate");
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect(res.headers.get("content-length")).toBe(String(bytes.length));
    expect(bytes[0]).toBe(0x78); // zlib header: the bytes were not decoded or re-encoded
    expect(await inflate(bytes, "deflate")).toEqual(utf8(ENCODED_PLAIN));
  });

  it("identity: content-length kept and equal to the bytes sent", async () => {
    const res = await gateway("/anthropic/v1/messages", {
      method: "POST",
      headers: { "x-test-id": newTestId("enc"), "x-test-scenario": "status:404", "x-test-retry-after": "none" },
      body: "{}",
    });
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect(res.headers.get("content-encoding")).toBeNull();
    expect(res.headers.get("content-length")).toBe(String(bytes.length));
  });
});
