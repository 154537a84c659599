/**
 * The client settings of the conformance run (pure data): which client, which model (the
 * client's own default or a pinned one), and for Codex which provider and whether it compacts
 * itself. Each client runs with its default model and with a pinned one.
 */

/** The client settings the conformance run covers. */
export type ClientSetting = "claude-default" | "claude-4x-thinking" | "claude-4x-no-thinking" | "codex-default" | "codex" | "codex-builtin-default" | "codex-builtin" | "codex-autocompact";

/** How one setting runs its client. */
export interface SettingSpec {
  client: "claude" | "codex";
  /** Model passed with `--model` / `-m`; null: the client's own default (Claude Code 2.1.332: `claude-opus-5-5`; Codex 0.171.0: `gpt-6.2-sol`). */
  model: string | null;
  /** Claude Code: `CLAUDE_CODE_DISABLE_THINKING=1`. */
  thinkingOff?: boolean;
  /**
   * Codex: a `model_providers` entry with the base URL (`custom`, plain HTTP) or the built-in
   * OpenAI provider at another base URL (`builtin`: `openai_base_url`, the API key stored with
   * `codex login --with-api-key`; it tries a Responses WebSocket first and compacts remotely).
   */
  provider?: "custom" | "builtin";
  /** Codex: `model_auto_compact_token_limit` (tokens), so the built-in provider asks for a compaction (`compaction_trigger`) within the session. */
  autoCompactTokens?: number;
}

/** Claude model for the 4.x settings (a model that does not run the preserved-thinking prefix check). */
export const CLAUDE_4X_MODEL = "claude-opus-4-8";

/**
 * Pinned Codex model: the classic tool set (`exec_command` function tool and the `apply_patch`
 * custom tool in top-level `tools`; for `gpt-5.1-codex` Codex sends no `apply_patch`). Priced by
 * the `gpt-5` rows of the emulator and of Sluice. Codex's default (`gpt-6.2-sol` in 0.171.0)
 * runs in code mode instead (./responses-lite.ts).
 */
export const CODEX_MODEL = "gpt-5.5-codex";

/**
 * Codex's compaction limit in `codex-autocompact`, tokens. Codex 0.171.0 asks for a compaction
 * before a request when its estimate (the previous answer's usage plus the items added since,
 * ≈ 4 bytes a token) reaches the limit. The default model's first request is ≈ 15.6 k tokens;
 * at 35 k Codex compacts before its 15th request (≈ 36.6 k) and its 24th, both before Sluice's
 * first step (the 19th request, ≈ 41 k tokens, in `codex-builtin-default`), so it compacts at
 * the same requests with and without Sluice. Every decision of the session is ≥ 0.6 k tokens
 * from the limit (a replay of the uncompacted session's sizes); at 30 k one sat 0.2 k from it
 * and the two sessions compacted one request apart.
 */
export const AUTO_COMPACT_TOKENS = 35_000;

/** The settings, in run order. */
export const SETTING_SPECS: Readonly<Record<ClientSetting, SettingSpec>> = {
  "claude-default": { client: "claude", model: null },
  "claude-4x-thinking": { client: "claude", model: CLAUDE_4X_MODEL },
  "claude-4x-no-thinking": { client: "claude", model: CLAUDE_4X_MODEL, thinkingOff: true },
  "codex-default": { client: "codex", model: null, provider: "custom" },
  codex: { client: "codex", model: CODEX_MODEL, provider: "custom" },
  "codex-builtin-default": { client: "codex", model: null, provider: "builtin" },
  "codex-builtin": { client: "codex", model: CODEX_MODEL, provider: "builtin" },
  "codex-autocompact": { client: "codex", model: null, provider: "builtin", autoCompactTokens: AUTO_COMPACT_TOKENS },
};

/** Every setting the run covers, in run order. */
export const SETTINGS: readonly ClientSetting[] = Object.keys(SETTING_SPECS) as ClientSetting[];

/** True for the Codex settings. */
export const isCodex = (s: ClientSetting): boolean => SETTING_SPECS[s].client === "codex";
