/**
 * TEST FIXTURE (not product code): seeds one session's state the way the gateway does — the
 * SessionObject's RPCs (step, report, countFailOpen, archive) and the
 * SessionIndex's `record` with updates derived by the pure functions the pipeline will call —
 * and builds an admin app whose index is a per-test instance. The request text carries MARKERS
 * so tests can grep every admin answer for them.
 */
import { env } from "cloudflare:workers";
import { configHash, type StepOutput } from "../../src/session/contract";
import { Hono } from "hono";
import { outcomeUpdate, usageUpdate } from "../../src/admin/index-update";
import type { Env } from "../../src/config/env";
import { loadConfig } from "../../src/config/load-config";
import type { ConversationView } from "../../src/core/view/types";
import { DEFAULTS } from "../../src/config/defaults";
import { stepFactsOf, type StepFacts } from "../../src/core/facts/step-facts";
import { encodeStepFacts } from "../../src/core/facts/wire-facts";
import type { SessionIndex } from "../../src/do/index-object";
import type { SessionObject } from "../../src/session/session-object";
import type { OutcomeRecorded, OutcomeReport } from "../../src/session/contract";
import { createAdminApp, defaultAdminDeps } from "../../src/http/routes/admin";
import type { Usage } from "../../src/usage/extract-usage";
import { makeView } from "../support/make-view";
import { ToolCallMemo } from "../../src/core/engine/read-tool-call-memo";

export const E = env as unknown as Env;
export const TOKEN = "sluice-admin-test-token.4f9e2c";
export const AUTH = { authorization: `Bearer ${TOKEN}` };

/** Text that appears only in the seeded requests (prose, results, the archived result). */
export const MARKERS = {
  prose: "MARKER-PROSE-kestrel-7731",
  reply: "MARKER-REPLY-plover-2208",
  result: "MARKER-RESULT-osprey-1184",
  errorBody: "MARKER-ERRBODY-heron-5520",
  archived: "MARKER-ARCHIVE-gannet-9043",
};

/** The env with the admin token set (plus `extra`). */
export const envWith = (extra: Record<string, unknown> = {}): Env => ({ ...E, SLUICE_ADMIN_TOKEN: TOKEN, ...extra }) as Env;

export const sessionStub = (id: string) => (E.SESSION as unknown as DurableObjectNamespace<SessionObject>).get(E.SESSION.idFromName(id));
export const indexStub = (name: string): DurableObjectStub<SessionIndex> => E.SESSION_INDEX.get(E.SESSION_INDEX.idFromName(name));

/** An app with the admin sub-app under /admin, reading the index instance `indexName`. */
export const adminAppFor = (indexName: string) =>
  new Hono<{ Bindings: Env }>().route("/admin", createAdminApp({ ...defaultAdminDeps, index: () => indexStub(indexName) as never }));

/** The step facts of seedView() (defaults: head_chars, heuristic engine). */
export function seedFacts(): StepFacts {
  return stepFactsOf(seedView(), { head_chars: DEFAULTS.head_chars, engine: "heuristic" }, new ToolCallMemo());
}

/** A small Anthropic conversation: a Read, a failed Bash, prose on both sides. */
export function seedView(): ConversationView {
  return makeView({
    model: "claude-sonnet-4-5",
    messages: [
      { role: "user", text: `Please fix the failing build. ${MARKERS.prose}` },
      { role: "assistant", text: `Looking. ${MARKERS.reply}`, calls: [{ id: "toolu_read", tool: "Read", input: { file_path: "src/seed/app.ts" } }] },
      { role: "user", results: [{ id: "toolu_read", text: `export const value = 1; // ${MARKERS.result}` }] },
      { role: "assistant", calls: [{ id: "toolu_bash", tool: "Bash", input: { command: "npm run build" } }] },
      { role: "user", results: [{ id: "toolu_bash", text: `Error: build failed\n${MARKERS.errorBody}`, is_error: true }] },
    ],
  });
}

/** The archived result: > 64 Ki UTF-16 units (crosses a storage chunk), multi-byte characters. */
export const ARCHIVED_TEXT = `héllo ∑ 😀 ${MARKERS.archived}\n${"0123456789abcdef\n".repeat(4_200)}end ✓\n`;

/** Figures of the seeded calls (estimated tokens as the client sent them / as forwarded). */
export const CALLS = [
  { outcome: "compacted", tokens_original: 52_000, tokens_sent: 31_500, step_ms: 12 },
  { outcome: "unchanged", tokens_original: 53_000, tokens_sent: 53_000, step_ms: 30 },
] as const;
export const USAGE: Usage = { input_tokens: 1_000, cache_read_input_tokens: 30_000, cache_creation_input_tokens: 500, output_tokens: 200 };
export const FAIL_OPEN = { reason: "do_timeout", tokens: 54_000 } as const;

/**
 * Seeds session `id` and index `indexName` like the pipeline: two forwarded calls (one
 * compacted, one unchanged) with a usage report after the first, then a DO timeout (fail-open
 * without a step answer), and an archived result. Returns what the DO recorded per call.
 */
export async function seedSession(id: string, indexName: string): Promise<OutcomeRecorded[]> {
  const stub = sessionStub(id);
  const index = indexStub(indexName);
  const loaded = loadConfig({ COMPACTION_CONFIG: '{"archive_removed": true}' });
  if (!loaded.ok) throw new Error(loaded.error.message);
  const view = seedView();
  const recorded: OutcomeRecorded[] = [];
  for (const [i, call] of CALLS.entries()) {
    const now = Date.now();
    const step = (await stub.step({ session_id: id, facts: encodeStepFacts(stepFactsOf(view, loaded.config, new ToolCallMemo())), config_hash: configHash(loaded.config), config: loaded.config, mode: "compact", correlation_id: `req-${i}`, now_ms: now })) as StepOutput;
    const report: OutcomeReport = { correlation_id: `req-${i}`, outcome: call.outcome, rollback_step: null, tokens_original: call.tokens_original, tokens_sent: call.tokens_sent, tier: step.tier, pairs_removed: 0, would_send: null };
    const rec = (await stub.report({ outcome: report, usage: null, estimated_input_tokens: 0, now_ms: now })).recorded!;
    recorded.push(rec);
    const r = await index.recordMany([outcomeUpdate({ session_id: id, provider: "anthropic", model: view.model, turns: view.turn_count, now_ms: now, step, report, recorded: rec, step_ms: call.step_ms })]);
    if (!r.ok) throw new Error(r.error);
    if (i === 0) {
      await stub.report({ outcome: null, usage: USAGE, estimated_input_tokens: call.tokens_sent, now_ms: now });
      await index.recordMany([usageUpdate(id, "anthropic", Date.now(), USAGE)]);
    }
  }
  await stub.countFailOpen(FAIL_OPEN.reason);
  const report: OutcomeReport = { correlation_id: "req-2", outcome: FAIL_OPEN.reason, rollback_step: null, tokens_original: FAIL_OPEN.tokens, tokens_sent: FAIL_OPEN.tokens, tier: "none", pairs_removed: 0, would_send: null };
  const r = await index.recordMany([outcomeUpdate({ session_id: id, provider: "anthropic", model: view.model, turns: view.turn_count, now_ms: Date.now(), step: null, report, recorded: null, step_ms: null })]);
  if (!r.ok) throw new Error(r.error);
  await stub.archive([{ call_id: "toolu_read", tool_name: "Read", text: ARCHIVED_TEXT }]);
  return recorded;
}
