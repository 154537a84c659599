/**
 * `npm run emulator [-- --port N]`: starts the provider emulator on 127.0.0.1 (port from
 * `--port`, else env EMULATOR_PORT, else 8788) and prints its URL. Stops on SIGINT/SIGTERM.
 */
import { startEmulator } from "./server";

export const DEFAULT_PORT = 8788;

function portFrom(argv: readonly string[], env: NodeJS.ProcessEnv): number {
  const i = argv.indexOf("--port");
  const raw = i >= 0 ? argv[i + 1] : argv.find((a) => a.startsWith("--port="))?.slice(7) ?? env.EMULATOR_PORT;
  if (raw === undefined) return DEFAULT_PORT;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port / EMULATOR_PORT: expected 0-65535, got ${raw}`);
  return port;
}

const emulator = await startEmulator({ port: portFrom(process.argv.slice(2), process.env) });
console.log(`provider emulator listening on ${emulator.url}`);
const stop = () => void emulator.close().then(() => process.exit(0));
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
