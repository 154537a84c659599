/**
 * `npx tsx tools/load/profile-hot-path.ts` (Node, bounded): times each stage of the
 * compaction-on hot path in-process over the load run's calls (per corpus session, the 12
 * consecutive calls from the middle, as tools/load/run-load.ts sends them, 1 s apart on the
 * request clock), the way the Worker runs them: prepareCompaction with the session's scan
 * reuse (src/gateway/scan-cache.ts); without a lease in force, the lease asked for alone
 * (src/do/open-lease.ts over node:sqlite); the lease holder's own step (src/gateway/decide-leased.ts);
 * for requests it cannot decide, a structuredClone of the slim view (stand-in for the step
 * RPC's serialisation) and runStep over node:sqlite with its SQL statement count, whose lease
 * the next request uses; decideForward (apply + guarantee check). The first of 3 passes warms
 * the JIT and is not counted. Prints the mean per call (ms) per stage and how many requests
 * were decided under a lease, then the same as multiples of a JSON.parse of each body (timed in
 * the same loop), which compare across runs on a machine whose speed drifts. Measurement only:
 * no assertion, nothing written.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { loadConfig } from "../../src/config/load-config";
import { configKey } from "../../src/core/policy/step-lease";
import { openLease } from "../../src/do/open-lease";
import { runStep } from "../../src/do/run-step";
import { SessionStore } from "../../src/do/session-store";
import { slimView, type StepOutput } from "../../src/do/step-types";
import { decideForward } from "../../src/gateway/decide-forward";
import { decideLeased, leaseInForce } from "../../src/gateway/decide-leased";
import { LeaseStore } from "../../src/gateway/lease-store";
import { prepareCompaction } from "../../src/gateway/prepare-compaction";
import { ScanCache } from "../../src/gateway/scan-cache";
import { agentHeaders } from "../replay/agent-headers";
import { readSessionText } from "../replay/read-session-text";
import { createMemorySql } from "../replay/sluice/create-memory-sql";

const CORPUS_DIR = fileURLToPath(new URL("../../../shared/corpus/", import.meta.url).href);
/** Calls per session, as run-load.ts's default `--calls`. */
const CALLS = 12;
const PASSES = 3;

async function main(): Promise<void> {
  const loaded = loadConfig({ SLUICE_COMPACTION: "1" });
  if (!loaded.ok || loaded.mode === "off") throw new Error("config: compaction must be on");
  const { config, mode } = loaded;
  const key = configKey(config, mode);
  const total: Record<string, number> = {};
  let calls = 0;
  let leased = 0;
  for (let pass = 0; pass < PASSES; pass++) {
    for (const f of readdirSync(CORPUS_DIR).filter((n) => n.endsWith(".json")).sort()) {
      const s = readSessionText(readFileSync(join(CORPUS_DIR, f), "utf8"), f);
      const start = Math.max(0, Math.min(s.calls.length - CALLS, Math.floor(s.calls.length / 2) - Math.floor(CALLS / 2)));
      const mem = createMemorySql();
      let statements = 0;
      const sql = { exec: (q: string, ...b: unknown[]) => { statements++; return (mem.sql.exec as (q: string, ...b: unknown[]) => unknown)(q, ...b); } } as unknown as SqlStorage;
      const store = new SessionStore(sql);
      const scans = new ScanCache();
      const leases = new LeaseStore("profile");
      const add = (k: string, v: number) => { if (pass > 0) total[k] = (total[k] ?? 0) + v; };
      const time = <T>(k: string, fn: () => T): T => { const t = performance.now(); const r = fn(); add(k, performance.now() - t); return r; };
      const name = `profile-${f}-${pass}`;
      let now = Date.now();
      for (const c of s.calls.slice(start, start + CALLS)) {
        now += 1_000;
        const text = JSON.stringify(c.body);
        const bytes = new TextEncoder().encode(text);
        time("json_parse_reference", () => JSON.parse(text));
        const prepared = time("prepare", () => prepareCompaction(s.provider, new Headers(agentHeaders(s.provider, "k", name)), bytes, undefined, (b) => scans.scan(name, b)));
        if (prepared.kind !== "ready") continue;
        const sid = prepared.session.id;
        // Lease first (src/do/open-lease.ts), as the pipeline: without a lease in force, one is asked for alone.
        if (leaseInForce(leases, sid, key, now) === undefined) {
          const lease = time("open_lease", () => { const l = openLease(store, sql, { session_id: sid, config, mode, now_ms: now, lease_holder: "profile" }); store.flush(); return l; });
          if (lease !== null) leases.set(sid, lease);
        }
        let out: StepOutput | undefined = time("decide_leased", () => decideLeased(leases, sid, key, prepared.parsed.view, config, now, "profile"))?.out;
        if (out !== undefined) { if (pass > 0) leased++; }
        else {
          const view = time("clone_view", () => structuredClone(slimView(prepared.parsed.view)));
          statements = 0;
          const t = performance.now();
          out = await runStep({ store, sql, env: {} }, { session_id: sid, view, config, mode, correlation_id: "profile", now_ms: now, lease_holder: "profile" });
          add("run_step", performance.now() - t);
          add("sql_statements", statements);
          if (out.lease) leases.set(sid, out.lease);
        }
        time("decide_forward", () => decideForward(prepared, bytes, out!, mode, "profile", (b) => scans.scan(name + "\u0000sent", b)));
        if (pass > 0) calls++;
      }
      mem.close();
    }
  }
  const ref = total.json_parse_reference! / calls;
  console.log(`${calls} calls, ${leased} decided under a lease; mean per call:`, Object.entries(total).map(([k, v]) => `${k}=${(v / calls).toFixed(2)}`).join(" "));
  // The machine's speed drifts between runs (shared cores): stage times as multiples of a plain JSON.parse of the same bodies compare across runs.
  console.log("per call, in JSON.parse units:", Object.entries(total).filter(([k]) => k !== "sql_statements" && k !== "json_parse_reference").map(([k, v]) => `${k}=${(v / calls / ref).toFixed(2)}`).join(" "));
}

main().catch((err: Error) => { console.error(`profile: ${err.stack ?? err.message}`); process.exit(2); });
