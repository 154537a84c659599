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
import { newTestId } from "./helpers";
import { compactVars, LITERAL_CONFIG, logText, manualClock, send, statsOf, upstreamBodies } from "./pipeline-harness";

const PATH = "/openai/v1/responses";
const dec = new TextDecoder();

const HISTORY = [
  { type: "message", role: "user", content: [{ type: "input_text", text: "Run the checks." }] },
  { type: "function_call", call_id: "c1", name: "shell", arguments: "{\"cmd\":\"make a\"}" },
  { type: "function_call_output", call_id: "c1", output: logText("a", 800) },
  { type: "function_call", call_id: "c2", name: "shell", arguments: "{\"cmd\":\"make b\"}" },
  { type: "function_call_output", call_id: "c2", output: logText("b", 800) },
  { type: "message", role: "assistant", content: [{ type: "output_text", text: "Both ran." }] },
  { type: "message", role: "user", content: [{ type: "input_text", text: "Next." }] },
];
const COMPACTION = { type: "compaction", id: "cmp_1", encrypted_content: "gAAAAABo-opaque-summary" };
const body = (input: unknown[]) => JSON.stringify({ model: "gpt-6.2-sol", input, store: false, prompt_cache_key: "k" });

/** Sends `bodies` in one new session, 2,000 s apart (past the 30-minute cache TTL of gpt-6.2-sol: a time_based step pays); returns each answer's header and the bytes the upstream got. */
async function session(bodies: string[]) {
  const id = newTestId("resp-cmp");
  const clock = manualClock();
  const headers: (string | null)[] = [];
  for (const b of bodies) {
    const { res } = await send(compactVars(LITERAL_CONFIG), PATH, { "x-test-id": id, "x-sluice-session": id }, b, { now: clock.now });
    headers.push(res.headers.get("x-sluice-compaction"));
    clock.advance(2_000_000);
  }
  return { id, headers, forwarded: (await upstreamBodies(id)).map((u) => dec.decode(u)) };
}

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
});
