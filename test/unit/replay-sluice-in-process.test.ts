/**
 * The replay's in-process Sluice host (tools/replay/sluice/): the node:sqlite stand-in for the
 * DO's SqlStorage, and the transform that runs the gateway's own pipeline halves and the
 * deployed Session (src/session/session.ts) with the replay's virtual clock — including the alarms a virtual-time gap would have fired.
 * Case: the bundled sample cc-cctrace-opus4 (its second call comes 6,558 s after the first).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { checkGuarantee } from "../../src/core/plan/check-guarantee";
import { SessionDb, StateTx } from "../../src/session/state";
import { RECORD } from "../../src/session/session-record";
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

  it("hosts the session's own database (its tables, a typed slot, counters) across units of work", async () => {
    const { sql, close } = createMemorySql();
    const db = new SessionDb(sql);
    await db.run((tx) => {
      tx.update(RECORD, { calls: 3 });
      tx.add("reports", 1);
      tx.add("reports", 2);
    });
    const next = new StateTx(sql);
    expect([next.get(RECORD).calls, next.counters()]).toEqual([3, { reports: 3 }]);
    close();
  });
});

describe("in-process Sluice transform", () => {
  const session = readSessionText(readFileSync(join(SAMPLES_DIR, "cc-cctrace-opus4.json"), "utf8"), "cc-cctrace-opus4.json");
  const times = assignCallTimes(session.calls);
  const headers = agentHeaders("anthropic", "k", "sess-1");

  it("runs the pipeline with virtual time: alarms on a gap, no warm step that pays, a session_memory step at call 56 that passes the guarantee check", async () => {
    const host = createInProcessSluice();
    const notes: string[] = [];
    let edited: { original: Uint8Array; sent: Uint8Array } | null = null;
    for (const call of session.calls.slice(0, 57)) {
      const original = enc(call.body);
      const out = await host.transform(original, headers, { provider: "anthropic", session_id: session.id, call_index: call.index, time_ms: times[call.index]! });
      await out.settle?.(null);
      notes.push(out.info.note ?? "");
      if (call.index === 56) edited = { original, sent: out.body };
    }
    expect(times[1]! - times[0]!).toBe(6_558_000 - 437); // the recorded gap (ms)
    // Call 1 arrives after complete_after_seconds (3,600 s): the complete alarm has fired → session_memory.
    expect(notes[1]).toBe("compact; tier=session_memory; step=none; pairs_removed=0; tokens_before=1455; tokens_after=1455");
    // Calls 2–5: micro is selected (threshold_tokens is 0 by default: no size gate), but no old result is a candidate yet.
    expect(notes[3]).toBe("compact; tier=micro; step=none; skipped=no_candidates; pairs_removed=0; tokens_before=10151; tokens_after=10151");
    // Calls 7–55: a candidate, but the step would not pay. The step rewrites the whole prompt (its first edit lies
    // beyond the 20-block look-back of the last breakpoint: src/core/cost/cache-reach.ts), the files the agent
    // read stay (its working set: src/core/engine/file-views.ts), and R is the seed prior at q = 0.1 with the
    // default floor 2 (1 + ⌊n/9⌋: 2 at call 9, 7 at call 55; src/core/cost/estimate-remaining-calls.ts): what may
    // go never pays for the rewrite while the cache is warm.
    expect(notes[7]).toBe("compact; tier=micro; step=none; skipped=not_positive; pairs_removed=0; tokens_before=19332; tokens_after=19332");
    expect(notes[8]).toBe("compact; tier=micro; step=none; skipped=not_positive; pairs_removed=0; tokens_before=19703; tokens_after=19703");
    expect(notes.slice(7, 56).every((n) => n.includes("skipped=not_positive"))).toBe(true);
    // Call 56 follows a 4 h 22 min pause: the complete alarm has fired, the cache is cold, the step writes nothing extra.
    // tokens_after is the estimate of the bytes actually forwarded.
    expect(notes[56]).toBe("compact; tier=session_memory; step=1; pairs_removed=18; tokens_before=46426; tokens_after=25582");
    expect(notes.filter((n) => n.includes("step=none"))).toHaveLength(56);
    expect(edited!.sent.length).toBeLessThan(edited!.original.length);
    expect(checkGuarantee(adapterFor("anthropic")!, edited!.original, edited!.sent)).toMatchObject({ ok: true, violations: [] });
    expect(await host.counters("sess-1")).toMatchObject({ reports: 57, compacted: 1, unchanged: 56, alarms_idle: 2, alarms_complete: 2, steps_session_memory: 1 });
    host.close();
  });

  it("a gap past retention (7 days) starts the session over; the client opt-out header skips it", async () => {
    const host = createInProcessSluice();
    const call0 = session.calls[0]!;
    const at = async (time_ms: number, h = headers) => {
      const out = await host.transform(enc(call0.body), h, { provider: "anthropic", session_id: session.id, call_index: 0, time_ms });
      await out.settle?.(null);
      return out;
    };
    await at(1_000);
    await at(2_000);
    expect(await host.counters("sess-1")).toMatchObject({ reports: 2 });
    await at(2_000 + 604_800_000);
    expect(await host.counters("sess-1")).toEqual({ requests: 1, reports: 1, unchanged: 1, ledger_requests: 1, tokens_original: 347, tokens_sent: 347, request_tokens_estimated: 347 });
    const off = await at(3_000 + 604_800_000, { ...headers, "x-sluice-compaction": "off" });
    expect(off.info.note).toBe("off; reason=client_header");
    host.close();
  });
});

describe("in-process Sluice transform: the answer's usage calibrates the next note", () => {
  const session = readSessionText(readFileSync(join(SAMPLES_DIR, "cc-cctrace-opus4.json"), "utf8"), "cc-cctrace-opus4.json");
  it("settle records the usage as the Worker's tap does; the next note is calibrated on it", async () => {
    const host = createInProcessSluice();
    const headers = agentHeaders("anthropic", "k", "sess-cal");
    const at = (k: number) => host.transform(enc(session.calls[k]!.body), headers, { provider: "anthropic", session_id: session.id, call_index: k, time_ms: 1_000 + k * 1_000 });
    const first = await at(0);
    await first.settle!({ input: 300, cache_read: 600, cache_write: 0, output: 5 });
    const second = await at(1);
    expect(first.info.note).toBe("compact; tier=none; step=none; pairs_removed=0; tokens_before=347; tokens_after=347");
    // 900 reported for 347 estimated: 900 + 900/347 × (1455 − 347) = 3,773.8 → 3,774.
    expect(second.info.note).toBe("compact; tier=micro; step=none; skipped=no_candidates; pairs_removed=0; tokens_before=3774; tokens_after=3774; estimated_tokens_before=1455; estimated_tokens_after=1455");
    expect(await host.counters("sess-cal")).toMatchObject({ usage_reports: 1, usage_input_tokens: 300, usage_cache_read_input_tokens: 600 });
    host.close();
  });
});
