/**
 * Removal without destruction (archive_removed, DESIGN §7) and the session DO's alarms,
 * in workerd. The archive keeps each removed tool result by call id, byte for byte, until the
 * retention alarm; off (the default) it keeps nothing. Alarms run with runDurableObjectAlarm in
 * their scheduled order: idle (marks idle → the next call is time_based), complete (marks
 * complete → the next call is session_memory and stores the tier map), retention (deletes all
 * state; the live instance then serves the session's next call as a new session).
 */
import { runDurableObjectAlarm } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { newTestId } from "./helpers";
import { compactionHeader, compactVars, LITERAL_BODY, LITERAL_CONFIG, literalTwoCalls, logText, manualClock, send, sessionStub, statsOf } from "./pipeline-harness";

const PATH = "/anthropic/v1/messages";

describe("archive_removed", () => {
  it("on: the result the step removed is retrievable by call id, byte for byte; a kept one is not archived", async () => {
    const r = await literalTwoCalls(compactVars({ ...LITERAL_CONFIG, archive_removed: true }));
    expect([r.header.step, r.header.pairs_removed]).toEqual(["1", "1"]);
    const stub = sessionStub(r.session);
    expect(await stub.getArchive("toolu_A")).toBe(logText("a", 800));
    expect(await stub.getArchive("toolu_B")).toBeNull();
  });

  it("off (default): nothing is archived", async () => {
    const r = await literalTwoCalls(compactVars(LITERAL_CONFIG));
    expect([r.header.step, r.header.pairs_removed]).toEqual(["1", "1"]);
    expect(await sessionStub(r.session).getArchive("toolu_A")).toBeNull();
  });
});

describe("alarms", () => {
  it("idle marks idle, complete marks complete; the next call is session_memory and stores the tier map", async () => {
    const session = newTestId("alarms");
    const clock = manualClock();
    const headers = { "x-test-id": session, "x-sluice-session": session };
    const vars = compactVars(LITERAL_CONFIG);
    await send(vars, PATH, headers, LITERAL_BODY, { now: clock.now });
    const stub = sessionStub(session);
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    let s = await statsOf(session);
    expect({ idle: s.idle, complete: s.complete, alarms_idle: s.counters.alarms_idle, alarms_complete: s.counters.alarms_complete }).toEqual({ idle: true, complete: false, alarms_idle: 1, alarms_complete: undefined });
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    s = await statsOf(session);
    expect({ idle: s.idle, complete: s.complete, alarms_idle: s.counters.alarms_idle, alarms_complete: s.counters.alarms_complete }).toEqual({ idle: true, complete: true, alarms_idle: 1, alarms_complete: 1 });
    expect(await stub.memory()).toBeNull();

    clock.advance(11_000); // the next call, 11 s later
    const { res } = await send(vars, PATH, headers, LITERAL_BODY, { now: clock.now });
    expect(compactionHeader(res).tier).toBe("session_memory");
    s = await statsOf(session);
    expect({ last_tier: s.last_tier, idle: s.idle, complete: s.complete, calls: s.calls }).toEqual({ last_tier: "session_memory", idle: false, complete: false, calls: 2 });
    expect(await stub.memory()).not.toBeNull();
  });

  it("retention deletes the session's state (archive included); the session's next call starts afresh", async () => {
    const r = await literalTwoCalls(compactVars({ ...LITERAL_CONFIG, archive_removed: true }));
    const stub = sessionStub(r.session);
    expect(r.stats.calls).toBe(2);
    expect(await stub.getArchive("toolu_A")).toBe(logText("a", 800));
    // idle → complete → retention, in scheduled order.
    for (let i = 0; i < 3; i++) expect(await runDurableObjectAlarm(stub)).toBe(true);
    const gone = await statsOf(r.session);
    expect({ calls: gone.calls, counters: gone.counters, steps: gone.steps, calls_log: gone.calls_log, session_id: gone.session_id }).toEqual({ calls: 0, counters: {}, steps: [], calls_log: [], session_id: null });
    expect(await stub.getArchive("toolu_A")).toBeNull();
    expect(await runDurableObjectAlarm(stub)).toBe(false);

    const again = await send(compactVars(LITERAL_CONFIG), PATH, { "x-test-id": newTestId("after-retention"), "x-sluice-session": r.session }, LITERAL_BODY);
    expect(compactionHeader(again.res).mode).toBe("compact");
    const fresh = await statsOf(r.session);
    expect({ calls: fresh.calls, requests: fresh.counters.requests, steps: fresh.steps }).toEqual({ calls: 1, requests: 1, steps: [] });
  });
});
