/**
 * `--save-forwarded DIR` (I/O): writes every body a strategy forwarded, one file per call, so
 * anyone can bill them with their own model: `DIR/<strategy>/<session>/<call>.json` (call index
 * 0-based, zero-padded to 4 digits), exactly the bytes sent upstream. When the strategy set
 * request headers on the call (Sluice's native edit needs its `anthropic-beta` value),
 * `<call>.headers.json` beside it holds them. Path parts are reduced to [A-Za-z0-9._-].
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { ForwardedBody } from "./drive-replay";

const safe = (s: string): string => s.replace(/[^A-Za-z0-9._-]/g, "_").replace(/^\.+/, "_") || "_";

/** The file a forwarded body goes to under `dir`. */
export function forwardedPath(dir: string, f: Pick<ForwardedBody, "strategy" | "session_id" | "call_index">): string {
  return join(resolve(dir), safe(f.strategy), safe(f.session_id), `${String(f.call_index).padStart(4, "0")}.json`);
}

/** A writer for the driver's `onForwarded`: writes each body (and its headers, when set) under `dir`. */
export function createForwardedWriter(dir: string): (f: ForwardedBody) => void {
  return (f) => {
    const path = forwardedPath(dir, f);
    mkdirSync(join(path, ".."), { recursive: true });
    writeFileSync(path, f.body);
    if (f.headers !== undefined) writeFileSync(path.replace(/\.json$/, ".headers.json"), JSON.stringify(f.headers, null, 2));
  };
}
