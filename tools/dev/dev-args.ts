/**
 * The arguments of `npm start` (pure): `wrangler dev` on 127.0.0.1, the port from `--port N`,
 * `--port=N` or the PORT variable (default 8787), and the development vars (SLUICE_ENV,
 * the development audit key) as `--var` for each one `.dev.vars` does not set itself, so a
 * `.dev.vars` value always wins and a checkout without one still runs. Other arguments pass to
 * wrangler unchanged.
 */
import { DEVELOPMENT_VARS } from "../../src/config/secrets";

/** wrangler dev's own default port. */
export const DEFAULT_PORT = 8787;

/** Thrown for a bad --port / PORT (the message names which). */
export class PortError extends Error {}

function parsePort(text: string, source: string): number {
  if (!/^\d{1,5}$/.test(text) || Number(text) < 1 || Number(text) > 65_535) throw new PortError(`${source} must be a port number from 1 to 65535, got "${text}"`);
  return Number(text);
}

/**
 * `argv`: the arguments after `npm start --`; `portVar`: process.env.PORT; `devVars`: the names
 * `.dev.vars` defines. Returns wrangler's arguments after `wrangler`. Throws PortError.
 */
export function devServerArgs(argv: readonly string[], portVar: string | undefined, devVars: ReadonlySet<string>): string[] {
  let port = portVar !== undefined && portVar !== "" ? parsePort(portVar, "PORT") : DEFAULT_PORT;
  const rest: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === "--port") {
      const next = argv[++i];
      if (next === undefined) throw new PortError("--port needs a value");
      port = parsePort(next, "--port");
    } else if (a.startsWith("--port=")) port = parsePort(a.slice("--port=".length), "--port");
    else rest.push(a);
  }
  const vars = Object.entries(DEVELOPMENT_VARS).filter(([k]) => !devVars.has(k)).flatMap(([k, v]) => ["--var", `${k}:${v}`]);
  return ["dev", "--ip", "127.0.0.1", "--port", String(port), ...vars, ...rest];
}
