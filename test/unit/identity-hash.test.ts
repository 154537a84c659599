import { describe, expect, it } from "vitest";
import { Hasher } from "../../src/core/hash";
import { identityBytes, identityHash } from "../../src/providers/shared/identity-hash";
import { scanJson, type JsonNode } from "../../src/providers/shared/json-scan";

const enc = (s: string) => new TextEncoder().encode(s);

describe("identityHash / identityBytes", () => {
  const body = '{"role":"assistant","content":"hi","tool_calls":[1]}';
  const b = enc(body);
  const node = scanJson(b) as Extract<JsonNode, { type: "object" }>;
  const exclude = new Set(["tool_calls"]);
  it("feeds the role, then 0x01 + each kept member's bytes from key to value end; counts those bytes", () => {
    const member = '"content":"hi"';
    const at = body.indexOf(member);
    expect(identityHash(b, "assistant", node, exclude)).toBe(new Hasher().feedText("assistant").feedByte(0x01).feed(b, at, at + member.length).digest());
    expect(identityBytes(node, exclude)).toBe(member.length);
    expect(identityBytes(node, new Set())).toBe(member.length + '"tool_calls":[1]'.length);
  });
});
