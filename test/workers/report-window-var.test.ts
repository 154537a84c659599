/**
 * SLUICE_REPORT_WINDOW_MS reaches the report buffer (src/gateway/compaction-setup.ts →
 * src/gateway/report-buffer.ts): a request that opens the session's report window keeps its
 * waitUntil for that long, and its counts reach the DO only when the window ends. The window is
 * longer than both the tests' binding (500 ms) and the default (2 s), so a var that did not reach
 * the buffer fails it. Lower bounds only (a timer never fires early): no flake on a slow machine.
 */
import { expect, inject, it } from "vitest";
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import type { Env } from "../../src/config/env";
import type { SessionObject } from "../../src/do/session-object";
import worker from "../../src/worker";
import { TEST_API_KEY, newTestId, utf8 } from "./helpers";

const seed = inject("corpusSeeds").find((s) => s.name === "cc-cctrace-opus4#15")!;
const sessions = () => (env as unknown as Env).SESSION as DurableObjectNamespace<SessionObject>;

it("the report window var sets how long the answer's counts wait: none before it ends, the call after", async () => {
  const session = `window-${newTestId("s")}`;
  const ctx = createExecutionContext();
  const vars = { SLUICE_COMPACTION: "1", SLUICE_REPORT_WINDOW_MS: "3500", SLUICE_INDEX_WINDOW_MS: "0" };
  const t0 = Date.now();
  const res = await worker.fetch(
    new Request(`http://sluice.test${seed.path}`, { method: "POST", headers: { "content-type": "application/json", "x-api-key": TEST_API_KEY, "x-test-id": newTestId("w"), "x-sluice-session": session }, body: utf8(seed.body) }) as Request<unknown, IncomingRequestCfProperties>,
    { ...(env as unknown as Env), ...vars },
    ctx,
  );
  expect(res.status).toBe(200);
  await res.arrayBuffer();
  const stub = sessions().get(sessions().idFromName(session));
  // The step call counted the request; its outcome (the `calls` row) waits for the window.
  const before = await stub.stats();
  await waitOnExecutionContext(ctx);
  const waited = Date.now() - t0;
  const after = await stub.stats();
  expect({ before: before.calls_log.length, after: after.calls_log.length, waited_at_least_window: waited >= 3500 }).toEqual({ before: 0, after: 1, waited_at_least_window: true });
});
