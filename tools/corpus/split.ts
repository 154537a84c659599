/**
 * The dev/test split rule of the evaluation corpus (pure). The unit of the split is the group
 * (one user or project: a GitHub owner), never a session, so no user's habits or project's
 * files are seen on both sides. Rule, applied once when the corpus was built:
 * 1. Agents are taken from the rarest (fewest groups) to the most common, ties by name.
 * 2. For each agent, its groups not yet placed are taken in order of sha256(group name) (hex),
 *    and each goes to the set that holds fewer groups with that agent; on a tie, to the set with
 *    fewer groups; on a tie again, to dev.
 * So each set gets about half the groups, and every agent with two or more groups is in both.
 */
import { createHash } from "node:crypto";

/** One group and the agents of its sessions. */
export interface SplitGroup {
  group: string;
  agents: readonly string[];
}

export type Split = "dev" | "test";

const sha = (s: string): string => createHash("sha256").update(s).digest("hex");

/** The split of every group, by the rule above. */
export function assignSplits(groups: readonly SplitGroup[]): Map<string, Split> {
  const byAgent = new Map<string, string[]>();
  for (const g of groups) for (const a of new Set(g.agents)) byAgent.set(a, [...(byAgent.get(a) ?? []), g.group]);
  const agents = [...byAgent.keys()].sort((a, b) => byAgent.get(a)!.length - byAgent.get(b)!.length || a.localeCompare(b));
  const placed = new Map<string, Split>();
  const groupAgents = new Map(groups.map((g) => [g.group, new Set(g.agents)]));
  const count = (split: Split, agent?: string) => [...placed].filter(([g, s]) => s === split && (agent === undefined || groupAgents.get(g)!.has(agent))).length;
  for (const agent of agents) {
    const todo = byAgent.get(agent)!.filter((g) => !placed.has(g)).sort((a, b) => sha(a).localeCompare(sha(b)));
    for (const g of todo) {
      const [dA, tA] = [count("dev", agent), count("test", agent)];
      const [d, t] = [count("dev"), count("test")];
      placed.set(g, dA !== tA ? (dA < tA ? "dev" : "test") : d !== t ? (d < t ? "dev" : "test") : "dev");
    }
  }
  return placed;
}
