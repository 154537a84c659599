/** Worker entry: the Hono app as the default export, and the Durable Object classes. */
import { createApp } from "./http/app";

export { SessionObject } from "./do/session-object";
export { AuditObject } from "./do/audit-object";
export { SessionIndex } from "./do/index-object";
export default createApp();
