/**
 * The Worker's exported Durable Object classes are exactly src/durable-object-classes.ts's list,
 * which the config and deploy checks hold every wrangler environment to, and each listed binding
 * is bound in this test run's wrangler.toml to its class.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { DURABLE_OBJECT_CLASSES } from "../../src/durable-object-classes";
import * as worker from "../../src/worker";

describe("the Worker's Durable Object classes", () => {
  it("src/worker.ts exports exactly the listed classes, and each binding reaches a namespace", () => {
    const exported = Object.entries(worker).filter(([name]) => name !== "default");
    expect(exported.map(([name, value]) => [name, typeof value]).sort()).toEqual(DURABLE_OBJECT_CLASSES.map((c) => [c.class_name, "function"]).sort());
    const bound = env as unknown as Record<string, { idFromName?: unknown }>;
    expect(DURABLE_OBJECT_CLASSES.map((c) => [c.binding, typeof bound[c.binding]?.idFromName])).toEqual(DURABLE_OBJECT_CLASSES.map((c) => [c.binding, "function"]));
  });
});
