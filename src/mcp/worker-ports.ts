/**
 * The MCP tools' ports in the Worker (shell): sessions are the session Durable Objects named by
 * session id (as the pipeline names them), project sessions come from the project's memory
 * object (src/observers/memory-object.ts).
 */
import type { Env } from "../config/env";
import { projectMemoryStub } from "../observers/memory-object";
import type { SessionObject } from "../session/session-object";
import type { RestorePorts } from "./restore-tools";

/** The ports for one MCP request of `callerId` over `env`'s bindings. */
export function workerPorts(env: Env, callerId: string | null, now: () => number = Date.now): RestorePorts {
  const sessions = env.SESSION as DurableObjectNamespace<SessionObject>;
  return {
    callerId,
    now,
    session: (id) => sessions.get(sessions.idFromName(id)),
    ...(env.MEMORY ? { projectSessions: async (key: string, now_ms: number) => (await projectMemoryStub(env.MEMORY, key).list(now_ms)).map((e) => e.session_id) } : {}),
  };
}
