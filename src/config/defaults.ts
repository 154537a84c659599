/**
 * Every compaction config default in one module of named constants (STYLE habit 6). Names are
 * docs/design.md's config keys (English snake_case); the seeds' Portuguese names are noted where they
 * differ. The zod schema (src/config/schema.ts) and the pure core both read these.
 */

import type { SummarizerConfig } from "./schema";

/** Guarantee levels (DESIGN §2): `strict` subtraction only; `placeholders` allow a fixed marker; `rewrite` allows summaries. */
export const GUARANTEE_LEVELS = ["strict", "placeholders", "rewrite"] as const;
export type GuaranteeLevel = (typeof GUARANTEE_LEVELS)[number];

/**
 * How a step reaches the provider (DESIGN §2 "Two mechanisms, one decision"; docs/how-it-works.md
 * "Mechanisms"): `splice` deletes byte ranges of the history; `native` forwards the history byte
 * for byte and adds one server-side `clear_tool_uses_20250919` edit (Anthropic only); `auto`
 * picks native exactly on the models that run the preserved-thinking prefix check.
 */
export const MECHANISMS = ["auto", "splice", "native"] as const;
export type MechanismSetting = (typeof MECHANISMS)[number];

/** Decision engines (DESIGN §5). */
export const ENGINES = ["heuristic", "local", "remote"] as const;
export type EngineKind = (typeof ENGINES)[number];

export const DEFAULTS = {
  /** Compaction on/off. Off by default (DESIGN invariant 1). */
  enabled: false,
  /** Measurement mode: run everything, forward untouched, count what would have been saved (DESIGN §8). */
  measure: false,
  engine: "heuristic" as EngineKind,
  /** HTTP engine URL (local/remote engines only). */
  endpoint: null as string | null,
  /** Model name passed to an HTTP engine. */
  model: null as string | null,
  /** NAME of the env var/secret holding the engine credential, never the credential itself. */
  api_key_env: null as string | null,
  /**
   * The operator's floor: below this many estimated input tokens no step is taken
   * (limiar_tokens). 0 by default: the five-term cost model alone decides whether a step pays,
   * so a long session of small calls can be compacted.
   */
  threshold_tokens: 0,
  /** Tool results smaller than this many bytes are never truncated by micro (piso_bytes). */
  min_result_bytes: 2_048,
  /** The last N turns (model round trips) are never touched (preservar_recentes). */
  preserve_recent_turns: 4,
  /** Engine verdicts with confidence below this count as keep (limiar_decisao). */
  decision_threshold: 0.6,
  /** Characters of a result kept by truncation and sent to HTTP engines (truncar_cabeca_chars). */
  head_chars: 500,
  /** HTTP engine deadline, ms. Past it the original history goes. */
  timeout_ms: 800,
  /** A step must remove at least this fraction (0..1) of the request's estimated tokens (min_reducao). */
  min_reduction: 0.05,
  /** Remote engine only: explicit consent to send prompt excerpts off the machine (consentimento_exportar_prompt). */
  consent_export_prompt: false,
  guarantee_level: "strict" as GuaranteeLevel,
  /** How a step reaches the provider: auto (native on prefix-check models, else splice), splice or native. */
  mechanism: "auto" as MechanismSetting,
  /** Keep removed tool results in the session's archival tier until retention (DESIGN §7). */
  archive_removed: false,
  /**
   * How long an archived result can be restored (MCP `restore_tool_result`), seconds from the
   * request that removed it (1 day); it goes earlier with the whole session at `retention_seconds`.
   */
  archive_retention_seconds: 86_400,
  /** Tool names never touched by any tier or engine. */
  exclude_tools: [] as string[],
  /** Idle time after which the session counts as idle (time_based tier), seconds. 300 = provider cache TTL. */
  idle_seconds: 300,
  /**
   * time_based drops whole the eligible pairs first seen at least this many seconds ago, seconds.
   * null (default): the idle gap itself, i.e. every pair first seen before the session went
   * idle; the provider cache (5 min TTL) has expired on all of them, so dropping them costs no
   * extra cache write.
   */
  time_based_age_seconds: null as number | null,
  /**
   * The agent's working set (src/core/engine/file-views.ts): the current views of a file — its
   * latest full read and the reads and edits after it — stay whole, untouched by every tier,
   * while the agent read or edited the file in the last this many turns; null: for good.
   * Calibration: the knee of savings against used-after-removal on corpus/seed + corpus/eval/dev
   * (docs/dev/decisions/working-set.md): 40 saves 1.4 points more than 48 for one more call used
   * after removal (31.8 % and 23 of 2,887 calls); 32 saves 2.1 points more than 40 for 7 more.
   */
  working_set_turns: 40 as number | null,
  /**
   * Floor of R, the expected remaining model calls a warm step is priced over, while the
   * deployment has not yet seen enough sessions to estimate R from their lengths
   * (src/core/cost/estimate-remaining-calls.ts). 2: this call and one more; above the seed
   * prior's own estimate (n/9 at call n) it bets on calls a session may never make, which a
   * short session pays for (docs/dev/decisions/working-set.md). Raise it when your agents'
   * sessions are known to run long.
   */
  min_remaining_calls: 2,
  /** Idle time after which the session counts as complete (session_memory tier), seconds. */
  complete_after_seconds: 3_600,
  /** State retention after last activity, seconds (7 days). */
  retention_seconds: 604_800,
  /**
   * Project memory (DESIGN §7): how long the tier map a session leaves at its complete alarm is
   * kept under its project key (src/observers/memory-object.ts), seconds from that alarm; it outlives
   * the session's own retention. 0 (default): no project memory is kept.
   */
  memory_retention_seconds: 0,
  /**
   * Level `rewrite` with project memory only: the first request of a new session whose project
   * has a stored tier map carries that map's summary in one marked block
   * (src/core/memory/render-memory-block.ts), once per map. false (default): nothing is written.
   */
  memory_inject: false,
  /** Context use (0..1 of the model's window) at which the auto tier fires. */
  auto_context_pct: 0.7,
  /** NAME of the secret holding the audit trail's HMAC key. */
  audit_key_env: "SLUICE_AUDIT_KEY",
  /** NAME of the secret holding the admin bearer token. */
  admin_token_env: "SLUICE_ADMIN_TOKEN",
  /** The summariser backend (docs/engine-protocol.md "summarize"); null = none, steps remove only. */
  summarizer: null as SummarizerConfig | null,
} as const;
