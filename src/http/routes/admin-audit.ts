/**
 * Admin audit routes (shell), a Hono sub-app, mounted by createAdminApp (admin.ts) under
 * /admin, behind the admin bearer token.
 *
 *   GET /audit?since=N&limit=M  records with seq > N (default 0), at most M (default 1000,
 *                               max 10000), as JSONL (one record per line, ascending seq);
 *                               header x-sluice-audit-next-since = last seq sent (page on with it)
 *   GET /audit/verify           recomputes the chain → {ok, first_bad_seq, count[, reason]};
 *                               503 when the key secret is not set
 */
import { Hono } from "hono";
import type { Env } from "../../config/env";
import type { AuditRecord } from "../../core/audit/audit-record";
import { AUDIT_OBJECT_NAME, type AuditVerifyResult } from "../../do/audit-object";

/** What the routes need from the audit trail (the AuditObject stub satisfies it). */
export interface AuditReader {
  list(since: number, limit: number): Promise<AuditRecord[]>;
  verify(): Promise<AuditVerifyResult>;
}

/** Default page size and cap of the export (our bounds; one DO call per page). */
export const EXPORT_LIMIT_DEFAULT = 1_000;
export const EXPORT_LIMIT_MAX = 10_000;

const defaultReader = (env: Env): AuditReader => env.AUDIT.get(env.AUDIT.idFromName(AUDIT_OBJECT_NAME));

/** Builds the sub-app. `reader` picks the audit object (tests point it at their own instance). */
export function createAdminAuditRoutes(reader: (env: Env) => AuditReader = defaultReader) {
  const app = new Hono<{ Bindings: Env }>();

  app.get("/audit", async (c) => {
    const since = parseCount(c.req.query("since"), 0);
    if (since === null) return c.json({ error: { type: "bad_request", field: "since", message: "since must be a non-negative integer (a seq)" } }, 400);
    const limit = parseCount(c.req.query("limit"), EXPORT_LIMIT_DEFAULT);
    if (limit === null || limit < 1 || limit > EXPORT_LIMIT_MAX) {
      return c.json({ error: { type: "bad_request", field: "limit", message: `limit must be an integer from 1 to ${EXPORT_LIMIT_MAX}` } }, 400);
    }
    const records = await reader(c.env).list(since, limit);
    const body = records.map((r) => `${JSON.stringify(r)}\n`).join("");
    return c.body(body, 200, {
      "content-type": "application/x-ndjson; charset=utf-8",
      "x-sluice-audit-next-since": String(records.at(-1)?.seq ?? since),
    });
  });

  app.get("/audit/verify", async (c) => {
    const result = await reader(c.env).verify();
    return c.json(result, result.ok || result.reason !== "key_missing" ? 200 : 503);
  });

  return app;
}

/** A non-negative decimal integer, `fallback` when absent, null when invalid. */
function parseCount(text: string | undefined, fallback: number): number | null {
  if (text === undefined || text === "") return fallback;
  return /^\d{1,15}$/.test(text) ? Number(text) : null;
}
