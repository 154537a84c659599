/**
 * `memory_inject`, the session side (shell; DESIGN §7, issue 29 item 4). On the session's first
 * call only, with `memory_inject` on at level `rewrite`, project memory on, a project key from
 * the gateway, and only when the block would really be forwarded (`can_claim`: compact mode, the
 * spliced mechanism, a place for it in the request), the session claims its project's newest tier map left by another session
 * (MemoryObject.claim: one extra DO-to-DO call on that call only; each map goes to one session
 * only) and renders it (../core/memory/render-memory-block.ts). The block text is kept in the
 * session's meta `memory_block` — the one piece of text this session state holds besides the
 * rewrite level's own summaries: level `rewrite` is the operator's opt-in to text in session
 * state (DESIGN invariant 7) — and returned on every later call, so the session carries the
 * identical bytes at the identical place (the gateway inserts them: ../gateway/decide-forward.ts)
 * and its prefix stays cacheable. Counters: `memory_injections`, `memory_block_tokens` (the
 * block's estimated tokens), `memory_inject_errors` (the claim failed: no block, the call goes on).
 */
import type { CompactionConfig } from "../config/schema";
import { memoryInjectOn } from "../config/memory-inject-on";
import { renderMemoryBlock } from "../core/memory/render-memory-block";
import { estimateTokens } from "../core/tokens/estimate";
import type { ProjectMemoryEntry } from "./memory-object";
import type { SessionStore } from "./session-store";

/** Meta key of the session's memory block text. */
export const MEMORY_BLOCK_META = "memory_block";

/** Where a project's maps are claimed (the MemoryObject of a project key). */
export type ProjectMemorySource = (project: string) => { claim(by_session: string, now_ms: number): Promise<ProjectMemoryEntry | null> };

/** The session's memory block for this call and whether this call claimed it; null without one. */
export interface SessionMemoryBlock {
  text: string;
  claimed: boolean;
}

/**
 * The memory block this call carries: the kept one (while the config still asks for it), or on
 * the session's first call (`calls` = 1) with `can_claim` the rendering of a newly claimed map,
 * kept and counted. Null: injection off, no project key, not `can_claim` (the map stays for a
 * later session), no map to claim, or the claim failed (counted).
 */
export async function sessionMemoryBlock(
  store: SessionStore,
  source: ProjectMemorySource | undefined,
  call: { config: CompactionConfig; project_key: string | undefined; session_id: string; now_ms: number; calls: number; can_claim: boolean },
): Promise<SessionMemoryBlock | null> {
  if (!memoryInjectOn(call.config)) return null;
  const kept = store.getMeta(MEMORY_BLOCK_META);
  if (kept !== null) return { text: kept, claimed: false };
  if (call.calls !== 1 || !call.can_claim || call.project_key === undefined || source === undefined) return null;
  let entry: ProjectMemoryEntry | null;
  try {
    entry = await source(call.project_key).claim(call.session_id, call.now_ms);
  } catch {
    store.add("memory_inject_errors", 1);
    return null;
  }
  if (entry === null) return null;
  const text = renderMemoryBlock(entry.tier_map);
  store.setMeta(MEMORY_BLOCK_META, text);
  store.add("memory_injections", 1);
  store.add("memory_block_tokens", estimateTokens(text));
  return { text, claimed: true };
}
