/**
 * The savings ledger against the bill (pure): per session and in total, for every strategy with
 * a ledger (in-process Sluice), the saving its own session ledger computed live — net of the
 * cache writes its steps caused (src/observers/savings-ledger.ts) — beside the saving the emulator
 * billed, (none billed − strategy billed) ÷ none billed, and the gap in points. The ledger's
 * target: within 1 point per session.
 */
import { pct } from "./report-format";
import type { ReplayReport } from "./summarize-report";

/** One row: session (or TOTAL), strategy, billed saving %, ledger saving %, gap in points. */
export interface LedgerCheckRow {
  session: string;
  strategy: string;
  billed_pct: number;
  ledger_pct: number;
  gap_points: number;
}

/** The rows of every session and the total, for strategies that carry ledger figures. */
export function ledgerCheckRows(report: ReplayReport): LedgerCheckRow[] {
  const rows: LedgerCheckRow[] = [];
  const add = (session: string, by: ReplayReport["total"]) => {
    for (const s of report.strategies) {
      const m = by[s];
      if (m?.ledger == null) continue;
      // The emulator's saving without the engine cost: the ledger prices input only, engine cost apart.
      const billed = m.input_cost_without_usd === 0 ? 0 : ((m.input_cost_without_usd - (m.input_cost_with_usd - m.engine_cost_usd)) / m.input_cost_without_usd) * 100;
      rows.push({ session, strategy: s, billed_pct: billed, ledger_pct: m.ledger.saving_pct, gap_points: Math.round((m.ledger.saving_pct - billed) * 100) / 100 });
    }
  };
  for (const s of report.sessions) add(s.id, s.strategies);
  add("TOTAL", report.total);
  return rows;
}

/** Terminal lines of the check (none when no strategy has a ledger). */
export function ledgerCheckLines(report: ReplayReport): string[] {
  const rows = ledgerCheckRows(report);
  if (rows.length === 0) return [];
  return [
    "Savings ledger vs bill (the saving Sluice's session ledger computed live vs what the emulator billed):",
    ...rows.map((r) => `  ${r.session} [${r.strategy}]: billed ${pct(r.billed_pct)}, ledger ${pct(r.ledger_pct)} (gap ${r.gap_points >= 0 ? "+" : ""}${r.gap_points.toFixed(2)} points)`),
  ];
}
