/**
 * One source file → one scrubbed corpus session (pure): picks the converter by the entry's
 * `format`, then scrubs personal data (./scrub.ts). The same function builds the committed files
 * and the byte-exact test of them.
 */
import type { Json } from "../replay/types";
import { type CorpusFile, serializeCorpusFile } from "./corpus-file";
import { convertClaudeJsonl } from "./convert-claude-jsonl";
import { convertMiniSweAgent } from "./convert-mini-swe-agent";
import { convertSessionExport } from "./convert-session-export";
import { type ScrubCounts, scrubSession } from "./scrub";
import type { CorpusSourceEntry } from "./sources";

/** A converted, scrubbed session with what the MANIFEST reports about it. */
export interface BuiltSession {
  entry: CorpusSourceEntry;
  file: CorpusFile;
  /** The exact bytes to commit. */
  bytes: string;
  notes: string[];
  scrub: ScrubCounts;
}

/** Converts and scrubs one source file's text. Throws naming the file on bad input or an agent mismatch. */
export function buildSession(entry: CorpusSourceEntry, text: string): BuiltSession {
  const name = `${entry.repo}/${entry.path}`;
  const base = { repo: entry.repo, path: entry.path, commit: entry.commit, license: entry.license };
  const converted = (() => {
    switch (entry.format) {
      case "session-export":
        return convertSessionExport(JSON.parse(text) as Json, entry.id, base, name);
      case "claude-code-jsonl":
        return convertClaudeJsonl(text, entry.id, base, name);
      case "mini-swe-agent-traj":
        return convertMiniSweAgent(JSON.parse(text) as Json, entry.id, base, name);
      default: {
        const never: never = entry.format;
        throw new Error(`${name}: unknown format ${String(never)}`);
      }
    }
  })();
  if (converted.file.source.agent !== entry.agent) throw new Error(`${name}: sources.json says agent ${entry.agent}, the file was written by ${converted.file.source.agent}`);
  // Provenance (id, source) is public — the repository names its owner —; only the content is scrubbed.
  const { id, source, ...content } = converted.file;
  const scrubbed = scrubSession(content as unknown as Json);
  const file: CorpusFile = { ...(scrubbed.value as unknown as Omit<CorpusFile, "id" | "source">), id, source };
  return { entry, file, bytes: serializeCorpusFile(file), notes: converted.notes, scrub: scrubbed.counts };
}
