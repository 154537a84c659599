/** Helpers for Anthropic request bodies in tests: build bytes, apply a plan, check it. */
import { anthropicAdapter } from "../../src/providers/anthropic-messages";
import { applyPlan } from "../../src/core/plan/apply-plan";
import { checkGuarantee } from "../../src/core/plan/check-guarantee";
import type { EditPlan, PairAction } from "../../src/core/plan/types";
import { newCoreCaches } from "../../src/core/caches";

const enc = new TextEncoder();
const dec = new TextDecoder();

/** UTF-8 bytes of `value` serialised compactly, or with `indent` spaces. */
export function bodyBytes(value: unknown, indent?: number): Uint8Array {
  return enc.encode(JSON.stringify(value, null, indent));
}

/** Applies `actions` to `bytes`; returns output text, refusals (after and before applyPlan's drop_result fallback), downgraded ids and the checker's verdict. */
export function run(bytes: Uint8Array, actions: Record<string, PairAction>) {
  const parsed = anthropicAdapter.read(bytes, newCoreCaches());
  const plan: EditPlan = { actions };
  const out = applyPlan(anthropicAdapter, parsed, plan);
  const check = checkGuarantee(anthropicAdapter, bytes, out.bytes);
  const compileRefused = anthropicAdapter.compile(parsed, plan).refused;
  return { parsed, text: dec.decode(out.bytes), bytes: out.bytes, refused: out.refused, downgraded: out.downgraded, compileRefused, check };
}

/** A tool_use block. */
export const use = (id: string, input: unknown = {}, name = "shell") => ({ type: "tool_use", id, name, input });
/** A tool_result block with string or block content. */
export const result = (id: string, content: unknown, extra: Record<string, unknown> = {}) => ({ type: "tool_result", tool_use_id: id, content, ...extra });
export const text = (t: string, extra: Record<string, unknown> = {}) => ({ type: "text", text: t, ...extra });
export const image = { type: "image", source: { type: "base64", media_type: "image/png", data: "iVBORw0KGgo=" } };
export const user = (content: unknown) => ({ role: "user", content });
export const assistant = (content: unknown) => ({ role: "assistant", content });

export { anthropicAdapter };
