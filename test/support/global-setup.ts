/** vitest globalSetup for the `workers` project: starts the upstream stand-in and provides its URL. */
import type { TestProject } from "vitest/node";
import { startUpstream } from "./upstream-server";

export default async function setup(project: TestProject) {
  const upstream = await startUpstream();
  project.provide("upstreamUrl" as never, upstream.url as never);
  return async () => upstream.close();
}
