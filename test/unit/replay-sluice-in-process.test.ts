/**
 * The replay's in-process Sluice host (tools/replay/sluice/): the node:sqlite stand-in for the
 * DO's SqlStorage, and the transform that runs the gateway's own pipeline halves and runStep
 * with the replay's virtual clock — including the alarms a virtual-time gap would have fired.
 * Case: the bundled sample cc-cctrace-opus4 (its second call comes 6,558 s after the first).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { checkGuarantee } from "../../src/core/plan/check-guarantee";
import { SessionStore } from "../../src/do/session-store";
import { adapterFor } from "../../src/providers/registry";
import { SAMPLES_DIR } from "../../tools/demo/run-demo";
import { agentHeaders } from "../../tools/replay/agent-headers";
import { assignCallTimes } from "../../tools/replay/assign-call-times";
import { readSessionText } from "../../tools/replay/read-session-text";
import { createMemorySql } from "../../tools/replay/sluice/create-memory-sql";
import { createInProcessSluice } from "../../tools/replay/sluice/run-in-process";

const enc = (v: unknown) => new TextEncoder().encode(JSON.stringify(v));

describe("createMemorySql (the DO SqlStorage subset over node:sqlite)", () => {
  it("runs a multi-statement schema, bound statements, toArray, iteration and one()", () => {
    const { sql, close } = createMemorySql();
    sql.exec("CREATE TABLE a (k TEXT PRIMARY KEY, v INTEGER NOT NULL); CREATE TABLE b (x REAL);");
    sql.exec("INSERT INTO a (k, v) VALUES (?, ?)", "x", 5);
    sql.exec("INSERT INTO a (k, v) VALUES (?, ?) ON CONFLICT(k) DO UPDATE SET v = v + excluded.v", "x", 2);
    sql.exec("INSERT INTO a (k, v) VALUES (?, ?)", "y", 1);
    expect(sql.exec<{ k: string; v: number }>("SELECT k, v FROM a ORDER BY k").toArray().map((r) => [r.k, r.v])).toEqual([["x", 7], ["y", 1]]);
    expect([...sql.exec<{ v: number }>("SELECT v FROM a WHERE k = ?", "y")].map((r) => r.v)).toEqual([1]);
    expect(sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM b").one().n).toBe(0);
    expect(() => sql.exec("SELECT v FROM a WHERE k = ?", "none").one()).toThrow("Expected exactly one result from SQL query, but got 0.");
    close();
  });

  it("hosts the DO's own SessionStore (schema, meta, counters)", () => {
    const { sql, close } = createMemorySql();
    const store = new SessionStore(sql);
    store.setMeta("calls", 3);
    store.add("requests", 1);
    store.add("requests", 2);
    expect([store.getMeta("calls"), store.getMetaNumber("missing", 9), store.counters()]).toEqual(["3", 9, { requests: 3 }]);
    close();
  });
});

describe("in-process Sluice transform", () => {
  const session = readSessionText(readFileSync(join(SAMPLES_DIR, "cc-cctrace-opus4.json"), "utf8"), "cc-cctrace-opus4.json");
  const times = assignCallTimes(session.calls);
  const headers = agentHeaders("anthropic", "k", "sess-1");

  it("runs the pipeline with virtual time: alarms on a gap, a micro step at call 9 that passes the guarantee check", async () => {
    const host = createInProcessSluice();
    const notes: string[] = [];
    let edited: { original: Uint8Array; sent: Uint8Array } | null = null;
    for (const call of session.calls.slice(0, 10)) {
      const original = enc(call.body);
      const out = await host.transform(original, headers, { provider: "anthropic", session_id: session.id, call_index: call.index, time_ms: times[call.index]! });
      notes.push(out.info.note ?? "");
      if (call.index === 9) edited = { original, sent: out.body };
    }
    expect(times[1]! - times[0]!).toBe(6_558_000 - 437); // the recorded gap (ms)
    // Call 1 arrives after complete_after_seconds (3,600 s): the complete alarm has fired → session_memory.
    expect(notes[1]).toBe("compact; tier=session_memory; step=none; pairs_removed=0; tokens_before=1455; tokens_after=1455");
    // Calls 3–8 are under threshold_tokens (20,000): micro is selected but takes no step.
    expect(notes[3]).toBe("compact; tier=micro; step=none; skipped=under_threshold; pairs_removed=0; tokens_before=10151; tokens_after=10151");
    // tokens_after is the estimate of the bytes actually forwarded (the DO planned 6,618).
    expect(notes[9]).toBe("compact; tier=micro; step=1; pairs_removed=3; tokens_before=21526; tokens_after=6597");
    expect(notes.filter((n) => n.includes("step=none"))).toHaveLength(9);
    expect(edited!.sent.length).toBeLessThan(edited!.original.length);
    expect(checkGuarantee(adapterFor("anthropic")!, edited!.original, edited!.sent)).toMatchObject({ ok: true, violations: [] });
    expect(host.counters("sess-1")).toMatchObject({ requests: 10, compacted: 1, unchanged: 9, alarms_idle: 1, alarms_complete: 1, steps_micro: 1 });
    host.close();
  });

  it("a gap past retention (7 days) starts the session over; the client opt-out header skips it", async () => {
    const host = createInProcessSluice();
    const call0 = session.calls[0]!;
    const at = (time_ms: number, h = headers) => host.transform(enc(call0.body), h, { provider: "anthropic", session_id: session.id, call_index: 0, time_ms });
    await at(1_000);
    await at(2_000);
    expect(host.counters("sess-1")).toMatchObject({ requests: 2 });
    await at(2_000 + 604_800_000);
    expect(host.counters("sess-1")).toEqual({ requests: 1, unchanged: 1, ledger_requests: 1, tokens_original: 347, tokens_sent: 347 });
    const off = await at(3_000 + 604_800_000, { ...headers, "x-sluice-compaction": "off" });
    expect(off.info.note).toBe("off; reason=client_header");
    host.close();
  });
});
