/**
 * Shell file writes (src/core/engine/shell-writes.ts) and how the call classifier
 * (src/core/engine/read-tool-call.ts) files them: a here-document or PowerShell here-string
 * written to a file is an edit of that file (whole when it replaces it), so the agent's working
 * set (src/core/engine/file-views.ts) holds the file it is writing through its shell; and the idle
 * tier keeps such a write while the file is in the working set.
 */
import { describe, expect, it } from "vitest";
import { shellWrite } from "../../src/core/engine/shell-writes";
import { readToolCall } from "../../src/core/engine/read-tool-call";
import { runHeuristicEngine } from "../../src/core/engine/run-heuristic-engine";
import { CORE_DEFAULTS, compact } from "../../src/core/policy/compact";
import { EMPTY_LEDGER } from "../../src/core/policy/ledger";
import { stepOutputOf } from "../../src/core/policy/step-output";
import { MODEL_PRICES } from "../../src/core/cost/prices";
import type { BudgetPressure, TierContext } from "../../src/core/policy/types";
import { factsOf, lines, makeView, type MessageSpec } from "../support/make-view";

describe("shellWrite", () => {
  it("a here-document into cat or tee writes its file: whole with >, an append with >> or tee -a", () => {
    expect(shellWrite("cat > src/x.py <<'EOF'\nimport os\nEOF")).toEqual({ paths: ["src/x.py"], whole: true });
    expect(shellWrite("mkdir -p src && cat <<EOF > 'src/y z.ts'\nexport {};\nEOF")).toEqual({ paths: ["src/y z.ts"], whole: true });
    expect(shellWrite("cat <<EOF >> notes.md\nmore\nEOF")).toEqual({ paths: ["notes.md"], whole: false });
    expect(shellWrite("tee docs/a.md <<'EOF'\n# A\nEOF")).toEqual({ paths: ["docs/a.md"], whole: true });
    expect(shellWrite("tee -a log.txt <<EOF\nx\nEOF")).toEqual({ paths: ["log.txt"], whole: false });
  });
  it("a PowerShell here-string into Set-Content or Out-File replaces its file; Add-Content appends", () => {
    expect(shellWrite("cd repo; @'\npackage x\n'@ | Set-Content backend/a.go")).toEqual({ paths: ["backend/a.go"], whole: true });
    expect(shellWrite("@\"\nhi\n\"@ | Out-File -FilePath out.txt -Encoding utf8")).toEqual({ paths: ["out.txt"], whole: true });
    expect(shellWrite("cd repo; Set-Content -Path add_ack.py -Value @'\nprint(1)\n'@")).toEqual({ paths: ["add_ack.py"], whole: true });
    expect(shellWrite("@'\nline\n'@ | Add-Content -Path CHANGES.md")).toEqual({ paths: ["CHANGES.md"], whole: false });
  });
  it("Set-Content of a computed value into an assigned path is an edit, not whole; an unassigned variable is no write", () => {
    expect(shellWrite("$p='backend/b.go'; $t=Get-Content $p -Raw; $t=$t.Replace('a','b'); Set-Content $p $t")).toEqual({ paths: ["backend/b.go"], whole: false });
    expect(shellWrite("Set-Content -Path $p -Value $out")).toBeNull();
  });
  it("two writes in one command: both files, whole only when both are replaced", () => {
    expect(shellWrite("cat > a.txt <<EOF\na\nEOF\ncat >> b.txt <<EOF\nb\nEOF")).toEqual({ paths: ["a.txt", "b.txt"], whole: false });
  });
  it("the text inside a here-document or here-string is written, not run: a script's own writes are not the command's", () => {
    expect(shellWrite("cat > deploy.sh <<'EOF'\n#!/bin/sh\ncat > /etc/app.conf <<CONF\nport=1\nCONF\nEOF")).toEqual({ paths: ["deploy.sh"], whole: true });
    expect(shellWrite("@'\n$out='result.txt'\nGet-Date | Set-Content $out\n'@ | Set-Content run.ps1")).toEqual({ paths: ["run.ps1"], whole: true });
    expect(shellWrite("cat > a.sh <<-EOF\n\tcat > b.txt <<X\n\tEOF\ncat > c.txt <<EOF\nc\nEOF")).toEqual({ paths: ["a.sh", "c.txt"], whole: true });
  });
  it("another program's output piped into a content cmdlet, and a path held in a shell variable, are no write", () => {
    expect(shellWrite("npm test 2>&1 | Set-Content test.log")).toBeNull();
    expect(shellWrite("Get-ChildItem | Out-File files.txt")).toBeNull();
    expect(shellWrite("cat > \"$OUT\" <<EOF\nx\nEOF")).toBeNull();
  });
  it("anything else is no write: a script fed a here-document, cat piped on, plain commands, output to /dev/null", () => {
    expect(shellWrite("python - <<'PY'\nopen('a','w').write('x')\nPY")).toBeNull();
    expect(shellWrite("cat <<EOF | python\nx\nEOF")).toBeNull();
    expect(shellWrite("tee /dev/null <<EOF\nx\nEOF")).toBeNull();
    expect(shellWrite("ls -la > listing.txt")).toBeNull();
    expect(shellWrite("sed -i s/a/b/ f")).toBeNull();
  });
});

describe("readToolCall files a shell write as an edit", () => {
  const sh = (command: string) => readToolCall({ tool_name: "shell_command", input_text: JSON.stringify({ command }) });
  it("under the leading cd's directory, with a write: intent", () => {
    expect(sh("cd repo; @'\npackage x\n'@ | Set-Content backend/a.go")).toEqual({ kind: "edit", paths: ["repo/backend/a.go"], whole: true, readonly: false, intent: "write:repo/backend/a.go" });
    expect(sh("cat >> notes.md <<EOF\nx\nEOF")).toEqual({ kind: "edit", paths: ["notes.md"], whole: false, readonly: false, intent: "write:notes.md" });
    expect(sh("python - <<'PY'\nprint(1)\nPY")).toEqual({ kind: "other", readonly: false, intent: "sh:python - <<'PY' print(1) PY" });
  });
});

describe("the idle tier keeps a shell write of a file in the working set", () => {
  // Turn = assistant message. t0 writes a.go whole through the shell, t1 runs the tests (a long log),
  // t2 writes b.go whole, t3 rewrites b.go whole, then prose. a.go's current view is w1, b.go's is w3
  // (w2 is superseded by the complete rewrite w3).
  const body = (tag: string) => lines(300, tag);
  const call = (id: string, command: string, text: string): MessageSpec[] => [
    { role: "assistant", calls: [{ id, tool: "shell_command", input: { command } }] },
    { role: "user", results: [{ id, text }] },
  ];
  const messages: MessageSpec[] = [
    { role: "user", text: "write the handlers" },
    ...call("w1", `cd repo; @'\n${body("a")}\n'@ | Set-Content a.go`, "Exit code: 0"),
    ...call("t1", "cd repo; go test ./...", lines(6_000, "test")),
    ...call("w2", `cd repo; @'\n${body("b")}\n'@ | Set-Content b.go`, "Exit code: 0"),
    ...call("w3", `cd repo; @'\n${body("b2")}\n'@ | Set-Content b.go`, "Exit code: 0"),
    ...Array.from({ length: 4 }, (): MessageSpec[] => [{ role: "assistant", text: "Checking." }, { role: "user", text: "go on" }]).flat(),
  ];
  const view = makeView({ outside_tokens: 1_000, messages });
  it("the engine guards the current writes w1 and w3; w2 goes to superseded_edit", () => {
    const run = runHeuristicEngine(factsOf(view), CORE_DEFAULTS);
    expect(run.hits.working_set).toEqual(["w1", "w3"]);
    expect(run.hits.superseded_edit).toEqual(["w2"]);
  });
  it("after an idle gap the tier drops the test log and the superseded write whole, and leaves w1 and w3", () => {
    const P: BudgetPressure = { turn_count: view.turn_count, context_pct_used: 0.3, idle_seconds: 600, session_complete: false };
    const first_seen = Object.fromEntries(view.pairs.map((p) => [p.id, 1_000_000]));
    const ctx: TierContext = {
      view: factsOf(view), ledger: { ...EMPTY_LEDGER, first_seen }, pressure: P, config: CORE_DEFAULTS, prices: MODEL_PRICES, now_ms: 10_000_000, expected_remaining_calls: 50, correlation_id: "req-1",
    };
    const r = compact(ctx);
    expect(r.tier).toBe("time_based");
    expect(stepOutputOf(r).new_pair_rules).toEqual([{ pair_id: "t1", rule: "age" }, { pair_id: "w2", rule: "age" }]);
  });
});
