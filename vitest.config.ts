import { cloudflareTest } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";
import { DEVELOPMENT_VARS } from "./src/config/secrets";

/**
 * Tests that start other processes (wrangler dev, Chromium, the demo over the emulator, tool
 * child-process cleanup, programs run as programs, spawned engines): the `slow` project, kept
 * out of `npm run test:fast`.
 */
const SLOW = [
  "test/unit/dashboard-browser.test.ts",
  "test/unit/tool-children-cleanup.test.ts",
  "test/unit/demo.test.ts",
  "test/unit/emulator-server.test.ts",
  "test/unit/load-do-state.test.ts",
  "test/unit/config/config-check.test.ts",
  "test/unit/engines/reference-engine.test.ts",
  "test/unit/replay-rewrite-corpus.test.ts",
];

/**
 * Three test projects (docs/dev/style.md habit 8):
 * - `unit`: pure code under plain vitest in Node (test/unit), without the SLOW files.
 * - `slow`: the SLOW files, in Node.
 * - `workers`: routes, Durable Objects and alarms in workerd via the Workers vitest plugin
 *   (test/workers). A real upstream stand-in (test/support/upstream-server.ts) is started by
 *   globalSetup on 127.0.0.1 and its URL injected into the worker's vars.
 */
export default defineConfig({
  test: {
    // Vitest's default is availableParallelism − 1 workers: one on the 2-core machines this
    // project runs on, which runs every test file in turn. Two keep both cores busy.
    maxWorkers: 2,
    // The gateway logs one JSON line per fail-open, step and tier event: hundreds of KB over a
    // run. A test's console output is printed only when that test fails.
    silent: "passed-only",
    // Its teardown kills what a test file started and did not stop (test/support/child-registry.ts).
    globalSetup: ["test/support/reap-children.ts"],
    projects: [
      {
        test: {
          name: "unit",
          include: ["test/unit/**/*.test.ts"],
          exclude: SLOW,
          environment: "node",
          testTimeout: 60_000,
        },
      },
      {
        test: {
          name: "slow",
          include: SLOW,
          environment: "node",
          testTimeout: 120_000,
        },
      },
      {
        plugins: [
          cloudflareTest(({ inject }) => {
            const upstream = inject("upstreamUrl");
            const unreachable = inject("unreachableUrl");
            return {
              wrangler: { configPath: "./wrangler.toml" },
              miniflare: {
                bindings: {
                  // What wrangler dev gets from .dev.vars: SLUICE_ENV=development and the development audit key.
                  ...DEVELOPMENT_VARS,
                  ANTHROPIC_BASE_URL: `${upstream}/anthropic-upstream`,
                  OPENAI_BASE_URL: `${upstream}/openai-upstream`,
                  UPSTREAM_CONTROL_URL: upstream,
                  // Test-only: a URL where nothing listens (502 tests) and an admin token the
                  // header policy must never forward.
                  UNREACHABLE_URL: unreachable,
                  SLUICE_ADMIN_TOKEN: "sluice-admin-test-token-5f1c",
                },
                // A second limiter with a small limit, for test/workers/rate-limit.test.ts (wrangler.toml's allows 600/min).
                ratelimits: { TEST_RATE_LIMITER_3: { namespace_id: "9001", simple: { limit: 3, period: 60 } } },
              },
            };
          }),
        ],
        test: {
          name: "workers",
          include: ["test/workers/**/*.test.ts"],
          globalSetup: ["test/support/global-setup.ts"],
          testTimeout: 30_000,
        },
      },
    ],
  },
});
