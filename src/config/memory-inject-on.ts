/**
 * Whether a config asks for the memory block (pure; docs/configuration.md "Memory block"):
 * `memory_inject` at level `rewrite` with `memory_retention_seconds` > 0. Below that level or with
 * no project memory kept the key is ignored (and config:check says so).
 */
import type { CompactionConfig } from "./schema";

export function memoryInjectOn(config: Pick<CompactionConfig, "memory_inject" | "guarantee_level" | "memory_retention_seconds">): boolean {
  return config.memory_inject && config.guarantee_level === "rewrite" && config.memory_retention_seconds > 0;
}
