/**
 * `memory_inject` end to end in workerd (src/session/run-step.ts,
 * src/gateway/decide-forward.ts): session A of a project makes a call, its ledger holds a written
 * summary (inserted as the rewrite level's summarising step leaves it), and its complete alarm
 * (runDurableObjectAlarm) keeps the tier map under the project key. Session B of the same project
 * (same caller, same working directory in the system prompt) forwards exactly the block directly
 * after its first user message, and its second request carries the same bytes at the same place;
 * session C of the project gets nothing (each map goes to one session); off (the default) nothing
 * is written. A session whose first request has no place for the block (Claude Code's own system
 * message after the first user message), a native-mechanism model's session and a measured one
 * forward nothing and leave the map for the next session that can carry it.
 */
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { StateTx } from "../../src/session/state";
import { saveAdditions } from "../../src/session/compaction-ledger";
import { describe, expect, it } from "vitest";
import { hashText } from "../../src/core/hash";
import { estimateTokens } from "../../src/core/tokens/estimate";
import { projectMemoryStub, type MemoryObject } from "../../src/observers/memory-object";
import { validateAnthropicRequest } from "../../tools/emulator/anthropic/validate-request";
import { newTestId, TEST_API_KEY } from "./helpers";
import type { IndexUpdate, OutcomeUpdate } from "../../src/admin/index-update";
import type { PipelineDeps } from "../../src/gateway/compaction-pipeline";
import { E, LITERAL_CONFIG, literalAnthropic, logText, send, sessionStub, statsOf, upstreamBodies } from "./pipeline-harness";

const PATH = "/anthropic/v1/messages";
const RETENTION = 2_592_000;
const INJECT = { ...LITERAL_CONFIG, guarantee_level: "rewrite", memory_retention_seconds: RETENTION, memory_inject: true };
const SUMMARY = "Ran `make a` and `make b`; both passed.";
const text = (b: Uint8Array) => new TextDecoder().decode(b);
const systemIn = (cwd: string) => `You are Claude Code.\n<env>\nWorking directory: ${cwd}\n</env>`;
const vars = (config: Record<string, unknown>) => ({ COMPACTION_CONFIG: JSON.stringify(config), SLUICE_COMPACTION: "0", SLUICE_MEASURE: "0" });
const projectOf = (cwd: string) => `cwd:${hashText(`${hashText(TEST_API_KEY)}\u0000${cwd}`)}`;

/** A short conversation in `cwd` (no tool results: nothing for a tier to edit): `turns` user messages with replies between them. */
const chat = (cwd: string, ...users: string[]) => JSON.stringify({
  model: "claude-sonnet-4-5", max_tokens: 1024, system: systemIn(cwd),
  messages: users.flatMap((u, i) => (i === 0 ? [{ role: "user", content: u }] : [{ role: "assistant", content: `Done: ${users[i - 1]}` }, { role: "user", content: u }])),
});

/** Session A: the literal conversation in `cwd`, a written summary of its two calls in its ledger, then its idle and complete alarms. */
async function sessionA(cwd: string, config: Record<string, unknown>): Promise<string> {
  const session = newTestId("memA");
  const body = { ...literalAnthropic(logText("a", 800), logText("b", 800)), system: systemIn(cwd) };
  await send(vars(config), PATH, { "x-test-id": session, "x-sluice-session": session }, JSON.stringify(body));
  const stub = sessionStub(session);
  await runInDurableObject(stub, (_o, state) => {
    const tx = new StateTx(state.storage.sql);
    saveAdditions(tx, { entries: [{ pair_id: "toolu_A", result_hash: "summary", action: { kind: "summarize", covers: ["toolu_A", "toolu_B"], text: SUMMARY }, step: 1, first_seen_ms: Date.now() }], first_seen: {}, step: null }, null);
    tx.commit();
  });
  expect(await runDurableObjectAlarm(stub)).toBe(true); // idle
  expect(await runDurableObjectAlarm(stub)).toBe(true); // complete
  return session;
}

/** Every index update the pipeline sent (the metrics' source: src/admin/metrics-catalog.ts). */
const updates: IndexUpdate[] = [];
const index = { recordMany: async (u: IndexUpdate[]) => { updates.push(...u); return { ok: true }; } } as unknown as PipelineDeps["index"];
/** The outcome update of the last request of `session`. */
const lastOutcome = (session: string) => updates.filter((u) => u.kind === "outcome" && u.session_id === session).at(-1) as OutcomeUpdate;

/** Sends `body` in session `session`; returns the bytes the upstream received for it (the latest). */
async function forwarded(config: Record<string, unknown>, session: string, body: string): Promise<string> {
  await send(vars(config), PATH, { "x-test-id": session, "x-sluice-session": session }, body, { index });
  const all = await upstreamBodies(session);
  return text(all[all.length - 1]!);
}

/** The block session A's map renders to: its working turn, its one readable reference (the tool; the two commands are hashes, left out), its summary in place of the stretch it covers. */
const EXPECTED_BLOCK = [
  "[sluice: memory of this project's previous session]",
  "Working set: the last 1 turn of the previous session.",
  "Tools and errors of the previous session (most used first):",
  "- tool shell: 2 calls",
  "Archival summaries (oldest first):",
  `- summary of 2 tool calls:\n${SUMMARY}`,
].join("\n");
/** `body` with the block's system message directly after its first user message. */
const withBlock = (body: string, first: string) => body.replace(`{"role":"user","content":${JSON.stringify(first)}}`, `$&,{"role":"system","content":${JSON.stringify(EXPECTED_BLOCK)}}`);

describe("memory_inject", () => {
  it("B's first request carries A's map after its first user message, its second the same bytes at the same place; C gets nothing", async () => {
    const cwd = `/home/dev/${newTestId("inject")}`;
    const a = await sessionA(cwd, INJECT);
    const kept = await projectMemoryStub(E.MEMORY as DurableObjectNamespace<MemoryObject>, projectOf(cwd)).list(Date.now());
    expect([kept.map((e) => e.session_id), kept[0]!.tier_map.summaries, kept[0]!.tier_map.archival]).toEqual([[a], [{ covers: 2, text: SUMMARY }], []]);

    const b = newTestId("memB");
    const b1 = chat(cwd, "Now the lint.");
    const sent1 = await forwarded(INJECT, b, b1);
    expect(sent1).toBe(withBlock(b1, "Now the lint."));
    expect(validateAnthropicRequest(JSON.parse(sent1), { issuedThinking: new Map() })).toBeNull();
    expect(lastOutcome(b).memory_injected_tokens).toBe(estimateTokens(EXPECTED_BLOCK));
    const b2 = chat(cwd, "Now the lint.", "And the tests.");
    const sent2 = await forwarded(INJECT, b, b2);
    expect(sent2).toBe(withBlock(b2, "Now the lint."));
    // The same bytes at the same place: B's first forwarded body, up to its end of history, is a prefix of the second.
    expect(sent2.startsWith(sent1.slice(0, sent1.lastIndexOf("]")))).toBe(true);
    expect([lastOutcome(b).outcome, "memory_injected_tokens" in lastOutcome(b)]).toEqual(["compacted", false]);
    const stats = await statsOf(b);
    expect([stats.counters.memory_injections, stats.counters.memory_block_tokens]).toEqual([1, estimateTokens(EXPECTED_BLOCK)]);

    const c = newTestId("memC");
    const c1 = chat(cwd, "Start over.");
    expect(await forwarded(INJECT, c, c1)).toBe(c1);
    expect((await statsOf(c)).counters.memory_injections).toBeUndefined();
  });

  it("memory_inject false (the default): nothing is written and the map stays unclaimed for a session that asks", async () => {
    const cwd = `/home/dev/${newTestId("noinject")}`;
    const off = { ...INJECT, memory_inject: false };
    await sessionA(cwd, off);
    const b = newTestId("memOff");
    const b1 = chat(cwd, "Now the lint.");
    expect(await forwarded(off, b, b1)).toBe(b1);
    expect((await statsOf(b)).counters.memory_injections).toBeUndefined();
    const d = newTestId("memOn");
    const d1 = chat(cwd, "Now the docs.");
    expect(await forwarded(INJECT, d, d1)).toBe(withBlock(d1, "Now the docs."));
  });

  it("a first request with the client's own system message right after the first user message (Claude Code) goes unchanged and leaves the map; so do a native model's and a measured session's; the next placeable session gets it", async () => {
    const cwd = `/home/dev/${newTestId("noplace")}`;
    await sessionA(cwd, INJECT);
    const b = newTestId("memCC");
    const b1 = JSON.stringify({ model: "claude-sonnet-4-5", max_tokens: 1024, system: systemIn(cwd), messages: [{ role: "user", content: "Now the lint." }, { role: "system", content: "Auto mode is on." }] });
    expect(await forwarded(INJECT, b, b1)).toBe(b1);
    const b2 = JSON.stringify({ ...JSON.parse(b1), messages: [...JSON.parse(b1).messages, { role: "assistant", content: "Linted." }, { role: "user", content: "And the tests." }] });
    expect(await forwarded(INJECT, b, b2)).toBe(b2);
    expect([(await statsOf(b)).counters.memory_injections, "memory_injected_tokens" in lastOutcome(b)]).toEqual([undefined, false]);

    const n = newTestId("memNative");
    const n1 = chat(cwd, "Now the docs.").replace("claude-sonnet-4-5", "claude-opus-5-5");
    expect(await forwarded(INJECT, n, n1)).not.toContain("[sluice: memory");
    expect((await statsOf(n)).counters.memory_injections).toBeUndefined();

    const m = newTestId("memMeasure");
    const m1 = chat(cwd, "Now the build.");
    await send({ ...vars(INJECT), SLUICE_MEASURE: "1" }, PATH, { "x-test-id": m, "x-sluice-session": m }, m1, { index });
    expect(text((await upstreamBodies(m))[0]!)).toBe(m1);
    expect((await statsOf(m)).counters.memory_injections).toBeUndefined();

    const d = newTestId("memNext");
    const d1 = chat(cwd, "Now the release.");
    expect(await forwarded(INJECT, d, d1)).toBe(withBlock(d1, "Now the release."));
    expect((await statsOf(d)).counters.memory_injections).toBe(1);
  });
});
