/** Strategy `none` (pure): the agent's request goes as recorded — the no-compaction baseline every saving is measured against. */
import type { PureStrategy } from "../types";

export const noneStrategy: PureStrategy<null> = {
  kind: "pure",
  name: "none",
  source: "baseline: the recorded request, unchanged",
  initial: () => null,
  apply: (body, _ctx, state) => ({ body, state }),
};
