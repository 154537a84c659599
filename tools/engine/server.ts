/**
 * The reference local decision engine (Node program, `npm run engine`): an HTTP server on
 * 127.0.0.1 that answers the engine protocol (docs/engine-protocol.md) with an injected
 * verdict function — by default tools/engine/decide.ts — and summarize function — by default the
 * extractive summariser of tools/engine/summarize.ts. The starting point for a team that wants
 * to plug in its own model: replace `decide` or `summarize`.
 *
 *   POST /decide     engine request → 200 {verdicts}; 400 {error} for a body the protocol refuses
 *   POST /summarize  summarize request → 200 {summary, input_tokens, output_tokens, cost_usd}; 400 likewise
 *   GET  /healthz    200 {ok, protocol}
 *
 * Options: `--port N` / ENGINE_PORT (default 8789; 0 = any free port), `--fault SPEC` /
 * ENGINE_FAULT to rehearse a gateway's fail-open paths: `slow:MS` (answer after MS ms),
 * `status:NNN`, `garbage` (200 with a non-JSON body), `reset` (destroy the socket).
 * Prints `engine listening on http://127.0.0.1:PORT/decide` once ready.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { engineRequestSchema, PROTOCOL_VERSION } from "../../src/engines/protocol";
import { summarizeRequestSchema } from "../../src/engines/summarize-protocol";
import { decide as referenceDecide, type DecideFn } from "./decide";
import { summarize as referenceSummarize, type SummarizeFn } from "./summarize";

/** Default port (8787 is `wrangler dev`, 8788 left free for it). */
export const DEFAULT_ENGINE_PORT = 8789;
/** Largest request body accepted, bytes (8 MiB; our bound). */
export const MAX_REQUEST_BYTES = 8 * 1_048_576;

/** A deliberate misbehaviour for fail-open rehearsals. */
export type Fault =
  | { kind: "none" }
  | { kind: "slow"; ms: number }
  | { kind: "status"; status: number }
  | { kind: "garbage" }
  | { kind: "reset" };

/** Parses a `--fault` spec; throws with the spec's grammar on anything else. */
export function parseFault(spec: string | undefined): Fault {
  if (!spec) return { kind: "none" };
  if (spec === "garbage") return { kind: "garbage" };
  if (spec === "reset") return { kind: "reset" };
  const m = /^(slow|status):(\d+)$/.exec(spec);
  if (m?.[1] === "slow") return { kind: "slow", ms: Number(m[2]) };
  if (m?.[1] === "status" && Number(m[2]) >= 100 && Number(m[2]) <= 599) return { kind: "status", status: Number(m[2]) };
  throw new Error(`bad fault "${spec}": use slow:MS, status:NNN, garbage or reset`);
}

/** Builds the server (not listening). `summarize` defaults to the reference extractive summariser. */
export function createEngineServer(opts: { decide: DecideFn; summarize?: SummarizeFn; fault?: Fault }): http.Server {
  const summarize = opts.summarize ?? referenceSummarize;
  const fault = opts.fault ?? { kind: "none" };
  return http.createServer(async (req, res) => {
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(body));
    };
    if (req.method === "GET" && req.url === "/healthz") return send(200, { ok: true, protocol: PROTOCOL_VERSION });
    if (req.method !== "POST" || (req.url !== "/decide" && req.url !== "/summarize")) return send(404, { error: { message: "POST /decide, POST /summarize or GET /healthz" } });

    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of req) {
      size += (chunk as Buffer).length;
      if (size > MAX_REQUEST_BYTES) return send(413, { error: { message: `request over ${MAX_REQUEST_BYTES} bytes` } });
      chunks.push(chunk as Buffer);
    }
    switch (fault.kind) {
      case "none":
        break;
      case "slow":
        await new Promise((r) => setTimeout(r, fault.ms));
        break;
      case "status":
        return send(fault.status, { error: { message: `fault status:${fault.status}` } });
      case "garbage":
        res.writeHead(200, { "content-type": "application/json" });
        return res.end("<html>not json");
      case "reset":
        return req.socket.destroy();
      default: {
        const never: never = fault;
        return never;
      }
    }
    let json: unknown;
    try {
      json = JSON.parse(Buffer.concat(chunks).toString("utf8"));
    } catch {
      return send(400, { error: { message: "body is not JSON" } });
    }
    const refuse = (issues: readonly { path: PropertyKey[]; message: string }[]) =>
      send(400, { error: { message: `${issues[0]!.path.map(String).join(".") || "(root)"}: ${issues[0]!.message}` } });
    if (req.url === "/summarize") {
      const parsed = summarizeRequestSchema.safeParse(json);
      if (!parsed.success) return refuse(parsed.error.issues);
      if (res.destroyed) return;
      return send(200, summarize(parsed.data));
    }
    const parsed = engineRequestSchema.safeParse(json);
    if (!parsed.success) return refuse(parsed.error.issues);
    if (res.destroyed) return;
    send(200, { verdicts: opts.decide(parsed.data.candidates) });
  });
}

/** Reads `--name value` or `--name=value` from argv. */
function arg(argv: string[], name: string): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === `--${name}`) return argv[i + 1];
    if (argv[i]!.startsWith(`--${name}=`)) return argv[i]!.slice(name.length + 3);
  }
  return undefined;
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const port = Number(arg(argv, "port") ?? process.env.ENGINE_PORT ?? DEFAULT_ENGINE_PORT);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new Error("port must be an integer from 0 to 65535");
  const server = createEngineServer({ decide: referenceDecide, fault: parseFault(arg(argv, "fault") ?? process.env.ENGINE_FAULT) });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  console.log(`engine listening on http://127.0.0.1:${(server.address() as AddressInfo).port}/decide`);
  const stop = () => { server.closeAllConnections(); server.close(() => process.exit(0)); };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((err: Error) => { console.error(`engine: ${err.message}`); process.exit(1); });
}
