import { describe, expect, it } from "vitest";
import type { MessageInfo } from "../../src/core/view/types";
import { messageAt } from "../../src/core/plan/message-at";

const msg = (index: number, start: number, end: number) => ({ index, range: { start, end } }) as MessageInfo;

describe("messageAt", () => {
  it("finds the message whose half-open range holds the offset, or none between and outside messages", () => {
    const ms = [msg(0, 10, 20), msg(1, 21, 30), msg(2, 30, 45)];
    expect([5, 10, 19, 20, 21, 29, 30, 44, 45].map((at) => messageAt(ms, at)?.index ?? null)).toEqual([null, 0, 0, null, 1, 1, 2, 2, null]);
  });
  it("still answers when ranges are out of body order (linear fallback)", () => {
    const ms = [msg(0, 30, 45), msg(1, 10, 20)];
    expect([12, 40, 25].map((at) => messageAt(ms, at)?.index ?? null)).toEqual([1, 0, null]);
  });
});
