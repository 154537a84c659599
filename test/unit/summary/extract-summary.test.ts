import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { extractSummary, EXTRACT_LIMITS } from "../../../src/core/summary/extract-summary";
import { anthropicSummaryTurns, chatSummaryTurns } from "../../support/chat-summary-turns";
import { CORPUS_PATH } from "../../support/shared-dir";
import { HAND_STRETCH, HAND_SUMMARY } from "../../support/summary-stretch";

describe("extractSummary", () => {
  it("reports files, commands with exit status, the error with its fix, and the decision record", () => {
    expect(extractSummary(HAND_STRETCH)).toBe(HAND_SUMMARY);
  });

  it("gives no summary for a stretch with nothing to report", () => {
    expect(extractSummary([{ role: "user", parts: [{ type: "text", text: "hello" }] }, { role: "assistant", parts: [{ type: "text", text: "Hi." }] }])).toBe("");
  });

  it("cuts at a line boundary within max_chars and says so", () => {
    const out = extractSummary(HAND_STRETCH, { ...EXTRACT_LIMITS, max_chars: 120 });
    expect(out).toBe("Files touched:\n- /repo/src/config.ts (Read)\n- /repo/src/main.ts (Edit)\n… (summary cut at 120 characters)");
    expect(out.length).toBeLessThanOrEqual(120);
  });

  it("caps each section and counts what it left out", () => {
    const out = extractSummary(HAND_STRETCH, { ...EXTRACT_LIMITS, files: 1, decisions: 1 });
    expect(out.split("\n").slice(0, 3)).toEqual(["Files touched:", "- /repo/src/config.ts (Read)", "- … and 1 more"]);
    expect(out.endsWith("Decisions:\n- **Decision:** import `y` from config instead of redefining it.\n- … and 2 more")).toBe(true);
  });

  it("summarises a Codex corpus slice: patch files, shell commands, the traceback's error and its fix", () => {
    const session = JSON.parse(readFileSync(`${CORPUS_PATH}/codex-rtchess-01.json`, "utf8")) as { messages: Parameters<typeof chatSummaryTurns>[0] };
    const out = extractSummary(chatSummaryTurns(session.messages.slice(670, 690)));
    expect(out).toBe([
      "Files touched:",
      "- export_development_history.py (updated)",
      "Commands run:",
      "- `python3 export_development_history.py 019aad50-a7e6-7422-b7a8-0b384290624f` → exit 1",
      "- `python3 export_development_history.py 019aad50-a7e6-7422-b7a8-0b384290624f` → exit 0",
      "- `head -n 5 exported-session.jsonl` → exit 0",
      "- `rg '\"role\": \"assistant\"' exported-session.jsonl | head` → exit 0",
      "- `python3 export_development_history.py 019aad50-a7e6-7422-b7a8-0b384290624f` → exit 0",
      "Errors:",
      "- `python3 export_development_history.py 019aad50-a7e6-7422-b7a8-0b384290624f` (exit 1): NameError: name 'write_exported_from_events' is not defined — fixed: export_development_history.py changed, then it succeeded",
    ].join("\n"));
  });

  it("keeps a heredoc patch's file and a failed patch's own message verbatim (Codex slice)", () => {
    const session = JSON.parse(readFileSync(`${CORPUS_PATH}/codex-rtchess-01.json`, "utf8")) as { messages: Parameters<typeof chatSummaryTurns>[0] };
    const out = extractSummary(chatSummaryTurns(session.messages.slice(484, 500)));
    expect(out).toContain("- index.js (updated)\n");
    expect(out).toContain("- `apply_patch <<'PATCH' …` (exit 1) on index.js: Failed to find expected lines in index.js: — fixed: it succeeded when run again");
  });

  it("summarises a Claude Code corpus slice: Bash exit codes, Python exceptions verbatim and their retries", () => {
    const session = JSON.parse(readFileSync(`${CORPUS_PATH}/cc-brain-explore-ies-thinking.json`, "utf8")) as { messages: Parameters<typeof anthropicSummaryTurns>[0] };
    expect(extractSummary(anthropicSummaryTurns(session.messages.slice(20, 34))).split("\n")).toEqual([
      "Files touched:",
      "- /Mockups/Knowledgebase Approaches (mcp__siyuan-mcp__create_doc)",
      "Commands run:",
      "- `docker compose ps` → ok",
      "- `python3 -c \" …` → exit 1",
      "- `grep -A 5 \"NEO4J\" docker-compose.yml 2>/dev/null || grep -A 5 \"neo4j\" docker-compose.yml | head -20` → ok",
      "- `python3 -c \" …` → exit 1",
      "- `python3 -c \" …` → ok (×2)",
      "Errors:",
      "- `python3 -c \" …` (exit 1): neo4j.exceptions.AuthError: {code: Neo.ClientError.Security.Unauthorized} {message: The client is unauthorized due to authentication failure.} — fixed: it succeeded when run again",
      "- `python3 -c \" …` (exit 1): neo4j.exceptions.CypherSyntaxError: {code: Neo.ClientError.Statement.SyntaxError} {message: A pattern expression should only be used in order to test the existence of a pattern. It can no longer be used inside the function size(), an alternative is to replace size() with COUNT {}. (line 3, column 22… — fixed: it succeeded when run again"
    ]);
  });
});
