/**
 * The Hono app (shell): `createApp(deps)` mounts health and the two provider prefixes. Chat
 * routes (Anthropic Messages, OpenAI Chat Completions, OpenAI Responses) go through the
 * compaction hook; every other path under a prefix is proxied as is, any method.
 */
import { Hono } from "hono";
import { requestId } from "hono/request-id";
import type { Env } from "../config/env";
import { handleRequest, type HandlerDeps, type RouteKind } from "../gateway/handle-request";
import type { ProviderFamily } from "../gateway/provider-errors";
import { providerError } from "../gateway/provider-errors";
import { createAdminApp } from "./routes/admin";
import { VERSION } from "../version";

/** Default upstream hosts (the providers' public APIs). */
export const DEFAULT_BASE_URLS: Record<ProviderFamily, string> = {
  anthropic: "https://api.anthropic.com",
  openai: "https://api.openai.com",
};

/** Maps a provider path (under the prefix) and method to its route kind. */
export function routeKind(family: ProviderFamily, method: string, path: string): RouteKind {
  if (method !== "POST") return "passthrough";
  if (family === "anthropic" && path === "/v1/messages") return "anthropic-messages";
  if (family === "openai" && path === "/v1/chat/completions") return "openai-chat";
  if (family === "openai" && path === "/v1/responses") return "openai-responses";
  return "passthrough";
}

/** Per-request dependencies built from the Worker env (and, later, the compaction pipeline). */
export type DepsFactory = (env: Env, ctx: ExecutionContext | undefined) => HandlerDeps;

const defaultDeps: DepsFactory = (env) => ({
  baseUrl: (family) =>
    (family === "anthropic" ? env.ANTHROPIC_BASE_URL : env.OPENAI_BASE_URL) || DEFAULT_BASE_URLS[family],
});

/** Builds the app. `makeDeps` is injectable for tests and for the compaction pipeline. */
export function createApp(makeDeps: DepsFactory = defaultDeps, health: (env: Env) => Record<string, unknown> = () => ({})) {
  const app = new Hono<{ Bindings: Env }>();
  app.use("*", requestId({ headerName: "x-sluice-request-id", limitLength: 0 }));

  app.route("/admin", createAdminApp());
  app.get("/healthz", (c) => c.json({ ok: true, name: "sluice", version: VERSION, ...health(c.env) }));

  for (const family of ["anthropic", "openai"] as const) {
    app.all(`/${family}/*`, async (c) => {
      const url = new URL(c.req.url);
      const path = url.pathname.slice(family.length + 1) || "/";
      const method = c.req.method;
      const body = method === "GET" || method === "HEAD" ? null : new Uint8Array(await c.req.arrayBuffer());
      let ctx: ExecutionContext | undefined;
      try { ctx = c.executionCtx; } catch { ctx = undefined; }
      return handleRequest(makeDeps(c.env, ctx), {
        family,
        route: routeKind(family, method, path),
        method,
        path,
        search: url.search,
        headers: c.req.raw.headers,
        body,
        signal: c.req.raw.signal,
      });
    });
  }

  app.notFound((c) => c.json({ error: { type: "not_found", message: `No Sluice route for ${c.req.path}` } }, 404));
  app.onError((err, c) => {
    const family: ProviderFamily = c.req.path.startsWith("/openai") ? "openai" : "anthropic";
    return providerError(family, 500, "gateway_error", `Sluice internal error: ${err.message}`);
  });
  return app;
}
