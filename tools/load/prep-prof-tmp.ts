import { readFileSync } from "node:fs";
import { scanJson } from "/work/main/src/providers/shared/json-scan";
import { adapterFor } from "/work/main/src/providers/registry";
import { slimView } from "/work/main/src/do/step-types";
import { sessionIdOf } from "/work/main/src/gateway/session-id";
import { readSessionText } from "/work/main/tools/replay/read-session-text";
for (const f of ["cc-cctrace-opus4", "cc-brain-explore-cleanup", "codex-rtchess-01", "codex-rtchess-01-responses"]) {
  const s = readSessionText(readFileSync(`/work/shared/corpus/${f}.json`, "utf8"), f);
  const c = s.calls[Math.floor(s.calls.length / 2)]!;
  const bytes = new TextEncoder().encode(JSON.stringify(c.body));
  const text = new TextDecoder().decode(bytes);
  const a = adapterFor(s.provider)!;
  const t: Record<string, number> = {};
  const N = 40;
  for (let i = 0; i < N + 10; i++) {
    const m = (k: string, fn: () => unknown) => { const t0 = performance.now(); const r = fn(); if (i >= 10) t[k] = (t[k] ?? 0) + (performance.now() - t0) / N; return r; };
    m("JSON.parse", () => JSON.parse(text));
    m("scanJson", () => scanJson(bytes));
    const p = m("read", () => a.read(bytes)) as any;
    m("est_tokens", () => p.view.est_tokens);
    m("slimView", () => slimView(p.view));
    m("sessionId", () => sessionIdOf(s.provider, new Headers(), bytes, p.root));
    m("clone", () => structuredClone(slimView(p.view)));
  }
  console.log(f.padEnd(30), (bytes.length / 1024).toFixed(0) + "KB", Object.entries(t).map(([k, v]) => `${k}=${v.toFixed(2)}`).join(" "));
}
