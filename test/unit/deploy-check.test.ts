/** The deploy gate (tools/deploy/check-deploy.ts): bundle budget, production vars, rate limit binding, observability. */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { checkDeploy, type BundleFile } from "../../tools/deploy/check-deploy";

const GOOD_TOML = `name = "x"
[vars]
SLUICE_RATE_LIMIT_PERIOD_SECONDS = "60"
[[ratelimits]]
name = "SLUICE_RATE_LIMITER"
namespace_id = "1001"
simple = { limit = 600, period = 60 }
[observability]
enabled = true
`;
const BUNDLE: BundleFile[] = [
  { name: "worker.js", bytes: 1_189_877, gzipBytes: 230_205 },
  { name: "worker.js.map", bytes: 2_406_161, gzipBytes: 600_000 },
  { name: "README.md", bytes: 107, gzipBytes: 100 },
];
const OK_VARS = "ok: production vars hold no secret, no development value and no SLUICE_ENV; rate limit and observability configured";

describe("checkDeploy", () => {
  it("counts the code only (no source map, no README) against the 1 MiB gzipped budget", () => {
    expect(checkDeploy(BUNDLE, GOOD_TOML)).toEqual({ ok: true, lines: ["ok: bundle 224.81 KiB gzipped (1161.99 KiB raw), budget 1024.00 KiB gzipped", OK_VARS] });
  });

  it("fails over budget, naming both sizes", () => {
    const big = [{ name: "worker.js", bytes: 5_000_000, gzipBytes: 1_048_577 }];
    expect(checkDeploy(big, GOOD_TOML)).toEqual({ ok: false, lines: ["error: bundle 1024.00 KiB gzipped (4882.81 KiB raw) is over the budget of 1024.00 KiB gzipped"] });
    expect(checkDeploy([], GOOD_TOML).lines[0]).toBe("error: the dry-run folder holds no bundle (did `wrangler deploy --dry-run --outdir` run?)");
  });

  it("fails on a dev-only value or a secret in any production vars table, and on a period mismatch", () => {
    const toml = GOOD_TOML.replace('[vars]\n', '[vars]\nSLUICE_AUDIT_KEY = "dev-only-audit-key-not-for-production"\n') +
      `[env.staging]\n[env.staging.vars]\nNOTE = "dev-only-thing"\nSLUICE_CLIENT_AUTH = "off"\nSLUICE_RATE_LIMIT_PERIOD_SECONDS = "10"\n[[env.staging.ratelimits]]\nname = "SLUICE_RATE_LIMITER"\nnamespace_id = "1002"\nsimple = { limit = 100, period = 60 }\n`;
    const r = checkDeploy(BUNDLE, toml);
    expect(r).toEqual({ ok: false, lines: [
      "ok: bundle 224.81 KiB gzipped (1161.99 KiB raw), budget 1024.00 KiB gzipped",
      "error: top level vars: SLUICE_AUDIT_KEY is a secret, not a var: remove it here and run `wrangler secret put SLUICE_AUDIT_KEY` (wrangler dev reads it from .dev.vars)",
      "error: [env.staging] vars: NOTE holds a development value (dev-only-…): not for production vars",
      "error: [env.staging]: SLUICE_RATE_LIMITER has period 60 s but SLUICE_RATE_LIMIT_PERIOD_SECONDS is 10: retry-after would be wrong",
      'warning: [env.staging] vars: SLUICE_CLIENT_AUTH = "off": anyone who reaches the URL can use the gateway unless something in front authenticates callers',
    ] });
  });

  it("fails without the rate limit binding or [observability]", () => {
    const toml = `name = "x"\n[vars]\nA = "1"\n`;
    expect(checkDeploy(BUNDLE, toml).lines.slice(1)).toEqual([
      "error: top level: no [[ratelimits]] binding named SLUICE_RATE_LIMITER: callers would not be rate-limited",
      "error: [observability] enabled = true is missing: Workers Logs would drop the structured log lines",
    ]);
  });

  it("the project's wrangler.toml passes", () => {
    expect(checkDeploy(BUNDLE, readFileSync("wrangler.toml", "utf8"))).toEqual({ ok: true, lines: [expect.stringMatching(/^ok: bundle/), OK_VARS] });
  });
});
