/**
 * The operator dashboard in a real browser: the gateway runs under `wrangler dev`
 * (admin token var set, compaction on, upstreams = the provider emulator), real corpus calls
 * go through it, a session is disabled through the admin API, then headless Chromium opens
 * /admin/dashboard, signs in, and the numbers it shows must equal the admin API's. A screenshot
 * is saved under test-output/. Chromium: Debian `chromium` at /usr/bin/chromium (.ci/run
 * installs it); missing → this test FAILS when CI=true, and is skipped with a message otherwise.
 * A second test serves the same page next to a FIXTURE admin API (a Node stand-in answering
 * fixed JSON) to check what the live gateway cannot show until the pipeline reports to the
 * index: the per-call chart with many calls, and client-chosen ids rendered as text, not markup.
 */
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { join, resolve } from "node:path";
import { chromium, type Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DASHBOARD_CSS, DASHBOARD_HTML } from "../../src/admin/dashboard-html";
import { DASHBOARD_JS } from "../../src/admin/dashboard-script";
import type { IndexTotals, SessionSummary } from "../../src/admin/summarize-index";
import type { SessionStats } from "../../src/session/session";
import type { LedgerReport } from "../../src/admin/ledger-report";
import { startEmulator, type EmulatorHandle } from "../../tools/emulator/server";
import { agentHeaders } from "../../tools/replay/agent-headers";
import { readCorpus } from "../../tools/replay/read-corpus";
import { startWranglerDev, type WranglerDev } from "../../tools/shared/start-wrangler-dev";
import { CORPUS_PATH } from "../support/shared-dir";
import { INDEX_WINDOW_MS } from "../../src/gateway/index-buffer";

const CHROMIUM = "/usr/bin/chromium";
/** Headless Chromium with no network of its own, exactly these flags (plus the pipe and profile Playwright needs). */
const CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--no-first-run"];
const CI = process.env.CI === "true" || process.env.CI === "1";
const MISSING = !existsSync(CHROMIUM);
const TOKEN = "browser-test-admin-token.5d21";
const OUT_DIR = resolve(import.meta.dirname, "../../test-output");
/** Corpus sessions and how many of their first calls are sent. */
const SENT = [{ corpus: "tau-airline-gpt4o-task02", calls: 4 }, { corpus: "cc-cctrace-opus4", calls: 3 }] as const;
const sessionOf = (corpus: string) => `browser-${corpus}`;
const KILLED = "browser-kill-switch";

// Display formats of the dashboard (src/admin/dashboard-script.ts).
const usd = (v: number) => `$${v.toFixed(4)}`;
const ratio = (v: number | null) => (v === null ? "—" : `${(v * 100).toFixed(1)}%`);
const int = (v: number) => String(Math.round(v));
const time = (ms: number | null) => (ms === null ? "—" : `${new Date(ms).toISOString().replace("T", " ").slice(0, 19)}Z`);
/** One row of the savings ledger's table as the page shows it. */
const reportCells = (r: LedgerReport) => [
  r.mode, ratio(r.saved_share), usd(r.saved_usd), usd(r.without_usd), usd(r.engine_cost_usd), usd(r.worst_case_loss_usd), usd(r.balance_usd),
  r.ratio === null ? "—" : `${r.ratio.toFixed(1)}×`, r.engine_wait_ms === null ? "—" : `${Math.round(r.engine_wait_ms)} ms`,
  ratio(r.engine_wait_share), ratio(r.refetched_share), ratio(r.mentioned_share), ratio(r.deterministic_share),
];
const reportRows = (page: import("playwright-core").Page) =>
  page.locator("#report tbody tr[data-mode]").evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll("td")].map((td) => td.textContent)));

if (MISSING && !CI) console.warn(`dashboard browser test SKIPPED: ${CHROMIUM} is missing (apt-get install -y chromium; .ci/run does it). With CI=true this fails.`);

/** A cache report (src/observers/cache-diagnostics.ts CacheReport) with two events; the causes without events are left out of the panel. */
const CACHE_EVENT = { offset_exact: true, tools: null, members: [], gap_ms: 1_000, confirmed: true, at_ms: 0 };
const CACHE_FIXTURE = {
  pairs_checked: 11, misses: 2, sluice_step_cost_usd: 0.0123,
  causes: { ttl_expired: { count: 0, tokens: 0 }, timestamp_in_prefix: { count: 1, tokens: 9_000 }, sluice_step: { count: 1, tokens: 4_000 }, unexplained: { count: 0, tokens: 0 } },
  events: [
    { ...CACHE_EVENT, call: 3, cause: "timestamp_in_prefix", byte_offset: 301, message_index: null, tokens_affected: 9_000, cost_usd: null },
    { ...CACHE_EVENT, call: 9, cause: "sluice_step", byte_offset: null, message_index: 4, tokens_affected: 4_000, cost_usd: 0.0123 },
  ],
};

describe.skipIf(MISSING && !CI)("dashboard in headless Chromium", () => {
  let emulator: EmulatorHandle | undefined;
  let dev: WranglerDev | undefined;
  let browser: Browser | undefined;
  const admin = async <T>(path: string, method = "GET"): Promise<T> => {
    const res = await fetch(`${dev!.url}/admin${path}`, { method, headers: { authorization: `Bearer ${TOKEN}` } });
    if (!res.ok) throw new Error(`${method} /admin${path}: ${res.status} ${await res.text()}`);
    return (await res.json()) as T;
  };

  beforeAll(async () => {
    if (MISSING) return;
    emulator = await startEmulator({ port: 0 });
    dev = await startWranglerDev({ vars: { SLUICE_ADMIN_TOKEN: TOKEN, SLUICE_COMPACTION: "1", ANTHROPIC_BASE_URL: emulator.url, OPENAI_BASE_URL: emulator.url } });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await dev?.close();
    await emulator?.close();
  });

  it("shows the admin API's totals, sessions and per-call chart", async () => {
    if (MISSING) throw new Error(`CI=true but ${CHROMIUM} is missing: .ci/run must install Debian chromium before the tests`);
    const base = dev!.url;

    // 1. Real corpus calls through the gateway (upstream: the emulator).
    for (const s of SENT) {
      const session = readCorpus(readFileSync(`${CORPUS_PATH}/${s.corpus}.json`, "utf8"), s.corpus);
      const path = session.provider === "anthropic" ? "/anthropic/v1/messages" : session.provider === "openai-chat" ? "/openai/v1/chat/completions" : "/openai/v1/responses";
      for (const call of session.calls.slice(0, s.calls)) {
        const res = await fetch(`${base}${path}`, { method: "POST", headers: agentHeaders(session.provider, `key-${s.corpus}`, sessionOf(s.corpus)), body: JSON.stringify(call.body) });
        expect([s.corpus, call.index, res.status]).toEqual([s.corpus, call.index, 200]);
        await res.arrayBuffer();
      }
    }
    // 2. Operator actions through the admin API: the kill switch on a session the gateway has
    //    seen (one call), after a never-seen id is refused.
    const first = readCorpus(readFileSync(`${CORPUS_PATH}/${SENT[0].corpus}.json`, "utf8"), SENT[0].corpus);
    const killedCall = await fetch(`${base}/openai/v1/chat/completions`, { method: "POST", headers: agentHeaders(first.provider, "key-killed", KILLED), body: JSON.stringify(first.calls[0]!.body) });
    expect(killedCall.status).toBe(200);
    await killedCall.arrayBuffer();
    const unseen = await fetch(`${base}/admin/sessions/never-seen-browser/disable`, { method: "POST", headers: { authorization: `Bearer ${TOKEN}` } });
    expect(unseen.status).toBe(404);
    expect(await admin(`/sessions/${KILLED}/disable`, "POST")).toEqual({ session_id: KILLED, disabled: true });
    expect(await admin("/audit/verify")).toMatchObject({ ok: true, first_bad_seq: null });
    // The reports settle: the index window, then a margin.
    await new Promise((r) => setTimeout(r, INDEX_WINDOW_MS + 500));
    const api = await admin<{ totals: IndexTotals; sessions: SessionSummary[] }>("/sessions");
    expect(api.sessions.find((s) => s.id === KILLED)).toMatchObject({ disabled: true, calls: 1 });
    expect(api.sessions.some((s) => s.id === sessionOf(SENT[0].corpus))).toBe(true);
    expect(api.totals.requests).toBeGreaterThanOrEqual(SENT.reduce((n, s) => n + s.calls, 1));
    // Every session is listed, so the sessions' net savings add up to the headline's (to float rounding: summed in another order).
    expect(api.sessions.reduce((n, s) => n + s.net_usd_saved, 0)).toBeCloseTo(api.totals.ledger_saved_usd, 12);
    const chosen = sessionOf(SENT[0].corpus);
    const stats = (await admin<{ session: SessionStats }>(`/sessions/${encodeURIComponent(chosen)}`)).session;
    expect(stats.calls_log.length).toBe(SENT[0].calls);

    // 3. The page, signed in through its login field.
    browser = await chromium.launch({ executablePath: CHROMIUM, ignoreDefaultArgs: true, args: [...CHROMIUM_ARGS, "--remote-debugging-pipe", "about:blank"] });
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    const pageErrors: string[] = [];
    page.on("pageerror", (e) => pageErrors.push(e.message));
    await page.goto(`${base}/admin/dashboard`);
    await page.fill("#token", TOKEN);
    await page.click("#login-form button[type=submit]");
    await page.waitForSelector('#status[data-state="loaded"]', { timeout: 20_000 });
    await page.selectOption("#chart-session", chosen);
    await page.waitForSelector('#status[data-state="loaded"]', { timeout: 20_000 });

    const text = (sel: string) => page.locator(sel).innerText();
    // The page leads with the net saving; the gross figure stands beside it, labelled.
    expect(await page.locator("#main > section").first().getAttribute("id")).toBe("headline");
    expect(await page.locator("#headline h2").allTextContents()).toEqual(["Net saved", "Gross saved"]);
    expect(await text("#total-ledger-saved")).toBe(usd(api.totals.ledger_saved_usd));
    expect([await text("#total-usd-saved"), await text("#total-cache-hit"), await text("#total-fail-open"), await text("#total-requests"), await text("#total-tokens-saved"), await text("#total-sessions")])
      .toEqual([usd(api.totals.usd_saved), ratio(api.totals.cache_hit_ratio), int(api.totals.fail_open), int(api.totals.requests), int(api.totals.tokens_saved), int(api.totals.sessions)]);
    // The savings ledger's table: the admin API's /report rows (all time), as text.
    const report = await admin<{ rows: LedgerReport[] }>("/report");
    expect(report.rows.map((r) => r.mode)).toEqual(["compact"]);
    expect(await reportRows(page)).toEqual(report.rows.map(reportCells));
    const rows = await page.locator("#sessions tbody tr[data-session]").evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll("td")].slice(0, 14).map((td) => td.textContent)));
    expect(rows).toEqual(api.sessions.map((s) => [s.id, s.label, s.provider ?? "—", s.model ?? "—", int(s.turns), int(s.calls), int(s.tokens_saved), usd(s.net_usd_saved), usd(s.usd_saved), ratio(s.cache_hit_ratio), int(s.fail_open), s.last_tier ?? "—", time(s.last_activity_ms), s.disabled ? "disabled" : "enabled"]));
    expect(await page.locator("#chart").getAttribute("data-calls")).toBe(String(stats.calls_log.length));
    const dots = (cls: string) => page.locator(`#chart circle.${cls}`).evaluateAll((cs) => cs.map((c) => Number(c.getAttribute("data-value"))));
    expect([await dots("original"), await dots("sent")]).toEqual([stats.calls_log.map((c) => c.tokens_original), stats.calls_log.map((c) => c.tokens_sent)]);

    mkdirSync(OUT_DIR, { recursive: true });
    await page.screenshot({ path: join(OUT_DIR, "dashboard.png"), fullPage: true });
    expect(await page.content()).not.toContain(TOKEN);
    expect(page.url()).not.toContain(TOKEN);

    // 4. The kill switch from the page: Enable on the disabled row reaches the API.
    await page.locator(`#sessions tr[data-session="${KILLED}"] button`).click();
    await page.waitForSelector(`#sessions tr[data-session="${KILLED}"]:not(.disabled)`, { timeout: 20_000 });
    expect((await admin<{ sessions: SessionSummary[] }>("/sessions")).sessions.find((s) => s.id === KILLED)?.disabled).toBe(false);
    expect(pageErrors).toEqual([]);
  }, 180_000);

  it("plots every call of a session and renders client-chosen ids as text (fixture API)", async () => {
    if (MISSING) throw new Error(`CI=true but ${CHROMIUM} is missing`);
    const hostileId = 'cc:<img src=x onerror="window.__pwned=1">';
    const calls = Array.from({ length: 12 }, (_, i) => ({ seq: i + 1, at_ms: 0, tokens_original: 20_000 + i * 4_000, tokens_sent: i < 5 ? 20_000 + i * 4_000 : 12_000 + (i - 5) * 3_000, tier: "micro", outcome: "compacted" }));
    const summary = { id: hostileId, provider: "anthropic", model: "claude-sonnet-4-5", turns: 12, calls: 12, requests: 12, compacted: 7, fail_open: 1, tokens_original: 0, tokens_sent: 0, tokens_saved: 46_000, usd_saved: 0.5645, net_usd_saved: 0.1685, cache_hit_ratio: 0.87, last_tier: "micro", last_outcome: "compacted", last_activity_ms: 1_790_000_000_000, disabled: false };
    // A session whose steps cost more than they saved (cache writes): its net is negative and shown so.
    const dearer = { id: "cc:dearer", label: "cc:dearer", provider: "anthropic", model: "claude-sonnet-4-5", turns: 4, calls: 4, requests: 4, compacted: 1, fail_open: 0, tokens_original: 0, tokens_sent: 0, tokens_saved: 4_000, usd_saved: 0.0311, net_usd_saved: -0.0212, cache_hit_ratio: 0.5, last_tier: "micro", last_outcome: "compacted", last_activity_ms: 1_789_999_000_000, disabled: false };
    const LEDGER_ROW: LedgerReport = {
      mode: "compact", priced_calls: 12, requests: 12, without_usd: 1.5, with_usd: 1, saved_usd: 0.5, saved_share: 1 / 3, engine_cost_usd: 0, worst_case_loss_usd: 0.02,
      balance_usd: 0.48, ratio: 25, engine_wait_ms: null, engine_wait_share: 0, removals: 10, refetched_share: 0.1, mentioned_share: 0.4, deterministic_share: 0.9,
    };
    const seen: string[] = [];
    const server = http.createServer((req, res) => {
      seen.push(`${req.headers.authorization} ${req.url}`);
      const send = (type: string, body: string) => { res.writeHead(200, { "content-type": type }); res.end(body); };
      if (req.url === "/admin/dashboard") return send("text/html", DASHBOARD_HTML);
      if (req.url === "/admin/dashboard.js") return send("text/javascript", DASHBOARD_JS);
      if (req.url === "/admin/dashboard.css") return send("text/css", DASHBOARD_CSS);
      if (req.url === "/admin/sessions") return send("application/json", JSON.stringify({ totals: { sessions: 2, requests: 16, compacted: 8, fail_open: 1, tokens_original: 0, tokens_sent: 0, tokens_saved: 50_000, usd_saved: 0.5956, cache_hit_ratio: 0.8, ledger_saved_usd: 0.1473 }, sessions: [summary, dearer] }));
      if (req.url === "/admin/report") return send("application/json", JSON.stringify({ since_ms: 0, until_ms: 3_600_000, rows: [LEDGER_ROW] }));
      if (req.url === `/admin/sessions/${encodeURIComponent(hostileId)}`) return send("application/json", JSON.stringify({ session: { calls_log: calls } }));
      if (req.url === `/admin/sessions/${encodeURIComponent(hostileId)}/cache`) return send("application/json", JSON.stringify(CACHE_FIXTURE));
      res.writeHead(404).end();
    });
    await new Promise<void>((ok) => server.listen(0, "127.0.0.1", () => ok()));
    try {
      browser ??= await chromium.launch({ executablePath: CHROMIUM, ignoreDefaultArgs: true, args: [...CHROMIUM_ARGS, "--remote-debugging-pipe", "about:blank"] });
      const page = await (await browser.newContext({ viewport: { width: 1280, height: 760 } })).newPage();
      await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/admin/dashboard`);
      await page.fill("#token", "fixture-token");
      await page.click("#login-form button[type=submit]");
      await page.waitForSelector('#status[data-state="loaded"]', { timeout: 20_000 });
      expect(await page.locator("#sessions tbody td").first().textContent()).toBe(hostileId);
      // Net first and largest, gross beside it (the figures of the session that showed "GROSS SAVED $0.5956" first: net $0.1473).
      const figures = page.locator("#headline .figure > p:first-of-type");
      expect(await figures.allTextContents()).toEqual(["$0.1473", "$0.5956"]);
      const size = (i: number) => figures.nth(i).evaluate((e) => parseFloat((globalThis as unknown as { getComputedStyle(x: unknown): { fontSize: string } }).getComputedStyle(e).fontSize));
      expect(await size(0)).toBeGreaterThan(await size(1));
      const [net, gross] = [await figures.nth(0).boundingBox(), await figures.nth(1).boundingBox()];
      expect(net!.x).toBeLessThan(gross!.x);
      expect(await page.locator("#headline").getAttribute("data-net")).toBe("positive");
      // The sessions table the same way: Net USD saved, then Gross beside it; a negative net keeps its sign, in red.
      const heads = await page.locator("#sessions thead th").allTextContents();
      expect(heads.slice(6, 9)).toEqual(["Tokens saved", "Net USD saved", "Gross USD saved (before cache writes)"]);
      const money = await page.locator("#sessions tbody tr[data-session]").evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll("td")].slice(7, 9).map((td) => [td.textContent, td.className])));
      expect(money).toEqual([[["$0.1685", ""], ["$0.5645", ""]], [["$-0.0212", "net-negative"], ["$0.0311", ""]]]);
      const red = await page.locator('#sessions tr[data-session="cc:dearer"] td.net-negative').evaluate((e) => (globalThis as unknown as { getComputedStyle(x: unknown): { color: string } }).getComputedStyle(e).color);
      expect(red).toBe("rgb(179, 38, 30)");
      mkdirSync(OUT_DIR, { recursive: true });
      await page.screenshot({ path: join(OUT_DIR, "dashboard-fixture.png"), fullPage: true });
      expect(await reportRows(page)).toEqual([["compact", "33.3%", "$0.5000", "$1.5000", "$0.0000", "$0.0200", "$0.4800", "25.0×", "—", "0.0%", "10.0%", "40.0%", "90.0%"]]);
      expect([await page.locator("#sessions img").count(), await page.evaluate(() => (globalThis as unknown as { __pwned?: number }).__pwned)]).toEqual([0, undefined]);
      const dots = (cls: string) => page.locator(`#chart circle.${cls}`).evaluateAll((cs) => cs.map((c) => Number(c.getAttribute("data-value"))));
      expect([await dots("original"), await dots("sent")]).toEqual([calls.map((c) => c.tokens_original), calls.map((c) => c.tokens_sent)]);
      expect(await page.locator("#chart polyline").count()).toBe(2);
      expect(seen).toContain(`Bearer fixture-token /admin/sessions/${encodeURIComponent(hostileId)}`);
      // The cache-breaks panel: causes with events, the last events newest first, where each break was.
      const cells = (sel: string) => page.locator(sel).evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll("td")].map((td) => td.textContent)));
      expect(await page.locator("#cache-summary").textContent()).toBe("2 misses in 11 call pairs checked against the provider's usage; Sluice's own steps cost $0.0123");
      expect(await cells("#cache-causes tbody tr")).toEqual([["timestamp_in_prefix", "1", "9000"], ["sluice_step", "1", "4000"]]);
      expect(await cells("#cache-events tbody tr")).toEqual([
        ["9", "sluice_step", "message 4", "4000", "$0.0123", "yes"],
        ["3", "timestamp_in_prefix", "byte 301 of the system prompt", "9000", "\u2014", "yes"],
      ]);
      mkdirSync(OUT_DIR, { recursive: true });
      await page.screenshot({ path: join(OUT_DIR, "dashboard-chart-fixture.png"), fullPage: true });
    } finally {
      server.close();
    }
  }, 60_000);
});
