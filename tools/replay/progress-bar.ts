/**
 * The replay's progress bar (cli-progress on stderr, only on a TTY), shared by `npm run replay`
 * and `npm run demo`: `onCall(done, total)` starts the bar on the first call and updates it.
 */
import cliProgress from "cli-progress";

export interface ProgressBar {
  onCall: (done: number, total: number) => void;
  stop: () => void;
}

/** A progress bar labelled `label` ("replay", "demo"); a no-op when stderr is not a TTY. */
export function createProgressBar(label: string): ProgressBar {
  const bar = process.stderr.isTTY
    ? new cliProgress.SingleBar({ format: `${label} [{bar}] {percentage}% | {value}/{total} calls | {duration_formatted}`, stream: process.stderr }, cliProgress.Presets.shades_classic)
    : null;
  let started = false;
  return {
    onCall: (done, total) => {
      if (!started) bar?.start(total, 0);
      started = true;
      bar?.update(done);
    },
    stop: () => bar?.stop(),
  };
}
