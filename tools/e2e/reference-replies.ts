/**
 * Claude Code's "file unchanged" reference replies (pure): a Read result that stands for an
 * earlier Read result of the same file instead of repeating it. The strings are the client's own,
 * copied from @anthropic-ai/claude-code 2.1.332 (bin/claude.exe: the recogniser `l_n`, which
 * tests `startsWith` on these three). Finds, in a forwarded body, every reference reply whose
 * earlier full result was removed or cut on the way — the model is told to refer to a result it
 * can no longer see.
 */
import { arr, prop, str, type Json } from "../emulator/shared/json";

/** Openings of a reference reply (startsWith, as the client tests them). */
export const REFERENCE_REPLY_OPENINGS: readonly string[] = [
  "File unchanged since last read. The content from the earlier Read tool_result in this conversation is still current \u2014 refer to that instead of re-reading.",
  "Wasted call \u2014 file unchanged since your last Read. Refer to that earlier tool_result instead.",
  "<system-reminder>This file is already in your context",
];

/** Text of a tool_result's content (string, or its text blocks joined). */
function resultText(content: Json | undefined): string {
  if (typeof content === "string") return content;
  return (Array.isArray(content) ? content : []).map((b) => str(b, "text") ?? "").join("");
}

/** True when a tool result's text is a reference reply. */
export function isReferenceReply(text: string): boolean {
  return REFERENCE_REPLY_OPENINGS.some((o) => text.startsWith(o));
}

interface ReadResult {
  tool_use_id: string;
  file: string;
  text: string;
}

/** Read tool results of a Messages body, in order, with the file each read. */
function readResults(body: Json): ReadResult[] {
  const files = new Map<string, string>();
  const out: ReadResult[] = [];
  for (const m of arr(body, "messages") ?? []) {
    const content = prop(m, "content");
    for (const b of Array.isArray(content) ? content : []) {
      if (str(b, "type") === "tool_use" && str(b, "name") === "Read") files.set(str(b, "id") ?? "", str(prop(b, "input"), "file_path") ?? "");
      const id = str(b, "tool_use_id");
      if (str(b, "type") === "tool_result" && id !== undefined && files.has(id)) out.push({ tool_use_id: id, file: files.get(id)!, text: resultText(prop(b, "content")) });
    }
  }
  return out;
}

/** Reference replies of one request and those pointing at a removed or cut result. */
export interface ReferenceCheck {
  /** Reference replies in the client's body. */
  references: number;
  /** tool_use ids of reference replies whose referenced result is absent from the forwarded body. */
  pointing_at_removed: string[];
  /** … whose referenced result is present but shorter than the client sent it. */
  pointing_at_cut: string[];
}

/**
 * Checks every reference reply of `sent` (the client's body) against `forwarded` (what reached
 * the provider): the referenced result is the latest full (non-reference) Read result of the same
 * file before the reply in `sent`. A reference reply removed from `forwarded` itself is not
 * counted (nothing then points anywhere).
 */
export function checkReferences(sent: Json, forwarded: Json): ReferenceCheck {
  const client = readResults(sent);
  const kept = new Map(readResults(forwarded).map((r) => [r.tool_use_id, r.text]));
  const check: ReferenceCheck = { references: 0, pointing_at_removed: [], pointing_at_cut: [] };
  client.forEach((r, k) => {
    if (!isReferenceReply(r.text)) return;
    check.references++;
    if (!kept.has(r.tool_use_id)) return;
    const target = client.slice(0, k).reverse().find((e) => e.file === r.file && !isReferenceReply(e.text));
    if (!target) return;
    const fwd = kept.get(target.tool_use_id);
    if (fwd === undefined) check.pointing_at_removed.push(r.tool_use_id);
    else if (fwd.length < target.text.length) check.pointing_at_cut.push(r.tool_use_id);
  });
  return check;
}
