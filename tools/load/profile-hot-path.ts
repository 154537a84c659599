/**
 * `npx tsx tools/load/profile-hot-path.ts` (Node, bounded): times each stage of the
 * compaction-on hot path in-process over the load run's calls (per corpus session, the 12
 * consecutive calls from the middle, as tools/load/run-load.ts sends them): prepareCompaction
 * (adapter.read + slimView), a structuredClone of the slim view (stand-in for the DO RPC's
 * serialisation), runStep over node:sqlite with its SQL statement count, applyPlan,
 * checkGuarantee, decideForward. Prints the mean per call (ms; view and body in KiB) per
 * session and overall. Measurement only: no assertion, nothing written.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { loadConfig } from "../../src/config/load-config";
import { applyPlan } from "../../src/core/plan/apply-plan";
import { checkGuarantee } from "../../src/core/plan/check-guarantee";
import { recordOutcome } from "../../src/do/record-outcome";
import { runStep } from "../../src/do/run-step";
import { SessionStore } from "../../src/do/session-store";
import { slimView } from "../../src/do/step-types";
import { decideForward } from "../../src/gateway/decide-forward";
import { prepareCompaction } from "../../src/gateway/prepare-compaction";
import { agentHeaders } from "../replay/agent-headers";
import { readSessionText } from "../replay/read-session-text";
import { createMemorySql } from "../replay/sluice/create-memory-sql";

const CORPUS_DIR = fileURLToPath(new URL("../../../shared/corpus/", import.meta.url).href);
/** Calls per session, as run-load.ts's default `--calls`. */
const CALLS = 12;

async function main(): Promise<void> {
  const loaded = loadConfig({ SLUICE_COMPACTION: "1" });
  if (!loaded.ok || loaded.mode === "off") throw new Error("config: compaction must be on");
  const { config, mode } = loaded;
  const total: Record<string, number> = {};
  let calls = 0;
  for (const f of readdirSync(CORPUS_DIR).filter((n) => n.endsWith(".json")).sort()) {
    const s = readSessionText(readFileSync(join(CORPUS_DIR, f), "utf8"), f);
    const start = Math.max(0, Math.min(s.calls.length - CALLS, Math.floor(s.calls.length / 2) - Math.floor(CALLS / 2)));
    const mem = createMemorySql();
    let statements = 0;
    const sql = { exec: (q: string, ...b: unknown[]) => { statements++; return (mem.sql.exec as (q: string, ...b: unknown[]) => unknown)(q, ...b); } } as unknown as SqlStorage;
    const store = new SessionStore(sql);
    const row: Record<string, number> = {};
    const add = (k: string, v: number) => { row[k] = (row[k] ?? 0) + v; total[k] = (total[k] ?? 0) + v; };
    const time = <T>(k: string, fn: () => T): T => { const t = performance.now(); const r = fn(); add(k, performance.now() - t); return r; };
    const slice = s.calls.slice(start, start + CALLS);
    for (const c of slice) {
      const bytes = new TextEncoder().encode(JSON.stringify(c.body));
      const prepared = time("prepare", () => prepareCompaction(s.provider, new Headers(agentHeaders(s.provider, "k", `profile-${f}`)), bytes));
      if (prepared.kind !== "ready") continue;
      const view = time("clone_view", () => structuredClone(slimView(prepared.parsed.view)));
      add("view_kib", JSON.stringify(slimView(prepared.parsed.view)).length / 1024);
      add("body_kib", bytes.length / 1024);
      statements = 0;
      const t = performance.now();
      const out = await runStep({ store, sql, env: {} }, { session_id: f, view, config, mode, correlation_id: "profile", now_ms: Date.now() });
      add("run_step", performance.now() - t);
      add("sql_statements", statements);
      const applied = time("apply", () => (Object.keys(out.plan.actions).length > 0 ? applyPlan(prepared.adapter, prepared.parsed, out.plan) : null));
      time("check", () => (applied && applied.bytes !== bytes ? checkGuarantee(prepared.adapter, bytes, applied.bytes, { input: prepared.parsed }) : null));
      const d = time("decide_forward", () => decideForward(prepared, bytes, out, mode, "profile"));
      recordOutcome(store, sql, d.report, Date.now());
      store.flush();
      calls++;
    }
    console.log(f.padEnd(42), Object.entries(row).map(([k, v]) => `${k}=${(v / slice.length).toFixed(1)}`).join(" "));
    mem.close();
  }
  console.log("mean per call".padEnd(42), Object.entries(total).map(([k, v]) => `${k}=${(v / calls).toFixed(1)}`).join(" "));
}

main().catch((err: Error) => { console.error(`profile: ${err.stack ?? err.message}`); process.exit(2); });
