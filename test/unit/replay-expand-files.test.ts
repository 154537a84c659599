/** The replay's session-file list (tools/replay/expand-files.ts). */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { expandFiles } from "../../tools/replay/expand-files";

describe("replay session files", () => {
  it("takes named files as they are and searches directories for *.json / *.jsonl in name order", () => {
    const dir = mkdtempSync(join(tmpdir(), "sluice-expand-"));
    mkdirSync(join(dir, "sub"));
    for (const f of ["b.json", "a.jsonl", "notes.txt", "sub/c.json"]) writeFileSync(join(dir, f), "{}");
    expect(expandFiles([dir, join(dir, "notes.txt")])).toEqual([join(dir, "a.jsonl"), join(dir, "b.json"), join(dir, "sub/c.json"), join(dir, "notes.txt")]);
  });
  it("an empty folder is an error naming it, not a replay without runs", () => {
    const dir = mkdtempSync(join(tmpdir(), "sluice-expand-empty-"));
    writeFileSync(join(dir, "readme.md"), "#");
    expect(() => expandFiles([dir])).toThrow(`no session files (*.json, *.jsonl) in ${dir}`);
    expect(() => expandFiles([join(dir, "missing")])).toThrow(`${join(dir, "missing")}: no such file or directory`);
  });
});
