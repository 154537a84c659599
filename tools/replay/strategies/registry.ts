/**
 * Strategy registry (pure): names → strategies. `none` is always run first because every other
 * strategy's savings are measured against it.
 */
import type { GatewayStrategy, SluiceStrategy, Strategy } from "../types";
import { createAnthropicClear } from "./anthropic-clear";
import { createIdleMicrocompact } from "./idle-microcompact";
import { noneStrategy } from "./none";
import { createObservationMask } from "./observation-mask";

/** Every strategy name, in report order (the per-mechanism and per-level Sluice runs are asked for by name only: ./sluice-slot.ts VARIANT_OF). */
export const STRATEGY_NAMES = ["none", "anthropic-clear", "observation-mask", "idle-microcompact", "sluice", "sluice-splice", "sluice-native", "sluice-strict", "sluice-placeholders", "sluice-rewrite"] as const;

/** Strategies run when --strategies is not given. */
const DEFAULT_NAMES: readonly string[] = ["none", "anthropic-clear", "observation-mask", "idle-microcompact", "sluice"];

/**
 * Strategies for the given names (deduplicated, `none` first); `sluice` is the in-process or
 * gateway strategy built by the caller, `variants` its in-process variants by name (./sluice-slot.ts). Throws naming an unknown or unwired strategy.
 */
export function resolveStrategies(names: readonly string[], sluice: SluiceStrategy | GatewayStrategy | null, variants: Partial<Record<string, SluiceStrategy>> = {}): Strategy[] {
  const wanted = ["none", ...names.filter((n) => n !== "none")].filter((n, i, all) => all.indexOf(n) === i);
  return wanted.map((name): Strategy => {
    switch (name) {
      case "none":
        return noneStrategy as Strategy;
      case "anthropic-clear":
        return createAnthropicClear() as Strategy;
      case "observation-mask":
        return createObservationMask() as Strategy;
      case "idle-microcompact":
        return createIdleMicrocompact() as Strategy;
      case "sluice":
        if (sluice === null) throw new Error("strategy sluice: not wired in this run (--sluice off)");
        return sluice;
      case "sluice-splice":
      case "sluice-native":
      case "sluice-strict":
      case "sluice-placeholders":
      case "sluice-rewrite": {
        const s = variants[name];
        if (s === undefined) throw new Error(`strategy ${name}: not wired in this run (in-process only: --sluice in-process)`);
        return s;
      }
      default:
        throw new Error(`--strategies: unknown strategy "${name}" (known: ${STRATEGY_NAMES.join(", ")})`);
    }
  });
}

/** Default strategy list: all pure ones, plus sluice when wired. */
export function defaultStrategyNames(sluiceWired: boolean): string[] {
  return DEFAULT_NAMES.filter((n) => n !== "sluice" || sluiceWired);
}
