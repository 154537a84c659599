/**
 * The rewrite level's summarising step on a corpus session, against the provider emulator:
 * cc-brain-explore-cleanup replayed in process at `guarantee_level: "rewrite"`
 * with `auto_context_pct` 0.3 (the session peaks near 100k of a 200k window, so the default 0.7
 * never fires auto). The auto tier summarises three closed stretches with the in-process
 * extractive summariser; the emulator accepts every forwarded body, and the request after each
 * summarising step starts with the step's own bytes, summary blocks included, up to its last
 * message (where the client's moving cache breakpoint sits), so the provider's cache reads them.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { CORPUS_PATH } from "../support/shared-dir";
import { readSessionText } from "../../tools/replay/read-session-text";
import { runReplay } from "../../tools/replay/run-replay";
import { getMember, scanJson } from "../../src/providers/shared/json-scan";

const ID = "cc-brain-explore-cleanup";
const dir = mkdtempSync(join(tmpdir(), "sluice-rewrite-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const HEADER = "[sluice: summary of ";
const body = (call: number) => new Uint8Array(readFileSync(join(dir, "sluice-rewrite", ID, `${String(call - 1).padStart(4, "0")}.json`)));
const count = (b: Uint8Array, s: string) => Buffer.from(b).toString("utf8").split(s).length - 1;
function commonPrefix(a: Uint8Array, b: Uint8Array): number {
  let n = 0;
  while (n < a.length && n < b.length && a[n] === b[n]) n++;
  return n;
}
function lastMessageStart(b: Uint8Array): number {
  const messages = getMember(scanJson(b), "messages");
  if (messages?.type !== "array") throw new Error("no messages array");
  return messages.items[messages.items.length - 1]!.start;
}

describe("replay at the rewrite level, on a corpus session", () => {
  it(`${ID}: two summarising auto steps (one summary written), every body accepted, the next request keeps the step's bytes`, async () => {
    const session = readSessionText(readFileSync(join(CORPUS_PATH, `${ID}.json`), "utf8"), `${ID}.json`);
    const out = await runReplay({
      sessions: [session], strategies: ["sluice-rewrite"], sluice: "in-process", emulator: null, gateway: null, concurrency: 1,
      sluiceEnv: { COMPACTION_CONFIG: JSON.stringify({ auto_context_pct: 0.3 }) }, saveForwarded: dir,
    });
    const run = out.runs.find((r) => r.strategy === "sluice-rewrite")!;
    expect(run.calls.filter((c) => c.rejected !== null)).toEqual([]);
    const summarised = run.calls.flatMap((c, i) => (c.summaries && c.summaries.written + c.summaries.failed > 0 ? [[i + 1, c.summaries.written, c.summaries.failed, c.summaries.cost_usd, /tier=(\w+); step=(\d+)/.exec(c.note ?? "")?.slice(1)]] : []));
    // With K priced as Anthropic bills it (an old edit rewrites the whole prompt: src/core/cost/cache-reach.ts), the
    // agent's working set kept (src/core/engine/file-views.ts) and R at the seed prior's q = 0.1
    // (src/core/cost/estimate-remaining-calls.ts), the auto steps come at calls 69 and 94; the second one's stretch gave
    // the extractive summariser nothing to write (it removes only).
    expect(summarised).toEqual([
      [69, 1, 0, 0, ["auto", "1"]],
      [94, 0, 1, 0, ["auto", "2"]],
    ]);
    for (const [call, blocks] of [[69, 1], [94, 1]] as const) {
      const step = body(call);
      const next = body(call + 1);
      expect([count(step, HEADER), count(next, HEADER)]).toEqual([blocks, blocks]);
      expect(commonPrefix(step, next)).toBeGreaterThan(lastMessageStart(step));
    }
  }, 300_000);
});
