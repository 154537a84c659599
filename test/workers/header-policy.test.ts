/**
 * Header policy in the Workers runtime: the exact header set the upstream receives and
 * the exact set the client gets back. Headers the runtime itself adds to the upstream hop are
 * `host` (the stand-in's), `content-length` (bytes actually sent) and `cf-worker` (workerd's own
 * value; a client-sent cf-worker is dropped like every cf-*).
 */
import { describe, expect, it } from "vitest";
import { gateway, gatewayWithEnv, newTestId, received, testVars, utf8 } from "./helpers";

const standInHost = new URL(testVars.UPSTREAM_CONTROL_URL).host;
const ADMIN = testVars.SLUICE_ADMIN_TOKEN;

const PASSED = {
  "x-api-key": "sk-ant-test-1",
  authorization: "Bearer sk-openai-test-1",
  "anthropic-version": "2023-06-01",
  "anthropic-beta": "prompt-caching-2024-07-31,context-management-2025-06-27",
  "openai-organization": "org-test",
  "openai-project": "proj_test",
  "content-type": "application/json",
  accept: "text/event-stream",
  "user-agent": "claude-cli/2.0.0 (external, cli)",
  "x-stainless-lang": "js",
  "x-claude-code-session-id": "sess-123",
  "x-custom": "kept",
};

const DROPPED = {
  connection: "keep-alive, x-named-hop",
  "x-named-hop": "1",
  "keep-alive": "timeout=5",
  te: "trailers",
  trailer: "x-trailer",
  upgrade: "h2c",
  "proxy-authorization": "Basic eDp5",
  "proxy-connection": "keep-alive",
  "cf-connecting-ip": "203.0.113.9",
  "cf-ray": "8f0000000000-LHR",
  "cf-ipcountry": "PT",
  "cf-worker": "spoofed.example",
  forwarded: "for=203.0.113.9",
  "x-forwarded-for": "203.0.113.9",
  "x-forwarded-proto": "https",
  "x-real-ip": "203.0.113.9",
  "x-sluice-admin-token": ADMIN,
  "x-sluice-session": "s-1",
  "x-sluice-compaction": "off",
  "x-sluice-request-id": "client-chosen-id",
  "x-admin-auth": `Bearer ${ADMIN}`,
};

describe("request headers upstream", () => {
  for (const path of ["/anthropic/v1/messages", "/openai/v1/chat/completions", "/openai/v1/files"]) {
    it(`${path}: client auth and provider headers pass; hop-by-hop, cf-*, proxy metadata, x-sluice-*, admin token do not`, async () => {
      const id = newTestId("hdr");
      const body = '{"model":"m","messages":[]}';
      const res = await gateway(path, { method: "POST", headers: { ...PASSED, ...DROPPED, "x-test-id": id }, body });
      expect(res.status).toBe(200);
      const [rec] = await received(id);
      const { "cf-worker": cfWorker, ...rest } = rec!.headers;
      expect(cfWorker).not.toBe("spoofed.example");
      expect(rest).toEqual({ ...PASSED, "x-test-id": id, host: standInHost, "content-length": String(utf8(body).length) });
    });
  }

  it("an admin token sent as the provider credential is not forwarded", async () => {
    const id = newTestId("adm");
    await gateway("/openai/v1/models", { headers: { authorization: `Bearer ${ADMIN}`, "x-test-id": id } });
    const [rec] = await received(id);
    expect(rec!.headers.authorization).toBeUndefined();
    expect(JSON.stringify(rec!.headers)).not.toContain(ADMIN);
  });

  it("admin_token_env names another secret: a header carrying that token is not forwarded either", async () => {
    const custom = "ops-admin-token-7f3a91";
    const vars = { COMPACTION_CONFIG: JSON.stringify({ admin_token_env: "OPS_ADMIN_TOKEN" }), OPS_ADMIN_TOKEN: custom };
    for (const [path, init] of [
      ["/openai/v1/models", { method: "GET" }],
      ["/anthropic/v1/messages", { method: "POST", body: '{"model":"m","max_tokens":8,"messages":[{"role":"user","content":"hi"}]}' }],
    ] as const) {
      const id = newTestId("adm-custom");
      const res = await gatewayWithEnv(vars, path, { ...init, headers: { authorization: `Bearer ${custom}`, "x-admin-auth": custom, "x-api-key": "sk-ant-test-1", "x-test-id": id } });
      expect(res.status).toBe(200);
      const [rec] = await received(id);
      expect([rec!.headers.authorization, rec!.headers["x-admin-auth"], rec!.headers["x-api-key"]]).toEqual([undefined, undefined, "sk-ant-test-1"]);
      expect(JSON.stringify(rec!.headers)).not.toContain(custom);
    }
  });
});

describe("response headers to the client", () => {
  it("upstream headers pass, hop-by-hop ones do not, x-sluice-request-id is added", async () => {
    const id = newTestId("rh");
    const res = await gateway("/anthropic/v1/messages", {
      method: "POST",
      headers: { "x-test-id": id, "x-test-scenario": "status:400", "x-test-retry-after": "7" },
      body: "{}",
    });
    expect(res.status).toBe(400);
    expect([...res.headers.keys()].sort()).toEqual(["content-length", "content-type", "date", "retry-after", "x-sluice-request-id", "x-upstream-marker"]);
    expect(res.headers.get("retry-after")).toBe("7");
    expect(res.headers.get("x-sluice-request-id")).not.toBe("client-chosen-id");
  });
});
