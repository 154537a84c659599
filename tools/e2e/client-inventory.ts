/**
 * What a real client put on the wire (pure): routes, query strings, header names, content
 * encodings, top-level body fields, message roles / input item types and content block types,
 * counted over a client's requests. The report lists them so surprises (a new route, a
 * compressed body, a new item type) are visible at a glance.
 */
import { arr, isObject, prop, str, type Json } from "../emulator/shared/json";
import type { RecordedRequest, RecordedUpgrade } from "./request-record";

/** Counts by name. */
export type Tally = Record<string, number>;

/** The inventory of one client's traffic. */
export interface ClientInventory {
  routes: Tally;
  query_strings: Tally;
  header_names: Tally;
  content_encodings: Tally;
  body_fields: Tally;
  /** `role` of messages (Anthropic) or `type[:role]` of input items (Responses). */
  history_kinds: Tally;
  /** Content block types inside messages / items. */
  block_types: Tally;
  /** `anthropic-beta` values. */
  beta_values: Tally;
  websocket_upgrades: number;
}

const bump = (t: Tally, k: string) => void (t[k] = (t[k] ?? 0) + 1);

function historyOf(body: Json, inv: ClientInventory): void {
  for (const m of arr(body, "messages") ?? []) {
    bump(inv.history_kinds, `message:${str(m, "role")}`);
    const c = prop(m, "content");
    if (Array.isArray(c)) for (const b of c) bump(inv.block_types, str(b, "type") ?? "?");
    else bump(inv.block_types, "string");
  }
  for (const item of arr(body, "input") ?? []) {
    const role = str(item, "role");
    bump(inv.history_kinds, `${str(item, "type") ?? "?"}${role ? `:${role}` : ""}`);
    const c = prop(item, "content");
    if (Array.isArray(c)) for (const b of c) bump(inv.block_types, str(b, "type") ?? "?");
  }
}

/** The inventory of `requests` (one client's, in any order) and its upgrade attempts. */
export function inventory(requests: readonly RecordedRequest[], upgrades: readonly RecordedUpgrade[]): ClientInventory {
  const inv: ClientInventory = { routes: {}, query_strings: {}, header_names: {}, content_encodings: {}, body_fields: {}, history_kinds: {}, block_types: {}, beta_values: {}, websocket_upgrades: upgrades.length };
  for (const r of requests) {
    const [path, query] = r.url.split("?");
    bump(inv.routes, `${r.method} ${path}`);
    if (query !== undefined) bump(inv.query_strings, query);
    for (const h of Object.keys(r.headers)) bump(inv.header_names, h);
    bump(inv.content_encodings, r.headers["content-encoding"] ?? "identity");
    for (const b of (r.headers["anthropic-beta"] ?? "").split(",").map((s) => s.trim()).filter(Boolean)) bump(inv.beta_values, b);
    let body: Json | undefined;
    try {
      body = JSON.parse(r.body) as Json;
    } catch {
      body = undefined;
    }
    if (!isObject(body)) continue;
    for (const k of Object.keys(body)) bump(inv.body_fields, k);
    historyOf(body, inv);
  }
  return inv;
}
