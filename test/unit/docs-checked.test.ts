/**
 * The docs' checkable statements hold: docs/deploy.md's [env.staging] example, appended to the
 * project's wrangler.toml, passes config:check and deploy:check (it once lacked the MEMORY
 * binding and the base-URL vars, and both checks passed it); its migration table and its "append
 * the next tag" example match wrangler.toml and the Worker's classes; every figure the docs mark
 * is one `npm run docs:figures` measures (tools/docs-figures), and its markers are rewritten in
 * place.
 */
import { readFileSync } from "node:fs";
import { parse } from "smol-toml";
import { describe, expect, it } from "vitest";
import { DURABLE_OBJECT_CLASSES } from "../../src/durable-object-classes";
import { checkWranglerEnvironments, checkWranglerToml } from "../../tools/config-check";
import { checkDeploy } from "../../tools/deploy/check-deploy";
import { docFiles } from "../../tools/docs-figures/doc-files";
import { findFigures, replaceFigures } from "../../tools/docs-figures/markers";
import { FIGURES } from "../../tools/docs-figures/measure";

const DEPLOY = readFileSync("docs/deploy.md", "utf8");
const WRANGLER = readFileSync("wrangler.toml", "utf8");
/** The first ```toml block after `heading` in docs/deploy.md. */
const tomlAfter = (heading: string) => /```toml\n([\s\S]*?)```/.exec(DEPLOY.slice(DEPLOY.indexOf(heading)))![1]!;

describe("docs/deploy.md", () => {
  it("the [env.staging] example passes config:check and deploy:check", () => {
    const text = `${WRANGLER}\n${tomlAfter("## Environments")}`;
    expect(checkWranglerToml(text).map((r) => [r.where, r.ok])).toEqual([["[vars]", true], ["[env.staging.vars]", true]]);
    expect(checkWranglerEnvironments(text).map((r) => [r.where, r.ok, r.lines])).toEqual([
      ["top level", true, ["ok: Durable Object bindings and migrations match the Worker's classes"]],
      ["[env.staging]", true, ["ok: Durable Object bindings and migrations match the Worker's classes"]],
    ]);
    const gate = checkDeploy([{ name: "worker.js", bytes: 1, gzipBytes: 1 }], text);
    expect([gate.ok, gate.lines.filter((l) => !l.startsWith("ok"))]).toEqual([true, []]);
  });

  it("the migration table is wrangler.toml's, the Worker's classes, and the example appends the next tag", () => {
    const doc = parse(WRANGLER) as { migrations: { tag: string; new_sqlite_classes: string[] }[]; durable_objects: { bindings: { name: string; class_name: string }[] } };
    const section = DEPLOY.slice(DEPLOY.indexOf("## Durable Object migrations"), DEPLOY.indexOf("## Custom domain"));
    const rows = [...section.matchAll(/^\| `(v\d+)` \| `(\w+)` \| `(\w+)` \|$/gm)].map((m) => [m[1], m[2], m[3]]);
    const binding = (cls: string) => doc.durable_objects.bindings.find((b) => b.class_name === cls)!.name;
    expect(rows).toEqual(doc.migrations.map((m) => [m.tag, m.new_sqlite_classes[0], binding(m.new_sqlite_classes[0]!)]));
    expect(rows.map((r) => r[1]).sort()).toEqual(DURABLE_OBJECT_CLASSES.map((c) => c.class_name).sort());
    expect(tomlAfter("To add a class")).toBe(`[[migrations]]\ntag = "v${doc.migrations.length + 1}"\nnew_sqlite_classes = ["NewClass"]\n`);
    const words = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"];
    expect(DEPLOY).toContain(`Sluice runs as one Worker with ${words[DURABLE_OBJECT_CLASSES.length]} Durable Object classes`);
    expect(section).toContain(`The Worker exports ${words[DURABLE_OBJECT_CLASSES.length]} Durable Object classes`);
  });
});

describe("figures in the docs (npm run docs:figures)", () => {
  it("every marked figure is one the command measures, and each figure it measures is stated somewhere", () => {
    const marked = docFiles().flatMap((f) => findFigures(readFileSync(f, "utf8")).map((m) => m.name));
    expect([...new Set(marked)].sort()).toEqual(Object.keys(FIGURES).sort());
  });

  it("replaceFigures rewrites only the named markers' content and reports what changed", () => {
    const text = "a <!-- figure:bundle -->1 KiB<!-- /figure --> b <!-- figure:other -->x<!-- /figure -->";
    expect(replaceFigures(text, { bundle: "2 KiB" })).toEqual({ text: "a <!-- figure:bundle -->2 KiB<!-- /figure --> b <!-- figure:other -->x<!-- /figure -->", changed: ["bundle"] });
    expect(replaceFigures(text, { bundle: "1 KiB" })).toEqual({ text, changed: [] });
    expect(findFigures(text)).toEqual([{ name: "bundle", content: "1 KiB" }, { name: "other", content: "x" }]);
  });
});
