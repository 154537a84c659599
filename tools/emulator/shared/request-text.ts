/**
 * The request body as text (pure over node:zlib): bytes sent with a `content-encoding` are
 * decoded first, by the gateway's own decoder (src/gateway/request-encoding.ts decodeRequestBody:
 * gzip, x-gzip, deflate, br, zstd, applied codings undone last first, at most 32 MiB decoded).
 * The providers accept compressed request bodies (Codex CLI sends its Responses requests
 * zstd-compressed); what they answer to one that does not decode is not documented, so the
 * emulator's 400 and its wording are its own.
 */
import { decodeRequestBody, MAX_DECODED_BODY_BYTES } from "../../../src/gateway/request-encoding";

/** The text, or why the body could not be read. */
export type RequestText = { ok: true; text: string } | { ok: false; message: string };

/** `body` as text: a string as it is, bytes decoded per `contentEncoding` (the header's value) then read as UTF-8. */
export function requestText(contentEncoding: string | undefined, body: string | Uint8Array): RequestText {
  if (typeof body === "string") return { ok: true, text: body };
  const headers = new Headers(contentEncoding === undefined ? {} : { "content-encoding": contentEncoding });
  const decoded = decodeRequestBody(headers, body);
  switch (decoded.kind) {
    case "identity":
      return { ok: true, text: Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString("utf8") };
    case "decoded":
      return { ok: true, text: Buffer.from(decoded.bytes.buffer, decoded.bytes.byteOffset, decoded.bytes.byteLength).toString("utf8") };
    case "failed": {
      const why = decoded.cause === "unknown_coding" ? "is not supported" : decoded.cause === "too_large" ? `decodes to more than ${MAX_DECODED_BODY_BYTES} bytes` : "does not decode";
      return { ok: false, message: `The request body's Content-Encoding ${JSON.stringify(decoded.coding)} ${why}.` };
    }
    default: {
      const never: never = decoded;
      throw new Error(`unknown decoding ${JSON.stringify(never)}`);
    }
  }
}
