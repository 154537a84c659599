/**
 * commonPrefixLength (src/providers/shared/common-prefix.ts) inside workerd: its node:buffer
 * `compare` over ranges (nodejs_compat) gives the byte loop's answers on the cases
 * test/unit/common-prefix.test.ts runs in Node (test/support/common-prefix-cases.ts).
 */
import { describe, expect, it } from "vitest";
import { commonPrefixLength } from "../../src/providers/shared/common-prefix";
import { PREFIX_ANSWER_ENDS, answerEnds, prefixAnswers } from "../support/common-prefix-cases";

describe("commonPrefixLength in workerd", () => {
  it("equals a byte loop at every 7th first-difference position of a 5 000-byte body", () => {
    const { got, want } = prefixAnswers(commonPrefixLength);
    expect([got, answerEnds(got)]).toEqual([want, PREFIX_ANSWER_ENDS]);
  });
});
