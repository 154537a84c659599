/**
 * Which project-specific tokens (./project-tokens.ts) a request body holds, memoised (pure but
 * for the cache it owns). A replay asks this of every call's original and forwarded body, and
 * each body repeats the whole history before it, so tokenising bodies whole would cost the
 * square of a session's size. Instead a body is its parts — each history item (message or
 * Responses item) and the rest (system prompt, tools, instructions) — and each part is
 * tokenised once: looked up by object identity first (the readers share history items between
 * a session's calls, and a pure strategy shares the items it leaves alone), then by its JSON
 * text (a forwarded body parsed from bytes has new objects with the same text).
 */
import { jsonTokens } from "./project-tokens";
import type { Json, JsonObject, Provider } from "./types";

/** A memo of part tokens, shared by every body of a replay. */
export interface BodyTokenCache {
  /** The token sets of `body`'s parts (history items, then the rest of the body). */
  partsOf(provider: Provider, body: JsonObject): ReadonlySet<string>[];
}

/** Whether any of `parts` holds `token`. */
export function partsHave(parts: readonly ReadonlySet<string>[], token: string): boolean {
  return parts.some((p) => p.has(token));
}

/** A new, empty cache. */
export function createBodyTokenCache(): BodyTokenCache {
  const byObject = new WeakMap<object, ReadonlySet<string>>();
  const byText = new Map<string, ReadonlySet<string>>();
  const tokensOf = (part: Json): ReadonlySet<string> => {
    const isObject = typeof part === "object" && part !== null;
    if (isObject) {
      const known = byObject.get(part);
      if (known !== undefined) return known;
    }
    const text = JSON.stringify(part);
    let set = byText.get(text);
    if (set === undefined) byText.set(text, (set = jsonTokens(part)));
    if (isObject) byObject.set(part, set);
    return set;
  };
  return {
    partsOf(provider, body) {
      const key = provider === "openai-responses" ? "input" : "messages";
      const history = body[key];
      const items = Array.isArray(history) ? history : [];
      const rest: JsonObject = { ...body };
      delete rest[key];
      if (!Array.isArray(history) && history !== undefined) rest[key] = history; // a string input is text, not items
      return [...items.map(tokensOf), tokensOf(rest)];
    },
  };
}
