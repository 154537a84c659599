/**
 * Session Durable Object (shell): one per agent session, SQLite-backed. Holds the session's
 * state; see DESIGN.md §6. The live pipeline fills it in.
 */
import { DurableObject } from "cloudflare:workers";
import type { Env } from "../config/env";

export class SessionObject extends DurableObject<Env> {
  /** Liveness probe used by tests. */
  async ping(): Promise<string> {
    return "pong";
  }
}
