/**
 * One fuzz case from (run seed, index): deterministic, so a failure is reproduced from its two
 * numbers alone (`npm run fuzz -- --seed S --only I`). Pure apart from gzip (the runtime's
 * CompressionStream), runs in Node and workerd.
 *
 * Mix (calibration: enough valid bodies that the tiers do edit, most inputs hostile):
 * 1. 30 %: a valid generated conversation (./generate-valid.ts), tool results inflated ×1, ×20
 *    or ×200 so that some cross the tiers' size gates;
 * 2. 70 %: a mutation (./mutate-body.ts) of a real corpus request (two thirds) or of a generated
 *    conversation (one third).
 */
import type { Provider } from "../../../src/core/view/types";
import { inflate, sampleValid } from "./generate-valid";
import { gzipBytes, makeRng, MUTATION_NAMES, MUTATIONS, pick, type Rng } from "./mutate-body";

/** A corpus request (see ../corpus-seeds.ts). */
export interface SeedBody {
  name: string;
  provider: Provider;
  body: string;
}

export const CHAT_PATH: Record<Provider, string> = {
  anthropic: "/anthropic/v1/messages",
  "openai-chat": "/openai/v1/chat/completions",
  "openai-responses": "/openai/v1/responses",
};
const PROVIDERS: Provider[] = ["anthropic", "openai-chat", "openai-responses"];

export interface FuzzCase {
  index: number;
  /** `valid`, or the mutation's name. */
  kind: string;
  /** Where the body came from: a corpus seed name or `generated`. */
  base: string;
  provider: Provider;
  path: string;
  headers: Record<string, string>;
  /** The exact bytes the client sends. */
  body: Uint8Array;
  /** For a compressed body: the bytes before compression (what the gateway decodes and may edit, then forwards as identity). */
  decoded?: Uint8Array;
}

/** Options: mutations to leave out (e.g. `huge_string` where memory is tight). */
export interface CaseOptions {
  skip?: readonly string[];
}

const enc = new TextEncoder();

/** Per-case PRNG seed: distinct for every (seed, index). */
const caseSeed = (seed: number, index: number): number => (Math.imul(seed ^ 0x9e3779b9, 2654435761) + index * 7919) >>> 0;

function generated(rng: Rng, provider: Provider): string {
  const body = sampleValid(provider, Math.floor(rng() * 2 ** 31), 1)[0]!;
  return JSON.stringify(inflate(body, provider, pick(rng, [1, 20, 200])));
}

/** Builds case `index` of run `seed`. */
export async function makeCase(seeds: readonly SeedBody[], seed: number, index: number, opts: CaseOptions = {}): Promise<FuzzCase> {
  const rng = makeRng(caseSeed(seed, index));
  const headers: Record<string, string> = {};
  if (rng() < 0.3) {
    const provider = pick(rng, PROVIDERS);
    headers["content-type"] = "application/json";
    return { index, kind: "valid", base: "generated", provider, path: CHAT_PATH[provider], headers, body: enc.encode(generated(rng, provider)) };
  }
  const names = MUTATION_NAMES.filter((n) => !opts.skip?.includes(n));
  const fromCorpus = rng() < 2 / 3;
  const s = pick(rng, seeds);
  const provider = fromCorpus ? s.provider : pick(rng, PROVIDERS);
  const text = fromCorpus ? s.body : generated(rng, provider);
  // Up to three tries for a mutation that applies to this body; else the body is sent as is.
  for (let attempt = 0; attempt < 3; attempt++) {
    const kind = pick(rng, names);
    const m = MUTATIONS[kind]!(text, provider, rng);
    if (!m) continue;
    if (m.contentType !== "") headers["content-type"] = m.contentType;
    const base = fromCorpus ? s.name : "generated";
    if (m.gzip) {
      headers["content-encoding"] = "gzip";
      return { index, kind, base, provider, path: CHAT_PATH[provider], headers, body: await gzipBytes(m.body), decoded: m.body };
    }
    return { index, kind, base, provider, path: CHAT_PATH[provider], headers, body: m.body };
  }
  headers["content-type"] = "application/json";
  return { index, kind: "unmutated", base: fromCorpus ? s.name : "generated", provider, path: CHAT_PATH[provider], headers, body: enc.encode(text) };
}
