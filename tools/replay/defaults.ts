/**
 * Every default of the replay tool in one module of named constants, each with its source.
 * Readers, strategies and the driver read these; nothing else hard-codes a number.
 */
import type { Provider } from "./types";

/**
 * Gap assumed between two calls when a timestamp is missing, ms. 20 s is a typical agent turn
 * (model answer + tool run) in the corpus sessions that do record time (median gap between
 * consecutive calls of codex-rtchess-01 and cc-brain-explore-cleanup is a few seconds to tens of
 * seconds); short enough that no idle strategy fires on sessions without times.
 */
export const DEFAULT_CALL_GAP_MS = 20_000;

/** Virtual start time of a session that records no timestamp at all: 2025-01-01T00:00:00Z. */
export const DEFAULT_START_MS = Date.UTC(2025, 0, 1);

/**
 * Model used when the source does not record one. Anthropic: Claude Code's default model in
 * late 2025 (Sonnet 4.5, docs.claude.com models overview); OpenAI Chat: gpt-4o (the tau-bench
 * trajectories' model); OpenAI Responses: gpt-5.1-codex-max (Codex CLI's default in Nov 2025).
 */
export const DEFAULT_MODEL: Record<Provider, string> = {
  anthropic: "claude-sonnet-4-5-20250929",
  "openai-chat": "gpt-4o",
  "openai-responses": "gpt-5.1-codex-max",
};

/**
 * Aliases mapped to stable (dated) model ids so replays are reproducible
 * (docs.claude.com "Models overview": aliases point at the latest snapshot).
 */
export const MODEL_ALIASES: Record<string, string> = {
  "claude-opus-4-0": "claude-opus-4-20250514",
  "claude-opus-4": "claude-opus-4-20250514",
  "claude-sonnet-4-0": "claude-sonnet-4-20250514",
  "claude-sonnet-4": "claude-sonnet-4-20250514",
  "claude-opus-4-1": "claude-opus-4-1-20250805",
  "claude-sonnet-4-5": "claude-sonnet-4-5-20250929",
  "claude-haiku-4-5": "claude-haiku-4-5-20251001",
  "claude-opus-4-5": "claude-opus-4-5-20251101",
};

/**
 * `max_tokens` of synthesised Anthropic requests (required by the Messages API). 32,000 is
 * Claude Code's output cap for Opus 4 / Sonnet 4; it does not change input billing.
 */
export const ANTHROPIC_MAX_TOKENS = 32_000;

/** `anthropic-version` header sent by the replay (docs.anthropic.com/en/api/versioning). */
export const ANTHROPIC_VERSION = "2023-06-01";

/** Stable model id for a recorded one (null/empty → provider default; alias → dated id). */
export function stableModel(provider: Provider, recorded: string | null | undefined): string {
  if (recorded === null || recorded === undefined || recorded === "" || recorded === "<synthetic>") return DEFAULT_MODEL[provider];
  return MODEL_ALIASES[recorded] ?? recorded;
}
