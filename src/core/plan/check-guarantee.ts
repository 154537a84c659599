/**
 * The subtraction guarantee checker (pure; DESIGN §2 and invariant 3). Written apart from the
 * apply code: it trusts nothing the compiler decided and re-derives everything from the two
 * byte strings. `checkGuarantee(adapter, input, output)` is ok only if:
 * 1. the output is valid JSON;
 * 2. the output is the input with byte ranges removed, each range being whole array elements with
 *    one separator, or the middle of a string literal cut between whole characters/escapes
 *    (proved by walking both trees: objects keep every key and every byte between tokens; arrays
 *    keep a subsequence of their elements with separators copied from the input; strings keep an
 *    exact head and tail). One exception, declared by the adapter: a history message may lose
 *    whole members named in `adapter.removableMembers` (tool-call containers), with one
 *    separator, as array elements do;
 * 3. every top-level field except the history (`adapter.historyKey`) is byte-identical;
 * 4. every kept message keeps its identity hash (prose, media, thinking, role), a kept message
 *    the input marks `frozen` is byte-identical, and every removed message had no non-tool parts;
 * 5. every kept tool call has the same input (equal raw bytes, else equal decoded text: the
 *    adapter's `inputRanges`) and keeps the calls its `requires` names; every locked pair and
 *    every orphan is unchanged (the dependency rules behind `frozen`, `requires` and the locks
 *    are src/providers/dependencies.ts);
 *    strings are cut only inside messages holding the result of an unlocked pair;
 * 6. the provider's rules hold on the output (`adapter.checkRules`).
 * Identical bytes are always ok (forwarding the original is the fail-open path).
 *
 * Level `placeholders` (`opts.placeholders` set; ./placeholder.ts): a string literal may also be
 * an exact head + one marker + an exact tail of its input, the marker being exactly the bytes of
 * the pair whose input result (`ParsedRequest.resultRanges`) holds the literal; each pair carries
 * at most one marker, only an unlocked pair, and only when its result lost bytes. Any other
 * added byte is a violation; at `strict` (no option) every marker is one.
 *
 * Level `rewrite` (`opts.summaries` set): a string literal inside the result of an unlocked host
 * pair named in `summaries` may also be exactly that host's block bytes (the input literal's
 * empty head + the block); one block per host, and only when the host's result kept no other
 * text and no media (./check-insertions.ts).
 * `opts.inserted` (`memory_inject`, level `rewrite`): the output may also hold that one message,
 * byte for byte, directly after the first user message (./inserted-message.ts); the output
 * without it must pass every check above, and the provider's rules hold on the output as sent.
 */
import type { ParsedRequest, ProviderAdapter } from "../../providers/types";
import { scanJson, type JsonNode } from "../../providers/shared/json-scan";
import { byteComparer, type SameBytes } from "./same-bytes";
import { markerLookup, summaryLookup, type MarkerLookup } from "./marker-lookup";
import type { PlaceholderOptions } from "./placeholder";
import { isCharBoundary } from "./char-boundary";
import { insertionViolations, type RecordedCut } from "./check-insertions";
import { insertedVerdict, withoutInserted } from "./inserted-message";
import { newCoreCaches } from "../caches";

/** Verdict: ok, or the list of violated properties (human-readable, no prompt text). */
export interface GuaranteeResult {
  ok: boolean;
  violations: string[];
  /**
   * The output as the adapter read it, when the check got that far (absent for identical bytes
   * and early failures). The gateway takes the forwarded token estimate from its view.
   */
  output?: ParsedRequest;
}

/** Options: a pre-parsed input (the gateway already has one) saves one parse. */
export interface CheckOptions {
  /** The input as read (its caches also serve the output's read). Absent: read here, through fresh caches. */
  input?: ParsedRequest;
  /** Level `placeholders`: markers of ./placeholder.ts are accepted where proven. Absent: level `strict`, no byte may be added. */
  placeholders?: PlaceholderOptions;
  /**
   * Level `rewrite`: host pair id → the raw bytes of its summary block (./summary-block.ts
   * `summaryBlockBytes`), accepted as the whole text of one string literal of that host's result.
   * Absent: no summary block may stand anywhere.
   */
  summaries?: ReadonlyMap<string, Uint8Array>;
  /** Level `rewrite` with `memory_inject`: the exact bytes of the one history element inserted directly after the first user message. Absent: none may be. */
  inserted?: Uint8Array;
}

/**
 * Checks that `output` is a valid subtraction of `input` for `adapter`'s provider. The output is
 * scanned fresh here (scanJson, then the adapter reads that tree): the check shares no tree with
 * whatever produced `output`, so no node memo either (src/core/caches.ts memos are keyed by node).
 */
export function checkGuarantee(adapter: ProviderAdapter, input: Uint8Array, output: Uint8Array, opts: CheckOptions = {}): GuaranteeResult {
  const caches = opts.input?.caches ?? newCoreCaches();
  if (opts.inserted !== undefined) {
    const { inserted, ...rest } = opts;
    const stripped = withoutInserted(adapter, output, inserted);
    if (!stripped.ok) return { ok: false, violations: [stripped.violation] };
    const withoutIt = checkGuarantee(adapter, input, stripped.bytes, rest);
    return withoutIt.ok ? insertedVerdict(adapter, output, stripped.root, caches) : withoutIt;
  }
  const same = byteComparer(input, output);
  if (same(0, input.length, 0, output.length)) return { ok: true, violations: [] };
  const v: string[] = [];
  let outRoot: JsonNode;
  try {
    outRoot = scanJson(output);
  } catch (e) {
    return { ok: false, violations: [`output is not valid JSON: ${(e as Error).message}`] };
  }
  let inParsed: ParsedRequest;
  try {
    inParsed = opts.input ?? adapter.read(input, caches);
  } catch (e) {
    return { ok: false, violations: [`input unreadable: ${(e as Error).message}`] };
  }
  if (inParsed.view.server_managed !== null) v.push(`history is server-managed (${inParsed.view.server_managed}) but was edited`);

  // 2–3. Structure: top level identical except the history; the history derived by deletions.
  const markerFor = opts.placeholders ? markerLookup(inParsed, opts.placeholders) : null;
  const summaryFor = opts.summaries && opts.summaries.size > 0 ? summaryLookup(inParsed, opts.summaries) : null;
  const walk = new Walk(input, output, same, new Set(adapter.removableMembers ?? []), markerFor, summaryFor);
  const inRoot = inParsed.root;
  let kept: number[] = [];
  if (inRoot.type !== "object" || outRoot.type !== "object") return { ok: false, violations: ["body is not an object"] };
  if (inRoot.entries.length !== outRoot.entries.length || inRoot.entries.some((e, i) => e.key !== outRoot.entries[i]!.key)) {
    v.push("top-level keys differ");
  } else {
    for (let i = 0; i < inRoot.entries.length; i++) {
      const a = inRoot.entries[i]!;
      const b = outRoot.entries[i]!;
      const aFrom = i === 0 ? inRoot.start : inRoot.entries[i - 1]!.value.end;
      const bFrom = i === 0 ? outRoot.start : outRoot.entries[i - 1]!.value.end;
      if (!same(aFrom, a.value.start, bFrom, b.value.start)) v.push(`bytes before top-level "${a.key}" differ`);
      if (a.key !== adapter.historyKey) {
        if (!same(a.value.start, a.value.end, b.value.start, b.value.end)) v.push(`top-level "${a.key}" changed`);
        continue;
      }
      if (a.value.type !== "array" || b.value.type !== "array") { v.push(`"${a.key}" is not an array`); continue; }
      const k = walk.array(a.value, b.value, true);
      if (k === null) v.push(`"${a.key}" is not the input with whole elements or string middles removed`);
      else kept = k;
    }
    const li = inRoot.entries[inRoot.entries.length - 1];
    const lo = outRoot.entries[outRoot.entries.length - 1];
    if (!same(li ? li.value.end : inRoot.start, input.length, lo ? lo.value.end : outRoot.start, output.length)) v.push("bytes after the last top-level field differ");
  }
  if (v.length > 0) return { ok: false, violations: v };

  // 4–5. Semantics through the adapter's view of the output.
  let outParsed: ParsedRequest;
  try {
    outParsed = adapter.read(output, caches, outRoot);
  } catch (e) {
    return { ok: false, violations: [`output unreadable: ${(e as Error).message}`] };
  }
  const inView = inParsed.view;
  const outView = outParsed.view;
  if (kept.length !== outView.messages.length) v.push(`history has ${outView.messages.length} messages, derivation kept ${kept.length}`);
  const keptSet = new Set(kept);
  kept.forEach((ii, oi) => {
    // A byte-identical message has the same identity (MessageInfo.identity_hash depends on its bytes only).
    if (walk.identical[oi]) return;
    const a = inView.messages[ii]!;
    if (a.frozen !== undefined) v.push(`message ${ii} (now ${oi}): changed, but ${a.frozen} requires it sent back unchanged`);
    const b = outView.messages[oi];
    if (b && a.identity_hash !== b.identity_hash) v.push(`message ${ii} (now ${oi}): non-tool content or role changed`);
  });
  const inPairs = new Map(inView.pairs.map((p, k) => [p.id, k]));
  const outPairs = new Map(outView.pairs.map((p, k) => [p.id, k]));
  for (const m of inView.messages) {
    if (keptSet.has(m.index)) continue;
    if (m.non_tool_parts > 0) v.push(`message ${m.index} removed but had ${m.non_tool_parts} non-tool part(s)`);
    // A message bound to calls (Responses reasoning item, content-less assistant with reasoning) may go only with all of them.
    const still = (m.removable_with ?? []).filter((id) => outPairs.has(id));
    if (still.length > 0) v.push(`message ${m.index} removed but its call(s) ${still.join(", ")} remain`);
  }

  // Equal raw input bytes mean equal input text; only differing bytes are decoded and compared.
  const sameInput = (qk: number, pk: number): boolean => {
    const a = inParsed.inputRanges?.[qk];
    const b = outParsed.inputRanges?.[pk];
    if (a && b && same(a.start, a.end, b.start, b.end)) return true;
    return inView.pairs[qk]!.input_text === outView.pairs[pk]!.input_text;
  };
  outView.pairs.forEach((p, pk) => {
    const qk = inPairs.get(p.id);
    if (qk === undefined) v.push(`pair ${p.id} is not a pair of the input`);
    else if (!sameInput(qk, pk)) v.push(`pair ${p.id}: tool input changed`);
    // A kept call whose rule requires other calls of the input (src/providers/dependencies.ts `requires_call`).
    const req = qk === undefined ? undefined : inView.pairs[qk]!.requires;
    for (const id of req?.ids ?? []) if (!outPairs.has(id)) v.push(`pair ${p.id} kept without ${id}, which ${req!.rule} requires`);
  });
  inView.pairs.forEach((q, qk) => {
    if (q.locked === null) return;
    const pk = outPairs.get(q.id);
    if (pk === undefined || outView.pairs[pk]!.result_hash !== q.result_hash || !sameInput(qk, pk)) v.push(`pair ${q.id} is locked (${q.locked}) but changed`);
  });
  const outOrphans = new Set(outView.orphans.map((o) => `${o.kind}\u0000${o.id}`));
  for (const o of inView.orphans) if (!outOrphans.has(`${o.kind}\u0000${o.id}`)) v.push(`orphan ${o.id} (${o.kind}) changed`);

  v.push(...insertionViolations(walk.cuts, inParsed, outParsed));

  // 6. Provider rules.
  for (const r of adapter.checkRules(output, outParsed.root, caches)) v.push(`rule: ${r}`);
  return { ok: v.length === 0, violations: v, output: outParsed };
}

/** Structural derivation of an output subtree from an input subtree by deletions only. */
class Walk {
  /** Input offsets where a string literal was cut (start of the removed middle), with the marker or summary block placed there. */
  cuts: RecordedCut[] = [];
  /** History array only: whether each kept output element is byte-identical to its input element. */
  identical: boolean[] = [];
  /**
   * @param same compares ranges of `a` (input) with ranges of `b` (output), ./same-bytes.ts
   * @param removable keys a history message may lose whole (adapter.removableMembers).
   * @param markerFor the marker allowed in the input string starting at an offset (level `placeholders`), or null.
   * @param summaryFor the summary block allowed in the input string starting at an offset (level `rewrite`), or null.
   */
  constructor(
    readonly a: Uint8Array,
    readonly b: Uint8Array,
    readonly same: SameBytes,
    readonly removable: ReadonlySet<string>,
    readonly markerFor: MarkerLookup | null = null,
    readonly summaryFor: MarkerLookup | null = null,
  ) {}

  /** Whether `o` derives from `i`; records cuts only on success. `message`: `i` is a history element. */
  node(i: JsonNode, o: JsonNode, message = false): boolean {
    if (this.same(i.start, i.end, o.start, o.end)) return true;
    if (i.type !== o.type) return false;
    switch (i.type) {
      case "string":
        return this.string(i, o);
      case "array":
        return o.type === "array" && this.array(i, o) !== null;
      case "object": {
        if (o.type !== "object") return false;
        if (i.entries.length !== o.entries.length) return message && this.removable.size > 0 && this.membersRemoved(i, o);
        const saved = this.cuts.length;
        let ip = i.start;
        let op = o.start;
        for (let k = 0; k < i.entries.length; k++) {
          const ie = i.entries[k]!;
          const oe = o.entries[k]!;
          if (!this.same(ip, ie.value.start, op, oe.value.start) || !this.node(ie.value, oe.value)) {
            this.cuts.length = saved;
            return false;
          }
          ip = ie.value.end;
          op = oe.value.end;
        }
        if (this.same(ip, i.end, op, o.end)) return true;
        this.cuts.length = saved;
        return false;
      }
      case "number":
      case "true":
      case "false":
      case "null":
        return false;
      default: {
        const never: never = i;
        throw new Error(`unknown node ${JSON.stringify(never)}`);
      }
    }
  }

  /**
   * Matches the output's elements to a subsequence of the input's (greedy earliest match, which
   * is optimal for subsequence matching) and checks every separator. Returns the kept input
   * indices, or null when `o` is not derivable from `i`. `history`: this is the history array
   * (its elements are messages, see `node`).
   */
  array(i: Extract<JsonNode, { type: "array" }>, o: Extract<JsonNode, { type: "array" }>, history = false): number[] | null {
    const saved = this.cuts.length;
    const I = i.items;
    const O = o.items;
    if (O.length === 0) {
      // Everything removed: the inner bytes are the input's leading + trailing whitespace.
      if (I.length === 0) return this.same(i.start, i.end, o.start, o.end) ? [] : this.undo(saved, null);
      const lead = I[0]!.start - (i.start + 1);
      const os = o.start + 1;
      const ok = o.end - 1 - os === lead + (i.end - 1 - I[I.length - 1]!.end) && this.same(i.start + 1, I[0]!.start, os, os + lead) && this.same(I[I.length - 1]!.end, i.end - 1, os + lead, o.end - 1);
      return ok ? [] : this.undo(saved, null);
    }
    const kept: number[] = [];
    const identical: boolean[] = [];
    let next = 0;
    for (const oi of O) {
      let found = -1;
      for (let k = next; k < I.length; k++) {
        const same = history && this.same(I[k]!.start, I[k]!.end, oi.start, oi.end);
        if (same || this.node(I[k]!, oi, history)) { found = k; identical.push(same); break; }
      }
      if (found < 0) return this.undo(saved, null);
      kept.push(found);
      next = found + 1;
    }
    // Leading and trailing whitespace are the input's own.
    if (!this.same(i.start, I[0]!.start, o.start, O[0]!.start)) return this.undo(saved, null);
    if (!this.same(I[I.length - 1]!.end, i.end, O[O.length - 1]!.end, o.end)) return this.undo(saved, null);
    // Each separator between kept elements is one of the input separators between them.
    for (let k = 0; k + 1 < kept.length; k++) {
      const from = O[k]!.end;
      const to = O[k + 1]!.start;
      let ok = false;
      for (let j = kept[k]!; j < kept[k + 1]! && !ok; j++) ok = this.same(I[j]!.end, I[j + 1]!.start, from, to);
      if (!ok) return this.undo(saved, null);
    }
    if (history) this.identical = identical;
    return kept;
  }

  /**
   * Whether history message `o` is `i` without some members whose keys are all in
   * `this.removable`: the kept members, in order, keep their key bytes and derive their values;
   * leading and trailing bytes are the input's own and each separator between kept members is
   * one of the input separators between them (the rule of `array`, over member spans).
   */
  private membersRemoved(i: Extract<JsonNode, { type: "object" }>, o: Extract<JsonNode, { type: "object" }>): boolean {
    const saved = this.cuts.length;
    const I = i.entries;
    const O = o.entries;
    if (O.length === 0 || O.length >= I.length) return false;
    const kept: number[] = [];
    let next = 0;
    for (const oe of O) {
      let found = -1;
      for (let k = next; k < I.length; k++) {
        const ie = I[k]!;
        if (ie.key === oe.key && this.same(ie.keyStart, ie.value.start, oe.keyStart, oe.value.start) && this.node(ie.value, oe.value)) { found = k; break; }
        if (!this.removable.has(ie.key)) return this.undo(saved, false);
      }
      if (found < 0) return this.undo(saved, false);
      kept.push(found);
      next = found + 1;
    }
    for (let k = next; k < I.length; k++) if (!this.removable.has(I[k]!.key)) return this.undo(saved, false);
    if (!this.same(i.start, I[0]!.keyStart, o.start, O[0]!.keyStart)) return this.undo(saved, false);
    if (!this.same(I[I.length - 1]!.value.end, i.end, O[O.length - 1]!.value.end, o.end)) return this.undo(saved, false);
    for (let k = 0; k + 1 < kept.length; k++) {
      let ok = false;
      for (let j = kept[k]!; j < kept[k + 1]! && !ok; j++) ok = this.same(I[j]!.value.end, I[j + 1]!.keyStart, O[k]!.value.end, O[k + 1]!.keyStart);
      if (!ok) return this.undo(saved, false);
    }
    return true;
  }

  /** Drops the cuts recorded since `saved` (a failed derivation) and returns `result`. */
  private undo<R>(saved: number, result: R): R {
    this.cuts.length = saved;
    return result;
  }

  /** Whether output literal `o` is input literal `i` with one middle range removed at character boundaries. */
  private string(i: JsonNode, o: JsonNode): boolean {
    const a = this.a;
    const b = this.b;
    const is = i.start + 1;
    const ie = i.end - 1;
    const os = o.start + 1;
    const oe = o.end - 1;
    const olen = oe - os;
    const ilen = ie - is;
    if (olen >= ilen) return this.marked(i, o);
    let pre = 0;
    while (pre < olen && a[is + pre] === b[os + pre]) pre++;
    let suf = 0;
    while (suf < olen && a[ie - 1 - suf] === b[oe - 1 - suf]) suf++;
    if (pre + suf < olen) return this.marked(i, o);
    // Any head length h in [olen - suf, pre] works bytewise; both cut ends must be boundaries.
    for (let h = Math.min(pre, olen); h >= olen - suf; h--) {
      if (isCharBoundary(a, is, ie, is + h) && isCharBoundary(a, is, ie, ie - (olen - h))) {
        this.cuts.push({ at: is + h });
        return true;
      }
    }
    return this.marked(i, o);
  }

  /**
   * Whether output literal `o` is input literal `i` as head + marker + tail (level
   * `placeholders`): the marker is the one of the pair whose result holds `i`, head and tail are
   * exact and end on character boundaries, and head + tail is at most the input.
   */
  private marked(i: JsonNode, o: JsonNode): boolean {
    if (this.summarized(i, o)) return true;
    const marker = this.markerFor?.(i.start);
    if (!marker) return false;
    const { a, b } = this;
    const m = marker.bytes;
    const is = i.start + 1;
    const ie = i.end - 1;
    const os = o.start + 1;
    const oe = o.end - 1;
    const rest = oe - os - m.length;
    if (rest < 0 || rest > ie - is) return false;
    let pre = 0;
    while (pre < rest && a[is + pre] === b[os + pre]) pre++;
    let suf = 0;
    while (suf < rest && a[ie - 1 - suf] === b[oe - 1 - suf]) suf++;
    for (let h = Math.min(pre, rest); h >= rest - suf; h--) {
      if (!m.every((x, k) => b[os + h + k] === x)) continue;
      if (isCharBoundary(a, is, ie, is + h) && isCharBoundary(a, is, ie, ie - (rest - h))) {
        this.cuts.push({ at: is + h, marker: { id: marker.id, length: m.length } });
        return true;
      }
    }
    return false;
  }

  /** Whether output literal `o` is exactly the summary block of the host pair whose result holds input literal `i` (level `rewrite`). */
  private summarized(i: JsonNode, o: JsonNode): boolean {
    const block = this.summaryFor?.(i.start);
    if (!block) return false;
    const os = o.start + 1;
    const m = block.bytes;
    if (o.end - 1 - os !== m.length || !m.every((x, k) => this.b[os + k] === x)) return false;
    this.cuts.push({ at: i.start + 1, summary: { id: block.id, bytes: m } });
    return true;
  }
}
