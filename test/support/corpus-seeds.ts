/**
 * Real corpus requests used as seeds by the reliability suite (Node only: reads
 * corpus/seed through the replay reader, tools/replay/read-session-text.ts, which
 * rebuilds each call's body exactly as the agent sent it, MANIFEST.md rules). The Workers
 * project gets them through globalSetup's `provide` (workerd has no file system).
 */
import { readFileSync } from "node:fs";
import { readSessionText } from "../../tools/replay/read-session-text";
import type { Provider } from "../../src/core/view/types";
import { CHAT_PATH } from "./fuzz/make-case";
import { CORPUS_PATH } from "./shared-dir";

export const CORPUS_DIR = `${CORPUS_PATH}/`;

/** One real request: which corpus call it is, the gateway path, and its exact body text. */
export interface CorpusSeed {
  name: string;
  provider: Provider;
  /** Gateway path of the provider's chat route. */
  path: string;
  body: string;
}


/**
 * The seeds, chosen to cover the three wire formats at sizes a Workers test sends quickly
 * (35 to 180 KB) and to contain what the tiers act on:
 * - `cc-cctrace-opus4#15` (call index 15; messages[:31]): the reference engine drops 2 pairs
 *   (superseded reads) with the micro tier's cost model accepting the step (measured with
 *   the reference engine's rules; the engine-fault tests rely on it);
 * - `cc-brain-explore-ies-thinking#6`: thinking blocks with signatures (locked pairs);
 * - `tau-airline-gpt4o-task02#last`, `codex-rtchess-01#40`: OpenAI Chat with a system message
 *   and function/custom tool calls;
 * - `codex-rtchess-01-responses#10`: Responses items with reasoning (encrypted_content).
 */
export const SEED_CALLS: ReadonlyArray<{ session: string; call: number | "last" }> = [
  { session: "cc-cctrace-opus4", call: 15 },
  { session: "cc-brain-explore-ies-thinking", call: 6 },
  { session: "tau-airline-gpt4o-task02", call: "last" },
  { session: "codex-rtchess-01", call: 40 },
  { session: "codex-rtchess-01-responses", call: 10 },
];

/** Reads the seed bodies (JSON.stringify of the reader's body: compact, as SDKs send). */
export function corpusSeeds(): CorpusSeed[] {
  return SEED_CALLS.map(({ session, call }) => {
    const s = readSessionText(readFileSync(`${CORPUS_DIR}${session}.json`, "utf8"), session);
    const c = call === "last" ? s.calls[s.calls.length - 1]! : s.calls[call]!;
    return { name: `${session}#${call}`, provider: s.provider, path: CHAT_PATH[s.provider], body: JSON.stringify(c.body) };
  });
}
