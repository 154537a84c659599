/**
 * The words of a shell command or segment (pure), honouring simple single and double quotes (a
 * quoted word loses its quotes). Enough for the one-command reads and writes the classifier
 * recognises (./read-tool-call.ts, ./shell-writes.ts); no escapes, no expansion.
 */
export function shellWords(cmd: string): string[] {
  const out: string[] = [];
  for (const m of cmd.matchAll(/'([^']*)'|"([^"]*)"|(\S+)/g)) out.push(m[1] ?? m[2] ?? m[3]!);
  return out;
}
