/** Node HTTP plumbing shared by the harness's servers (I/O): listen on 127.0.0.1, close, flatten headers. */
import type http from "node:http";
import type { AddressInfo } from "node:net";

/** Lower-case header names with multi-valued headers joined with ", ". */
export function flatHeaders(h: http.IncomingHttpHeaders): Record<string, string> {
  return Object.fromEntries(Object.entries(h).flatMap(([k, v]) => (v === undefined ? [] : [[k, Array.isArray(v) ? v.join(", ") : v]])));
}

/** Listens on 127.0.0.1:`port` (0 = any free port); resolves with the base URL and a close function. */
export async function listenLocal(server: http.Server, port = 0): Promise<{ url: string; close: () => Promise<void> }> {
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve());
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
