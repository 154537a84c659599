/** Worker entry (shell): the Hono app as the default fetch handler, and the Durable Object classes. */
import type { Env } from "./config/env";
import { createApp } from "./http/app";

export { SessionObject } from "./session/session-object";
export { AuditObject } from "./do/audit-object";
export { SessionIndex } from "./do/index-object";
export { MemoryObject } from "./observers/memory-object";

const app = createApp();

export default {
  fetch: (request, env, ctx) => app.fetch(request, env, ctx),
} satisfies ExportedHandler<Env>;
