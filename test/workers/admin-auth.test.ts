/**
 * Admin auth in workerd: the secret NAMED by admin_token_env; 503 naming the NAME when unset;
 * 401 without or with a wrong token; 200 with the right one; the token is never echoed.
 */
import { describe, expect, it } from "vitest";
import { createApp } from "../../src/http/app";
import { createAdminApp } from "../../src/http/routes/admin";
import { AUTH, E, TOKEN, adminAppFor, envWith } from "./admin-seed";
import { gatewayWithEnv } from "./helpers";

const dump = async (res: Response) => `${res.status}\n${[...res.headers].map(([k, v]) => `${k}: ${v}`).join("\n")}\n\n${await res.text()}`;

describe("admin auth", () => {
  it("mounted under /admin in the Worker: secret unset → 503 naming SLUICE_ADMIN_TOKEN, on every route", async () => {
    for (const [method, path] of [["GET", "/admin/sessions"], ["GET", "/admin/metrics"], ["POST", "/admin/sessions/x/disable"], ["GET", "/admin/audit"], ["GET", "/admin/dashboard"], ["GET", "/admin/nope"]] as const) {
      const res = await gatewayWithEnv({ SLUICE_ADMIN_TOKEN: undefined }, path, { method, headers: AUTH });
      expect([path, res.status]).toEqual([path, 503]);
      const body = (await res.json()) as { error: { message: string } };
      expect(body.error.message).toContain("SLUICE_ADMIN_TOKEN");
    }
  });

  it("in the full app (whose onError maps errors to 500): 401 stays 401, the right token reaches the routes", async () => {
    const app = createApp();
    expect((await app.request("/admin/metrics", {}, envWith())).status).toBe(401);
    expect((await app.request("/admin/metrics", { headers: { authorization: "Bearer nope" } }, envWith())).status).toBe(401);
    const ok = await app.request("/admin/metrics", { headers: AUTH }, envWith());
    expect([ok.status, ok.headers.get("content-type")]).toEqual([200, "text/plain; version=0.0.4; charset=utf-8"]);
  });

  it("401 without a token and with a wrong one; 400 for a malformed header; 200 with the right one", async () => {
    const app = adminAppFor("auth-basic");
    const env = envWith();
    const none = await app.request("/admin/sessions", {}, env);
    expect([none.status, none.headers.get("www-authenticate"), await none.json()]).toEqual([401, 'Bearer realm=""', { error: { type: "unauthorized", message: "admin routes need Authorization: Bearer <admin token>" } }]);
    const wrong = await app.request("/admin/sessions", { headers: { authorization: `Bearer ${TOKEN}x` } }, env);
    expect([wrong.status, wrong.headers.get("www-authenticate")]).toEqual([401, 'Bearer error="invalid_token"']);
    const prefix = await app.request("/admin/sessions", { headers: { authorization: `Bearer ${TOKEN.slice(0, -1)}` } }, env);
    expect(prefix.status).toBe(401);
    const basic = await app.request("/admin/sessions", { headers: { authorization: `Basic ${btoa(`admin:${TOKEN}`)}` } }, env);
    expect(basic.status).toBe(400);
    const right = await app.request("/admin/sessions", { headers: AUTH }, env);
    expect([right.status, right.headers.get("cache-control")]).toEqual([200, "no-store"]);
    expect(await right.json()).toEqual({ totals: { sessions: 0, requests: 0, compacted: 0, fail_open: 0, tokens_original: 0, tokens_sent: 0, tokens_saved: 0, usd_saved: 0, cache_hit_ratio: null, ledger_saved_usd: 0 }, sessions: [] });
  });

  it("the token is never echoed: not in any status line, header or body, right or wrong", async () => {
    const app = adminAppFor("auth-echo");
    const env = envWith();
    const wrongToken = "wrong-token-value.77aa";
    const texts: string[] = [];
    for (const path of ["/admin/sessions", "/admin/sessions/auth-echo-s1", "/admin/sessions/auth-echo-s1/memory?q=x", "/admin/sessions/auth-echo-s1/archive/c1", "/admin/metrics", "/admin/audit", "/admin/audit/verify", "/admin/dashboard", "/admin/dashboard.js", "/admin/nope"]) {
      for (const headers of [{}, AUTH, { authorization: `Bearer ${wrongToken}` }]) texts.push(await dump(await app.request(path, { headers }, env)));
    }
    texts.push(await dump(await app.request("/admin/sessions/auth-echo-s1/disable", { method: "POST", headers: AUTH }, env)));
    expect(texts.length).toBe(31);
    for (const t of texts) {
      expect(t).not.toContain(TOKEN);
      expect(t).not.toContain(wrongToken);
    }
  });

  it("admin_token_env names another secret: only that one is accepted; unset → 503 naming it", async () => {
    const app = new (await import("hono")).Hono().route("/admin", createAdminApp());
    const config = JSON.stringify({ admin_token_env: "OPS_ADMIN_TOKEN" });
    const unset = await app.request("/admin/metrics", { headers: AUTH }, envWith({ COMPACTION_CONFIG: config }));
    expect([unset.status, await unset.json()]).toEqual([503, { error: { type: "admin_disabled", message: "admin API disabled: set the secret OPS_ADMIN_TOKEN (under wrangler dev: add OPS_ADMIN_TOKEN=<token> to .dev.vars, then restart wrangler dev)", field: "OPS_ADMIN_TOKEN" } }]);
    // Deployed (SLUICE_ENV not "development"): unset → wrangler secret put; a dev-only value is refused like unset.
    const deployed = await app.request("/admin/metrics", { headers: AUTH }, envWith({ COMPACTION_CONFIG: config, SLUICE_ENV: "" }));
    expect([deployed.status, await deployed.json()]).toEqual([503, { error: { type: "admin_disabled", message: "admin API disabled: OPS_ADMIN_TOKEN is not set (wrangler secret put OPS_ADMIN_TOKEN)", field: "OPS_ADMIN_TOKEN" } }]);
    const devToken = await app.request("/admin/metrics", { headers: { authorization: "Bearer dev-only-ops-token" } }, envWith({ COMPACTION_CONFIG: config, SLUICE_ENV: "", OPS_ADMIN_TOKEN: "dev-only-ops-token" }));
    expect([devToken.status, await devToken.json()]).toEqual([503, { error: { type: "admin_disabled", message: "admin API disabled: OPS_ADMIN_TOKEN holds a development value (dev-only-…) outside wrangler dev: set a real secret (wrangler secret put OPS_ADMIN_TOKEN)", field: "OPS_ADMIN_TOKEN" } }]);
    const env = envWith({ COMPACTION_CONFIG: config, OPS_ADMIN_TOKEN: "ops-token-1" });
    expect((await app.request("/admin/metrics", { headers: AUTH }, env)).status).toBe(401);
    expect((await app.request("/admin/metrics", { headers: { authorization: "Bearer ops-token-1" } }, env)).status).toBe(200);
  });

  it("the dashboard shell is served without a token (it holds no data) with a strict CSP; its data routes need the token", async () => {
    const app = adminAppFor("auth-dash");
    const env = envWith();
    const page = await app.request("/admin/dashboard", {}, env);
    expect([page.status, page.headers.get("content-type"), page.headers.get("x-frame-options")]).toEqual([200, "text/html; charset=utf-8", "DENY"]);
    expect(page.headers.get("content-security-policy")).toContain("script-src 'self'");
    const html = await page.text();
    expect(html).toContain('<input id="token" type="password"');
    expect(html).not.toMatch(/<script>|<style|\son[a-z]+=/);
    const js = await app.request("/admin/dashboard.js", {}, env);
    expect([js.status, js.headers.get("content-type")]).toEqual([200, "text/javascript; charset=utf-8"]);
    expect(await js.text()).not.toContain("innerHTML");
    expect((await app.request("/admin/sessions", {}, env)).status).toBe(401);
  });

  it("unknown admin paths are 404 only behind the token", async () => {
    const app = adminAppFor("auth-404");
    expect((await app.request("/admin/nope", {}, envWith())).status).toBe(401);
    const res = await app.request("/admin/nope", { headers: AUTH }, envWith());
    expect([res.status, await res.json()]).toEqual([404, { error: { type: "not_found", message: "No admin route for GET /admin/nope" } }]);
  });
});
