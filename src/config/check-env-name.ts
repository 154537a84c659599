/**
 * Pure check that a config value is the NAME of an env var/secret and not a credential pasted in
 * its place (DESIGN §5). Used for `api_key_env`, `audit_key_env`, `admin_token_env`.
 * The value itself never appears in a message: messages name the field and the rule only.
 *
 * Rules, in order (first hit wins):
 * 1. A known credential prefix (vendor key formats, see KEY_PREFIXES).
 * 2. Characters an env var name cannot hold: a name is `[A-Za-z_][A-Za-z0-9_]*` (POSIX
 *    portable name rule, IEEE Std 1003.1 §8.1), 1..128 characters (our bound).
 * 3. A long high-entropy run: any `_`-separated segment of 16+ characters that mixes 4+ digits
 *    with 4+ letters, or whose Shannon entropy is ≥ 4.0 bits/char. Calibration: real names
 *    (ANTHROPIC_API_KEY, AZURE_OPENAI_API_KEY_WESTEUROPE_2) have no segment over 13 chars and
 *    ≤ 3.8 bits/char overall; 32-char hex keys carry ~12 digits; base62 keys ≈ 5 bits/char.
 */

/** Prefixes of common credential formats (OpenAI/Anthropic sk-, Stripe, GitHub, Slack xox*, GitLab, Google AIza, AWS AKIA/ASIA). */
export const KEY_PREFIXES: readonly RegExp[] = [
  /^sk-/, /^sk_(live|test)_/, /^rk_(live|test)_/, /^gh[pousr]_/, /^github_pat_/, /^xox[a-z]-/,
  /^glpat-/, /^AIza/, /^(AKIA|ASIA)[A-Z0-9]{12,}$/, /^Bearer\s/i,
];

/** Longest accepted name, characters (our bound; no platform publishes a smaller one). */
export const MAX_ENV_NAME_LENGTH = 128;

/** Why a value is refused as an env var name, or null when it is a plausible name. */
export type EnvNameProblem = "credential_prefix" | "bad_characters" | "high_entropy";

/** Classifies `value` (pure). */
export function checkEnvName(value: string): EnvNameProblem | null {
  if (KEY_PREFIXES.some((re) => re.test(value))) return "credential_prefix";
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(value) || value.length > MAX_ENV_NAME_LENGTH) return "bad_characters";
  for (const seg of value.split("_")) {
    if (seg.length < 16) continue;
    const digits = seg.replace(/[^0-9]/g, "").length;
    if (digits >= 4 && seg.length - digits >= 4) return "high_entropy";
    if (shannonBits(seg) >= 4.0) return "high_entropy";
  }
  return null;
}

/** The fixed message for a problem on `field` (never includes the value). */
export function envNameMessage(field: string, problem: EnvNameProblem): string {
  switch (problem) {
    case "credential_prefix":
      return `${field} must be the NAME of an env var (e.g. ENGINE_API_KEY), not a credential: the value starts with a known key prefix (value not shown)`;
    case "bad_characters":
      return `${field} must be the NAME of an env var: letters, digits and _ only, not starting with a digit, at most ${MAX_ENV_NAME_LENGTH} characters (value not shown)`;
    case "high_entropy":
      return `${field} must be the NAME of an env var, not a credential: the value looks like a random key (value not shown)`;
    default: {
      const never: never = problem;
      return never;
    }
  }
}

/** Shannon entropy of `s` in bits per character. */
function shannonBits(s: string): number {
  const counts = new Map<string, number>();
  for (const c of s) counts.set(c, (counts.get(c) ?? 0) + 1);
  let h = 0;
  for (const n of counts.values()) {
    const p = n / s.length;
    h -= p * Math.log2(p);
  }
  return h;
}
