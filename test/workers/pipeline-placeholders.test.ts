/**
 * Guarantee level `placeholders` through the Worker (workerd, the session DO, the upstream stub):
 * the body the upstream gets is the `strict` body with exactly the documented marker after the
 * cut result's kept head, naming the restore id (session id / call id) when `archive_removed` is on; the marker's bytes
 * are the same on the session's next request (the prefix stays cacheable).
 */
import { describe, expect, it } from "vitest";
import { compactVars, LITERAL_BODY, LITERAL_CONFIG, literalTwoCalls, manualClock, send, upstreamBodies } from "./pipeline-harness";
import { newTestId } from "./helpers";

const dec = new TextDecoder();
/**
 * The literal conversation's second call comes after a 400 s pause (the time_based tier). With the
 * default age cutoff (the idle gap) it drops toolu_A whole, which takes no marker; a one-hour
 * cutoff makes it cut toolu_A's result instead, the case a marker stands for.
 */
const CONFIG = { ...LITERAL_CONFIG, time_based_age_seconds: 3_600 };
const MARKER = "\\n[sluice: rest of tool result removed]";
const ARCHIVED = (session: string) => `\\n[sluice: rest of tool result removed; restore_tool_result(\\"${session}/toolu_A\\")]`;

describe("guarantee_level placeholders", () => {
  it("forwards the strict body plus one marker where toolu_A's result was cut; strict writes none", async () => {
    const strict = await literalTwoCalls(compactVars(CONFIG));
    const marked = await literalTwoCalls(compactVars({ ...CONFIG, guarantee_level: "placeholders" }));
    const archived = await literalTwoCalls(compactVars({ ...CONFIG, guarantee_level: "placeholders", archive_removed: true }));
    const s = dec.decode(strict.forwarded);
    expect(s).not.toContain("[sluice:");
    expect([strict.header.step, marked.header.step, archived.header.step]).toEqual(["1", "1", "1"]);
    // The cut result's content ends right before `"}` of its tool_result block in the strict body.
    const at = s.indexOf('"tool_use_id":"toolu_A"');
    const end = s.indexOf('"}', s.indexOf('"content":"', at) + 11);
    expect(dec.decode(marked.forwarded)).toBe(s.slice(0, end) + MARKER + s.slice(end));
    expect(dec.decode(archived.forwarded)).toBe(s.slice(0, end) + ARCHIVED(archived.session) + s.slice(end));
  });

  it("re-applies the same marker bytes on the next request of the session", async () => {
    const session = newTestId("placeholders-sticky");
    const clock = manualClock();
    const vars = compactVars({ ...CONFIG, guarantee_level: "placeholders" });
    const headers = { "x-test-id": session, "x-sluice-session": session };
    for (let i = 0; i < 3; i++) {
      await send(vars, "/anthropic/v1/messages", headers, LITERAL_BODY, { now: clock.now });
      clock.advance(i === 0 ? 400_000 : 10_000);
    }
    const bodies = (await upstreamBodies(session)).map((b) => dec.decode(b));
    expect(bodies[1]).toContain(MARKER);
    expect(bodies[2]).toBe(bodies[1]);
  });
});
