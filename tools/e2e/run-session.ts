/**
 * One conformance session (Node shell): a fresh fixture project and HOME, an API key registered
 * at the scripted upstream, the real client pointed either straight at the upstream or at a
 * recording proxy in front of a Sluice gateway, then the session's figures, bill and WebSocket
 * attempts, with its transcripts copied into the report folder. The main pass (./run-e2e.ts) and
 * the defaults pass (./run-defaults.ts) both run their sessions through it.
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { basename, join } from "node:path";
import { analyzeSession, type ClientApi, type SessionFigures } from "./analyze-session";
import type { InstalledClients } from "./install-clients";
import { writeFixtureProject } from "./fixture-project";
import type { RecordProxy } from "./record-proxy";
import type { RecordedRequest, RecordedUpgrade } from "./request-record";
import { runClient } from "./run-client";
import { SESSION_PLAN } from "./session-plan";
import { isCodex, type ClientSetting } from "./settings";
import type { ScriptedUpstream } from "./upstream-server";

/** One client session's report. */
export interface SessionReport {
  setting: ClientSetting;
  mode: "direct" | "sluice";
  /** Exit code 0 and the scripted final answer in the client's output. */
  completed: boolean;
  exit_code: number | null;
  duration_ms: number;
  figures: SessionFigures;
  /** What the scripted upstream billed: input tokens (uncached + cache read + cache write) and their cost. */
  billed: { input_tokens: number; uncached: number; cache_read: number; cache_write: number; input_cost_usd: number };
  /** WebSocket upgrade attempts during the session: count, answers by status (`none` = no answer), slowest answer or give-up, ms. */
  websocket: { attempts: number; statuses: Record<string, number>; max_answer_ms: number };
  /** Transcript / rollout files kept (relative to the report folder). */
  transcripts: string[];
  /** Last lines of the client's stderr when it did not complete. */
  stderr_tail: string;
}

/** What every session of a run shares. */
export interface SessionContext {
  clients: InstalledClients;
  upstream: ScriptedUpstream;
  /** Temp folder for projects and HOMEs (removed by the caller). */
  scratch: string;
  /** Run nonce, part of every API key. */
  nonce: string;
  /** Report folder: transcripts go to `transcripts/<setting>-<tag>/` under it. */
  reportDir: string;
  log: (line: string) => void;
}

/** Where one session goes: straight at the upstream (`proxy` absent) or through the proxy in front of a gateway. */
export interface SessionTarget {
  setting: ClientSetting;
  /** Names the session in its API key, upstream label, log lines and transcript folder (`direct`, `sluice`, `defaults`). */
  tag: string;
  /** The recording proxy in front of Sluice; absent: direct. */
  proxy?: RecordProxy;
}

/** A finished session: its report, what the client sent (at the upstream when direct, at the proxy otherwise), its upgrade attempts and its project folder. */
export interface SessionRun {
  report: SessionReport;
  sent: RecordedRequest[];
  upgrades: RecordedUpgrade[];
  projectDir: string;
}

/** The API the setting's client speaks. */
export const apiOf = (s: ClientSetting): ClientApi => (isCodex(s) ? "openai-responses" : "anthropic");

/** The credential a recorded request carried (`x-api-key`, or the bearer token): the run's key of its session. */
export const keyOf = (r: RecordedRequest): string | undefined => r.headers["x-api-key"] ?? r.headers["authorization"]?.replace(/^Bearer\s+/i, "");

/** What the scripted upstream billed a session: its usage totals (tokens) and the emulator's input cost of each forwarded request (USD). */
export function billedOf(totals: { input_tokens: number; cache_read_tokens: number; cache_write_tokens: number }, forwarded: readonly RecordedRequest[]): SessionReport["billed"] {
  return {
    input_tokens: totals.input_tokens + totals.cache_read_tokens + totals.cache_write_tokens,
    uncached: totals.input_tokens,
    cache_read: totals.cache_read_tokens,
    cache_write: totals.cache_write_tokens,
    input_cost_usd: forwarded.reduce((n, f) => n + Number(f.responseHeaders["x-emulator-input-cost-usd"] ?? 0), 0),
  };
}

/** Runs one session to its end (never throws for a failing client: the report says so). */
export async function runSession(ctx: SessionContext, target: SessionTarget): Promise<SessionRun> {
  const { upstream } = ctx;
  const { setting, tag, proxy } = target;
  const api = apiOf(setting);
  const anthropic = api === "anthropic";
  const apiKey = `${anthropic ? "sk-ant" : "sk"}-e2e-${setting}-${tag}-${ctx.nonce}`;
  const projectDir = writeFixtureProject(mkdtempSync(join(ctx.scratch, "proj-")));
  const home = mkdtempSync(join(ctx.scratch, "home-"));
  upstream.register(apiKey, { projectDir, label: `${setting}-${tag}` });
  const root = proxy ? `${proxy.url}/${anthropic ? "anthropic" : "openai"}` : upstream.url;
  const baseUrl = anthropic ? root : `${root}/v1`;
  ctx.log(`${setting} ${tag}: running`);
  const upgradeLog = proxy ? proxy.upgrades : upstream.upgrades;
  const wsBefore = upgradeLog.length;
  const result = await runClient(ctx.clients, { setting, baseUrl, apiKey, projectDir, home, timeoutMs: 300_000 });
  const forwarded = upstream.requests(apiKey);
  const upgrades = upgradeLog.slice(wsBefore);
  const statuses: Record<string, number> = {};
  for (const u of upgrades) statuses[String(u.status ?? "none")] = (statuses[String(u.status ?? "none")] ?? 0) + 1;
  const sent = proxy ? proxy.requests.filter((r) => keyOf(r) === apiKey) : forwarded;
  const totals = upstream.totals(apiKey, anthropic ? "anthropic" : "openai");
  const folder = `${setting}-${tag}`;
  const keptDir = join(ctx.reportDir, "transcripts", folder);
  rmSync(keptDir, { recursive: true, force: true });
  mkdirSync(keptDir, { recursive: true });
  const transcripts = result.transcripts.map((t) => {
    cpSync(t, join(keptDir, basename(t)));
    return join("transcripts", folder, basename(t));
  });
  const finalText = (SESSION_PLAN[SESSION_PLAN.length - 1] as { text: string }).text;
  const report: SessionReport = {
    setting,
    mode: proxy ? "sluice" : "direct",
    completed: result.exitCode === 0 && result.stdout.includes(finalText),
    exit_code: result.exitCode,
    duration_ms: result.durationMs,
    figures: analyzeSession({ api, sent, forwarded }),
    billed: billedOf(totals, forwarded),
    websocket: { attempts: upgrades.length, statuses, max_answer_ms: Math.max(0, ...upgrades.map((u) => u.answer_ms)) },
    transcripts,
    stderr_tail: result.exitCode === 0 ? "" : (result.stderr + result.stdout).slice(-1500),
  };
  ctx.log(`${setting} ${tag}: ${report.completed ? "completed" : `NOT completed (exit ${result.exitCode})`}, ${report.figures.requests} requests, ${report.figures.steps} steps, ${report.billed.input_tokens} input tokens billed, $${report.billed.input_cost_usd.toFixed(4)} input`);
  return { report, sent, upgrades, projectDir };
}
