/**
 * The zod schema of the compaction config (pure): the JSON object in the `COMPACTION_CONFIG`
 * var. Every key of src/config/defaults.ts, with its default and range; unknown keys are
 * refused with a message naming the key (and the English name when a seed's Portuguese name
 * was used). Engine rules (DESIGN §5) run as a refinement so `loadConfig` and
 * `npm run config:check` give the same messages. Messages never contain a credential value.
 *
 * Ranges are sanity bounds chosen by us (no provider publishes them): wide enough for any
 * real deployment, narrow enough to catch a unit mistake (ms for s, percent for fraction).
 */
import { z } from "zod";
import { checkEnvName, envNameMessage } from "./check-env-name";
import { checkLocalHost } from "./check-local-address";
import { nearestKey } from "./nearest-key";
import { summarizerConsentProblem } from "./summarizer-destination";
import { DEFAULTS, ENGINES, GUARANTEE_LEVELS, MECHANISMS } from "./defaults";

/** Inclusive numeric ranges of every numeric key: [min, max, integer?]. */
export const RANGES = {
  threshold_tokens: [0, 10_000_000, true],
  min_result_bytes: [0, 10_000_000, true],
  preserve_recent_turns: [0, 1_000, true],
  decision_threshold: [0, 1, false],
  head_chars: [0, 100_000, true],
  /** 50 ms floor: below it no HTTP engine can answer; 60 s cap: the engine must never dominate a request. */
  timeout_ms: [50, 60_000, true],
  min_reduction: [0, 1, false],
  idle_seconds: [1, 604_800, true],
  time_based_age_seconds: [0, 31_536_000, true],
  working_set_turns: [0, 100_000, true],
  min_remaining_calls: [1, 10_000, true],
  complete_after_seconds: [1, 2_592_000, true],
  retention_seconds: [60, 31_536_000, true],
  memory_retention_seconds: [0, 31_536_000, true],
  archive_retention_seconds: [60, 31_536_000, true],
  auto_context_pct: [0.01, 1, false],
} as const satisfies Record<string, readonly [number, number, boolean]>;

/** Seed (Portuguese) key names → English key, for the unknown-key hint (DESIGN "Config names"). */
export const SEED_KEY_NAMES: Record<string, string> = {
  limiar_tokens: "threshold_tokens",
  piso_bytes: "min_result_bytes",
  preservar_recentes: "preserve_recent_turns",
  limiar_decisao: "decision_threshold",
  truncar_cabeca_chars: "head_chars",
  min_reducao: "min_reduction",
  consentimento_exportar_prompt: "consent_export_prompt",
};

function rangedNumber(key: keyof typeof RANGES) {
  const [min, max, int] = RANGES[key];
  const error = `${key} must be ${int ? "an integer" : "a number"} from ${min} to ${max}`;
  const base = z.number({ error }).min(min, { error }).max(max, { error });
  return int ? base.int({ error }) : base;
}

function num<K extends Exclude<keyof typeof RANGES, "time_based_age_seconds" | "working_set_turns">>(key: K) {
  return rangedNumber(key).default(DEFAULTS[key]);
}

function bool(key: keyof typeof DEFAULTS) {
  return z.boolean({ error: `${key} must be true or false` }).default(DEFAULTS[key] as boolean);
}

function envName(key: "api_key_env" | "audit_key_env" | "admin_token_env") {
  return z.string({ error: `${key} must be a string naming an env var` }).superRefine((v, ctx) => {
    const problem = checkEnvName(v);
    if (problem) ctx.addIssue({ code: "custom", message: envNameMessage(key, problem) });
  });
}

const endpointError = "endpoint must be an http:// or https:// URL without user:password@";
const endpoint = z.string({ error: endpointError }).superRefine((v, ctx) => {
  let url: URL;
  try {
    url = new URL(v);
  } catch {
    ctx.addIssue({ code: "custom", message: endpointError });
    return;
  }
  if ((url.protocol !== "http:" && url.protocol !== "https:") || url.username !== "" || url.password !== "") {
    ctx.addIssue({ code: "custom", message: endpointError });
  }
});

const toolsError = "exclude_tools must be a list of tool names (1 to 200 characters each)";
const toolName = z.string({ error: toolsError }).min(1, { error: toolsError }).max(200, { error: toolsError });

/** Summariser backends (docs/engine-protocol.md "summarize"; src/engines/summarizer.ts). */
export const SUMMARIZER_KINDS = ["engine", "openai_chat"] as const;

const summarizerNumber = (key: string, min: number, max: number, fallback: number) => {
  const error = `summarizer.${key} must be an integer from ${min} to ${max}`;
  return z.number({ error }).int({ error }).min(min, { error }).max(max, { error }).default(fallback);
};
const summarizerPrice = (key: string) => {
  const error = `summarizer.${key} must be a number of USD per 10^6 tokens from 0 to 1000`;
  return z.number({ error }).min(0, { error }).max(1_000, { error }).nullable().default(null);
};

/**
 * The optional summariser (absent or null = none). `endpoint` is the full URL POSTed to (the
 * engine's `/summarize`, or an OpenAI-compatible `/v1/chat/completions`). A summary takes longer
 * than a verdict, hence its own deadline (default 10 s, cap 120 s: our bounds). Prices (USD per
 * 10^6 tokens) override the price table for `openai_chat`; without them the table row of `model`
 * prices the call, and an unknown model is unpriced (cost 0, reported as such).
 */
const summarizerSchema = z.strictObject({
  kind: z.enum(SUMMARIZER_KINDS, { error: `summarizer.kind must be one of ${SUMMARIZER_KINDS.join(", ")}` }),
  endpoint,
  model: z.string({ error: "summarizer.model must be a string of 1 to 200 characters" }).min(1, { error: "summarizer.model must be a string of 1 to 200 characters" }).max(200, { error: "summarizer.model must be a string of 1 to 200 characters" }).nullable().default(null),
  api_key_env: envName("api_key_env").nullable().default(null),
  timeout_ms: summarizerNumber("timeout_ms", 50, 120_000, 10_000),
  max_summary_chars: summarizerNumber("max_summary_chars", 100, 100_000, 4_000),
  max_output_tokens: summarizerNumber("max_output_tokens", 16, 32_000, 1_024),
  input_per_mtok: summarizerPrice("input_per_mtok"),
  output_per_mtok: summarizerPrice("output_per_mtok"),
}, {
  error: (iss) => {
    if (iss.code === "unrecognized_keys") return unknownKeyMessage(iss.keys[0]!, SUMMARIZER_KEYS, "summarizer.");
    if (iss.code === "invalid_type") return "summarizer must be an object or null";
    return undefined;
  },
});
export type SummarizerConfig = z.output<typeof summarizerSchema>;

/** The config object (before engine rules). */
const baseSchema = z.strictObject({
  enabled: bool("enabled"),
  measure: bool("measure"),
  engine: z.enum(ENGINES, { error: `engine must be one of ${ENGINES.join(", ")}` }).default(DEFAULTS.engine),
  endpoint: endpoint.nullable().default(DEFAULTS.endpoint),
  model: z.string({ error: "model must be a string of 1 to 200 characters" }).min(1, { error: "model must be a string of 1 to 200 characters" }).max(200, { error: "model must be a string of 1 to 200 characters" }).nullable().default(DEFAULTS.model),
  api_key_env: envName("api_key_env").nullable().default(DEFAULTS.api_key_env),
  threshold_tokens: num("threshold_tokens"),
  min_result_bytes: num("min_result_bytes"),
  preserve_recent_turns: num("preserve_recent_turns"),
  decision_threshold: num("decision_threshold"),
  head_chars: num("head_chars"),
  timeout_ms: num("timeout_ms"),
  min_reduction: num("min_reduction"),
  consent_export_prompt: bool("consent_export_prompt"),
  guarantee_level: z.enum(GUARANTEE_LEVELS, { error: `guarantee_level must be one of ${GUARANTEE_LEVELS.join(", ")}` }).default(DEFAULTS.guarantee_level),
  mechanism: z.enum(MECHANISMS, { error: `mechanism must be one of ${MECHANISMS.join(", ")}` }).default(DEFAULTS.mechanism),
  archive_removed: bool("archive_removed"),
  archive_retention_seconds: num("archive_retention_seconds"),
  exclude_tools: z.array(toolName, { error: toolsError }).max(1_000, { error: "exclude_tools holds at most 1000 names" }).default([...DEFAULTS.exclude_tools]),
  idle_seconds: num("idle_seconds"),
  time_based_age_seconds: rangedNumber("time_based_age_seconds").nullable().default(DEFAULTS.time_based_age_seconds),
  working_set_turns: rangedNumber("working_set_turns").nullable().default(DEFAULTS.working_set_turns),
  min_remaining_calls: num("min_remaining_calls"),
  complete_after_seconds: num("complete_after_seconds"),
  retention_seconds: num("retention_seconds"),
  memory_retention_seconds: num("memory_retention_seconds"),
  memory_inject: bool("memory_inject"),
  auto_context_pct: num("auto_context_pct"),
  audit_key_env: envName("audit_key_env").default(DEFAULTS.audit_key_env),
  admin_token_env: envName("admin_token_env").default(DEFAULTS.admin_token_env),
  summarizer: summarizerSchema.nullable().default(DEFAULTS.summarizer),
}, {
  error: (iss) => {
    if (iss.code === "unrecognized_keys") return unknownKeyMessage(iss.keys[0]!);
    if (iss.code === "invalid_type") return "COMPACTION_CONFIG must be a JSON object";
    return undefined;
  },
});

/** The keys of the config object and of its `summarizer` block, for the unknown-key hint. */
const CONFIG_KEYS: readonly string[] = Object.keys(baseSchema.shape);
const SUMMARIZER_KEYS: readonly string[] = Object.keys(summarizerSchema.shape);

/**
 * Message for an unknown key: names it (with `prefix`, e.g. "summarizer."), then the English key
 * for a seed's Portuguese name, else the nearest known key (nearest-key.ts: "did you mean"),
 * else a pointer to docs/configuration.md.
 */
export function unknownKeyMessage(key: string, known: readonly string[] = CONFIG_KEYS, prefix = ""): string {
  const english = prefix === "" ? SEED_KEY_NAMES[key] : undefined;
  if (english) return `unknown key "${key}": use "${english}"`;
  const near = nearestKey(key, known);
  return near !== null
    ? `unknown key "${prefix}${key}": did you mean "${prefix}${near}"? (see docs/configuration.md for the known keys)`
    : `unknown key "${prefix}${key}" (see docs/configuration.md for the known keys)`;
}

/**
 * The full schema (the rules run only once every field is valid): base fields plus the engine and timing rules (DESIGN §5):
 * 1. `local`/`remote` need `endpoint`.
 * 2. `local`: the endpoint host must be loopback/private (check-local-address.ts); no flag relaxes it.
 * 3. `remote`: needs `consent_export_prompt: true`.
 * 4. `complete_after_seconds` > `idle_seconds`; `retention_seconds` ≥ `complete_after_seconds`.
 * 5. `summarizer`: `openai_chat` needs `model`; an endpoint that is not loopback/private needs
 *    `consent_export_prompt: true` (summarizer-destination.ts); prices come in pairs.
 */
export const compactionConfigSchema = baseSchema.superRefine((c, ctx) => {
  const at = (path: string, message: string) => ctx.addIssue({ code: "custom", path: [path], message });
  if (c.engine !== "heuristic" && c.endpoint === null) at("endpoint", `endpoint is required when engine is "${c.engine}"`);
  if (c.engine === "local" && c.endpoint !== null) {
    const host = new URL(c.endpoint).hostname;
    const problem = checkLocalHost(host);
    if (problem) {
      const what = problem === "public_address" ? "a public address" : "a hostname not known to be local";
      at("endpoint", `endpoint must be a loopback or private address for engine "local" (127.0.0.0/8, ::1, 10/8, 172.16/12, 192.168/16, fc00::/7, localhost); ${host} is ${what}`);
    }
  }
  if (c.engine === "remote" && !c.consent_export_prompt) {
    at("consent_export_prompt", `engine "remote" sends tool-result excerpts to another host: set consent_export_prompt to true to allow it`);
  }
  if (c.summarizer !== null) {
    const s = c.summarizer;
    const atS = (key: string, message: string) => ctx.addIssue({ code: "custom", path: ["summarizer", key], message });
    if (s.kind === "openai_chat" && s.model === null) atS("model", `summarizer.model is required when summarizer.kind is "openai_chat"`);
    const consent = summarizerConsentProblem(s.endpoint, c.consent_export_prompt);
    if (consent) atS("endpoint", consent);
    if ((s.input_per_mtok === null) !== (s.output_per_mtok === null)) atS("input_per_mtok", "summarizer.input_per_mtok and summarizer.output_per_mtok must be set together");
  }
  if (c.complete_after_seconds <= c.idle_seconds) at("complete_after_seconds", "complete_after_seconds must be greater than idle_seconds");
  if (c.retention_seconds < c.complete_after_seconds) at("retention_seconds", "retention_seconds must be at least complete_after_seconds");
}, { when: (payload) => payload.issues.length === 0 });

/** A validated config with every default filled in. */
export type CompactionConfig = z.output<typeof compactionConfigSchema>;
