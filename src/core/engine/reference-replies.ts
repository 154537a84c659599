/**
 * Reference replies (pure data + one recogniser): tool results in which the client answers a
 * repeated call by pointing back at an earlier result instead of repeating it. Such a reply is
 * not a copy of anything: the model must find the earlier result in its context, so that result
 * stays while the reply is in the history (./referenced-results.ts), and the reply never counts
 * as a newer copy of the file (./rule-superseded-read.ts).
 *
 * One row per exact client string. A result is a reference reply when its text, leading
 * whitespace aside, starts with a row's `text` and its call is a read (./read-tool-call.ts) —
 * the client's own detector matches the same way (a prefix test on the result text).
 */
import type { ToolPair } from "../view/types";

/** One recognised reply. */
export interface ReferenceReply {
  /** Client that writes it. */
  client: string;
  /** The reply's exact opening text (U+2014 em dashes as the client writes them). */
  text: string;
  /** Where the string comes from. */
  source: string;
}

/**
 * The recognised replies. Claude Code's Read tool answers a Read of a file it read before with
 * the same `file_path`, `offset` and `limit` and an unchanged modification time with a
 * `file_unchanged` result instead of the content; the model sees one of these two texts.
 */
export const REFERENCE_REPLIES: readonly ReferenceReply[] = [
  {
    client: "claude-code",
    text: "Wasted call \u2014 file unchanged since your last Read. Refer to that earlier tool_result instead.",
    source: "Claude Code 2.1.x Read tool (`file_unchanged` result, short form); seen in public Claude Code transcripts (e.g. GitHub code search: \"Refer to that earlier tool_result instead\")",
  },
  {
    client: "claude-code",
    text: "File unchanged since last read. The content from the earlier Read tool_result in this conversation is still current \u2014 refer to that instead of re-reading.",
    source: "Claude Code 2.1.x Read tool (`FILE_UNCHANGED_STUB`, tools/FileReadTool/prompt.ts, long form), as ported byte for byte in public Claude Code re-implementations",
  },
];

/**
 * Results longer than this (bytes in the body) are never reference replies: the recognised texts
 * are under 200 bytes, and a client may append a short note. The bound keeps the recogniser from
 * decoding large results (ToolPair.result_text is decoded on first read).
 */
export const MAX_REFERENCE_REPLY_BYTES = 1024;

/** Whether `pair`'s result is one of REFERENCE_REPLIES (call kind is the caller's concern). */
export function isReferenceReply(pair: Pick<ToolPair, "result_bytes" | "result_text">): boolean {
  if (pair.result_bytes > MAX_REFERENCE_REPLY_BYTES) return false;
  const t = pair.result_text.trimStart();
  for (const r of REFERENCE_REPLIES) if (t.startsWith(r.text)) return true;
  return false;
}
