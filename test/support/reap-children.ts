/**
 * Root globalSetup of every test run (vitest.config.ts): its teardown, which vitest runs after
 * the last test file however the tests went, kills the processes test files started and did not
 * stop (test/support/child-registry.ts) and names them on stderr, so a failed or interrupted run
 * leaves no engine or emulator behind.
 */
import { readdirSync, rmdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { reapChildren, registryDir } from "./child-registry";

export default function setup(): () => void {
  // Empty registries of earlier runs (rmdir refuses a folder that still lists a process).
  const root = dirname(registryDir());
  try {
    for (const d of readdirSync(root)) try { rmdirSync(join(root, d)); } catch { /* not empty, or gone */ }
  } catch { /* no registry yet */ }
  return () => {
    const reaped = reapChildren();
    if (reaped.length > 0) console.error(`test teardown: killed ${reaped.length} process(es) a test left running:\n  ${reaped.join("\n  ")}`);
  };
}
