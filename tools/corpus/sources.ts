/**
 * The list of evaluation-corpus sources (tools/corpus/sources.json) and its schema. Each entry
 * names one session file in a public GitHub repository at a fixed commit, the agent that recorded
 * it, its converter (`format`), the licence found in the repository, the user/project `group`
 * the split is made by, and the frozen `split` (./split.ts gives the rule that produced it).
 */
import { readFileSync } from "node:fs";
import { z } from "zod";

export const SOURCE_FORMATS = ["session-export", "claude-code-jsonl", "mini-swe-agent-traj"] as const;

const Source = z.object({
  id: z.string().regex(/^[a-z0-9][a-z0-9-]*$/, "lower-case letters, digits and dashes"),
  repo: z.string().regex(/^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/, "owner/name"),
  path: z.string().min(1),
  commit: z.string().regex(/^[0-9a-f]{40}$/, "40 hex digits"),
  format: z.enum(SOURCE_FORMATS),
  agent: z.string().min(1),
  group: z.string().min(1),
  license: z.string().min(1),
  split: z.enum(["dev", "test"]),
});

/** One source entry. */
export type CorpusSourceEntry = z.infer<typeof Source>;

/** Parses the sources list; throws naming the entry and field on bad input or a repeated id. */
export function parseSources(text: string, name: string): CorpusSourceEntry[] {
  const parsed = z.array(Source).safeParse(JSON.parse(text));
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new Error(`${name}: field ${issue.path.join(".")}: ${issue.message}`);
  }
  const seen = new Set<string>();
  for (const s of parsed.data) {
    if (seen.has(s.id)) throw new Error(`${name}: id ${s.id} appears twice`);
    seen.add(s.id);
  }
  return parsed.data;
}

/** Path of the committed sources list. */
export const SOURCES_PATH = "tools/corpus/sources.json";

/** Reads and parses the committed sources list. */
export function loadSources(path = SOURCES_PATH): CorpusSourceEntry[] {
  return parseSources(readFileSync(path, "utf8"), path);
}
