import { describe, expect, it } from "vitest";
import { DROP_RESULT_HEAD_BYTES } from "../../src/core/plan/drop-result-head";
import { assistant, bodyBytes, image, result, run, text, use, user } from "../support/anthropic-bodies";

const M = "claude-sonnet-4-5";
/** A conversation whose pairs are old enough to edit: a closing assistant turn follows them. */
const tail = [assistant("done"), user("next")];

describe("anthropic edit rules: exact outputs", () => {
  it("drop_pair on one of two parallel calls removes just that call and its result", () => {
    const body = { model: M, messages: [user("go"), assistant([use("a", { p: 1 }), use("b", { p: 2 })]), user([result("a", "A"), result("b", "B")]), ...tail] };
    const r = run(bodyBytes(body), { a: { kind: "drop_pair" } });
    expect(r.text).toBe(JSON.stringify({ model: M, messages: [user("go"), assistant([use("b", { p: 2 })]), user([result("b", "B")]), ...tail] }));
    expect(r.refused).toEqual({});
    expect({ ok: r.check.ok, violations: r.check.violations }).toMatchObject({ ok: true, violations: [] });
  });

  it("drop_pair on every call of a turn removes both messages; pretty-printed separators are kept", () => {
    const body = { model: M, messages: [user("go"), assistant([use("a"), use("b")]), user([result("a", "A"), result("b", "B")]), ...tail] };
    const r = run(bodyBytes(body, 2), { a: { kind: "drop_pair" }, b: { kind: "drop_pair" } });
    expect(r.text).toBe(JSON.stringify({ model: M, messages: [user("go"), ...tail] }, null, 2));
    expect(r.check.ok).toBe(true);
  });

  it("drop_pair is refused when removing the emptied result message would join two assistant messages (B01 kind); applyPlan falls back to drop_result", () => {
    const long = "line of output\n".repeat(40);
    const body = { model: M, messages: [user("go"), assistant([text("I'll look."), use("a")]), user([result("a", long)]), ...tail] };
    const r = run(bodyBytes(body), { a: { kind: "drop_pair" } });
    expect(r.compileRefused).toEqual({ a: "would_merge_roles" });
    expect(r.downgraded).toEqual(["a"]);
    expect(r.refused).toEqual({});
    const drop = run(bodyBytes(body), { a: { kind: "drop_result" } });
    expect(r.text).toBe(drop.text);
    expect(r.text.length).toBeLessThan(JSON.stringify(body).length);
    expect(r.check.ok).toBe(true);
  });

  it("drop_pair is refused when removing the emptied call message would join two user messages", () => {
    const body = { model: M, messages: [user("go"), assistant([use("a")]), user([result("a", "A"), text("and also")]), ...tail] };
    const r = run(bodyBytes(body), { a: { kind: "drop_pair" } });
    expect(r.compileRefused).toEqual({ a: "would_merge_roles" });
    expect(r.downgraded).toEqual(["a"]);
  });

  it("drop_pair keeps the message when other blocks remain in it", () => {
    const body = { model: M, messages: [user("go"), assistant([text("two calls"), use("a"), use("b")]), user([result("a", "A"), result("b", "B"), text("note")]), ...tail] };
    const r = run(bodyBytes(body), { b: { kind: "drop_pair" } });
    expect(r.text).toBe(JSON.stringify({ model: M, messages: [user("go"), assistant([text("two calls"), use("a")]), user([result("a", "A"), text("note")]), ...tail] }));
    expect(r.check.ok).toBe(true);
  });

  it("a pair with cache_control on the call, the result or a nested part is locked", () => {
    const cc = { cache_control: { type: "ephemeral" } };
    const body = {
      model: M,
      messages: [
        user("go"),
        assistant([{ ...use("a"), ...cc }, use("b"), use("c")]),
        user([result("a", "AAAA"), result("b", "BBBB", cc), result("c", [text("CCCC", cc)])]),
        ...tail,
      ],
    };
    const r = run(bodyBytes(body), { a: { kind: "drop_pair" }, b: { kind: "drop_result" }, c: { kind: "truncate_result", head_bytes: 1 } });
    expect(r.refused).toEqual({ a: "cache_control", b: "cache_control", c: "cache_control" });
    expect(r.text).toBe(JSON.stringify(body));
  });

  it("records orphans (call without result, result without call) and never edits them", () => {
    const body = { model: M, messages: [user("go"), assistant([use("a"), use("x")]), user([result("a", "A"), result("y", "Y")]), ...tail] };
    const r = run(bodyBytes(body), { x: { kind: "drop_pair" }, y: { kind: "drop_result" } });
    expect(r.parsed.view.orphans).toEqual([
      { id: "x", kind: "call_without_result", position: { message_index: 1, block_index: 1 } },
      { id: "y", kind: "result_without_call", position: { message_index: 2, block_index: 1 } },
    ]);
    expect(r.parsed.view.pairs.map((p) => p.id)).toEqual(["a"]);
    expect(r.refused).toEqual({ x: "unknown_pair", y: "unknown_pair" });
  });

  it("an id used twice makes every block carrying it a duplicate_id orphan", () => {
    const body = { model: M, messages: [user("go"), assistant([use("d")]), user([result("d", "1")]), assistant([use("d")]), user([result("d", "2")]), ...tail] };
    const r = run(bodyBytes(body), {});
    expect(r.parsed.view.pairs).toEqual([]);
    expect(r.parsed.view.orphans.map((o) => [o.kind, o.position.message_index])).toEqual([
      ["duplicate_id", 1], ["duplicate_id", 2], ["duplicate_id", 3], ["duplicate_id", 4],
    ]);
  });

  it("drop_result keeps an exact head of string content and of block content", () => {
    const long = "line one of the output\n" + "x".repeat(200);
    const body = { model: M, messages: [user("go"), assistant([use("s"), use("b")]), user([result("s", long), result("b", [text(long), image, text("second")])]), ...tail] };
    const r = run(bodyBytes(body), { s: { kind: "drop_result" }, b: { kind: "drop_result" } });
    // The raw literal holds "\n" as 2 bytes, so 64 raw bytes decode to 63 characters.
    const head = long.slice(0, DROP_RESULT_HEAD_BYTES - 1);
    expect(r.text).toBe(JSON.stringify({ model: M, messages: [user("go"), assistant([use("s"), use("b")]), user([result("s", head), result("b", [text(head)])]), ...tail] }));
    expect(r.check.ok).toBe(true);
  });

  it("a whitespace-led result keeps a non-whitespace character in its head (B14 kind)", () => {
    const body = { model: M, messages: [user("go"), assistant([use("w")]), user([result("w", [text("          \n\n   ok and more text")])]), ...tail] };
    const r = run(bodyBytes(body), { w: { kind: "truncate_result", head_bytes: 3 } });
    expect(r.text).toBe(JSON.stringify({ model: M, messages: [user("go"), assistant([use("w")]), user([result("w", [text("          \n\n   o")])]), ...tail] }));
    expect(r.check.ok).toBe(true);
  });

  it("truncate_result cuts before a multi-byte emoji, never inside it", () => {
    const s = "ab😀cd"; // raw bytes: a b F0 9F 98 80 c d
    const body = { model: M, messages: [user("go"), assistant([use("e")]), user([result("e", s)]), ...tail] };
    for (const [head, kept] of [[2, "ab"], [3, "ab"], [5, "ab"], [6, "ab😀"]] as const) {
      const r = run(bodyBytes(body), { e: { kind: "truncate_result", head_bytes: head } });
      expect(JSON.parse(r.text).messages[2].content[0].content).toBe(kept);
      expect(r.check.ok).toBe(true);
    }
  });

  it("truncate_result keeps whole escapes: \\n, \\\" and an escaped surrogate pair", () => {
    // Raw literal: a\nb\"c\ud83d\ude00d  (hand-written escapes, as a client may send them)
    const raw = '{"model":"m","messages":[{"role":"user","content":"go"},{"role":"assistant","content":[{"type":"tool_use","id":"e","name":"t","input":{}}]},{"role":"user","content":[{"type":"tool_result","tool_use_id":"e","content":"a\\nb\\"c\\ud83d\\ude00d"}]},{"role":"assistant","content":"done"},{"role":"user","content":"next"}]}';
    const bytes = new TextEncoder().encode(raw);
    // Units: a(1) \n(2) b(1) \"(2) c(1) \ud83d\ude00(12) d(1) = 20 raw bytes.
    const cases: [number, string][] = [[1, "a"], [2, "a"], [3, "a\\n"], [5, "a\\nb"], [6, 'a\\nb\\"'], [7, 'a\\nb\\"c'], [18, 'a\\nb\\"c'], [19, 'a\\nb\\"c\\ud83d\\ude00']];
    for (const [head, kept] of cases) {
      const r = run(bytes, { e: { kind: "truncate_result", head_bytes: head } });
      expect(r.text).toBe(raw.replace('a\\nb\\"c\\ud83d\\ude00d', kept));
      expect(r.check.ok).toBe(true);
    }
  });

  it("truncate_result with a tail keeps head and tail of string content", () => {
    const body = { model: M, messages: [user("go"), assistant([use("t")]), user([result("t", "HEAD-middle-middle-TAIL")]), ...tail] };
    const r = run(bodyBytes(body), { t: { kind: "truncate_result", head_bytes: 5, tail_bytes: 4 } });
    expect(JSON.parse(r.text).messages[2].content[0].content).toBe("HEAD-TAIL");
    expect(r.check.ok).toBe(true);
  });

  it("truncate_result across text blocks deletes middle blocks whole and keeps media", () => {
    const body = { model: M, messages: [user("go"), assistant([use("t")]), user([result("t", [text("aaaa"), text("bbbb"), image, text("cccc"), text("dddd")])]), ...tail] };
    const r = run(bodyBytes(body), { t: { kind: "truncate_result", head_bytes: 6, tail_bytes: 2 } });
    expect(JSON.parse(r.text).messages[2].content[0].content).toEqual([text("aaaa"), text("bb"), image, text("dd")]);
    expect(r.check.ok).toBe(true);
  });

  it("strip_media removes images of a result and keeps its text; refuses a media-only result", () => {
    const body = { model: M, messages: [user("go"), assistant([use("m"), use("o")]), user([result("m", [image, text("caption"), image]), result("o", [image])]), ...tail] };
    const r = run(bodyBytes(body), { m: { kind: "strip_media" }, o: { kind: "strip_media" } });
    expect(JSON.parse(r.text).messages[2].content).toEqual([result("m", [text("caption")]), result("o", [image])]);
    expect(r.refused).toEqual({ o: "media_only_result" });
    expect(r.check.ok).toBe(true);
  });

  it("string vs block message content: both parse, prose counts and identity are exact", () => {
    const body = { model: M, messages: [user("hi"), assistant([text("a"), text("b")]), user([text("c"), image])] };
    const r = run(bodyBytes(body), {});
    expect(r.parsed.view.messages.map((m) => [m.role, m.turn_index, m.prose_blocks, m.media_blocks, m.non_tool_parts])).toEqual([
      ["user", 0, 1, 0, 1], ["assistant", 0, 2, 0, 2], ["user", 1, 1, 1, 2],
    ]);
  });

  it("everything in the last assistant turn is locked", () => {
    const body = { model: M, messages: [user("go"), assistant([use("a")]), user([result("a", "A".repeat(100))])] };
    const r = run(bodyBytes(body), { a: { kind: "drop_result" } });
    expect(r.parsed.view.pairs[0]!.locked).toBe("last_assistant_turn");
    expect(r.refused).toEqual({ a: "last_assistant_turn" });
  });

  it("a client tool-use clearing edit or a compaction block marks the history server-managed", () => {
    const base = [user("go"), assistant([use("a")]), user([result("a", "A".repeat(100))]), ...tail];
    const r1 = run(bodyBytes({ model: M, context_management: { edits: [{ type: "clear_tool_uses_20250919" }] }, messages: base }), { a: { kind: "drop_result" } });
    expect(r1.parsed.view.server_managed).toBe("clear_tool_uses_20250919");
    expect(r1.refused).toEqual({ a: "server_managed" });
    const r2 = run(bodyBytes({ model: M, messages: [user("go"), assistant([{ type: "compaction", content: "summary" }]), ...base.slice(1)] }), { a: { kind: "drop_result" } });
    expect(r2.parsed.view.server_managed).toBe("compaction");
  });

  it("pair details: name, input text, sizes, error flag, media count", () => {
    const body = { model: M, messages: [user("go"), assistant([use("a", { cmd: "ls" }, "bash")]), user([result("a", [text("x"), image], { is_error: true })]), ...tail] };
    const p = run(bodyBytes(body), {}).parsed.view.pairs[0]!;
    expect([p.tool_name, p.input_text, p.input_bytes, p.result_text, p.result_is_error, p.result_media_count, p.turn_index, p.locked]).toEqual(["bash", '{"cmd":"ls"}', 12, "x", true, 1, 0, null]);
    expect(p.result_bytes).toBe(JSON.stringify([text("x"), image]).length);
  });
});
