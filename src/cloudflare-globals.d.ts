/**
 * Type-only: tells @cloudflare/workers-types what our main module exports, so
 * `exports.default.fetch` (cloudflare:workers) and `env` are typed in tests. Keep in step with
 * src/worker.ts and wrangler.toml.
 */
declare namespace Cloudflare {
  interface GlobalProps {
    mainModule: typeof import("./worker");
    durableNamespaces: "SessionObject";
  }
  interface Env extends import("./config/env").Env {}
}
