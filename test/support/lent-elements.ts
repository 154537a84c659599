/**
 * For the reader memo tests: over consecutive calls of a session (each call's located elements
 * in order), how many elements were lent by the scan reuse (the same node object at the same
 * index as in the call before) and how many of those came back as the very same located object.
 */
export function countLent(calls: readonly (readonly { node: unknown }[])[]): { lent: number; same: number } {
  let lent = 0;
  let same = 0;
  for (let k = 1; k < calls.length; k++) {
    const before = calls[k - 1]!;
    for (const [i, el] of calls[k]!.entries()) {
      if (before[i]?.node !== el.node) continue;
      lent++;
      if (before[i] === el) same++;
    }
  }
  return { lent, same };
}
