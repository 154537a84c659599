import { defineConfig } from "vitest/config";

/**
 * The third test level (docs/dev/style.md habit 8): process-spawning end-to-end runs. Project `e2e` runs
 * the real clients (Claude Code, Codex CLI) through `wrangler dev` against the scripted upstream
 * (tools/e2e/). Kept out of `npm test`: it installs ≈ 800 MB of clients on first use and runs
 * ≈ 4–6.5 min on 2 cores. Run it with `npm run test:e2e`.
 */
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: "e2e",
          include: ["test/e2e/**/*.test.ts"],
          environment: "node",
          testTimeout: 60_000,
          hookTimeout: 1_200_000,
        },
      },
    ],
  },
});
