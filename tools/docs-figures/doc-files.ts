/** The files `npm run docs:figures` reads for figure markers: README.md and every Markdown file under docs/ (Node, reads the folder). */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** Absolute paths, README.md first, then docs/ in sorted order. */
export function docFiles(root: string = fileURLToPath(new URL("../../", import.meta.url).href)): string[] {
  const docs = readdirSync(join(root, "docs"), { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".md")).map((f) => join(root, "docs", f));
  return [join(root, "README.md"), ...docs.sort()];
}
