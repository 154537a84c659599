/**
 * Measurement mode (DESIGN §8) and usage capture, in workerd through the real hook.
 * Measurement: SLUICE_MEASURE=1 over pipeline-harness.ts `literalTwoCalls` — the bytes go
 * untouched and the DO's measure_* counters hold exactly what the same calls remove in compact
 * mode (a twin session). Usage: the stand-in answers with the fixed JSON and SSE usage bodies
 * of test/support/scenarios.ts (USAGE_ANSWERS) for all three APIs; the DO's usage counters must
 * hold exactly those numbers, the client must get the answer byte for byte, and with a gated
 * stream the client reads the first event while the upstream has not finished.
 */
import { describe, expect, it } from "vitest";
import { SSE_GATED_USAGE_EVENTS, USAGE_ANSWERS } from "../support/scenarios";
import { concat, newTestId, progress, release, utf8 } from "./helpers";
import { compactionHeader, compactVars, LITERAL_BODY, LITERAL_CONFIG, literalTwoCalls, send, sendNoWait, statsOf } from "./pipeline-harness";

describe("measurement mode", () => {
  it("SLUICE_MEASURE=1: bytes untouched; measure_* count exactly what compact mode removes (1 pair, 7,169 tokens)", async () => {
    const measured = await literalTwoCalls({ ...compactVars(LITERAL_CONFIG), SLUICE_MEASURE: "1" });
    expect(measured.forwarded).toEqual(LITERAL_BODY);
    expect(measured.raw).toBe("measure; tier=time_based; step=1; pairs_removed=1; tokens_before=14443; tokens_after=7274");
    const c = measured.stats.counters;
    // No usage reported yet, so USD uses the cache-read price of claude-sonnet-4-5 ($0.30 / Mtok).
    expect({ requests: c.measure_requests, pairs: c.measure_pairs, tokens: c.measure_tokens, usd: c.measure_usd, saved: c.tokens_saved, compacted: c.compacted, measured: c.measured }).toEqual({
      requests: 2, pairs: 1, tokens: 7_169, usd: 7_169 * 0.3e-6, saved: undefined, compacted: undefined, measured: 2,
    });
    // The twin session in compact mode removes exactly that.
    const compacted = await literalTwoCalls(compactVars(LITERAL_CONFIG));
    expect(compacted.stats.counters.tokens_saved).toBe(c.measure_tokens);
    expect(LITERAL_BODY.length - compacted.forwarded.length).toBeGreaterThan(0);
  });
});

const SMALL: Record<string, { path: string; body: string }> = {
  anthropic: { path: "/anthropic/v1/messages", body: '{"model":"claude-sonnet-4-5","max_tokens":64,"messages":[{"role":"user","content":"hi"}]}' },
  chat: { path: "/openai/v1/chat/completions", body: '{"model":"gpt-4o","messages":[{"role":"user","content":"hi"}]}' },
  responses: { path: "/openai/v1/responses", body: '{"model":"gpt-4o","input":[{"type":"message","role":"user","content":"hi"}]}' },
};
/** Expected DO counters per API: Anthropic input is the uncached part (120); OpenAI prompt 1,050 − 900 cached = 150. */
const EXPECTED: Record<string, Record<string, number>> = {
  anthropic: { usage_input_tokens: 120, usage_cache_read_input_tokens: 900, usage_cache_creation_input_tokens: 30, usage_output_tokens: 7, usage_reports: 1 },
  chat: { usage_input_tokens: 150, usage_cache_read_input_tokens: 900, usage_cache_creation_input_tokens: 0, usage_output_tokens: 7, usage_reports: 1 },
  responses: { usage_input_tokens: 150, usage_cache_read_input_tokens: 900, usage_cache_creation_input_tokens: 0, usage_output_tokens: 7, usage_reports: 1 },
};
const usageOf = (c: Record<string, number>) => Object.fromEntries(Object.keys(EXPECTED.anthropic!).map((k) => [k, c[k] ?? 0]));

describe("usage capture", () => {
  for (const api of ["anthropic", "chat", "responses"]) {
    // json-gzip: workerd decodes it and the client response has no content-length, so the usage is read from a bounded clone read (src/usage/tap-usage.ts).
    for (const format of ["json", "sse", "json-gzip"]) {
      it(`${api} ${format}: the client gets the answer byte for byte; the DO counts its usage exactly`, async () => {
        const session = newTestId(`usage-${api}-${format}`);
        const answer = USAGE_ANSWERS[`${api}:${format === "json-gzip" ? "json" : format}`]!;
        const { res, text } = await send(compactVars({}), SMALL[api]!.path, { "x-test-id": session, "x-sluice-session": session, "x-test-scenario": `usage:${api}:${format}` }, SMALL[api]!.body);
        expect(res.status).toBe(200);
        expect(text).toBe(answer.body);
        // The premise of the json-gzip case: decoded, and no declared length left for the tap.
        if (format === "json-gzip") expect([res.headers.get("content-length"), res.headers.get("content-encoding")]).toEqual([null, null]);
        const stats = await statsOf(session);
        expect(usageOf(stats.counters)).toEqual(EXPECTED[api]);
        // Calibration pairs the report with our estimate of what was sent (the header's figure).
        expect(stats.counters.calibration_estimated).toBe(Number(compactionHeader(res).tokens_after));
        expect(stats.counters.calibration_reported).toBe(1_050);
      });
    }
  }

  it("a gated SSE answer: the client reads the first event while the upstream is still open; usage is counted after the end", async () => {
    const session = newTestId("usage-gated");
    const sent = await sendNoWait(compactVars({}), SMALL.anthropic!.path, { "x-test-id": session, "x-sluice-session": session, "x-test-scenario": "sse-gated-usage" }, SMALL.anthropic!.body);
    const reader = sent.res.body!.getReader();
    const chunks: Uint8Array[] = [];
    let expected = "";
    for (let k = 0; k < SSE_GATED_USAGE_EVENTS.length; k++) {
      expected += SSE_GATED_USAGE_EVENTS[k];
      while (concat(chunks).length < utf8(expected).length) {
        const { done, value } = await reader.read();
        if (done) break;
        chunks.push(value);
      }
      expect(new TextDecoder().decode(concat(chunks))).toBe(expected);
      expect(await progress(session)).toEqual({ sent: k + 1, finished: k === SSE_GATED_USAGE_EVENTS.length - 1 });
      if (k < SSE_GATED_USAGE_EVENTS.length - 1) expect(await release(session)).toBe(true);
    }
    expect((await reader.read()).done).toBe(true);
    await sent.settled();
    expect(usageOf((await statsOf(session)).counters)).toEqual(EXPECTED.anthropic);
  });
});
