/**
 * Command-line arguments of `npm run replay` (pure):
 * `[--out dir] [--strategies a,b] [--sluice in-process|http|off] [--gateway URL] [--emulator URL]
 * [--concurrency n] [--retarget-anthropic MODEL] [--save-forwarded DIR] [--by-rule] <files or dirs…>`.
 * Errors name the flag.
 */
import type { SluiceMode } from "./run-replay";

export interface ReplayArgs {
  /** Output folder for report.json and report.html (default "replay-report"). */
  out: string;
  /** Strategy names, or null for the default list. */
  strategies: string[] | null;
  /** Emulator base URL, or null to start one in-process. */
  emulator: string | null;
  /** How the sluice strategy runs (default in-process; a --gateway URL implies http). */
  sluice: SluiceMode;
  /** A running gateway's base URL (its upstream must be the --emulator), or null to start `wrangler dev` in http mode. */
  gateway: string | null;
  /** (session, strategy) runs in flight at once. */
  concurrency: number;
  /** Model every Anthropic session is replayed on instead of its recorded one (./retarget-model.ts), or null. */
  retarget_anthropic: string | null;
  /** Folder to write every forwarded body to (one file per strategy/session/call), or null. */
  save_forwarded: string | null;
  /** Print the removals by rule in the terminal too (they are always in the JSON and HTML). */
  by_rule: boolean;
  files: string[];
  help: boolean;
}

export const USAGE =
  "usage: npm run replay -- [--out dir] [--strategies none,anthropic-clear,observation-mask,idle-microcompact,sluice,sluice-splice,sluice-native,sluice-strict,sluice-placeholders,sluice-rewrite] [--sluice in-process|http|off] [--gateway URL] [--emulator URL] [--concurrency n] [--retarget-anthropic MODEL] [--save-forwarded DIR] [--by-rule] <files or dirs…>";

const SLUICE_MODES: readonly SluiceMode[] = ["in-process", "http", "off"];

/** Parses argv (without node and script). */
export function parseArgs(argv: readonly string[]): ReplayArgs {
  const args: ReplayArgs = { out: "replay-report", strategies: null, emulator: null, sluice: "in-process", gateway: null, concurrency: 4, retarget_anthropic: null, save_forwarded: null, by_rule: false, files: [], help: false };
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
      case "--sluice": {
        const v = value();
        if (!(SLUICE_MODES as readonly string[]).includes(v)) throw new Error(`--sluice: expected one of ${SLUICE_MODES.join(", ")}, got "${v}"`);
        args.sluice = v as SluiceMode;
        break;
      }
      case "--gateway": {
        const v = value();
        if (!/^https?:\/\//.test(v)) throw new Error(`--gateway: expected an http(s) URL, got "${v}"`);
        args.gateway = v;
        args.sluice = "http";
        break;
      }
      case "--concurrency": {
        const n = Number(value());
        if (!Number.isInteger(n) || n < 1) throw new Error(`--concurrency: expected a positive integer`);
        args.concurrency = n;
        break;
      }
      case "--retarget-anthropic": {
        const v = value();
        if (!/^[A-Za-z0-9._:@-]{1,200}$/.test(v)) throw new Error(`--retarget-anthropic: expected a model id, got "${v}"`);
        args.retarget_anthropic = v;
        break;
      }
      case "--save-forwarded":
        args.save_forwarded = value();
        break;
      case "--by-rule":
        if (inline !== undefined) throw new Error(`--by-rule: takes no value\n${USAGE}`);
        args.by_rule = true;
        break;
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
