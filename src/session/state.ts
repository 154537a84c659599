/**
 * The session's storage (shell over the Durable Object's `SqlStorage`, DESIGN §6): typed state
 * slots, named counters, and the tables each module owns. State lives in rows, not one blob (a
 * single storage value is size-capped), and no row holds conversation text except the opt-in
 * archive and level `rewrite`'s own summaries (DESIGN invariant 7).
 *
 * - A **slot** is one named JSON row of table `state`, with a zod schema and an initial value,
 *   defined by the module that owns it (`defineSlot`): no other module spells its name. A read
 *   that fails the schema is a typed fail-open: the initial value is used and
 *   `state_invalid_<slot>` is counted, never a crash.
 * - A **counter** is a named number that only grows by deltas (`add`).
 * - A module's own **tables** are declared with `defineTables` and created with the session's.
 *
 * Every session method runs as one unit of work (`SessionDb.run`): slots are read on first use
 * (one SELECT each) and written once at the end if changed, counter deltas go in one statement,
 * so no method has to remember to flush.
 */
import type { z } from "zod";
import type { CompactionConfig } from "../config/schema";
import type { StepFacts } from "../core/facts/step-facts";
import type { Ledger } from "../core/policy/ledger";
import type { TierResult } from "../core/policy/types";
import type { ProjectMemoryEntry } from "../observers/memory-object";
import type { CallReport, ReportAnswer } from "./contract";
import type { LastPrefix } from "./session-record";

/** A named, typed JSON row of the session's state (see the module header). */
export interface Slot<T> {
  readonly name: string;
  readonly schema: z.ZodType<T>;
  readonly initial: () => T;
}

/** Bound parameters per statement. Source: Cloudflare's Durable Object SQL limits ("Maximum bound parameters per query: 100", developers.cloudflare.com/durable-objects/platform/limits/). */
export const MAX_BOUND_PARAMETERS = 100;

const slotNames = new Set<string>();
const tableDdl: string[] = [];
const tableNames: string[] = [];

/** Declares slot `name` (module load time). Throws when two modules claim one name. */
export function defineSlot<T>(name: string, schema: z.ZodType<T>, initial: () => T): Slot<T> {
  if (slotNames.has(name)) throw new Error(`session state slot "${name}" defined twice`);
  slotNames.add(name);
  return { name, schema, initial };
}

/**
 * Declares tables a module owns: `ddl` is `CREATE TABLE IF NOT EXISTS <name> …` statements, one
 * per name in `names` (the names the retention wipe empties). Module load time.
 */
export function defineTables(names: readonly string[], ddl: string): void {
  tableNames.push(...names);
  tableDdl.push(ddl);
}

defineTables(["state", "counters"], `
CREATE TABLE IF NOT EXISTS state (name TEXT PRIMARY KEY, json TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS counters (name TEXT PRIMARY KEY, value REAL NOT NULL);`);

/**
 * Runs `head + "(?, …), (?, …)" + tail` over `rows`, in as many statements as the parameter cap
 * needs. Every row has the same number of values (≥ 1); an empty `rows` runs nothing.
 */
export function execRows(sql: SqlStorage, head: string, tail: string, rows: readonly (readonly SqlStorageValue[])[]): void {
  if (rows.length === 0) return;
  const width = rows[0]!.length;
  const placeholder = `(${Array.from({ length: width }, () => "?").join(", ")})`;
  const perStatement = Math.max(1, Math.floor(MAX_BOUND_PARAMETERS / width));
  for (let i = 0; i < rows.length; i += perStatement) {
    const chunk = rows.slice(i, i + perStatement);
    sql.exec(head + chunk.map(() => placeholder).join(", ") + tail, ...chunk.flat());
  }
}

/** One unit of work over the session's storage: typed slots, counters, and the raw `sql` for a module's own tables. */
export class StateTx {
  private readonly values = new Map<string, unknown>();
  private readonly dirty = new Set<string>();
  private readonly deltas = new Map<string, number>();

  constructor(readonly sql: SqlStorage) {}

  /** The slot's value (read once per unit of work; the initial value when absent or invalid, the latter counted). */
  get<T>(slot: Slot<T>): T {
    if (this.values.has(slot.name)) return this.values.get(slot.name) as T;
    const row = this.sql.exec<{ json: string }>("SELECT json FROM state WHERE name = ?", slot.name).toArray()[0];
    let value = slot.initial();
    if (row !== undefined) {
      const parsed = safeJson(row.json);
      const checked = slot.schema.safeParse(parsed);
      if (checked.success) value = checked.data;
      else this.add(`state_invalid_${slot.name}`, 1);
    }
    this.values.set(slot.name, value);
    return value;
  }

  /** Replaces the slot's value (written at the end of the unit of work). */
  set<T>(slot: Slot<T>, value: T): void {
    this.values.set(slot.name, value);
    this.dirty.add(slot.name);
  }

  /** Applies `change` to a copy of the slot's value and keeps it. */
  update<T extends object>(slot: Slot<T>, change: Partial<T>): T {
    const next = { ...this.get(slot), ...change };
    this.set(slot, next);
    return next;
  }

  /** `counters[name] += delta` (0 is ignored). */
  add(name: string, delta: number): void {
    if (delta === 0 || !Number.isFinite(delta)) return;
    this.deltas.set(name, (this.deltas.get(name) ?? 0) + delta);
  }

  /** The current values of `names` (stored plus this unit's deltas; 0 when absent), one SELECT. */
  counterValues<N extends string>(names: readonly N[]): Record<N, number> {
    const out = {} as Record<N, number>;
    for (const n of names) out[n] = this.deltas.get(n) ?? 0;
    const rows = this.sql.exec<{ name: N; value: number }>(`SELECT name, value FROM counters WHERE name IN (${names.map(() => "?").join(", ")})`, ...names);
    for (const r of rows) out[r.name] += r.value;
    return out;
  }

  /** Every counter, by name (stored plus this unit's deltas). */
  counters(): Record<string, number> {
    const out: Record<string, number> = {};
    for (const r of this.sql.exec<{ name: string; value: number }>("SELECT name, value FROM counters ORDER BY name")) out[r.name] = r.value;
    for (const [n, d] of this.deltas) out[n] = (out[n] ?? 0) + d;
    return Object.fromEntries(Object.entries(out).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  }

  /** Writes the changed slots and the counter deltas. */
  commit(): void {
    execRows(this.sql, "INSERT INTO state (name, json) VALUES ", " ON CONFLICT(name) DO UPDATE SET json = excluded.json", [...this.dirty].map((n) => [n, JSON.stringify(this.values.get(n))]));
    execRows(this.sql, "INSERT INTO counters (name, value) VALUES ", " ON CONFLICT(name) DO UPDATE SET value = value + excluded.value", [...this.deltas]);
    this.dirty.clear();
    this.deltas.clear();
  }
}

/** The parsed JSON, or undefined when it does not parse (the schema then fails). */
function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The session's database: creates every declared table, runs units of work, wipes everything at retention. */
export class SessionDb {
  constructor(readonly sql: SqlStorage) {
    for (const ddl of tableDdl) sql.exec(ddl);
  }

  /** Runs `work` as one unit of work and commits it (also when `work` throws: what it counted stands). */
  async run<T>(work: (tx: StateTx) => T | Promise<T>): Promise<T> {
    const tx = new StateTx(this.sql);
    try {
      return await work(tx);
    } finally {
      tx.commit();
    }
  }

  /** Deletes every row of every table the session owns (retention: DESIGN §6). */
  wipe(): void {
    for (const name of tableNames) this.sql.exec(`DELETE FROM ${name}`);
  }
}

/** What a step hands its observers (after the decision, before the answer). */
export interface StepEvent {
  facts: StepFacts;
  /** The previous request's prefix (./session-record.ts LastPrefix), null for the first. */
  previous: LastPrefix | null;
  /** This call's number (1-based) and time, epoch ms. */
  call: number;
  now_ms: number;
  mode: "compact" | "measure";
  correlation_id: string;
  config: CompactionConfig;
  project_key: string | undefined;
  /** The ledger before this step, and what the step decided; null: the session is disabled (nothing was decided). */
  before: Ledger;
  result: TierResult | null;
  /** Time the step waited on an HTTP engine, ms (null: none consulted), and what its answer cost, USD. */
  engine_wait_ms: number | null;
  engine_cost_usd: number;
}

/** What a report hands its observers: the report with its outcome as settled (./record-report.ts). */
export interface ReportEvent {
  report: CallReport;
}

/** What the complete alarm hands its observers. */
export interface CompleteEvent {
  now_ms: number;
  session_id: string | null;
  config: CompactionConfig;
  ledger: Ledger;
  /** Where project maps go (the project's MemoryObject); absent: nowhere. */
  memory?: ProjectMemoryPort;
}

/** A project's memory as the session reaches it (../observers/memory-object.ts MemoryObject's claim and put). */
export type ProjectMemoryPort = (project: string) => {
  claim(by_session: string, now_ms: number): Promise<ProjectMemoryEntry | null>;
  put(entry: ProjectMemoryEntry): Promise<void>;
};

/**
 * A feature that observes the session (savings ledger, cache diagnostics, project memory): it
 * owns its slots and tables and is called at these points, each inside the session's unit of
 * work. Registered in one line of ./session.ts; removing a feature is deleting its module and
 * that line.
 */
export interface SessionObserver {
  afterStep?(tx: StateTx, e: StepEvent): void;
  /** May add its figures to the report's answer. */
  afterReport?(tx: StateTx, e: ReportEvent): Partial<Pick<ReportAnswer, "ledger">> | void;
  /** A step the gateway did not forward is being rolled back. */
  onRollback?(tx: StateTx, step: number): void;
  atComplete?(tx: StateTx, e: CompleteEvent): Promise<void>;
}
