/**
 * Part of `npm run bench`: CPU of reading usage from a streamed answer (src/usage/parse-sse.ts
 * + extract-usage.ts, what the usage tap runs per chunk), per synthetic Anthropic stream of
 * 1 000 text deltas (≈ 144 KB, cut in 1 400-byte network chunks), as a ratio to a bare
 * TextDecoder pass over the same chunks (the floor: every byte must be decoded once), measured
 * in the same run. Measured 2026-12-01 in Node 22, this bench: 2.25–2.43 ms per stream (8.2–8.8×
 * decode) with a JSON.parse per event and a regex search per line; 0.77–0.81 ms (3.0–3.1×) after
 * skipping events without a usage object and splitting lines with one cursor.
 */
import { SseParser } from "../src/usage/parse-sse";
import { usageFromEvents } from "../src/usage/extract-usage";

const DELTAS = 1_000;
const CHUNK_BYTES = 1_400;

function stream(): Uint8Array[] {
  const parts = ['event: message_start\ndata: {"type":"message_start","message":{"id":"m","usage":{"input_tokens":12,"cache_read_input_tokens":3000,"cache_creation_input_tokens":40,"output_tokens":1}}}\n\n'];
  for (let i = 0; i < DELTAS; i++) parts.push(`event: content_block_delta\ndata: ${JSON.stringify({ type: "content_block_delta", index: 0, delta: { type: "text_delta", text: `some words of output here ${i}` } })}\n\n`);
  parts.push('event: message_delta\ndata: {"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":77}}\n\nevent: message_stop\ndata: {"type":"message_stop"}\n\n');
  const bytes = new TextEncoder().encode(parts.join(""));
  const chunks: Uint8Array[] = [];
  for (let i = 0; i < bytes.length; i += CHUNK_BYTES) chunks.push(bytes.subarray(i, i + CHUNK_BYTES));
  return chunks;
}

/** Prints ms per stream for the usage reader and the decode floor (medians of 61 runs after 15 warm-up). */
export function runUsageTapBench(): void {
  const chunks = stream();
  const read = () => {
    const p = new SseParser();
    let u = null;
    for (const c of chunks) u = usageFromEvents("anthropic", p.push(c), u);
    return usageFromEvents("anthropic", p.end(), u);
  };
  const decode = () => {
    const d = new TextDecoder();
    let n = 0;
    for (const c of chunks) n += d.decode(c, { stream: true }).length;
    return n + d.decode().length;
  };
  const tRead: number[] = [];
  const tDecode: number[] = [];
  for (let i = 0; i < 76; i++) {
    let t = performance.now();
    const u = read();
    if (i >= 15) tRead.push(performance.now() - t);
    if (u?.output_tokens !== 77) throw new Error(`usage tap bench: wrong usage ${JSON.stringify(u)}`);
    t = performance.now();
    decode();
    if (i >= 15) tDecode.push(performance.now() - t);
  }
  const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const bytes = chunks.reduce((a, c) => a + c.length, 0);
  console.log(`usage tap: ${DELTAS}-delta Anthropic stream (${Math.round(bytes / 1024)} KB): ${med(tRead).toFixed(3)} ms per stream, decode alone ${med(tDecode).toFixed(3)} ms (${(med(tRead) / med(tDecode)).toFixed(1)}×)`);
}
