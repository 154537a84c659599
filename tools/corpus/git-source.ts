/**
 * Reads a source file at a commit from a local copy of its repository (I/O: git). Looked for,
 * in order, under `root`: `<owner>+<name>/repo` and `<owner>+<name>` (bare git dirs, the layout
 * the search tool's `fetch` leaves in /work/.mirror), `<owner>/<name>` (a `git clone`).
 * Throws naming the repository when no copy holds the commit and path.
 */
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";

/** Candidate git directories for `repo` under `root`. */
export function gitDirCandidates(root: string, repo: string): string[] {
  const [owner, name] = repo.split("/") as [string, string];
  return [join(root, `${owner}+${name}`, "repo"), join(root, `${owner}+${name}`), join(root, owner, name, ".git")];
}

/** The bytes of `path` at `commit` in `repo`, as UTF-8 text. */
export function readSourceFile(root: string, repo: string, commit: string, path: string): string {
  const dirs = gitDirCandidates(root, repo).filter((d) => existsSync(d));
  if (dirs.length === 0) throw new Error(`${repo}: no local copy under ${root} (clone it to ${join(root, repo)} or fetch it)`);
  for (const dir of dirs) {
    try {
      return execFileSync("git", ["--git-dir", dir, "show", `${commit}:${path}`], { maxBuffer: 256 * 1024 * 1024, stdio: ["ignore", "pipe", "pipe"] }).toString("utf8");
    } catch {
      // try the next copy
    }
  }
  throw new Error(`${repo}: ${path} at ${commit} not found in ${dirs.join(", ")}`);
}
