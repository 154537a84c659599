/**
 * Renders corpus/eval/MANIFEST.md from the built sessions (pure). One table row per session
 * file: id, split, group, agent, provider, model, model calls, bytes, source (repo / path @
 * commit), licence, what was scrubbed; then per-set totals, the split rule, the format notes and
 * per-session notes. The table is also what test/unit/corpus-eval.test.ts checks every file
 * against.
 */
import { countCalls } from "./corpus-file";
import type { BuiltSession } from "./convert-source";
import type { ScrubCounts } from "./scrub";

const SCRUB_LABELS: Record<keyof ScrubCounts, string> = {
  home_username: "home-dir user name",
  email: "e-mail address",
  git_author: "git author name",
  secret: "key/token",
  private_ip: "private LAN IP",
  thinking_altered: "thinking block altered (signature stale)",
};

/** "home-dir user name x12; e-mail address x1", or "nothing found". */
export function describeScrub(c: ScrubCounts): string {
  const parts = (Object.keys(SCRUB_LABELS) as (keyof ScrubCounts)[]).filter((k) => c[k] > 0).map((k) => `${SCRUB_LABELS[k]} x${c[k]}`);
  return parts.length === 0 ? "nothing found" : parts.join("; ");
}

const fmt = (n: number) => n.toLocaleString("en-US");
const cell = (s: string) => s.replace(/\|/g, "\\|");

function totals(sessions: readonly BuiltSession[]) {
  return {
    sessions: sessions.length,
    groups: new Set(sessions.map((s) => s.entry.group)).size,
    agents: [...new Set(sessions.map((s) => s.entry.agent))].sort(),
    calls: sessions.reduce((n, s) => n + countCalls(s.file), 0),
    bytes: sessions.reduce((n, s) => n + Buffer.byteLength(s.bytes), 0),
  };
}

/** The MANIFEST text for `sessions` (already in the order to list them). */
export function renderManifest(sessions: readonly BuiltSession[]): string {
  const rows = sessions.map((s) => {
    const f = s.file;
    const src = `${s.entry.repo} / \`${s.entry.path}\` @ ${s.entry.commit.slice(0, 12)}`;
    return `| ${s.entry.id} | ${s.entry.split} | ${s.entry.group} | ${s.entry.agent} | ${f.provider} | ${f.model ?? "not recorded"} | ${countCalls(f)} | ${fmt(Buffer.byteLength(s.bytes))} | ${cell(src)} | ${cell(s.entry.license)} | ${cell(describeScrub(s.scrub))} |`;
  });
  const set = (name: "dev" | "test") => {
    const t = totals(sessions.filter((s) => s.entry.split === name));
    return `| ${name} | ${t.sessions} | ${t.groups} | ${t.agents.join(", ")} | ${fmt(t.calls)} | ${fmt(t.bytes)} |`;
  };
  const all = totals(sessions);
  const notes = sessions.map((s) => [`### ${s.entry.id}`, "", `* commit: \`${s.entry.commit}\``, ...s.notes.map((n) => `* ${n}`), ""].join("\n"));
  return `# Evaluation corpus (dev / test)

Real agent sessions recorded by other people and committed to public GitHub repositories,
converted to the shared corpus format (the format of ../shared/corpus, read by
\`tools/replay/read-corpus.ts\`) so that \`npm run replay -- corpus/eval/dev\` and
\`npm run replay -- corpus/eval/test\` run them unchanged. None of them is one of the sessions
Sluice was developed on (../shared/corpus, copied to corpus/seed/).

Rules and defaults are tuned on \`dev\` only; \`test\` is reported and never tuned on.

**Rebuild:** \`npm run corpus:build -- --mirror DIR\`, where DIR holds a copy of each source
repository (\`DIR/<owner>+<name>/repo\` or \`DIR/<owner>+<name>\` as a bare git dir, or
\`DIR/<owner>/<name>\` as a clone; the default DIR is /work/.mirror). The script reads each
file at the commit listed in \`tools/corpus/sources.json\`, converts it, scrubs it and rewrites
this directory and this file; the output is byte-for-byte the same on every run.

## Sessions

| id | split | group | agent | provider | model | model calls | bytes | source (repo / path @ commit) | licence | scrubbed |
|---|---|---|---|---|---|---|---|---|---|---|
${rows.join("\n")}

**Totals:** ${all.sessions} sessions from ${all.groups} users/projects, ${all.agents.length} agents (${all.agents.join(", ")}), ${fmt(all.calls)} model calls, ${fmt(all.bytes)} bytes.

| set | sessions | users/projects | agents | model calls | bytes |
|---|---|---|---|---|---|
${set("dev")}
${set("test")}

## Split rule

The split was made once, by user/project, never by session: the unit is the \`group\` (the GitHub
owner of the source repository; one person's sessions never sit on both sides).
\`tools/corpus/split.ts\` is the rule and \`tools/corpus/sources.json\` holds the result, frozen:

1. Agents are taken from the rarest (fewest groups) to the most common, ties by name.
2. For each agent, its groups not yet placed are taken in order of sha256(group name) (hex), and
   each goes to the set that holds fewer groups with that agent; on a tie, to the set with fewer
   groups; on a tie again, to dev.

So each set holds about half the groups, and every agent recorded by two or more groups is in
both sets (OpenCode has one group: it is in dev only). A session added later joins the set of its
group, or a new group is placed by the same rule; no existing group moves.

## Formats and what the conversion does

* **session-export** (\`sessions/*.json\`, \`trajectory.json\`): an exporter used by the
  contributors of one public task programme (full-stack apps built from a written brief, then
  audit-driven bug-fix rounds) writes \`{messages, meta}\`, with the agent's own session header in
  \`meta.session_meta\`. Claude Code sessions become \`anthropic\` messages, Codex sessions
  \`openai-responses\` items (\`call_starts\` by the output-item rule), OpenCode sessions
  \`openai-chat\` messages. The exporter logs one message per content block and keeps no message
  ids: consecutive assistant messages, and assistant messages logged while a call of the turn
  still waits for its output, are one model call (a call needs every earlier output); parallel
  calls whose outputs all came back before the next one was logged count as separate calls.
  Outputs listed just before their call are put after it; a user line logged mid-turn goes after
  the outputs; an output answering no call, or a call never answered, is dropped (noted per
  session; Codex items keep their recorded order). It keeps no thinking signatures (Claude Code) and redacts reasoning
  (OpenCode), so reasoning blocks are dropped; Codex reasoning items are not in the export.
  Sub-agent conversations logged into the same file are dropped.
* **claude-code-jsonl** (\`~/.claude/projects/…/<session>.jsonl\`, here from benchmark job
  outputs): merged by the replay reader's rules (\`tools/replay/read-claude-code.ts\`); thinking
  blocks keep their signatures.
* **mini-swe-agent-traj** (\`*.traj.json\`): the messages mini-swe-agent sent through LiteLLM,
  kept with role, content and tool calls only; the first system message becomes \`system\`.
  Version 1 trajectories carry text actions (a bash block per reply, observations as user
  messages); version 2 (\`mini-swe-agent-1.1\`) native tool calls.
* \`tools\` is \`[]\` everywhere: no source records its tool definitions; the replay synthesises
  them from the names used. Only Codex (base instructions) and mini-swe-agent record the system
  prompt.
* Models the price table does not know (e.g. a programme-internal Codex model alias, grok via
  OpenRouter) are billed at the provider's default row by the replay; sessions whose model was
  not recorded replay on the provider default (\`tools/replay/defaults.ts\`).

## Scrubbing

Every string of the content (not \`id\` / \`source\`: the repository names its owner, which is
the provenance) is scrubbed with same-length replacements (letters and digits become \`x\`):
user names after home-directory prefixes (\`/Users/\`, \`/home/\`, \`C:\\Users\\\`, Claude Code
project dirs) and, for names that are not ordinary words, anywhere as a whole word; e-mail
addresses (not \`@example.*\`, \`noreply@anthropic.com\`, \`git@github.com\`); git author
names; API keys, tokens, JWTs, private keys; 192.168.x.x addresses. Counts per session are in
the table. Contributors' first names that appear only in free text are not detected.

## Caveats

* Licences: no source repository carries a licence file; the sessions are used here, as in
  ../shared/corpus, as published evidence of agent behaviour, with provenance kept.
* ${sessions.filter((s) => s.entry.format === "session-export").length} of the ${sessions.length} sessions come from one task programme; they are real, long, multi-round coding
  sessions by ${new Set(sessions.filter((s) => s.entry.format === "session-export").map((s) => s.entry.group)).size} different people, but similar in kind (build or fix a
  full-stack app from a brief). The others are benchmark-style runs (SWE-bench tasks, a job run
  of Claude Code on a scraper library) and one personal mini-swe-agent run.
* No SWE-agent, OpenHands or SDK-loop session long enough (≥ 15 calls) was found with a usable
  format; see the report that added this corpus.

## Per-session notes

${notes.join("\n")}`;
}
