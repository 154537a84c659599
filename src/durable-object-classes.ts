/**
 * The Durable Object classes the Worker exports (src/worker.ts) and the binding each one is
 * reached by (src/config/env.ts), as data (pure): what `npm run config:check` and
 * `npm run deploy:check` compare every wrangler environment's bindings and migrations with
 * (tools/deploy/check-environments.ts). test/workers/worker-exports.test.ts keeps this list
 * equal to the Worker's exports. Every class keeps its state in SQLite (`ctx.storage.sql`), so
 * its migration must declare it in `new_sqlite_classes`.
 */
export const DURABLE_OBJECT_CLASSES = [
  { binding: "SESSION", class_name: "SessionObject" },
  { binding: "AUDIT", class_name: "AuditObject" },
  { binding: "SESSION_INDEX", class_name: "SessionIndex" },
  { binding: "MEMORY", class_name: "MemoryObject" },
] as const;

/** One entry of DURABLE_OBJECT_CLASSES. */
export type DurableObjectClass = (typeof DURABLE_OBJECT_CLASSES)[number];
