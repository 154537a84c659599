/**
 * `npm run deploy:check -- --outdir DIR [--config wrangler.toml]`: the deploy gate
 * (tools/deploy/check-deploy.ts) over the folder written by
 * `wrangler deploy --dry-run --outdir DIR`. Prints one line per finding; exit 1 on any error,
 * 2 on bad arguments. `.ci/run` runs the dry run and then this.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { checkDeploy, type BundleFile } from "./deploy/check-deploy";

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

function main(): void {
  const outdir = arg("--outdir");
  const config = arg("--config") ?? "wrangler.toml";
  if (!outdir) {
    console.error("usage: deploy-check --outdir DIR [--config wrangler.toml]  (DIR from `wrangler deploy --dry-run --outdir DIR`)");
    process.exit(2);
  }
  const files: BundleFile[] = readdirSync(outdir, { recursive: true, encoding: "utf8" })
    .filter((name) => statSync(join(outdir, name)).isFile())
    .map((name) => {
      const bytes = readFileSync(join(outdir, name));
      return { name, bytes: bytes.length, gzipBytes: gzipSync(bytes).length };
    });
  const report = checkDeploy(files, readFileSync(config, "utf8"));
  for (const line of report.lines) (line.startsWith("error") ? console.error : console.log)(`deploy-check: ${line}`);
  process.exit(report.ok ? 0 : 1);
}

main();
