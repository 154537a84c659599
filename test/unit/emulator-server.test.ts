import { spawn } from "node:child_process";
import { trackChild } from "../support/child-registry";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type EmulatorHandle } from "../../tools/emulator/server";
import { parseSse } from "../../tools/emulator/shared/sse";

let emu: EmulatorHandle;
beforeAll(async () => {
  emu = await startEmulator({ port: 0 });
});
afterAll(async () => {
  await emu.close();
});

const T0 = 1_800_000_000_000;
const system = "You are a careful assistant for a chess server. ".repeat(150); // ~1,350 tokens
const body = async (r: Response): Promise<any> => r.json();
const post = (path: string, body: unknown, headers: Record<string, string>) =>
  fetch(emu.url + path, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) });

describe("emulator over HTTP", () => {
  it("prompt cache with a virtual clock: write, read, expire; cost header and per-key stats", async () => {
    const key = { "x-api-key": "key-http-1", "anthropic-version": "2023-06-01" };
    const base = { model: "claude-sonnet-4-5", max_tokens: 64, cache_control: { type: "ephemeral" }, system };
    const turn1 = [{ role: "user", content: "Which openings are popular?" }];
    const turn2 = [...turn1, { role: "assistant", content: "The Sicilian and the Ruy Lopez." }, { role: "user", content: "And for beginners?" }];

    const r1 = await post("/v1/messages", { ...base, messages: turn1 }, { ...key, "x-emulator-time": String(T0) });
    expect(r1.status).toBe(200);
    const u1 = (await body(r1)).usage;
    expect(u1.cache_read_input_tokens).toBe(0);
    expect(u1.input_tokens).toBe(0);
    expect(u1.cache_creation_input_tokens).toBeGreaterThan(1024);

    const r2 = await post("/v1/messages", { ...base, messages: turn2 }, { ...key, "x-emulator-time": String(T0 + 60_000) });
    const u2 = (await body(r2)).usage;
    expect(u2.cache_read_input_tokens).toBe(u1.cache_creation_input_tokens);
    expect(u2.input_tokens).toBe(0);
    // Sonnet: write $3.75/MTok, read $0.30/MTok, output $15/MTok → nano-dollars per token 3750 / 300 / 15000.
    const nano2 = u2.cache_creation_input_tokens * 3750 + u2.cache_read_input_tokens * 300 + u2.output_tokens * 15000;
    expect(Number(r2.headers.get("x-emulator-cost-usd"))).toBeCloseTo(nano2 / 1e9, 12);
    // The input side alone (no output): what the replay report calls input cost.
    expect(Number(r2.headers.get("x-emulator-input-cost-usd"))).toBeCloseTo((nano2 - u2.output_tokens * 15000) / 1e9, 12);

    const r3 = await post("/v1/messages", { ...base, messages: turn2 }, { ...key, "x-emulator-time": String(T0 + 60_000 + 5 * 60_000) });
    const u3 = (await body(r3)).usage;
    expect([u3.cache_read_input_tokens, u3.cache_creation_input_tokens]).toEqual([0, u2.cache_read_input_tokens + u2.cache_creation_input_tokens]);

    const stats = await body(await fetch(emu.url + "/__emulator/stats", { headers: key }));
    const costs = [r1, r2, r3].map((r) => Number(r.headers.get("x-emulator-cost-usd")));
    expect(stats.self).toMatchObject({ requests: 3, rejected: 0, cache_read_tokens: u2.cache_read_input_tokens });
    expect(Number(stats.self.cost_usd)).toBeCloseTo(costs[0]! + costs[1]! + costs[2]!, 9);
    expect(JSON.stringify(stats)).not.toContain("key-http-1");
  });

  it("keeps a request body for /__emulator/last-body only when asked, per key; accepts a 112 KB reply header", async () => {
    const req = { model: "gpt-4o", messages: [{ role: "user", content: "hi" }] };
    const reply = { role: "assistant", content: "move e4. ".repeat(9_375) }; // 84,375 chars: ~112 KB of base64, over Node's 16 KB header default
    const headers = (key: string, keep: boolean) => ({
      authorization: `Bearer ${key}`,
      "x-emulator-time": String(T0),
      "x-emulator-reply": Buffer.from(JSON.stringify(reply)).toString("base64"),
      ...(keep ? { "x-emulator-keep-body": "1" } : {}),
    });
    const kept = await post("/v1/chat/completions", req, headers("key-keep", true));
    expect([kept.status, (await body(kept)).choices[0].message.content.length]).toEqual([200, 84_375]);
    const back = await fetch(emu.url + "/__emulator/last-body", { headers: { authorization: "Bearer key-keep" } });
    expect([back.status, await back.text()]).toEqual([200, JSON.stringify(req)]);
    await post("/v1/chat/completions", req, headers("key-nokeep", false));
    const none = await fetch(emu.url + "/__emulator/last-body", { headers: { authorization: "Bearer key-nokeep" } });
    expect(none.status).toBe(404);
    await none.text();
  });

  it("keys do not share a cache, and reset clears all state", async () => {
    const req = { model: "gpt-4o", messages: [{ role: "system", content: system }, { role: "user", content: "hi" }] };
    const a = { authorization: "Bearer key-a", "x-emulator-time": String(T0) };
    await post("/v1/chat/completions", req, a);
    const again = await body(await post("/v1/chat/completions", req, a));
    expect(again.usage.prompt_tokens_details.cached_tokens).toBe(Math.floor(again.usage.prompt_tokens / 128) * 128);
    const other = await body(await post("/v1/chat/completions", req, { authorization: "Bearer key-b", "x-emulator-time": String(T0) }));
    expect(other.usage.prompt_tokens_details.cached_tokens).toBe(0);
    expect((await fetch(emu.url + "/__emulator/reset", { method: "POST" })).status).toBe(200);
    expect(await body(await fetch(emu.url + "/__emulator/stats"))).toEqual({ keys: {} });
  });

  it("streams SSE over HTTP and serves the models list", async () => {
    const r = await post("/v1/responses", { model: "gpt-5", input: "hello", stream: true }, { authorization: "Bearer key-s" });
    expect(r.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
    const events = parseSse(await r.text());
    expect([events[0]!.event, events[events.length - 1]!.event]).toEqual(["response.created", "response.completed"]);
    const models = await body(await fetch(emu.url + "/v1/models", { headers: { authorization: "Bearer key-s" } }));
    expect(models.object).toBe("list");
    expect(models.data.map((m: { id: string }) => m.id)).toContain("gpt-4o");
  });

  it("`npm run emulator` entry point prints its URL and serves requests", async () => {
    const child = spawn(process.execPath, ["--import", "tsx", "tools/emulator/main.ts", "--port", "0"], { cwd: new URL("../../", import.meta.url).pathname });
    trackChild(child, false);
    try {
      const url = await new Promise<string>((resolve, reject) => {
        child.stdout.on("data", (d: Buffer) => {
          const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(d.toString());
          if (m) resolve(m[1]!);
        });
        child.once("exit", (code) => reject(new Error(`emulator exited with ${code}`)));
      });
      const r = await fetch(url + "/v1/models", { headers: { "x-api-key": "k" } });
      expect((await body(r)).has_more).toBe(false);
    } finally {
      child.kill("SIGTERM");
    }
  });
});
