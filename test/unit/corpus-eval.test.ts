/**
 * The committed evaluation corpus (corpus/eval): every session file parses with the replay's
 * reader and has at least 15 model calls; corpus/eval/MANIFEST.md lists every file, with the
 * source, licence and split of tools/corpus/sources.json; the sets meet the size the corpus is
 * for (≥ 30 sessions, ≥ 8 users/projects, ≥ 4 agents) and no group sits in both.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadSources } from "../../tools/corpus/sources";
import { readSessionText } from "../../tools/replay/read-session-text";

const ROOT = "corpus/eval";
const files = (["dev", "test"] as const).flatMap((split) => readdirSync(join(ROOT, split)).map((name) => ({ split, name, path: join(ROOT, split, name) })));
const sources = loadSources();

/** MANIFEST table rows: id → cells. */
function manifestRows(): Map<string, string[]> {
  const rows = new Map<string, string[]>();
  for (const line of readFileSync(join(ROOT, "MANIFEST.md"), "utf8").split("\n")) {
    if (!line.startsWith("| ") || line.startsWith("| id ") || line.startsWith("| set ")) continue;
    const cells = line.split(/(?<!\\)\|/).slice(1, -1).map((c) => c.trim());
    if (cells.length === 11) rows.set(cells[0]!, cells);
  }
  return rows;
}

describe("corpus/eval files", () => {
  it("holds exactly the sessions of tools/corpus/sources.json, each in its split's folder", () => {
    expect(files.map((f) => `${f.split}/${f.name}`).sort()).toEqual(sources.map((s) => `${s.split}/${s.id}.json`).sort());
  });

  it.each(files.map((f) => [f.path, f] as const))("%s parses as a corpus session with ≥ 15 calls", (_p, f) => {
    const text = readFileSync(f.path, "utf8");
    const session = readSessionText(text, f.path);
    expect(session.source.format).toBe("corpus");
    expect(session.id).toBe(f.name.replace(/\.json$/, ""));
    expect(session.calls.length).toBeGreaterThanOrEqual(15);
    const file = JSON.parse(text) as { source: { repo: string; commit: string } };
    const entry = sources.find((s) => s.id === session.id)!;
    expect(file.source).toMatchObject({ repo: entry.repo, commit: entry.commit, license: entry.license, agent: entry.agent });
  });
});

describe("corpus/eval/MANIFEST.md", () => {
  const rows = manifestRows();

  it("has one row per file, with the file's split, agent, source at its commit and licence", () => {
    expect([...rows.keys()].sort()).toEqual(sources.map((s) => s.id).sort());
    for (const s of sources) {
      const [, split, group, agent, , , , , source, license] = rows.get(s.id)!;
      expect({ split, group, agent, license }).toEqual({ split: s.split, group: s.group, agent: s.agent, license: s.license });
      expect(source).toBe(`${s.repo} / \`${s.path}\` @ ${s.commit.slice(0, 12)}`);
    }
  });

  it("states the calls and bytes of each file as committed", () => {
    for (const f of files) {
      const id = f.name.replace(/\.json$/, "");
      const [, , , , , , calls, bytes] = rows.get(id)!;
      const text = readFileSync(f.path, "utf8");
      expect(`${id}: ${calls} calls, ${bytes} bytes`).toBe(`${id}: ${readSessionText(text, f.path).calls.length} calls, ${Buffer.byteLength(text).toLocaleString("en-US")} bytes`);
    }
  });
});

describe("corpus/eval size and split", () => {
  it("has ≥ 30 sessions from ≥ 8 users/projects and ≥ 4 agents; each set ≥ 3 agents; no group in both sets", () => {
    const groups = (split?: string) => new Set(sources.filter((s) => split === undefined || s.split === split).map((s) => s.group));
    const agents = (split?: string) => new Set(sources.filter((s) => split === undefined || s.split === split).map((s) => s.agent));
    expect(sources.length).toBeGreaterThanOrEqual(30);
    expect(groups().size).toBeGreaterThanOrEqual(8);
    expect(agents().size).toBeGreaterThanOrEqual(4);
    expect(agents("dev").size).toBeGreaterThanOrEqual(3);
    expect(agents("test").size).toBeGreaterThanOrEqual(3);
    expect([...groups("dev")].filter((g) => groups("test").has(g))).toEqual([]);
  });
});
