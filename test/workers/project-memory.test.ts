/**
 * Project memory (DESIGN §7; src/observers/project-memory.ts, src/observers/memory-object.ts) in workerd: with
 * `memory_retention_seconds` on, the complete alarm (fired with runDurableObjectAlarm, no later
 * request) keeps the session's tier map under its project key; the map outlives the session's
 * retention deletion; GET /admin/memory/:project returns and filters it; off (the default)
 * nothing is kept; the MemoryObject's alarm deletes expired maps.
 */
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { hashText } from "../../src/core/hash";
import { projectMemoryStub, type MemoryObject } from "../../src/observers/memory-object";
import { newTestId, TEST_API_KEY } from "./helpers";
import { E, LITERAL_CONFIG, literalAnthropic, logText, send, sessionStub, statsOf } from "./pipeline-harness";
import { AUTH, adminAppFor, envWith } from "./admin-seed";

const PATH = "/anthropic/v1/messages";
const RETENTION = 2_592_000;
const utf8 = (s: string) => new TextEncoder().encode(s);
/** The literal conversation, under a Claude Code system prompt naming `cwd`, opened by `first`. */
const bodyIn = (cwd: string, first: string) => {
  const b = literalAnthropic(logText("a", 800), logText("b", 800)) as { messages: { role: string; content: unknown }[] };
  b.messages[0] = { role: "user", content: first };
  return utf8(JSON.stringify({ ...b, system: `You are Claude Code.\n<env>\nWorking directory: ${cwd}\n</env>` }));
};
/** The project key a caller with TEST_API_KEY gets in `cwd` (src/gateway/project-key.ts). */
const projectOf = (cwd: string) => `cwd:${hashText(`${hashText(TEST_API_KEY)}\u0000${cwd}`)}`;
const memoryOf = (project: string) => projectMemoryStub(E.MEMORY as DurableObjectNamespace<MemoryObject>, project);

/** One request in a new session, then its idle and complete alarms. Returns the session id. */
async function completedSession(config: Record<string, unknown>, body: Uint8Array): Promise<string> {
  const session = newTestId("projmem");
  await send({ COMPACTION_CONFIG: JSON.stringify(config), SLUICE_COMPACTION: "0", SLUICE_MEASURE: "0" }, PATH, { "x-test-id": session, "x-sluice-session": session }, body);
  const stub = sessionStub(session);
  expect(await runDurableObjectAlarm(stub)).toBe(true); // idle
  expect(await runDurableObjectAlarm(stub)).toBe(true); // complete
  return session;
}

/** The literal conversation's reference index: its two commands (keyed by the hash of `sh:<command>`, as the step facts carry them) and the tool. */
const REFERENCE_KEYS = [`command:${hashText("sh:make a")}`, `command:${hashText("sh:make b")}`, "tool:shell"].sort();

describe("project memory", () => {
  it("the complete alarm keeps the tier map under the project key; it survives the session's retention; a second session of the project adds its own", async () => {
    const cwd = `/home/dev/${newTestId("shop")}`;
    const config = { ...LITERAL_CONFIG, memory_retention_seconds: RETENTION };
    const before = Date.now();
    const s1 = await completedSession(config, bodyIn(cwd, "Run the checks."));
    const after = Date.now();
    const kept = await memoryOf(projectOf(cwd)).list(Date.now());
    expect(kept.map((e) => e.session_id)).toEqual([s1]);
    const e = kept[0]!;
    expect(e.built_at_ms).toBeGreaterThanOrEqual(before);
    expect(e.built_at_ms).toBeLessThanOrEqual(after);
    expect(e.expires_at_ms - e.built_at_ms).toBe(RETENTION * 1000);
    expect(Object.keys(e.tier_map.reference)).toEqual(REFERENCE_KEYS);
    expect(e.tier_map.reference["tool:shell"]).toEqual({ kind: "tool", key: "shell", pair_ids: ["toolu_A", "toolu_B"], first_message: 1, last_message: 3, count: 2 });
    expect(e.tier_map.working).toEqual({ from_message: 6, from_turn: 3, turns: 1 });
    expect(e.tier_map.archival.map((a) => [a.from_turn, a.to_turn, a.tool_calls, a.tool_counts, a.errors])).toEqual([[0, 2, 2, { shell: 2 }, 0]]);
    // The session's own map is the same one, and the alarm counted what it kept.
    expect(await sessionStub(s1).memory()).toEqual(e.tier_map);
    const stats = await statsOf(s1);
    expect([stats.counters.project_memory_kept, stats.project_key]).toEqual([1, projectOf(cwd)]);

    // Retention deletes the session's state; the project's map stays.
    expect(await runDurableObjectAlarm(sessionStub(s1))).toBe(true);
    expect(await sessionStub(s1).memory()).toBeNull();
    expect((await statsOf(s1)).session_id).toBeNull();
    expect((await memoryOf(projectOf(cwd)).list(Date.now())).map((x) => x.session_id)).toEqual([s1]);

    // Another conversation of the same caller in the same directory: the same project, newest first.
    const s2 = await completedSession(config, bodyIn(cwd, "Now the lint."));
    expect((await memoryOf(projectOf(cwd)).list(Date.now())).map((x) => x.session_id)).toEqual([s2, s1]);
  });

  it("off by default: the complete alarm keeps nothing", async () => {
    const cwd = `/home/dev/${newTestId("off")}`;
    const s = await completedSession(LITERAL_CONFIG, bodyIn(cwd, "Run the checks."));
    expect(await memoryOf(projectOf(cwd)).list(Date.now())).toEqual([]);
    expect(await sessionStub(s).memory()).toBeNull();
    const stats = await statsOf(s);
    expect([stats.counters.project_memory_kept, stats.project_key]).toEqual([undefined, null]);
  });

  it("GET /admin/memory/:project returns the maps and filters the reference index; 400 for a malformed key, 404 for an unknown project", async () => {
    const cwd = `/home/dev/${newTestId("admin")}`;
    const s = await completedSession({ ...LITERAL_CONFIG, memory_retention_seconds: RETENTION }, bodyIn(cwd, "Run the checks."));
    const app = adminAppFor("idx-projmem");
    const get = (path: string) => app.request(path, { headers: AUTH }, envWith());
    const project = projectOf(cwd);
    const all = await get(`/admin/memory/${project}`);
    expect(all.status).toBe(200);
    const body = (await all.json()) as { project: string; maps: { session_id: string; tier_map: { reference: Record<string, unknown> }; search: unknown }[] };
    expect([body.project, body.maps.map((m) => m.session_id), Object.keys(body.maps[0]!.tier_map.reference), body.maps[0]!.search]).toEqual([project, [s], REFERENCE_KEYS, null]);
    const hit = (await (await get(`/admin/memory/${project}?q=SHE&kind=tool`)).json()) as { maps: { search: { total: number; matches: { key: string }[] } }[] };
    expect([hit.maps[0]!.search.total, hit.maps[0]!.search.matches.map((m) => m.key)]).toEqual([1, ["shell"]]);
    const command = (await (await get(`/admin/memory/${project}?q=${encodeURIComponent("make b")}&kind=command`)).json()) as { maps: { search: { total: number; matches: { key: string; pair_ids: string[] }[] } }[] };
    expect(command.maps[0]!.search.matches.map((m) => [m.key, m.pair_ids])).toEqual([[hashText("sh:make b"), ["toolu_B"]]]);
    const miss = (await (await get(`/admin/memory/${project}?q=python`)).json()) as { maps: { search: { total: number } }[] };
    expect(miss.maps[0]!.search.total).toBe(0);
    expect((await get(`/admin/memory/${project}?kind=prose`)).status).toBe(400);
    expect((await get("/admin/memory/not-a-key")).status).toBe(400);
    const unknown = await get(`/admin/memory/cwd:${"0".repeat(16)}`);
    expect([unknown.status, ((await unknown.json()) as { error: { type: string } }).error.type]).toEqual([404, "memory_not_found"]);
    expect((await app.request(`/admin/memory/${project}`, {}, envWith())).status).toBe(401);
  });

  it("the MemoryObject's alarm deletes expired maps and keeps the rest", async () => {
    const stub = memoryOf(`cwd:${hashText(newTestId("expiry"))}`);
    const map = { working: { from_message: 0, from_turn: 0, turns: 1 }, reference: {}, archival: [] };
    const now = Date.now();
    await stub.put({ session_id: "old", built_at_ms: now - 2_000, expires_at_ms: now - 1_000, tier_map: map });
    await stub.put({ session_id: "live", built_at_ms: now, expires_at_ms: now + 3_600_000, tier_map: map });
    // The first put set the alarm in the past, so workerd may already have run it: either way the
    // expired row is gone and the alarm is then set to the live row's expiry.
    await runDurableObjectAlarm(stub);
    const [rows, alarm] = await runInDurableObject(stub, async (_o, state) => [
      state.storage.sql.exec<{ session_id: string }>("SELECT session_id FROM maps ORDER BY session_id").toArray().map((r) => r.session_id),
      await state.storage.getAlarm(),
    ] as const);
    expect(rows).toEqual(["live"]);
    expect(alarm).toBe(now + 3_600_000);
  });
});
