/** A promise with a deadline (shell helper): the step RPC and the global switch read. */

/** Thrown when a promise outlasts its deadline. */
export class Deadline extends Error {
  override name = "Deadline";
}

/** Resolves or rejects as `p` does, or rejects with Deadline after `ms` milliseconds. */
export function withDeadline<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const t = new Promise<never>((_, reject) => { timer = setTimeout(() => reject(new Deadline(`no answer within ${ms} ms`)), ms); });
  return Promise.race([p, t]).finally(() => clearTimeout(timer));
}
