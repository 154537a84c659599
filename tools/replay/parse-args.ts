/**
 * Command-line arguments of `npm run replay` (pure):
 * `[--out dir] [--strategies a,b] [--emulator URL] [--concurrency n] <files or dirs…>`.
 * Errors name the flag.
 */

export interface ReplayArgs {
  /** Output folder for report.json and report.html (default "replay-report"). */
  out: string;
  /** Strategy names, or null for the default list. */
  strategies: string[] | null;
  /** Emulator base URL, or null to start one in-process. */
  emulator: string | null;
  /** (session, strategy) runs in flight at once. */
  concurrency: number;
  files: string[];
  help: boolean;
}

export const USAGE = "usage: npm run replay -- [--out dir] [--strategies none,anthropic-clear,observation-mask,idle-microcompact,sluice] [--emulator URL] [--concurrency n] <files or dirs…>";

/** Parses argv (without node and script). */
export function parseArgs(argv: readonly string[]): ReplayArgs {
  const args: ReplayArgs = { out: "replay-report", strategies: null, emulator: null, concurrency: 4, files: [], help: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const [flag, inline] = a.startsWith("--") && a.includes("=") ? [a.slice(0, a.indexOf("=")), a.slice(a.indexOf("=") + 1)] : [a, undefined];
    const value = (): string => {
      const v = inline ?? argv[++i];
      if (v === undefined || v === "") throw new Error(`${flag}: missing value\n${USAGE}`);
      return v;
    };
    switch (flag) {
      case "--out":
        args.out = value();
        break;
      case "--strategies":
        args.strategies = value().split(",").map((s) => s.trim()).filter((s) => s !== "");
        break;
      case "--emulator": {
        const v = value();
        if (!/^https?:\/\//.test(v)) throw new Error(`--emulator: expected an http(s) URL, got "${v}"`);
        args.emulator = v;
        break;
      }
      case "--concurrency": {
        const n = Number(value());
        if (!Number.isInteger(n) || n < 1) throw new Error(`--concurrency: expected a positive integer`);
        args.concurrency = n;
        break;
      }
      case "-h":
      case "--help":
        args.help = true;
        break;
      default:
        if (flag.startsWith("-")) throw new Error(`unknown flag ${flag}\n${USAGE}`);
        args.files.push(a);
    }
  }
  return args;
}
