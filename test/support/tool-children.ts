/**
 * Child program for test/unit/tool-children-cleanup.test.ts (Node, run with `--import tsx`):
 * starts what `npm run load` starts — the emulator in its own process and `wrangler dev` in its
 * own process group — prints one JSON line `{ emulator_pid, wrangler_pid, persist_dir }`, then
 * waits to be killed. It never calls `close()`: the test checks that the exit handlers stop both.
 */
import { startEmulatorProcess } from "../../tools/load/start-emulator-process";
import { startWranglerDev } from "../../tools/shared/start-wrangler-dev";

const emulator = await startEmulatorProcess();
const dev = await startWranglerDev({ vars: { ANTHROPIC_BASE_URL: emulator.url, OPENAI_BASE_URL: emulator.url } });
console.log(JSON.stringify({ emulator_pid: emulator.pid, wrangler_pid: dev.pid, persist_dir: dev.persistDir }));
setInterval(() => undefined, 60_000);
