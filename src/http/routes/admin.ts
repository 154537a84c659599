/**
 * The admin sub-app (shell; DESIGN §9), mounted by app.ts under /admin. Every JSON
 * route is behind the bearer token (admin-auth.ts); answers hold counts, sizes, ids, hashes and
 * dollars only — never prompt text — except the archive route, which returns what a step
 * removed when the operator turned `archive_removed` on (DESIGN §7).
 *
 *   GET  /sessions?limit=N                 {totals, sessions} (recent first; N 1..1000, default 100)
 *   GET  /sessions/:id                     {session: SessionObject stats, index: summary | null}; 404 unknown
 *   GET  /sessions/:id/memory?q=&kind=     {session_id, tier_map, search}; 404 before a tier map exists
 *   GET  /sessions/:id/archive/:call_id    the removed result, text/plain UTF-8; 404 when off or absent
 *   GET  /memory/:project?q=&kind=         {project, maps: [{session_id, built_at_ms, expires_at_ms, tier_map,
 *                                          search}]} newest first: the maps completed sessions left under the
 *                                          project key (../../observers/memory-object.ts); 404 when none
 *   GET  /sessions/:id/cache               {session_id, ...CacheReport}: what broke the provider cache
 *                                          (../../observers/cache-diagnostics.ts); 404 unknown
 *   POST /sessions/:id/disable | /enable   per-session kill switch → {session_id, disabled}; 404 unknown
 *   GET  /compaction                       the global kill switch → {disabled}
 *   POST /compaction/disable | /enable     global kill switch (../../gateway/global-switch.ts)
 *                                          → {disabled, audit_seq | null, audit_error | null}
 *   GET  /metrics                          Prometheus text exposition 0.0.4
 *   GET  /report?since=&until=             the savings ledger's table per mode over a window (epoch ms or
 *                                          ISO 8601; default: all time) → {since_ms, until_ms, rows}
 *   GET  /audit, /audit/verify             admin-audit.ts
 *   GET  /dashboard (+ .js, .css)          the static page: no data in it; it calls the API above
 *                                          with the token the operator types in (dashboard-html.ts)
 * Session ids are the pipeline's ids (x-sluice-session etc.; the DO name is the id), URL-encoded.
 */
import { Hono, type Context } from "hono";
import { HTTPException } from "hono/http-exception";
import type { Env } from "../../config/env";
import { loadConfig } from "../../config/load-config";
import type { TierMap } from "../../core/memory/build-tier-map";
import { DASHBOARD_CSP, DASHBOARD_CSS, DASHBOARD_HTML } from "../../admin/dashboard-html";
import { DASHBOARD_JS } from "../../admin/dashboard-script";
import { buildFamilies, type StoredSeries } from "../../admin/metrics-catalog";
import { scanCache } from "../../gateway/scan-cache";
import { EXPOSITION_CONTENT_TYPE, renderExposition } from "../../admin/render-exposition";
import { QUERY_MAX_CHARS, REFERENCE_KINDS, searchMemory, tierMapSchema, type MemorySearch } from "../../admin/search-memory";
import { projectMemoryStub, type ProjectMemoryEntry } from "../../observers/memory-object";
import type { IndexTotals, SessionSummary } from "../../admin/summarize-index";
import { sessionIndexOf } from "../../do/index-object";
import type { AppendResult } from "../../do/audit-object";
import { auditStub } from "../../gateway/compaction-setup";
import { globalSwitch } from "../../gateway/global-switch";
import type { SessionStats } from "../../session/session";
import type { CacheReport } from "../../observers/cache-diagnostics";
import { adminAuth, adminToken } from "./admin-auth";
import { adminTokenEnv } from "../../config/admin-token-env";
import { createAdminAuditRoutes, type AuditReader } from "./admin-audit";
import { LEDGER_BUCKET_MS, ledgerBucketOf, ledgerReport, type LedgerTotals } from "../../admin/ledger-report";
import type { LedgerMode } from "../../session/contract";

/** What the routes need from one session DO (its RPC methods). */
export interface SessionAdmin {
  stats(): Promise<SessionStats>;
  memory(): Promise<unknown>;
  getArchive(call_id: string): Promise<string | null>;
  setDisabled(disabled: boolean): Promise<void>;
  cacheBreaks(): Promise<CacheReport>;
}

/** What the routes need from the session index (all shards: ../../admin/sharded-index.ts). */
export interface IndexAdmin {
  list(limit: number): Promise<SessionSummary[]>;
  get(id: string): Promise<SessionSummary | null>;
  totals(): Promise<IndexTotals>;
  series(): Promise<{ series: StoredSeries[]; sessions: number }>;
  setDisabled(id: string, disabled: boolean): Promise<void>;
  ledgerWindow(since_ms: number, until_ms: number): Promise<Partial<Record<LedgerMode, LedgerTotals>>>;
}

/** What the routes need from the object holding the global kill switch (the audit DO). */
export interface ControlAdmin {
  compactionDisabled(): Promise<boolean>;
  setCompactionDisabled(disabled: boolean): Promise<{ disabled: boolean; audit: AppendResult }>;
}

/** What the routes need from one project's memory (../../observers/memory-object.ts). */
export interface MemoryAdmin {
  list(now_ms: number): Promise<ProjectMemoryEntry[]>;
}

export interface AdminDeps {
  session: (env: Env, id: string) => SessionAdmin;
  /** One project's memory; default: the MEMORY object named by the project key. */
  memory?: (env: Env, project: string) => MemoryAdmin;
  index: (env: Env) => IndexAdmin;
  /** The global kill switch; default: the AUDIT object. */
  control?: (env: Env) => ControlAdmin;
  /** Audit reader; default: the AUDIT object (admin-audit.ts). */
  audit?: (env: Env) => AuditReader;
}

const defaultMemory = (env: Env, project: string): MemoryAdmin => projectMemoryStub(env.MEMORY, project) as unknown as MemoryAdmin;
/** A project key as src/gateway/project-key.ts makes it: `cwd:` or `conv:` and a hash. */
const PROJECT_KEY = /^(cwd|conv):[0-9a-f]{16}$/;

export const defaultAdminDeps: AdminDeps = {
  session: (env, id) => env.SESSION.get(env.SESSION.idFromName(id)) as unknown as SessionAdmin,
  index: (env) => sessionIndexOf(env.SESSION_INDEX),
};

/** Default and largest `limit` of GET /sessions (our bounds: one DO read, a page a browser renders fast). */
export const SESSIONS_LIMIT_DEFAULT = 100;
export const SESSIONS_LIMIT_MAX = 1_000;
/** Longest session id in a URL: MAX_SESSION_ID_CHARS (200, src/gateway/session-id.ts) plus its `cc:`/`pck:` prefix. */
const SESSION_ID_MAX = 210;

type Ctx = { Bindings: Env };
const bad = (field: string, message: string) => new HTTPException(400, { res: Response.json({ error: { type: "bad_request", field, message } }, { status: 400 }) });
const notFound = (type: string, message: string) => Response.json({ error: { type, message } }, { status: 404 });

/**
 * A time query parameter: epoch ms (digits) or an ISO 8601 date; `fallback` when absent. Throws a
 * 400 naming the field, also for a calendar date that does not exist (Date.parse reads
 * 2026-02-30 as March 2).
 */
function timeParam(field: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined || raw === "") return fallback;
  const day = /^(\d{4})-(\d{2})-(\d{2})/.exec(raw);
  const ms = /^\d{1,15}$/.test(raw) ? Number(raw) : day && calendarDay(Number(day[1]), Number(day[2]), Number(day[3])) ? Date.parse(raw) : NaN;
  if (!Number.isFinite(ms)) throw bad(field, `${field} must be epoch milliseconds or an ISO 8601 date`);
  return ms;
}

/** Whether year-month-day names a day of the Gregorian calendar. */
function calendarDay(y: number, m: number, d: number): boolean {
  const t = new Date(Date.UTC(y, m - 1, d));
  return t.getUTCFullYear() === y && t.getUTCMonth() === m - 1 && t.getUTCDate() === d;
}

/** Builds the admin sub-app. */
export function createAdminApp(deps: AdminDeps = defaultAdminDeps) {
  const app = new Hono<Ctx>();
  const sessionId = (raw: string): string => {
    if (raw.length === 0 || raw.length > SESSION_ID_MAX) throw bad("id", `session id must be 1 to ${SESSION_ID_MAX} characters`);
    return raw;
  };

  // The page shell is public (it holds no data) but only offered while the admin API is on.
  const shell = (body: string, type: string) => (c: Context<Ctx>) => {
    if (adminToken(c.env) === null) return c.json({ error: { type: "admin_disabled", message: `admin API disabled: set the secret ${adminTokenEnv(c.env)}` } }, 503);
    return c.body(body, 200, { "content-type": type, "content-security-policy": DASHBOARD_CSP, "x-content-type-options": "nosniff", "x-frame-options": "DENY", "referrer-policy": "no-referrer", "cache-control": "no-store" });
  };
  app.get("/dashboard", shell(DASHBOARD_HTML, "text/html; charset=utf-8"));
  app.get("/dashboard.js", shell(DASHBOARD_JS, "text/javascript; charset=utf-8"));
  app.get("/dashboard.css", shell(DASHBOARD_CSS, "text/css; charset=utf-8"));

  app.use("*", adminAuth());
  app.use("*", async (c, next) => {
    await next();
    c.header("cache-control", "no-store");
    c.header("x-content-type-options", "nosniff");
  });

  app.get("/sessions", async (c) => {
    const raw = c.req.query("limit");
    const limit = raw === undefined || raw === "" ? SESSIONS_LIMIT_DEFAULT : /^\d{1,5}$/.test(raw) ? Number(raw) : NaN;
    if (!(limit >= 1 && limit <= SESSIONS_LIMIT_MAX)) throw bad("limit", `limit must be an integer from 1 to ${SESSIONS_LIMIT_MAX}`);
    const index = deps.index(c.env);
    const [totals, sessions] = await Promise.all([index.totals(), index.list(limit)]);
    return c.json({ totals, sessions });
  });

  /**
   * The session's stats and index row, or null when the gateway has never seen the id: its DO
   * holds no state (no request, no counter, no flag) and the index lists no row for it. Every
   * route about one session answers such an id 404, so a mistyped id creates nothing.
   */
  const seenSession = async (env: Env, id: string): Promise<{ stats: SessionStats; summary: SessionSummary | null } | null> => {
    const [stats, summary] = await Promise.all([deps.session(env, id).stats(), deps.index(env).get(id)]);
    const empty = stats.session_id === null && Object.keys(stats.counters).length === 0 && !stats.disabled;
    return empty && summary === null ? null : { stats, summary };
  };
  const unknownSession = () => notFound("session_not_found", "no state is held for this session id: the gateway has not seen it (ids are listed by GET /admin/sessions)");

  app.get("/sessions/:id", async (c) => {
    const id = sessionId(c.req.param("id"));
    const seen = await seenSession(c.env, id);
    if (seen === null) return unknownSession();
    return c.json({ session: seen.stats, index: seen.summary });
  });

  app.get("/sessions/:id/cache", async (c) => {
    const id = sessionId(c.req.param("id"));
    if ((await seenSession(c.env, id)) === null) return unknownSession();
    return c.json({ session_id: id, ...(await deps.session(c.env, id).cacheBreaks()) });
  });

  /** The `?q=&kind=` search of the memory routes (400 naming the field); applied to one tier map. */
  const memorySearch = (c: Context<Ctx>): ((map: TierMap) => MemorySearch | null) => {
    const q = c.req.query("q");
    if (q !== undefined && q.length > QUERY_MAX_CHARS) throw bad("q", `q must be at most ${QUERY_MAX_CHARS} characters`);
    const kindRaw = c.req.query("kind");
    const kind = kindRaw === undefined || kindRaw === "" ? null : (REFERENCE_KINDS as readonly string[]).includes(kindRaw) ? (kindRaw as (typeof REFERENCE_KINDS)[number]) : undefined;
    if (kind === undefined) throw bad("kind", `kind must be one of ${REFERENCE_KINDS.join(", ")}`);
    return (map) => (q === undefined || q === "" ? (kind === null ? null : searchMemory(map, "", kind)) : searchMemory(map, q, kind));
  };

  app.get("/sessions/:id/memory", async (c) => {
    const id = sessionId(c.req.param("id"));
    const search = memorySearch(c);
    const stored = await deps.session(c.env, id).memory();
    if (stored === null) return notFound("memory_not_found", "no tier map yet: it is written by the session_memory tier when the session completes");
    const parsed = tierMapSchema.safeParse(stored);
    if (!parsed.success) throw new Error("stored tier map does not match its schema");
    const map = parsed.data as TierMap;
    return c.json({ session_id: id, tier_map: map, search: search(map) });
  });

  app.get("/memory/:project", async (c) => {
    const project = c.req.param("project");
    if (!PROJECT_KEY.test(project)) throw bad("project", "project must be a project key: cwd:<hash> or conv:<hash>");
    const search = memorySearch(c);
    const entries = await (deps.memory ?? defaultMemory)(c.env, project).list(Date.now());
    if (entries.length === 0) return notFound("memory_not_found", "no tier map kept for this project: memory_retention_seconds is 0, no session of it has completed, or its maps expired");
    return c.json({ project, maps: entries.map((e) => ({ ...e, search: search(e.tier_map) })) });
  });

  app.get("/sessions/:id/archive/:call_id", async (c) => {
    const id = sessionId(c.req.param("id"));
    const callId = c.req.param("call_id");
    const loaded = loadConfig(c.env);
    if (!loaded.ok || !loaded.config.archive_removed) return notFound("archive_off", "archive_removed is off: removed results are not kept");
    const text = await deps.session(c.env, id).getArchive(callId);
    if (text === null) return notFound("archive_not_found", "nothing archived under this call id");
    return c.body(text, 200, { "content-type": "text/plain; charset=utf-8" });
  });

  for (const [action, disabled] of [["disable", true], ["enable", false]] as const) {
    app.post(`/sessions/:id/${action}`, async (c) => {
      const id = sessionId(c.req.param("id"));
      if ((await seenSession(c.env, id)) === null) return unknownSession();
      await deps.session(c.env, id).setDisabled(disabled);
      await deps.index(c.env).setDisabled(id, disabled);
      return c.json({ session_id: id, disabled });
    });
  }

  const control = deps.control ?? ((env: Env) => auditStub(env) as unknown as ControlAdmin);
  app.get("/compaction", async (c) => c.json({ disabled: await control(c.env).compactionDisabled() }));
  for (const [action, disabled] of [["disable", true], ["enable", false]] as const) {
    app.post(`/compaction/${action}`, async (c) => {
      const set = await control(c.env).setCompactionDisabled(disabled);
      globalSwitch.set(set.disabled, Date.now());
      return c.json({ disabled: set.disabled, audit_seq: set.audit.ok ? set.audit.record.seq : null, audit_error: set.audit.ok ? null : set.audit.error });
    });
  }

  app.get("/metrics", async (c) => {
    const { series, sessions } = await deps.index(c.env).series();
    return c.body(renderExposition(buildFamilies(series, sessions, { scan_hits: scanCache.hits, scan_misses: scanCache.misses })), 200, { "content-type": EXPOSITION_CONTENT_TYPE });
  });

  app.get("/report", async (c) => {
    const since = timeParam("since", c.req.query("since"), 0);
    const until = timeParam("until", c.req.query("until"), Date.now());
    if (until <= since) throw bad("until", "until must be after since");
    // Whole hour buckets: from the one holding `since` to the one holding `until` (inclusive).
    const from = ledgerBucketOf(since), to = ledgerBucketOf(until) + LEDGER_BUCKET_MS;
    const sums = await deps.index(c.env).ledgerWindow(from, to);
    const rows = (["compact", "measure"] as const).flatMap((m) => (sums[m] ? [ledgerReport(m, sums[m])] : []));
    return c.json({ since_ms: from, until_ms: to, rows });
  });

  app.route("/", createAdminAuditRoutes(deps.audit));
  app.all("*", (c) => c.json({ error: { type: "not_found", message: `No admin route for ${c.req.method} ${c.req.path}` } }, 404));

  app.onError((err, c) => {
    if (err instanceof HTTPException) return err.getResponse();
    console.error(`admin ${c.req.method} ${c.req.routePath} failed: ${err.name}`);
    return c.json({ error: { type: "admin_error", message: "admin route failed; see the Worker log" } }, 500);
  });
  return app;
}
