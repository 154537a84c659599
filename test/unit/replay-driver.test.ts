import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { DEFAULT_START_MS } from "../../tools/replay/defaults";
import { driveReplay } from "../../tools/replay/drive-replay";
import { renderHtml } from "../../tools/replay/render-html";
import { renderTable } from "../../tools/replay/render-table";
import { createHttpSender } from "../../tools/replay/send-http";
import { noneStrategy } from "../../tools/replay/strategies/none";
import { createObservationMask } from "../../tools/replay/strategies/observation-mask";
import { createGatewayStrategy, createSluiceStrategy } from "../../tools/replay/strategies/sluice-slot";
import { percentile, summarizeReport } from "../../tools/replay/summarize-report";
import type { CallUsage, JsonObject, LedgerFigures, Strategy } from "../../tools/replay/types";
import { createFakeSender } from "../support/replay-fake-sender";
import { litSession } from "../support/replay-lit-session";

/** Four calls; the third reply reads the same file as the first (a re-fetch once t1 is masked). */
const session = litSession("lit-1");

const M = 1_000_000;
const u = (input: number, cache_read: number, cache_write: number): CallUsage => ({ input, cache_read, cache_write, output: 10 });
const USAGE: Record<string, CallUsage[]> = {
  none: [u(M, 0, 0), u(M / 10, M, 0), u(M / 10, 1.1 * M, 0), u(M / 10, 1.2 * M, 0)],
  "observation-mask": [u(M, 0, 0), u(M / 10, M, 0), u(M / 20, 0, M), u(M / 20, 0.9 * M, 0)],
};
const usageFor = (key: string, n: number): CallUsage => USAGE[key.split("-").slice(2, -2).join("-")]![n]!;

/** A clock returning the given readings in order (two per call: before and after the strategy). */
const clock = (readings: number[]) => () => readings.shift()!;

describe("replay driver + report", () => {
  const mask = createObservationMask({ keep: 1 }) as Strategy;

  it("sends every call in order with time, reply and a per strategy-session key; reports exact numbers", async () => {
    const { send, seen } = createFakeSender(usageFor);
    const runs = await driveReplay({
      sessions: [session],
      strategies: [noneStrategy as Strategy, mask],
      send,
      run_id: "run1",
      now: clock([0, 1, 10, 13, 20, 20.5, 30, 37, 40, 42, 50, 50, 60, 64, 70, 71]),
    });
    expect(seen.map((c) => [c.provider, c.opts.key, c.opts.time_ms])).toEqual([
      ...[0, 1, 2, 3].map((k) => ["anthropic", "replay-run1-none-lit-1", DEFAULT_START_MS + k * 20_000]),
      ...[0, 1, 2, 3].map((k) => ["anthropic", "replay-run1-observation-mask-lit-1", DEFAULT_START_MS + k * 20_000]),
    ]);
    expect(seen[2]!.opts.reply).toEqual({ role: "assistant", content: [{ type: "tool_use", id: "t3", name: "Read", input: { p: "a" } }] });
    expect(seen[0]!.body).toBe(JSON.stringify(session.calls[0]!.body));
    const masked = JSON.parse(seen[6]!.body) as JsonObject;
    expect((masked.messages as JsonObject[])[2]).toEqual({ role: "user", content: [{ type: "tool_result", tool_use_id: "t1", content: "Old environment output: (1 lines omitted)" }] });
    expect(runs.map((r) => [r.strategy, r.pairs_removed, r.refetches, r.calls.map((c) => c.removed_ids)])).toEqual([
      ["none", 0, 0, [[], [], [], []]],
      ["observation-mask", 2, 1, [[], [], ["t1"], ["t1", "t2"]]],
    ]);

    const report = summarizeReport(runs);
    // Step timing in hindsight (exact values: test/unit/replay-hindsight-steps.test.ts): none takes no
    // step, so all three costs are equal; the mask steps at calls 2 and 3 (t1, then t2), and the best
    // schedule of those two steps never costs more than taking them where it did.
    const noneTiming = report.sessions[0]!.strategies.none!.step_timing!;
    const maskTiming = report.sessions[0]!.strategies["observation-mask"]!.step_timing!;
    expect(noneTiming).toEqual({ steps_taken: 0, steps_best: 0, none_usd: noneTiming.none_usd, taken_usd: noneTiming.none_usd, best_usd: noneTiming.none_usd });
    expect(noneTiming.none_usd).toBeGreaterThan(0);
    expect([maskTiming.steps_taken, maskTiming.none_usd, maskTiming.best_usd <= maskTiming.taken_usd]).toEqual([2, noneTiming.none_usd, true]);
    const expectedMask = {
      calls: 4,
      input_tokens_sent: 4_100_000,
      input_tokens_original: 4_600_000,
      input_tokens_change_pct: -10.87,
      cache_read_tokens: 1_900_000,
      cache_write_tokens: 1_000_000,
      output_tokens: 40,
      input_cost_without_usd: 4.89, // 3.00 + 0.60 + 0.63 + 0.66
      input_cost_with_usd: 7.92, // 3.00 + 0.60 + (0.15 + 3.75) + (0.15 + 0.27)
      engine_cost_usd: 0,
      savings_usd: -3.03,
      savings_pct: -61.96,
      cache_hit_ratio: 0.4634, // 1.9M / 4.1M
      pairs_removed: 2,
      refetches: 1,
      rementions: 0, // Read {p} names no file path
      ledger: null,
      summaries: null,
      rejections: 0,
      used_after_removal_calls: 0, // the answers hold no project-specific token
      used_after_removal_pct: 0,
      by_rule: null, // the mask names no rule
      worst_case_loss_usd: 0.000006, // results "A" and "B": 1 estimated token each at $3/M
      decisions: {},
      held_back: null, // the mask declines no priced cut
      held_back_by: {},
      route: "direct",
      added_latency_p50_ms: 1, // [2, 0, 4, 1] → nearest rank 2 of 4
      added_latency_p99_ms: 4,
      round_trip_p50_ms: 1, // the fake sender's latency
      round_trip_p99_ms: 1,
      step_timing: maskTiming,
    };
    expect(report.sessions).toEqual([
      {
        id: "lit-1",
        provider: "anthropic",
        model: "claude-sonnet-4-5-20250929",
        calls: 4,
        prices: { model: "claude-sonnet-4-5-20250929", input_per_mtok: 3, cache_read_per_mtok: 0.3, cache_write_per_mtok: 3.75, output_per_mtok: 15, known: true },
        strategies: {
          none: { ...expectedMask, worst_case_loss_usd: 0, input_tokens_sent: 4_600_000, input_tokens_change_pct: 0, cache_read_tokens: 3_300_000, cache_write_tokens: 0, input_cost_with_usd: 4.89, savings_usd: 0, savings_pct: 0, cache_hit_ratio: 0.7174, pairs_removed: 0, refetches: 0, added_latency_p50_ms: 1, added_latency_p99_ms: 7, step_timing: noneTiming },
          "observation-mask": expectedMask,
        },
      },
    ]);
    expect(report.total).toEqual(report.sessions[0]!.strategies);
    expect(report.cumulative_cost_usd).toEqual({ none: [3, 3.6, 4.23, 4.89], "observation-mask": [3, 3.6, 7.5, 7.92] });
    expect(report.warnings).toEqual([]);

    const html = renderHtml(report);
    expect(html).toMatch(/<tr><th>lit-1<\/th><th>observation-mask<\/th><td class="why">steps taken save -?\d+\.\d% \(2 steps\); at the best calls -?\d+\.\d% \(\d steps?\): \d+\.\d pt<\/td><\/tr>/);
    expect(html).not.toContain("<tr><th>lit-1</th><th>none</th><td class=\"why\">steps taken");
    expect(html).toContain("<h2>Step timing in hindsight</h2>");
    // In process, the added latency is the time in the transform: none's [1, 3, 7, 2] ms.
    expect(html).toContain("<td>71.7%</td><td>—</td><td>—</td><td>0</td><td>0</td><td>0</td><td>1.00</td><td>7.00</td><td>—</td><td>—</td><td class=\"why\">baseline</td>");
    const table = renderTable(report).split("\n");
    const at = table.indexOf("lit-1 — anthropic, claude-sonnet-4-5-20250929, 4 calls");
    expect(table.slice(at, at + 5)).toEqual([
      "lit-1 — anthropic, claude-sonnet-4-5-20250929, 4 calls",
      "  none                0.0%        4.89         4.89       0 (0.0%)     0.0%  71.7%         0        0         0",
      "  observation-mask  -62.0%        4.89         7.92       0 (0.0%)   -10.9%  46.3%         2        1         0",
      "-".repeat(111),
      "TOTAL — 1 session, 4 calls",
    ]);
    expect(html.match(/<polyline data-strategy="[^"]+"/g)).toEqual(['<polyline data-strategy="observation-mask"', '<polyline data-strategy="none"']);
    expect(html.startsWith("<!doctype html>")).toBe(true);
    expect(html).not.toMatch(/<script|src="http/);
  });

  it("counts emulator rejections and bills them nothing", async () => {
    const { send } = createFakeSender(usageFor, (body) => (body.includes("Old environment output") ? "messages.2: bad" : null));
    const runs = await driveReplay({ sessions: [session], strategies: [noneStrategy as Strategy, mask], send, run_id: "r", now: () => 0 });
    expect(runs[1]!.calls.map((c) => c.rejected)).toEqual([null, null, "messages.2: bad", "messages.2: bad"]);
    const m = summarizeReport(runs).total["observation-mask"]!;
    expect([m.rejections, m.input_cost_with_usd]).toEqual([2, 3.6]);
  });

  it("runs the Sluice slot on bytes with the agent's headers and adds its engine cost", async () => {
    const seenHeaders: Record<string, string>[] = [];
    const sluice = createSluiceStrategy(async (bytes, headers, call) => {
      seenHeaders.push(headers);
      const body = JSON.parse(new TextDecoder().decode(bytes)) as JsonObject;
      const msgs = body.messages as JsonObject[];
      if (call.call_index === 3) msgs[4] = { role: "user", content: [{ type: "tool_result", tool_use_id: "t2", content: "" }] };
      return { body: new TextEncoder().encode(JSON.stringify(body)), info: { engine_cost_usd: 0.25 } };
    });
    const { send } = createFakeSender((_k, n) => USAGE.none![n]!);
    const runs = await driveReplay({ sessions: [session], strategies: [noneStrategy as Strategy, sluice], send, run_id: "r", now: () => 0, concurrency: 2 });
    expect(seenHeaders[0]).toEqual({ "content-type": "application/json", "anthropic-version": "2023-06-01", "x-api-key": "replay-r-sluice-lit-1", "x-sluice-session": "r-lit-1" });
    expect(runs[1]!.calls.map((c) => c.removed_ids)).toEqual([[], [], [], ["t2"]]);
    const m = summarizeReport(runs).total.sluice!;
    expect([m.pairs_removed, m.refetches, m.engine_cost_usd, m.input_cost_with_usd, m.savings_pct]).toEqual([1, 0, 1, 5.89, -20.45]);
  });

  it("hands the Sluice slot each accepted answer's usage (settle), never a rejected one's", async () => {
    const NO_LEDGER: LedgerFigures = { without_usd: 0, with_usd: 0, removals: 0, removals_mentioned: 0, removals_deterministic: 0 };
    const answered: [number, number][] = [];
    const sluice = createSluiceStrategy(async (bytes, _headers, call) => ({ body: bytes, info: {}, settle: async (u: CallUsage | null) => (u !== null && answered.push([call.call_index, u.input + u.cache_read + u.cache_write]), NO_LEDGER) }));
    let sent = 0;
    const { send } = createFakeSender((_k, n) => USAGE.none![n]!, () => (sent++ === 2 ? "messages.2: bad" : null));
    await driveReplay({ sessions: [session], strategies: [sluice], send, run_id: "r", now: () => 0 });
    const billed = USAGE.none!.map((u) => u.input + u.cache_read + u.cache_write);
    expect(answered).toEqual([[0, billed[0]], [1, billed[1]], [3, billed[3]]]);
  });

  it("a gateway strategy sends the original body through its own sender and diffs what the upstream got", async () => {
    const { send, seen } = createFakeSender((_k, n) => USAGE.none![n]!);
    const viaGateway: string[] = [];
    const gateway = createGatewayStrategy(async (provider, body, opts) => {
      viaGateway.push(body);
      const r = await send(provider, body, opts);
      const forwarded = JSON.parse(body) as JsonObject;
      if (viaGateway.length === 4) (forwarded.messages as JsonObject[])[4] = { role: "user", content: [{ type: "tool_result", tool_use_id: "t2", content: "" }] };
      return { ...r, latency_ms: 1 + viaGateway.length, forwarded: JSON.stringify(forwarded), note: `call ${viaGateway.length}` };
    });
    const runs = await driveReplay({ sessions: [session], strategies: [noneStrategy as Strategy, gateway], send, run_id: "r", now: () => 0 });
    expect(viaGateway).toEqual(session.calls.map((c) => JSON.stringify(c.body)));
    expect(seen.map((c) => c.opts.key)).toEqual([...Array(4).fill("replay-r-none-lit-1"), ...Array(4).fill("replay-r-sluice-lit-1")]);
    expect(runs.map((r) => r.route)).toEqual(["direct", "gateway"]);
    expect(runs[1]!.calls.map((c) => [c.removed_ids, c.note, c.transform_ms])).toEqual([[[], "call 1", 0], [[], "call 2", 0], [[], "call 3", 0], [["t2"], "call 4", 0]]);
    const report = summarizeReport(runs);
    const m = report.total.sluice!;
    // Added latency = gateway round trip [2, 3, 4, 5] − direct round trip under none [1, 1, 1, 1]: end to end.
    expect([m.route, m.pairs_removed, m.added_latency_p50_ms, m.added_latency_p99_ms, m.round_trip_p50_ms, m.round_trip_p99_ms]).toEqual(["gateway", 1, 2, 4, 3, 5]);
    // On the page it sits in the end-to-end columns only, never beside none's in-process figures.
    expect(renderHtml(report)).toContain("<td>—</td><td>—</td><td>2.00</td><td>4.00</td><td class=\"why\">no step ×4</td></tr>");
  });

  it("computes nearest-rank percentiles", () => {
    expect([percentile([], 50), percentile([5], 99), percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 50), percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 99)]).toEqual([0, 5, 5, 10]);
  });
});

describe("HTTP sender", () => {
  it("posts to the provider endpoint with the emulator headers and reads usage, cost and rejections", async () => {
    const got: { url: string; headers: IncomingMessage["headers"]; body: string }[] = [];
    const server = createServer((req, res) => {
      let body = "";
      req.on("data", (c) => (body += c));
      req.on("end", () => {
        got.push({ url: req.url!, headers: req.headers, body });
        if (got.length === 1) {
          res.writeHead(200, { "content-type": "application/json", "x-emulator-cost-usd": "0.0123", "x-emulator-input-cost-usd": "0.0053" });
          res.end(JSON.stringify({ id: "x", usage: { prompt_tokens: 2000, completion_tokens: 7, prompt_tokens_details: { cached_tokens: 1536 } } }));
        } else {
          res.writeHead(400, { "content-type": "application/json" });
          res.end(JSON.stringify({ error: { message: "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.", type: "invalid_request_error" } }));
        }
      });
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    try {
      const send = createHttpSender(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
      const reply = { role: "assistant", content: "hé" };
      const ok = await send("openai-chat", '{"model":"gpt-4o","messages":[]}', { time_ms: 1_700_000_000_000, reply, key: "k1" });
      expect({ ...ok, latency_ms: 0 }).toEqual({ status: 200, usage: { input: 464, cache_read: 1536, cache_write: 0, output: 7 }, cost_usd: 0.0123, input_cost_usd: 0.0053, latency_ms: 0 });
      expect(got[0]!.url).toBe("/v1/chat/completions");
      expect(got[0]!.body).toBe('{"model":"gpt-4o","messages":[]}');
      expect([got[0]!.headers.authorization, got[0]!.headers["x-emulator-time"], Buffer.from(got[0]!.headers["x-emulator-reply"] as string, "base64").toString("utf8")]).toEqual([
        "Bearer k1",
        "1700000000000",
        '{"role":"assistant","content":"hé"}',
      ]);
      const bad = await send("openai-responses", "{}", { time_ms: 0, reply: [], key: "k2" });
      expect([bad.status, bad.rejected, got[1]!.url]).toEqual([400, "HTTP 400: Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.", "/v1/responses"]);
    } finally {
      server.close();
    }
  });
});
