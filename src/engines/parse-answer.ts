/**
 * Parses an HTTP answer body against a zod schema (pure), with a short, text-free detail on
 * failure: `answer is not JSON`, or `answer does not match <what> at <field path>`. The body's
 * own text never reaches the detail (it may hold prompt text).
 */
import type { z } from "zod";

/** `{ok: true, data}` or `{ok: false, detail}`. */
export function parseAnswer<S extends z.ZodType>(text: string, schema: S, what: string): { ok: true; data: z.output<S> } | { ok: false; detail: string } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, detail: "answer is not JSON" };
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) return { ok: false, detail: `answer does not match ${what} at ${parsed.error.issues[0]!.path.join(".") || "(root)"}` };
  return { ok: true, data: parsed.data };
}
