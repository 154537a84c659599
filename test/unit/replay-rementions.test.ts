/**
 * The replay's re-mention count (tools/replay/find-removed.ts countRementions): a removed pair
 * whose file path or shell command the agent's prose names at the removal's call or later.
 */
import { describe, expect, it } from "vitest";
import { countRefetches, countRementions } from "../../tools/replay/find-removed";
import { anthropicSession } from "../support/replay-lit-session";

const session = anthropicSession("mention-1", [
  { role: "user", content: "go" },
  { role: "assistant", content: [{ type: "tool_use", id: "t1", name: "Read", input: { file_path: "/repo/src/a.ts" } }] },
  { role: "user", content: [{ type: "tool_result", tool_use_id: "t1", content: "A" }] },
  { role: "assistant", content: [{ type: "tool_use", id: "t2", name: "Bash", input: { command: "npm test" } }] },
  { role: "user", content: [{ type: "tool_result", tool_use_id: "t2", content: "ok" }] },
  { role: "assistant", content: [{ type: "tool_use", id: "t3", name: "Read", input: { file_path: "/repo/src/b.ts" } }] },
  { role: "user", content: [{ type: "tool_result", tool_use_id: "t3", content: "B" }] },
  { role: "assistant", content: [{ type: "text", text: "Fixed the loop in `src/a.ts`." }] },
]);

describe("countRementions", () => {
  it("counts removed pairs whose path the later prose names (by its last segment too), not the others", () => {
    // Calls 0..3; removals first seen at call 2 (the request holding t1 and t2) and call 3.
    expect(countRementions(session, new Map([["t1", 2], ["t2", 2], ["t3", 3]]))).toBe(1);
    // The prose is in the reply to call 3: a removal first seen after it is not re-mentioned.
    expect(countRementions(session, new Map([["t1", 4]]))).toBe(0);
    expect(countRefetches(session, new Map([["t1", 2], ["t2", 2], ["t3", 3]]))).toBe(0);
  });
});

describe("countRefetches and recorded repeats", () => {
  it("a later copy of the same recorded call (`<id>_dup<n>`) is not a re-fetch; a new call with the same input is", () => {
    const call = (id: string) => ({ role: "assistant", content: [{ type: "tool_use", id, name: "Read", input: { file_path: "/r/a.ts" } }] });
    const result = (id: string) => ({ role: "user", content: [{ type: "tool_result", tool_use_id: id, content: "A" }] });
    const doc = (ids: string[]) => {
      const messages: unknown[] = [{ role: "user", content: "go" }];
      for (const id of ids) messages.push(call(id), result(id));
      messages.push({ role: "assistant", content: [{ type: "text", text: "done" }] });
      return anthropicSession("dup-1", messages);
    };
    // The export repeats t1 with its own id: the reader renames it t1_dup1.
    const copied = doc(["t1", "t1"]);
    expect(copied.calls[1]!.reply).toMatchObject({ content: [{ id: "t1_dup1" }] });
    expect(countRefetches(copied, new Map([["t1", 1]]))).toBe(0);
    expect(countRefetches(doc(["t1", "t2"]), new Map([["t1", 1]]))).toBe(1);
  });
});
