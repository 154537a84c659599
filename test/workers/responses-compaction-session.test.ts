/**
 * Once the provider manages a session's history, Sluice stands aside for the rest of the session
 * (src/session/session-record.ts SERVER_MANAGED, src/session/run-step.ts): the first Responses
 * request carrying a `compaction` item (Codex puts the encrypted item it got from
 * `/responses/compact` or a `compaction_trigger` turn at the head of later inputs) is recorded,
 * and every later request of the session goes upstream as the client's exact bytes, even one
 * without the item. The control: the same requests without the compaction request in between
 * take a step.
 */
import { describe, expect, it } from "vitest";
import type { PipelineDeps } from "../../src/gateway/compaction-pipeline";
import { parseExposition, valueOf } from "../support/parse-exposition";
import { AUTH, adminAppFor, envWith, indexStub } from "./admin-seed";
import { newTestId } from "./helpers";
import { literalResponsesInput, logText, sessionCalls, statsOf } from "./pipeline-harness";

const PATH = "/openai/v1/responses";
const HISTORY = literalResponsesInput(logText("a", 800), logText("b", 800));
const COMPACTION = { type: "compaction", id: "cmp_1", encrypted_content: "gAAAAABo-opaque-summary" };
const body = (input: unknown[]) => JSON.stringify({ model: "gpt-6.2-sol", input, store: false, prompt_cache_key: "k" });
/** `bodies` in one new session (with `deps` of the pipeline), 2,000 s apart (past the 30-minute cache TTL of gpt-6.2-sol: a time_based step pays). */
const session = (bodies: string[], deps: Partial<PipelineDeps> = {}) => sessionCalls(PATH, bodies, 2_000_000, {}, deps);

describe("a Responses compaction item: the session stands aside from then on", () => {
  const plain = body(HISTORY);
  const withItem = body([COMPACTION, ...HISTORY]);

  it("control: without the compaction request, the second plain request takes a step", async () => {
    const r = await session([plain, plain]);
    expect(r.headers[1]).toMatch(/^compact; tier=time_based; step=1;/);
    expect(r.forwarded[1]!.length).toBeLessThan(plain.length);
  });

  it("the request with the item and every later one go as sent, the later one without the item too", async () => {
    const r = await session([plain, withItem, plain, withItem]);
    expect(r.forwarded.slice(1)).toEqual([withItem, plain, withItem]);
    for (const h of r.headers.slice(1)) expect(h).toMatch(/^compact; tier=[a-z_]+; step=none; skipped=server_managed; pairs_removed=0;/);
    const stats = await statsOf(r.id);
    expect(stats.counters.server_managed_recorded).toBe(1);
  });

  it("sluice_stood_aside_total counts every request the session stood aside on (server_managed, compaction), the later one without the item too", async () => {
    const name = newTestId("idx-session-aside");
    const index = indexStub(name) as unknown as PipelineDeps["index"];
    const r = await session([plain, withItem, plain, withItem, plain], { index });
    expect(r.headers.slice(1).map((h) => /skipped=server_managed;/.test(h ?? ""))).toEqual([true, true, true, true]);
    const f = parseExposition(await (await adminAppFor(name).request("/admin/metrics", { headers: AUTH }, envWith())).text());
    expect(f.find((x) => x.name === "sluice_stood_aside_total")!.samples.map((x) => [x.labels, x.value])).toEqual([
      [{ provider: "openai-responses", reason: "server_managed", type: "compaction" }, 4],
    ]);
    // The session step answered each of them: they stay `unchanged` requests.
    expect([valueOf(f, "sluice_requests_total", { provider: "openai-responses", outcome: "unchanged" }), valueOf(f, "sluice_requests_total", { provider: "openai-responses", outcome: "stood_aside" })]).toEqual([5, undefined]);
  });
});
