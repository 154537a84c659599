/**
 * `npx tsx tools/load/profile-workerd.ts [--sessions N] [--calls M] [--compaction 0|1] [--out FILE] [--notes]` (Node,
 * bounded; measurement only): starts the emulator and one `wrangler dev` with compaction on,
 * attaches to workerd's inspector (Chrome DevTools protocol over WebSocket), records a V8 CPU
 * profile while N concurrent sessions replay M corpus calls each (the load run's calls), and
 * prints the functions with the most self time (ms and % of the profile), the inclusive time of
 * named functions, and the time per source module (esbuild's `// src/…` markers in the bundle); `--source FILE` also writes the bundle, whose line numbers the summary names. The .cpuprofile is written to FILE (default `load-profile.cpuprofile`), which
 * Chrome DevTools opens. The Worker and its Durable Objects share the isolate under
 * `wrangler dev`, so one profile covers both. `--notes` also prints each call's
 * `x-sluice-compaction` header per session, in order: what each call decided (tier, step, skip reason).
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { startEmulator } from "../emulator/server";
import { agentHeaders } from "../replay/agent-headers";
import { readSessionText } from "../replay/read-session-text";
import { ENDPOINT_PATH } from "../replay/send-http";
import type { Provider, RecordedSession } from "../replay/types";
import { startWranglerDev } from "../shared/start-wrangler-dev";

const CORPUS_DIR = fileURLToPath(new URL("../../../shared/corpus/", import.meta.url).href);
const PREFIX: Record<Provider, string> = { anthropic: "/anthropic", "openai-chat": "/openai", "openai-responses": "/openai" };

interface ProfileNode { id: number; callFrame: { functionName: string; url: string; lineNumber: number; scriptId: string }; hitCount?: number; children?: number[] }
interface Profile { nodes: ProfileNode[]; startTime: number; endTime: number; samples: number[]; timeDeltas: number[] }

function arg(name: string, dflt: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1]! : dflt;
}

/** A minimal CDP client: send(method, params) → result. */
async function connect(inspectorUrl: string): Promise<{ send: (m: string, p?: object) => Promise<any>; close: () => void }> {
  const targets = (await (await fetch(`${inspectorUrl}/json`)).json()) as { webSocketDebuggerUrl: string; title?: string }[];
  const target = targets.find((t) => !/wrangler|internal/i.test(t.title ?? "")) ?? targets[0];
  if (!target) throw new Error("no inspector target");
  // wrangler's inspector proxy refuses a client without a localhost Origin (undici takes headers here).
  const ws = new WebSocket(target.webSocketDebuggerUrl, { headers: { origin: "http://localhost" } } as unknown as string[]);
  await new Promise((res, rej) => { ws.addEventListener("open", res); ws.addEventListener("error", rej); });
  let next = 1;
  const waiting = new Map<number, (r: any) => void>();
  ws.addEventListener("message", (ev: MessageEvent) => {
    const msg = JSON.parse(String(ev.data)) as { id?: number; result?: unknown; error?: unknown };
    if (msg.id !== undefined) waiting.get(msg.id)?.(msg.result ?? msg.error);
  });
  return {
    send: (method, params = {}) => new Promise((res) => { const id = next++; waiting.set(id, res); ws.send(JSON.stringify({ id, method, params })); }),
    close: () => ws.close(),
  };
}

/**
 * Module of each line of a bundled script: esbuild marks every module with a `// src/…` (or
 * `// node_modules/…`) comment line, so a line belongs to the last marker above it.
 */
function moduleOfLine(source: string): (line: number) => string {
  const marks: { line: number; name: string }[] = [];
  source.split("\n").forEach((text, i) => {
    const m = /^\/\/ ((?:src|node_modules|\.\.)\/\S+)$/.exec(text);
    if (m) marks.push({ line: i, name: m[1]!.replace(/^.*node_modules\//, "npm:") });
  });
  return (line) => {
    let lo = 0, hi = marks.length - 1, best = "(bundle)";
    while (lo <= hi) { const mid = (lo + hi) >> 1; if (marks[mid]!.line <= line) { best = marks[mid]!.name; lo = mid + 1; } else hi = mid - 1; }
    return best;
  };
}

function summarize(p: Profile, modules: Map<string, (line: number) => string>): void {
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  for (let i = 0; i < p.samples.length; i++) self.set(p.samples[i]!, (self.get(p.samples[i]!) ?? 0) + (p.timeDeltas[i] ?? 0) / 1000);
  const total = (p.endTime - p.startTime) / 1000;
  const fn = new Map<string, number>();
  const file = new Map<string, number>();
  for (const [id, ms] of self) {
    const n = byId.get(id)!;
    const mod = modules.get(n.callFrame.scriptId);
    const f = mod ? mod(n.callFrame.lineNumber) : n.callFrame.url.replace(/^.*\//, "") || "(native)";
    const key = `${n.callFrame.functionName || "(anonymous)"} ${f}:${n.callFrame.lineNumber + 1}`;
    fn.set(key, (fn.get(key) ?? 0) + ms);
    file.set(f, (file.get(f) ?? 0) + ms);
  }
  const top = (m: Map<string, number>, k: number) => [...m].sort((a, b) => b[1] - a[1]).slice(0, k);
  console.log(`profile ${total.toFixed(0)} ms wall`);
  for (const [k, ms] of top(fn, 40)) console.log(`${ms.toFixed(1).padStart(8)} ms ${((ms / total) * 100).toFixed(1).padStart(5)} %  ${k}`);
  // Inclusive time of named functions (self + descendants; a function nested in itself counts once).
  const parent = new Map<number, number>();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const incl = new Map<string, number>();
  for (const [id, ms] of self) {
    const seen = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const name = byId.get(cur)!.callFrame.functionName;
      if (name && !seen.has(name)) { seen.add(name); incl.set(name, (incl.get(name) ?? 0) + ms); }
    }
  }
  console.log("\ninclusive:");
  for (const [k, ms] of top(incl, 45)) console.log(`${ms.toFixed(1).padStart(8)} ms ${((ms / total) * 100).toFixed(1).padStart(5)} %  ${k}`);
  console.log("\nby file:");
  for (const [k, ms] of top(file, 25)) console.log(`${ms.toFixed(1).padStart(8)} ms ${((ms / total) * 100).toFixed(1).padStart(5)} %  ${k}`);
}

async function main(): Promise<void> {
  const n = Number(arg("sessions", "6"));
  const m = Number(arg("calls", "12"));
  const files = readdirSync(CORPUS_DIR).filter((f) => f.endsWith(".json")).sort();
  const sessions: RecordedSession[] = files.map((f) => readSessionText(readFileSync(join(CORPUS_DIR, f), "utf8"), f));
  const calls = Array.from({ length: n }, (_, i) => {
    const s = sessions[i % sessions.length]!;
    const start = Math.max(0, Math.min(s.calls.length - m, Math.floor(s.calls.length / 2) - Math.floor(m / 2)));
    return s.calls.slice(start, start + m).map((c) => ({ provider: s.provider, body: JSON.stringify(c.body) }));
  });
  const emulator = await startEmulator();
  const dev = await startWranglerDev({ vars: { ANTHROPIC_BASE_URL: emulator.url, OPENAI_BASE_URL: emulator.url, SLUICE_COMPACTION: arg("compaction", "1") } });
  const runId = Date.now().toString(36);
  try {
    const cdp = await connect(dev.inspectorUrl);
    await cdp.send("Profiler.enable");
    await cdp.send("Profiler.setSamplingInterval", { interval: 200 });
    await cdp.send("Profiler.start");
    const t0 = performance.now();
    const notes: string[][] = calls.map(() => []);
    await Promise.all(calls.map(async (list, i) => {
      for (const c of list) {
        const res = await fetch(`${dev.url}${PREFIX[c.provider]}${ENDPOINT_PATH[c.provider]}`, { method: "POST", headers: agentHeaders(c.provider, `prof-${runId}-${i}`, `prof-${runId}-s${i}`), body: c.body });
        await res.text();
        notes[i]!.push(res.headers.get("x-sluice-compaction") ?? "(none)");
      }
    }));
    if (process.argv.includes("--notes")) notes.forEach((list, i) => list.forEach((note, k) => console.log(`session ${i} call ${k + 1}: ${note}`)));
    console.log(`${n * m} requests in ${(performance.now() - t0).toFixed(0)} ms`);
    await new Promise((r) => setTimeout(r, 500)); // let waitUntil work finish inside the profile
    const { profile } = (await cdp.send("Profiler.stop")) as { profile: Profile };
    await cdp.send("Debugger.enable");
    const modules = new Map<string, (line: number) => string>();
    for (const id of new Set(profile.nodes.filter((x) => x.callFrame.url.endsWith("worker.js")).map((x) => x.callFrame.scriptId))) {
      const src = (await cdp.send("Debugger.getScriptSource", { scriptId: id })) as { scriptSource?: string };
      if (src.scriptSource) modules.set(id, moduleOfLine(src.scriptSource));
      if (src.scriptSource && process.argv.includes("--source")) writeFileSync(arg("source", "worker-bundle.js"), src.scriptSource);
    }
    cdp.close();
    writeFileSync(arg("out", "load-profile.cpuprofile"), JSON.stringify(profile));
    summarize(profile, modules);
  } finally {
    await dev.close();
    await emulator.close();
  }
}

main().catch((err: Error) => { console.error(`profile-workerd: ${err.stack ?? err.message}`); process.exit(2); });
