/**
 * vitest globalSetup for the `workers` project: starts the upstream stand-in and provides its
 * URL (`upstreamUrl`), a URL where nothing listens (`unreachableUrl`), the reference engine
 * (tools/engine/server.ts) as real processes — one well-behaved and one per fault — with their
 * endpoints (`engineEndpoints`), real corpus requests (`corpusSeeds`, see corpus-seeds.ts), and
 * the corpus sessions and cases the pipeline tests replay (`corpus:<id>`, `case:<id>`, file text).
 */
import { readFileSync } from "node:fs";
import type { TestProject } from "vitest/node";
import { corpusSeeds, type CorpusSeed } from "./corpus-seeds";
import { spawnEngine } from "./spawn-engine";
import { closedPortUrl, startUpstream } from "./upstream-server";
import { CORPUS_PATH, CASES_PATH } from "./shared-dir";

/** Corpus sessions provided to the Workers tests as `corpus:<id>`. */
export const PIPELINE_CORPUS = ["cc-cctrace-opus4", "codex-rtchess-01"] as const;

/** Failure cases provided as `case:<id>` (file text). */
export const PIPELINE_CASES = ["B16"] as const;

/**
 * The engine processes started, by name → `--fault` spec (undefined = none). `slow` answers
 * after 30 s: far past any `timeout_ms` a test configures, so only the deadline can end it.
 */
export const ENGINE_FAULTS = {
  good: undefined,
  slow: "slow:30000",
  status500: "status:500",
  garbage: "garbage",
  reset: "reset",
} as const;

/** Names of the engine endpoints provided: each ENGINE_FAULTS key plus `closed` (nothing listens). */
export type EngineName = keyof typeof ENGINE_FAULTS | "closed";

declare module "vitest" {
  export interface ProvidedContext {
    upstreamUrl: string;
    unreachableUrl: string;
    engineEndpoints: Record<EngineName, string>;
    corpusSeeds: CorpusSeed[];
  }
}

/**
 * Reads the files first (a missing one fails before anything starts), then starts the processes;
 * if a start fails, what did start is stopped before the error goes on, because vitest runs no
 * teardown for a setup that threw.
 */
export default async function setup(project: TestProject) {
  // Corpus sessions used by the pipeline tests, as JSON text (workerd has no file system).
  for (const id of PIPELINE_CORPUS) project.provide(`corpus:${id}` as never, readFileSync(`${CORPUS_PATH}/${id}.json`, "utf8") as never);
  for (const id of PIPELINE_CASES) project.provide(`case:${id}` as never, readFileSync(`${CASES_PATH}/${id}.json`, "utf8") as never);
  project.provide("corpusSeeds", corpusSeeds());
  const stops: Array<() => Promise<void>> = [];
  const teardown = async () => { await Promise.allSettled(stops.map((s) => s())); };
  try {
    const upstream = await startUpstream();
    stops.push(() => upstream.close());
    const names = Object.keys(ENGINE_FAULTS) as (keyof typeof ENGINE_FAULTS)[];
    const started = await Promise.allSettled(names.map((n) => spawnEngine(ENGINE_FAULTS[n])));
    for (const s of started) if (s.status === "fulfilled") stops.push(s.value.stop);
    const failed = started.find((s) => s.status === "rejected");
    if (failed) throw (failed as PromiseRejectedResult).reason;
    const engines = started.map((s) => (s as PromiseFulfilledResult<Awaited<ReturnType<typeof spawnEngine>>>).value);
    const endpoints = Object.fromEntries(names.map((n, i) => [n, engines[i]!.endpoint])) as Record<EngineName, string>;
    endpoints.closed = `${await closedPortUrl()}/decide`;
    project.provide("upstreamUrl", upstream.url);
    project.provide("unreachableUrl", await closedPortUrl());
    project.provide("engineEndpoints", endpoints);
  } catch (e) {
    await teardown();
    throw e;
  }
  return teardown;
}
