/**
 * Property tests (fast-check): random Anthropic conversations × random plans always give an
 * output the guarantee checker accepts and the independent JSON oracle finds valid; hand-mutated
 * outputs (a prose character changed or deleted, a tool_result dropped, two blocks swapped) are
 * always rejected.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { anthropicAdapter as A } from "../../src/providers/anthropic-messages";
import { applyPlan } from "../../src/core/plan/apply-plan";
import { checkGuarantee } from "../../src/core/plan/check-guarantee";
import { getMember, scanJson, stringValue, type JsonNode } from "../../src/providers/shared/json-scan";
import { arbCase } from "../support/anthropic-arbitrary";
import { anthropicInvariants } from "../support/anthropic-invariants";
import { newCoreCaches } from "../../src/core/caches";

const dec = new TextDecoder();
const RUNS = 300;

function splice(bytes: Uint8Array, start: number, end: number, insert: Uint8Array = new Uint8Array()): Uint8Array {
  const out = new Uint8Array(bytes.length - (end - start) + insert.length);
  out.set(bytes.subarray(0, start));
  out.set(insert, start);
  out.set(bytes.subarray(end), start + insert.length);
  return out;
}

type ArrayNode = Extract<JsonNode, { type: "array" }>;
function messagesOf(bytes: Uint8Array): ArrayNode {
  return getMember(scanJson(bytes), "messages") as ArrayNode;
}
/** Prose text literals: text blocks directly in a message, and string message content. */
function proseStrings(bytes: Uint8Array): JsonNode[] {
  const out: JsonNode[] = [];
  for (const m of messagesOf(bytes).items) {
    const c = getMember(m, "content")!;
    if (c.type === "string") out.push(c);
    else if (c.type === "array") for (const b of c.items) if (stringValue(bytes, getMember(b, "type")!) === "text") out.push(getMember(b, "text")!);
  }
  return out.filter((n) => n.end - n.start > 3);
}

describe("anthropic adapter properties", () => {
  it("random conversations × random plans: checker accepts, oracle finds no violation, fixed parts untouched", () => {
    const kinds = new Set<string>();
    let edited = 0;
    fc.assert(
      fc.property(arbCase, ({ bytes, plan }) => {
        const parsed = A.read(bytes, newCoreCaches());
        const out = applyPlan(A, parsed, plan);
        expect(checkGuarantee(A, bytes, out.bytes).violations).toEqual([]);
        if (out.bytes !== bytes) {
          edited++;
          for (const [id, a] of Object.entries(plan.actions)) if (!(id in out.refused) && parsed.view.pairs.some((p) => p.id === id)) kinds.add(a.kind);
        }
        const before = JSON.parse(dec.decode(bytes));
        const after = JSON.parse(dec.decode(out.bytes));
        expect(anthropicInvariants(after)).toEqual([]);
        expect(after.system).toEqual(before.system);
        expect(after.tools).toEqual(before.tools);
        // The latest assistant message is forwarded unchanged (B03) and stays the latest.
        const lastA = (ms: { role: string }[]) => ms.map((m) => m.role).lastIndexOf("assistant");
        const ia = lastA(before.messages);
        if (ia >= 0) expect(after.messages[lastA(after.messages)]).toEqual(before.messages[ia]);
        // Refusals only name ids the plan asked to change.
        for (const id of Object.keys(out.refused)) expect(plan.actions[id]!.kind).not.toBe("keep");
      }),
      { numRuns: RUNS },
    );
    // The generator really exercises edits: a good share of runs change the body, with every action kind.
    expect(edited).toBeGreaterThan(RUNS / 5);
    expect([...kinds].sort()).toEqual(["drop_pair", "drop_result", "keep", "strip_media", "truncate_result"]);
  });

  it("rejects an output with one prose character changed", () => {
    fc.assert(
      fc.property(arbCase, ({ bytes, plan }) => {
        const out = applyPlan(A, A.read(bytes, newCoreCaches()), plan).bytes;
        const prose = proseStrings(out);
        fc.pre(prose.length > 0);
        const target = prose[0]!;
        const i = target.start + 1;
        fc.pre(out[i]! < 0x80 && out[i] !== 0x5c);
        const mutated = splice(out, i, i + 1, Uint8Array.of(out[i] === 0x51 ? 0x52 : 0x51)); // → "Q" (or "R")
        expect(checkGuarantee(A, bytes, mutated).ok).toBe(false);
      }),
      { numRuns: RUNS },
    );
  });

  it("rejects an output with one prose character deleted (a subtraction that is still forbidden)", () => {
    fc.assert(
      fc.property(arbCase, ({ bytes, plan }) => {
        const out = applyPlan(A, A.read(bytes, newCoreCaches()), plan).bytes;
        const prose = proseStrings(out);
        fc.pre(prose.length > 0);
        const t = prose[prose.length - 1]!;
        const last = t.end - 2;
        fc.pre(out[last]! < 0x80 && out[last - 1] !== 0x5c);
        expect(checkGuarantee(A, bytes, splice(out, last, last + 1)).ok).toBe(false);
      }),
      { numRuns: RUNS },
    );
  });

  it("rejects an output with a tool_result dropped while its tool_use stays", () => {
    fc.assert(
      fc.property(arbCase, ({ bytes, plan }) => {
        const out = applyPlan(A, A.read(bytes, newCoreCaches()), plan).bytes;
        const msgs = messagesOf(out).items;
        const hit = msgs.flatMap((m) => {
          const c = getMember(m, "content")!;
          if (c.type !== "array") return [];
          return c.items.flatMap((b, k) => (stringValue(out, getMember(b, "type")!) === "tool_result" ? [{ c, k }] : []));
        })[0];
        fc.pre(hit !== undefined);
        const { c, k } = hit!;
        const item = c.items[k]!;
        const [s, e] = k + 1 < c.items.length ? [item.start, c.items[k + 1]!.start] : k > 0 ? [c.items[k - 1]!.end, item.end] : [item.start, item.end];
        expect(checkGuarantee(A, bytes, splice(out, s, e)).ok).toBe(false);
      }),
      { numRuns: RUNS },
    );
  });

  it("rejects an output with two blocks of a message swapped", () => {
    fc.assert(
      fc.property(arbCase, ({ bytes, plan }) => {
        const out = applyPlan(A, A.read(bytes, newCoreCaches()), plan).bytes;
        const arr = messagesOf(out).items.map((m) => getMember(m, "content")!).find((c) => c.type === "array" && c.items.length >= 2) as ArrayNode | undefined;
        fc.pre(arr !== undefined);
        const [a, b] = [arr!.items[0]!, arr!.items[1]!];
        const A1 = out.subarray(a.start, a.end);
        const B1 = out.subarray(b.start, b.end);
        fc.pre(dec.decode(A1) !== dec.decode(B1));
        const swapped = new Uint8Array([...out.subarray(0, a.start), ...B1, ...out.subarray(a.end, b.start), ...A1, ...out.subarray(b.end)]);
        expect(checkGuarantee(A, bytes, swapped).ok).toBe(false);
      }),
      { numRuns: RUNS },
    );
  });
});
