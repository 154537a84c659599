/**
 * vitest globalSetup for the `workers` project: starts the upstream stand-in and provides its
 * URL (`upstreamUrl`), plus a URL where nothing listens (`unreachableUrl`).
 */
import type { TestProject } from "vitest/node";
import { closedPortUrl, startUpstream } from "./upstream-server";

export default async function setup(project: TestProject) {
  const upstream = await startUpstream();
  project.provide("upstreamUrl" as never, upstream.url as never);
  project.provide("unreachableUrl" as never, (await closedPortUrl()) as never);
  return async () => upstream.close();
}
