/**
 * vitest globalSetup for the `workers` project: starts the upstream stand-in and provides its
 * URL (`upstreamUrl`), plus a URL where nothing listens (`unreachableUrl`), and the corpus
 * sessions and cases the pipeline tests replay (`corpus:<id>`, `case:<id>`, file text).
 */
import { readFileSync } from "node:fs";
import type { TestProject } from "vitest/node";
import { closedPortUrl, startUpstream } from "./upstream-server";
import { CORPUS_PATH, CASES_PATH } from "./shared-dir";

/** Corpus sessions provided to the Workers tests as `corpus:<id>`. */
export const PIPELINE_CORPUS = ["cc-cctrace-opus4", "codex-rtchess-01"] as const;

/** Failure cases provided as `case:<id>` (file text). */
export const PIPELINE_CASES = ["B16"] as const;

export default async function setup(project: TestProject) {
  const upstream = await startUpstream();
  project.provide("upstreamUrl" as never, upstream.url as never);
  project.provide("unreachableUrl" as never, (await closedPortUrl()) as never);
  // Corpus sessions used by the pipeline tests, as JSON text (workerd has no file system).
  for (const id of PIPELINE_CORPUS) project.provide(`corpus:${id}` as never, readFileSync(`${CORPUS_PATH}/${id}.json`, "utf8") as never);
  for (const id of PIPELINE_CASES) project.provide(`case:${id}` as never, readFileSync(`${CASES_PATH}/${id}.json`, "utf8") as never);
  return async () => upstream.close();
}
