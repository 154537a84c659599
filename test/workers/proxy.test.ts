import { describe, expect, it } from "vitest";
import { bytesOf, gateway, newTestId, received, sha256Hex } from "./helpers";

const ODD_BODY =
  '{"z":1,"messages":[{"role":"user","content":"caf\\u00e9 1.0"}],"a":1.0,"b":1e3,"big":1152921504606846976,"model":"claude-sonnet-4-5","max_tokens":16}';

describe("byte-faithful forwarding", () => {
  it("sends the client's exact body bytes upstream (1.0, 1e3, \\u00e9, 2^60, key order)", async () => {
    const id = newTestId("bytes");
    const res = await gateway("/anthropic/v1/messages", {
      method: "POST",
      headers: { "content-type": "application/json", "x-test-id": id, "x-api-key": "k-test" },
      body: ODD_BODY,
    });
    expect(res.status).toBe(200);
    const [rec] = await received(id);
    expect(rec!.path).toBe("/anthropic-upstream/v1/messages");
    expect(new TextDecoder().decode(bytesOf(rec!))).toBe(ODD_BODY);
    expect(await sha256Hex(bytesOf(rec!))).toBe(await sha256Hex(new TextEncoder().encode(ODD_BODY)));
    expect(rec!.headers["content-length"]).toBe(String(new TextEncoder().encode(ODD_BODY).length));
  });
});
