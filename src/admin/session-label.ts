/**
 * A human label for a session of the admin list (pure): client, conversation (agent) and model,
 * read back from the session key's shape (src/gateway/session-id.ts) and the model the index
 * recorded. Ids and model names only, no prompt text (DESIGN invariant 7). Examples:
 * - `cc:3f2a1b0c-…:agent:a7f3e9d1` → "Claude Code 3f2a1b0c · sub-agent a7f3e9d1 · claude-opus-4-8"
 * - `cc:3f2a1b0c-…:conv:5d41402abc4b2a76` → "Claude Code 3f2a1b0c · conversation 5d41402a · claude-opus-4-8"
 *   (no agent id sent: the main conversation, or a sub-agent of a client before 2.1.234)
 * - `pck:…` → "prompt_cache_key … · gpt-5"; `fp:…` → "fingerprint … · …"; any other id → "x-sluice-session …".
 */

/** Characters of an id shown in a label. */
const SHORT = 8;
const short = (s: string): string => (s.length <= SHORT ? s : s.slice(0, SHORT));

/** The label of session `id` whose requests named `model` (null: none recorded). */
export function sessionLabel(id: string, model: string | null): string {
  const tail = ` · ${model ?? "model unknown"}`;
  const cc = /^cc:(.*):(agent|conv):([^:]*)$/.exec(id);
  if (cc) return `Claude Code ${short(cc[1]!)} · ${cc[2] === "agent" ? "sub-agent" : "conversation"} ${short(cc[3]!)}${tail}`;
  if (id.startsWith("cc:")) return `Claude Code ${short(id.slice(3))} · whole session${tail}`;
  if (id.startsWith("pck:")) return `prompt_cache_key ${short(id.slice(4))}${tail}`;
  if (id.startsWith("fp:")) return `fingerprint ${short(id.slice(3))}${tail}`;
  if (id.startsWith("h:")) return `hashed long id ${short(id.slice(2))}${tail}`;
  return `x-sluice-session ${id}${tail}`;
}
