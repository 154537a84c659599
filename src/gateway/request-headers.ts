/**
 * Request headers the pipeline sets on the forwarded request (pure). The native mechanism's edit
 * needs its beta in `anthropic-beta` (platform.claude.com build-with-claude/context-editing:
 * `context-management-2025-06-27`); a gateway forwards the caller's `anthropic-beta` values
 * unchanged ("Libraries, proxies, and gateways"), so the value is appended only when absent, after
 * the client's own values, which keep their bytes.
 */

/** Header the Anthropic API reads beta names from (comma-separated). */
export const ANTHROPIC_BETA = "anthropic-beta";

/**
 * Headers to set for `beta` given the client's `headers`: `{ "anthropic-beta": "<client's>,<beta>" }`
 * (or just `beta` when the client sent none), or undefined when a client value already names it.
 */
export function betaHeaderFor(headers: Headers, beta: string): Record<string, string> | undefined {
  const current = headers.get(ANTHROPIC_BETA);
  if (current === null || current.trim() === "") return { [ANTHROPIC_BETA]: beta };
  if (current.split(",").some((v) => v.trim() === beta)) return undefined;
  return { [ANTHROPIC_BETA]: `${current},${beta}` };
}
