/**
 * Rule A20 (pure): cache breakpoints' TTLs never increase in the order the API processes blocks —
 * `tools`, `system`, `messages` (a marker inside a tool_result's `content` in its place), then the
 * automatic top-level `cache_control`, which marks the last block. A `ttl: "1h"` marker after a
 * 5-minute one (`ttl: "5m"` or none) is refused with the API's message, naming the later marker:
 * `messages.0.content.4.cache_control.ttl: a ttl='1h' cache_control block must not come after a
 * ttl='5m' cache_control block. Note that blocks are processed in the following order: `tools`,
 * `system`, `messages`.` (cnighswonger/claude-code-cache-fix#44; the `system.1…` form:
 * kristianvast/hermes-claude-auth#31). The path of the top-level marker is the emulator's
 * (`cache_control.ttl`): no report shows one.
 */
import { isObject, prop, str, type Json } from "../shared/json";
import { asBlocks } from "./segment-prompt";

/** One marker: where it is and whether it asks for one hour. */
interface Marker {
  path: string;
  hour: boolean;
}

/** The `cache_control` markers of `body` in processing order. */
function markersOf(body: { [k: string]: Json }): Marker[] {
  const out: Marker[] = [];
  const add = (v: Json | undefined, path: string) => {
    const cc = prop(v, "cache_control");
    if (isObject(cc)) out.push({ path: `${path}cache_control`, hour: cc.ttl === "1h" });
  };
  (Array.isArray(body.tools) ? body.tools : []).forEach((t, i) => add(t, `tools.${i}.`));
  if (Array.isArray(body.system)) body.system.forEach((b, i) => add(b, `system.${i}.`));
  (Array.isArray(body.messages) ? body.messages : []).forEach((m, i) =>
    asBlocks(prop(m, "content")).forEach((b, j) => {
      add(b, `messages.${i}.content.${j}.`);
      const inner = prop(b, "content");
      if (str(b, "type") === "tool_result" && Array.isArray(inner)) inner.forEach((x, k) => add(x, `messages.${i}.content.${j}.content.${k}.`));
    }),
  );
  add(body, "");
  return out;
}

/** The A20 message for `body`, or null when its TTLs never increase. */
export function cacheTtlProblem(body: { [k: string]: Json }): string | null {
  let fiveMinute = false;
  for (const m of markersOf(body)) {
    if (m.hour && fiveMinute) return `${m.path}.ttl: a ttl='1h' cache_control block must not come after a ttl='5m' cache_control block. Note that blocks are processed in the following order: \`tools\`, \`system\`, \`messages\`.`;
    if (!m.hour) fiveMinute = true;
  }
  return null;
}
