/**
 * Admin session routes in workerd over SessionObject + SessionIndex state seeded through their
 * RPCs (admin-seed.ts): list and totals, stats, memory and key search, archive byte for byte,
 * the kill switch (effective on the next step), and a grep that no admin answer or metric
 * carries text from the seeded requests.
 */
import { hashText } from "../../src/core/hash";
import { StateTx } from "../../src/session/state";
import { MEMORY } from "../../src/session/session-record";
import { configHash, type StepOutput } from "../../src/session/contract";
import { encodeStepFacts } from "../../src/core/facts/wire-facts";
import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { SessionSummary } from "../../src/admin/summarize-index";
import { loadConfig } from "../../src/config/load-config";
import { buildTierMap } from "../../src/core/memory/build-tier-map";
import type { SessionObject } from "../../src/session/session-object";
import type { SessionStats } from "../../src/session/session";
import { parseExposition, valueOf } from "../support/parse-exposition";
import { ARCHIVED_TEXT, AUTH, CALLS, FAIL_OPEN, MARKERS, USAGE, adminAppFor, envWith, seedFacts, seedSession, sessionStub } from "./admin-seed";

const get = (app: ReturnType<typeof adminAppFor>, path: string, extra: Record<string, unknown> = {}) => app.request(path, { headers: AUTH }, envWith(extra));
/** The 404 message of a session id the gateway never saw (src/http/routes/admin.ts). */
const UNKNOWN_MESSAGE = "no state is held for this session id: the gateway has not seen it (ids are listed by GET /admin/sessions)";
const SAVED = CALLS[0].tokens_original - CALLS[0].tokens_sent;
/** USD the session DO prices the first call's saving at: no usage reported yet → the cache-read price, $0.30/Mtok (claude-sonnet-4 row). */
const USD = (SAVED / 1e6) * 0.3;

describe("admin sessions", () => {
  it("lists sessions with totals equal to what was seeded", async () => {
    const recorded = await seedSession("adm-list-1", "idx-list");
    expect(recorded).toEqual([{ calls: 1, tokens_saved: SAVED, usd_saved: USD }, { calls: 2, tokens_saved: 0, usd_saved: 0 }]);
    const res = await get(adminAppFor("idx-list"), "/admin/sessions");
    const body = (await res.json()) as { totals: unknown; sessions: SessionSummary[] };
    const tokensOriginal = CALLS[0].tokens_original + CALLS[1].tokens_original + FAIL_OPEN.tokens;
    const tokensSent = CALLS[0].tokens_sent + CALLS[1].tokens_sent + FAIL_OPEN.tokens;
    const hit = USAGE.cache_read_input_tokens / (USAGE.input_tokens + USAGE.cache_read_input_tokens + USAGE.cache_creation_input_tokens);
    expect(body.totals).toEqual({ sessions: 1, requests: 3, compacted: 1, fail_open: 1, tokens_original: tokensOriginal, tokens_sent: tokensSent, tokens_saved: SAVED, usd_saved: USD, cache_hit_ratio: hit, ledger_saved_usd: 0 });
    const { last_activity_ms, ...row } = body.sessions[0]!;
    expect(row).toEqual({
      id: "adm-list-1", label: "x-sluice-session adm-list-1 · claude-sonnet-4-5", provider: "anthropic", model: "claude-sonnet-4-5", turns: 2, calls: 2, requests: 3, compacted: 1, fail_open: 1,
      tokens_original: tokensOriginal, tokens_sent: tokensSent, tokens_saved: SAVED, usd_saved: USD, net_usd_saved: 0, cache_hit_ratio: hit,
      last_tier: "none", last_outcome: "fail_open", disabled: false,
    });
    expect(Math.abs(Date.now() - last_activity_ms!)).toBeLessThan(60_000);
    expect((await get(adminAppFor("idx-list"), "/admin/sessions?limit=0")).status).toBe(400);
  });

  it("a session's stats: counters, calls_log, cache hit ratio, calibration", async () => {
    await seedSession("adm-stats-1", "idx-stats");
    const res = await get(adminAppFor("idx-stats"), "/admin/sessions/adm-stats-1");
    const { session, index } = (await res.json()) as { session: SessionStats; index: SessionSummary };
    expect(session.calls_log.map(({ at_ms: _a, ...c }) => c)).toEqual([
      { seq: 1, tokens_original: 52_000, tokens_sent: 31_500, tier: "micro", outcome: "compacted" },
      { seq: 2, tokens_original: 53_000, tokens_sent: 53_000, tier: "micro", outcome: "unchanged" },
    ]);
    expect([session.session_id, session.model, session.provider, session.calls, session.disabled]).toEqual(["adm-stats-1", "claude-sonnet-4-5", "anthropic", 2, false]);
    expect(session.counters).toMatchObject({ requests: 2, compacted: 1, unchanged: 1, fail_open_do_timeout: 1, tokens_saved: SAVED, usd_saved: USD, usage_cache_read_input_tokens: 30_000 });
    expect([session.cache_hit_ratio, session.calibration_ratio]).toEqual([30_000 / 31_500, 31_500 / 31_500]);
    expect(index.id).toBe("adm-stats-1");
    const missing = await get(adminAppFor("idx-stats"), "/admin/sessions/never-seen-session");
    expect([missing.status, await missing.json()]).toEqual([404, { error: { type: "session_not_found", message: UNKNOWN_MESSAGE } }]);
  });

  it("memory: 404 before a tier map, then the map and a key search over the reference index", async () => {
    const app = adminAppFor("idx-mem");
    await seedSession("adm-mem-1", "idx-mem");
    const before = await get(app, "/admin/sessions/adm-mem-1/memory");
    expect(before.status).toBe(404);
    const map = buildTierMap(seedFacts(), 1);
    await runInDurableObject(sessionStub("adm-mem-1"), (_i: SessionObject, state) => {
      const tx = new StateTx(state.storage.sql);
      tx.set(MEMORY, map);
      tx.commit();
    });
    const all = (await (await get(app, "/admin/sessions/adm-mem-1/memory")).json()) as { tier_map: unknown; search: unknown };
    expect(all).toEqual({ session_id: "adm-mem-1", tier_map: map, search: null });
    // A path is found by its exact text (the map keys it by hash: src/core/facts/step-facts.ts).
    const found = await (await get(app, "/admin/sessions/adm-mem-1/memory?q=src%2Fseed%2Fapp.ts")).json();
    expect(found).toEqual({ session_id: "adm-mem-1", tier_map: map, search: { q: "src/seed/app.ts", kind: null, total: 1, matches: [{ kind: "path", key: hashText("src/seed/app.ts"), pair_ids: ["toolu_read"], first_message: 1, last_message: 1, count: 1 }] } });
    const errors = (await (await get(app, "/admin/sessions/adm-mem-1/memory?q=fail&kind=error")).json()) as { search: { matches: { key: string }[] } };
    expect(errors.search.matches.map((m) => m.key)).toEqual(["Error: build failed"]);
    const bad = await get(app, "/admin/sessions/adm-mem-1/memory?kind=prose");
    expect([bad.status, await bad.json()]).toEqual([400, { error: { type: "bad_request", field: "kind", message: "kind must be one of path, command, error, tool" } }]);
  });

  it("archive: byte for byte when archive_removed is on; 404 when off or absent", async () => {
    const app = adminAppFor("idx-arch");
    await seedSession("adm-arch-1", "idx-arch");
    const on = { COMPACTION_CONFIG: '{"archive_removed": true}' };
    const res = await get(app, "/admin/sessions/adm-arch-1/archive/toolu_read", on);
    expect([res.status, res.headers.get("content-type")]).toEqual([200, "text/plain; charset=utf-8"]);
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect(ARCHIVED_TEXT.length).toBeGreaterThan(64 * 1024);
    expect(bytes).toEqual(new TextEncoder().encode(ARCHIVED_TEXT));
    const absent = await get(app, "/admin/sessions/adm-arch-1/archive/toolu_other", on);
    expect([absent.status, await absent.json()]).toEqual([404, { error: { type: "archive_not_found", message: "nothing archived under this call id" } }]);
    const off = await get(app, "/admin/sessions/adm-arch-1/archive/toolu_read");
    expect([off.status, await off.json()]).toEqual([404, { error: { type: "archive_off", message: "archive_removed is off: removed results are not kept" } }]);
  });

  it("kill switch: disable is effective on the next request's step; enable restores it", async () => {
    const app = adminAppFor("idx-kill");
    await seedSession("adm-kill-1", "idx-kill");
    const post = (action: string) => app.request(`/admin/sessions/adm-kill-1/${action}`, { method: "POST", headers: AUTH }, envWith());
    expect(await (await post("disable")).json()).toEqual({ session_id: "adm-kill-1", disabled: true });
    const config = loadConfig({ SLUICE_COMPACTION: "1" });
    if (!config.ok) throw new Error("config");
    const step = async () => (await sessionStub("adm-kill-1").step({ session_id: "adm-kill-1", facts: encodeStepFacts(seedFacts()), config_hash: configHash(config.config), config: config.config, mode: "compact", correlation_id: "next", now_ms: Date.now() })) as StepOutput;
    const off = await step();
    expect([off.disabled, off.plan, off.step]).toEqual([true, { actions: {} }, null]);
    const listed = (await (await get(app, "/admin/sessions")).json()) as { sessions: SessionSummary[] };
    expect(listed.sessions.map((s) => [s.id, s.disabled])).toEqual([["adm-kill-1", true]]);
    expect(((await (await get(app, "/admin/sessions/adm-kill-1")).json()) as { session: SessionStats }).session.counters.disabled_requests).toBe(1);
    expect(await (await post("enable")).json()).toEqual({ session_id: "adm-kill-1", disabled: false });
    expect((await step()).disabled).toBe(false);
  });

  it("a session the gateway never saw: every per-session route answers 404, and disable/enable create nothing (a mistyped id makes no phantom session)", async () => {
    const app = adminAppFor("idx-pre");
    const answers = [];
    for (const [method, path] of [["GET", ""], ["GET", "/cache"], ["POST", "/disable"], ["POST", "/enable"]] as const) {
      const res = await app.request(`/admin/sessions/cc%3Afresh%2Fone${path}`, { method, headers: AUTH }, envWith());
      answers.push([method, path, res.status, await res.json()]);
    }
    const body = { error: { type: "session_not_found", message: UNKNOWN_MESSAGE } };
    expect(answers).toEqual([["GET", "", 404, body], ["GET", "/cache", 404, body], ["POST", "/disable", 404, body], ["POST", "/enable", 404, body]]);
    const listed = (await (await get(app, "/admin/sessions")).json()) as { sessions: SessionSummary[] };
    expect(listed.sessions).toEqual([]);
    const stats = await runInDurableObject(sessionStub("cc:fresh/one"), (o: SessionObject) => o.stats());
    expect([stats.session_id, stats.disabled, stats.counters]).toEqual([null, false, {}]);
  });

  it("no admin answer or metric contains text from the seeded requests (archive aside, by design)", async () => {
    const app = adminAppFor("idx-grep");
    await seedSession("adm-grep-1", "idx-grep");
    await runInDurableObject(sessionStub("adm-grep-1"), (_i: SessionObject, state) => {
      const tx = new StateTx(state.storage.sql);
      tx.set(MEMORY, buildTierMap(seedFacts(), 1));
      tx.commit();
    });
    const paths = ["/admin/sessions", "/admin/sessions/adm-grep-1", "/admin/sessions/adm-grep-1/memory", "/admin/sessions/adm-grep-1/memory?q=e",
      "/admin/metrics", "/admin/audit", "/admin/audit/verify", "/admin/dashboard", "/admin/dashboard.js", "/admin/dashboard.css"];
    const bodies: string[] = [];
    for (const p of paths) {
      const res = await get(app, p, { COMPACTION_CONFIG: '{"archive_removed": true}' });
      expect([p, res.status]).toEqual([p, 200]);
      bodies.push(`${[...res.headers].join("\n")}\n${new TextDecoder().decode(await res.arrayBuffer())}`);
    }
    const archived = await get(app, "/admin/sessions/adm-grep-1/archive/toolu_read", { COMPACTION_CONFIG: '{"archive_removed": true}' });
    expect(await archived.text()).toContain(MARKERS.archived); // the markers are findable where text is expected
    const all = bodies.join("\n");
    for (const m of Object.values(MARKERS)) expect(all).not.toContain(m);
    for (const prose of ["Please fix", "Looking.", "export const value"]) expect(all).not.toContain(prose);
    const metrics = parseExposition(bodies[4]!.slice(bodies[4]!.indexOf("# HELP")));
    expect(valueOf(metrics, "sluice_fail_open_total", { reason: "do_timeout" })).toBe(1);
  });
});
