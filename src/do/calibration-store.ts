/**
 * The session's estimator calibration in the SQL store (shell): one meta number per field of
 * src/core/tokens/calibrate.ts Calibration, under `calibration_<field>`. Counts only (DESIGN
 * invariant 7). Read by the step (thresholds, pressure, the header's figures) and the outcome
 * (tokens saved); written when a usage report arrives (./record-usage.ts).
 */
import { NO_CALIBRATION, type Calibration } from "../core/tokens/calibrate";
import type { SessionStore } from "./session-store";

const FIELDS = Object.keys(NO_CALIBRATION) as (keyof Calibration)[];

/** The stored calibration; NO_CALIBRATION before the first answer. */
export function loadCalibration(s: SessionStore): Calibration {
  const c = { ...NO_CALIBRATION };
  for (const f of FIELDS) c[f] = s.getMetaNumber(`calibration_${f}`);
  return c;
}

/** Buffers `c` for the next flush. */
export function saveCalibration(s: SessionStore, c: Calibration): void {
  for (const f of FIELDS) s.setMeta(`calibration_${f}`, c[f]);
}
