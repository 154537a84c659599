/**
 * The common vocabulary of a replayed corpus (pure): the project-specific-shaped tokens
 * (./project-tokens.ts) that appear in sessions of at least MIN_PROJECTS different projects.
 * Such a token is the language agents share (a library's API: `JSONDecodeError`; a tool's name:
 * `TodoWrite`; a round number: `100000`), which a model can write
 * without having read it in this request; a token of one project alone could only have come
 * from that project's files and outputs. Used-after-removal (./used-after-removal.ts) counts
 * only tokens outside this vocabulary.
 *
 * Why projects, not sessions: a corpus holds several sessions of one project (the same Codex
 * session in two wire formats; three sessions of one repository), and a token that every session
 * of one project uses is still that project's. A session's project is `RecordedSession.project`
 * (the corpus file's `source.repo`, a transcript's working directory), else its own id.
 * Why two: the smallest count that says "more than one project"; with more projects in a corpus
 * the vocabulary only grows, so the measure only gets stricter about what it calls specific.
 * Deterministic: sets of strings, no order or sampling involved.
 *
 * A session's tokens are those of every request part it sends (system prompt, tools, each history
 * item once: ./body-tokens.ts) and of every recorded answer.
 */
import { createBodyTokenCache, type BodyTokenCache } from "./body-tokens";
import { jsonTokens } from "./project-tokens";
import type { RecordedSession } from "./types";

/** Fewest projects a token appears in to be common vocabulary (see the module header). */
export const MIN_PROJECTS = 2;

/** The project a session belongs to: its recorded project, else its id. */
export const projectOf = (session: Pick<RecordedSession, "id" | "project">): string => session.project ?? session.id;

/** Every project-specific-shaped token of `session`: its requests' parts and its answers. */
export function sessionTokens(session: RecordedSession, cache: BodyTokenCache = createBodyTokenCache()): Set<string> {
  const out = new Set<string>();
  // Each call's body repeats the history before it: a part already merged is skipped.
  const merged = new Set<ReadonlySet<string>>();
  for (const call of session.calls) {
    for (const part of cache.partsOf(session.provider, call.body)) {
      if (merged.has(part)) continue;
      merged.add(part);
      for (const t of part) out.add(t);
    }
    for (const t of jsonTokens(call.reply)) out.add(t);
  }
  return out;
}

/** The tokens found in sessions of at least MIN_PROJECTS projects. */
export function commonVocabulary(sessions: readonly RecordedSession[], cache: BodyTokenCache = createBodyTokenCache()): Set<string> {
  const projectsOf = new Map<string, Set<string>>();
  for (const s of sessions) {
    const project = projectOf(s);
    for (const t of sessionTokens(s, cache)) {
      let ps = projectsOf.get(t);
      if (ps === undefined) projectsOf.set(t, (ps = new Set()));
      ps.add(project);
    }
  }
  const out = new Set<string>();
  for (const [t, ps] of projectsOf) if (ps.size >= MIN_PROJECTS) out.add(t);
  return out;
}
