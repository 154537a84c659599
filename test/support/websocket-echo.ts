/**
 * A minimal RFC 6455 WebSocket echo for the upstream stand-in (test/support/upstream-server.ts):
 * completes the handshake (choosing the first offered subprotocol, if any) and sends every text
 * or binary message back unchanged, as one unmasked frame of the same type; answers a close
 * with a close (or refuses: see webSocketEcho). Messages are assumed unfragmented (the gateway tests send small ones). Not part
 * of the product.
 */
import { createHash } from "node:crypto";
import type http from "node:http";
import type { Duplex } from "node:stream";
import { STATUS_BODY } from "./scenarios";

/** RFC 6455 §1.3: the GUID appended to Sec-WebSocket-Key for Sec-WebSocket-Accept. */
const WS_GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";

/** One server frame (FIN set, unmasked) with `opcode` and `payload`. */
function frame(opcode: number, payload: Buffer): Buffer {
  const n = payload.length;
  const head = n < 126 ? Buffer.from([0x80 | opcode, n]) : n < 65536 ? Buffer.from([0x80 | opcode, 126, n >> 8, n & 0xff]) : Buffer.concat([Buffer.from([0x80 | opcode, 127]), (() => { const b = Buffer.alloc(8); b.writeBigUInt64BE(BigInt(n)); return b; })()]);
  return Buffer.concat([head, payload]);
}

/**
 * Handles an `upgrade` event of a node http server as a WebSocket echo; with header
 * `x-test-scenario: status:NNN` it refuses instead, answering NNN with STATUS_BODY(NNN).
 */
export function webSocketEcho(req: http.IncomingMessage, socket: Duplex): void {
  const scenario = String(req.headers["x-test-scenario"] ?? "");
  if (scenario.startsWith("status:")) {
    const status = Number(scenario.slice(7));
    const body = Buffer.from(STATUS_BODY(status));
    socket.end(Buffer.concat([Buffer.from(`HTTP/1.1 ${status} Refused\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\nconnection: close\r\n\r\n`), body]));
    return;
  }
  const key = String(req.headers["sec-websocket-key"] ?? "");
  const accept = createHash("sha1").update(key + WS_GUID).digest("base64");
  const protocol = String(req.headers["sec-websocket-protocol"] ?? "").split(",")[0]!.trim();
  socket.write(["HTTP/1.1 101 Switching Protocols", "Upgrade: websocket", "Connection: Upgrade", `Sec-WebSocket-Accept: ${accept}`, ...(protocol ? [`Sec-WebSocket-Protocol: ${protocol}`] : []), "", ""].join("\r\n"));
  let buf = Buffer.alloc(0);
  socket.on("data", (chunk: Buffer) => {
    buf = Buffer.concat([buf, chunk]);
    for (;;) {
      if (buf.length < 2) return;
      const opcode = buf[0]! & 0x0f;
      const masked = (buf[1]! & 0x80) !== 0;
      let len = buf[1]! & 0x7f;
      let at = 2;
      if (len === 126) { if (buf.length < 4) return; len = buf.readUInt16BE(2); at = 4; }
      else if (len === 127) { if (buf.length < 10) return; len = Number(buf.readBigUInt64BE(2)); at = 10; }
      const maskAt = at;
      if (masked) at += 4;
      if (buf.length < at + len) return;
      const payload = Buffer.from(buf.subarray(at, at + len));
      if (masked) for (let i = 0; i < len; i++) payload[i]! ^= buf[maskAt + (i % 4)]!;
      buf = buf.subarray(at + len);
      if (opcode === 0x8) { socket.end(frame(0x8, payload)); return; }
      if (opcode === 0x9) { socket.write(frame(0xa, payload)); continue; }
      if (opcode === 0x1 || opcode === 0x2) socket.write(frame(opcode, payload));
    }
  });
  socket.on("error", () => socket.destroy());
}
