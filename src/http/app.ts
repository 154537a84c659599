/**
 * The Hono app (shell): `createApp(makeDeps)` mounts GET /healthz, /mcp (../mcp/mcp-route.ts) and the two provider prefixes.
 * Chat routes (Anthropic Messages, OpenAI Chat Completions, OpenAI Responses) may go through the
 * compaction hook; every other path under /anthropic/* and /openai/* (models, count_tokens,
 * files, batches, …) is proxied as is, any method, query string kept. A WebSocket upgrade gets
 * 426 at once on a chat route and is relayed elsewhere (./websocket-upgrade.ts).
 */
import { Hono } from "hono";
import type { Env } from "../config/env";
import { readGatewayConfig } from "../config/gateway-config";
import { compactionConfigOf, compactionHookFor } from "../gateway/compaction-setup";
import { handleRequest, type HandlerDeps, type RouteKind } from "../gateway/handle-request";
import { providerError, type ProviderFamily } from "../gateway/provider-errors";
import { createAdminApp } from "./routes/admin";
import { isWebSocketUpgrade, relayWebSocket, websocketRefused } from "./websocket-upgrade";
import { VERSION } from "../version";
import { sluiceRequestId, type RequestIdVariables } from "./request-id";
import type { CallerVariables } from "./middleware/caller";
import { clientAuth } from "./middleware/client-auth";
import { rateLimit } from "./middleware/rate-limit";
import { healthSecrets, type SecretStatus } from "./health-secrets";
import { serveMcp } from "../mcp/mcp-route";
import { workerPorts } from "../mcp/worker-ports";

/** The provider prefixes, in mount order. */
export const FAMILIES: readonly ProviderFamily[] = ["anthropic", "openai"];

/** The chat route a provider path (under the prefix) names, whatever the method; null for any other path. */
export function chatRoute(family: ProviderFamily, path: string): Exclude<RouteKind, "passthrough"> | null {
  if (family === "anthropic" && path === "/v1/messages") return "anthropic-messages";
  if (family === "openai" && path === "/v1/chat/completions") return "openai-chat";
  if (family === "openai" && path === "/v1/responses") return "openai-responses";
  return null;
}

/** Maps a provider path (under the prefix) and method to its route kind: chat routes are POSTs. */
export function routeKind(family: ProviderFamily, method: string, path: string): RouteKind {
  return method === "POST" ? chatRoute(family, path) ?? "passthrough" : "passthrough";
}

/** Per-request dependencies built from the Worker env and execution context. */
export type DepsFactory = (env: Env, ctx?: ExecutionContext) => HandlerDeps;

/** Default deps: the gateway config from env vars and, when configured, the compaction pipeline. */
export const defaultDeps: DepsFactory = (env, ctx) => ({ config: readGatewayConfig(env), compact: compactionHookFor(env, ctx) });

/** Body of GET /healthz. */
export interface Health {
  ok: true;
  name: "sluice";
  /** src/version.ts, kept in step with package.json. */
  version: string;
  /** COMPACTION_CONFIG non-empty, or SLUICE_COMPACTION or SLUICE_MEASURE = "1". */
  compaction_configured: boolean;
  /** What the pipeline does: "off", "measure" (count only) or "compact". */
  compaction_mode: "off" | "measure" | "compact";
  /** Present only when a secret cannot be used (unset, or a development value outside wrangler dev): names, never values. */
  secrets?: SecretStatus[];
}

/** Body of GET /healthz (503) when the compaction config is invalid: compaction stays off. */
export interface HealthBadConfig {
  ok: false;
  name: "sluice";
  version: string;
  compaction_configured: false;
  /** The bad field (config key or env var NAME) and a message naming it. */
  error: { field: string; message: string };
}

type AppEnv = { Bindings: Env; Variables: RequestIdVariables & CallerVariables };

/** Builds the app. `makeDeps` is injectable for tests and for the compaction pipeline. */
export function createApp(makeDeps: DepsFactory = defaultDeps) {
  const app = new Hono<AppEnv>();
  app.use("*", sluiceRequestId());

  app.route("/admin", createAdminApp());

  app.get("/healthz", (c) => {
    let config: ReturnType<typeof readGatewayConfig>;
    try {
      config = readGatewayConfig(c.env);
    } catch (err) {
      // A bad gateway var: 503 naming it (the proxy routes answer 500 with the same message).
      const message = (err as Error).message;
      const bad: HealthBadConfig = { ok: false, name: "sluice", version: VERSION, compaction_configured: false, error: { field: message.split(":")[0]!, message } };
      return c.json(bad, 503);
    }
    const compaction = compactionConfigOf(c.env);
    if (!compaction.ok) {
      const bad: HealthBadConfig = { ok: false, name: "sluice", version: VERSION, compaction_configured: false, error: compaction.error };
      return c.json(bad, 503);
    }
    const health: Health = {
      ok: true,
      name: "sluice",
      version: VERSION,
      compaction_configured: config.compactionConfigured,
      compaction_mode: compaction.mode,
      ...healthSecrets(c.env),
    };
    return c.json(health);
  });

  // The MCP server (restore_tool_result, search_session_memory) behind the same guards; its errors take the Anthropic shape.
  app.use("/mcp", clientAuth("anthropic"), rateLimit("anthropic"));
  app.all("/mcp", (c) => serveMcp(c.req.raw, workerPorts(c.env, c.var.caller.id)));

  for (const family of FAMILIES) {
    // Production guards (docs/deploy.md): unknown callers get a 401, floods a 429, before anything else runs.
    app.use(`/${family}/*`, clientAuth(family), rateLimit(family));
    app.all(`/${family}/*`, async (c) => {
      const url = new URL(c.req.url);
      const path = url.pathname.slice(family.length + 1) || "/";
      const method = c.req.method;
      let ctx: ExecutionContext | undefined;
      try { ctx = c.executionCtx as unknown as ExecutionContext; } catch { ctx = undefined; }
      if (isWebSocketUpgrade(c.req.raw.headers)) {
        if (chatRoute(family, path) !== null) return websocketRefused(family, c.req.path, c.var.requestId);
        return relayWebSocket(makeDeps(c.env, ctx).config, { family, path, search: url.search, headers: c.req.raw.headers, requestId: c.var.requestId });
      }
      // Read once into bytes (case B18); a request without a body stays without one.
      const hasBody = method !== "GET" && method !== "HEAD" && c.req.raw.body !== null;
      const body = hasBody ? new Uint8Array(await c.req.arrayBuffer()) : null;
      const deps = makeDeps(c.env, ctx);
      // A request without any credential never creates session state (DESIGN §11): no compaction hook.
      return handleRequest(c.var.caller.id === null ? { ...deps, compact: undefined } : deps, {
        family,
        route: routeKind(family, method, path),
        method,
        path,
        search: url.search,
        headers: c.req.raw.headers,
        body,
        requestId: c.var.requestId,
        signal: c.req.raw.signal,
        callerId: c.var.caller.id,
      });
    });
  }

  app.notFound((c) => providerError(familyOf(c.req.path), { code: "not_found", path: c.req.path }, c.var.requestId));
  app.onError((err, c) => providerError(familyOf(c.req.path), { code: "internal", detail: err.message }, c.var.requestId));
  return app;
}

/** Error shape for a path: OpenAI's under /openai, else Anthropic's. */
function familyOf(path: string): ProviderFamily {
  return path === "/openai" || path.startsWith("/openai/") ? "openai" : "anthropic";
}
