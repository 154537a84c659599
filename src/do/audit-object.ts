/**
 * Audit trail Durable Object (shell), SQLite-backed: one append-only, hash-chained,
 * HMAC-signed log (DESIGN §9). The chain logic is pure (src/core/audit); this class
 * only owns the table, the clock and the key. One instance, named AUDIT_OBJECT_NAME. It also
 * holds the global kill switch (one row beside the trail, so setting it and recording it happen
 * in the same object; src/gateway/global-switch.ts reads it).
 *
 * Key: the secret whose NAME is the config's `audit_key_env` (default SLUICE_AUDIT_KEY). Unset,
 * or a development value (`dev-only-…`) outside wrangler dev (src/config/secrets.ts): the trail
 * refuses to sign, and append/verify answer with an error naming the secret.
 */
import { DurableObject } from "cloudflare:workers";
import type { Env } from "../config/env";
import { DEFAULTS } from "../config/defaults";
import { loadConfig } from "../config/load-config";
import { secretProblem, secretProblemMessage } from "../config/secrets";
import { auditEntrySchema, type AuditEntry, type AuditRecord } from "../core/audit/audit-record";
import { canonicalJson, type JsonValue } from "../core/audit/canonical-json";
import { importAuditKey } from "../core/audit/digest";
import { sealRecord } from "../core/audit/seal-record";
import { START_TAIL, verifyRun, type ChainFault } from "../core/audit/verify-chain";

/** The name of the single audit object (`env.AUDIT.idFromName(AUDIT_OBJECT_NAME)`). */
export const AUDIT_OBJECT_NAME = "audit";
/** Rows read per page by list/verify (bounded memory; our choice). */
const PAGE = 500;

export type AppendResult =
  | { ok: true; record: AuditRecord; created: boolean }
  | { ok: false; error: string };

export type AuditVerifyResult =
  | { ok: true; first_bad_seq: null; count: number }
  | { ok: false; first_bad_seq: number; reason: ChainFault; count: number }
  | { ok: false; first_bad_seq: null; reason: "key_missing"; count: 0 };

type Row = { seq: number; time: string; kind: string; fields: string; prev_hash: string; hash: string; hmac: string };

export class AuditObject extends DurableObject<Env> {
  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    ctx.storage.sql.exec(`CREATE TABLE IF NOT EXISTS audit_log (
      seq INTEGER PRIMARY KEY, time TEXT NOT NULL, kind TEXT NOT NULL, fields TEXT NOT NULL,
      prev_hash TEXT NOT NULL, hash TEXT NOT NULL, hmac TEXT NOT NULL)`);
    ctx.storage.sql.exec("CREATE TABLE IF NOT EXISTS control (name TEXT PRIMARY KEY, value INTEGER NOT NULL)");
  }

  /** The global kill switch: true when an operator turned compaction off for the whole deployment (read by every isolate, cached GLOBAL_SWITCH_TTL_MS). */
  async compactionDisabled(): Promise<boolean> {
    return this.ctx.storage.sql.exec<{ value: number }>("SELECT value FROM control WHERE name = 'compaction_disabled'").toArray()[0]?.value === 1;
  }

  /**
   * Sets the global kill switch and appends a `global_compaction` record. The flag is stored
   * even when the trail cannot sign (an emergency switch must not wait for a key); `audit` then
   * carries the error naming the secret.
   */
  async setCompactionDisabled(disabled: boolean): Promise<{ disabled: boolean; audit: AppendResult }> {
    this.ctx.storage.sql.exec(
      "INSERT INTO control (name, value) VALUES ('compaction_disabled', ?) ON CONFLICT(name) DO UPDATE SET value = excluded.value", disabled ? 1 : 0,
    );
    return { disabled, audit: await this.append({ kind: "global_compaction", fields: { disabled } }) };
  }

  /** Appends an entry (validated against its kind's schema). Serialised: one append at a time. The returned record's fields are in canonical (stored) key order. */
  async append(entry: AuditEntry): Promise<AppendResult> {
    return this.write(entry, false);
  }

  /**
   * Appends unless a record with the same kind and fields exists (then returns that one,
   * `created: false`). For consent and engine_destination: the first dated record stays the proof.
   */
  async appendOnce(entry: AuditEntry): Promise<AppendResult> {
    return this.write(entry, true);
  }

  /** Records with seq > `since`, ascending, at most `limit`. */
  async list(since: number, limit: number): Promise<AuditRecord[]> {
    const rows = this.ctx.storage.sql.exec<Row>("SELECT * FROM audit_log WHERE seq > ? ORDER BY seq LIMIT ?", since, limit).toArray();
    return rows.map(toRecord);
  }

  /** Recomputes the whole chain from seq 1. */
  async verify(): Promise<AuditVerifyResult> {
    const key = await this.key();
    if (!key) return { ok: false, first_bad_seq: null, reason: "key_missing", count: 0 };
    let tail = START_TAIL;
    let count = 0;
    for (;;) {
      const page = this.ctx.storage.sql.exec<Row>("SELECT * FROM audit_log WHERE seq > ? ORDER BY seq LIMIT ?", tail.seq, PAGE).toArray();
      if (page.length === 0) return { ok: true, first_bad_seq: null, count };
      const run = await verifyRun(page.map(toRecord), key, tail);
      count += run.checked;
      if (!run.ok) return { ok: false, first_bad_seq: run.first_bad_seq, reason: run.reason, count };
      tail = run.tail;
    }
  }

  private async write(entry: AuditEntry, once: boolean): Promise<AppendResult> {
    const parsed = auditEntrySchema.safeParse(entry);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      return { ok: false, error: `audit entry refused at ${issue.path.join(".") || "(root)"}: ${issue.message}` };
    }
    const key = await this.key();
    if (!key) {
      const name = this.keyName();
      return { ok: false, error: `audit trail refuses to sign: ${secretProblemMessage(name, secretProblem(this.env, name) ?? "missing")}` };
    }
    const fieldsText = canonicalJson(parsed.data.fields as JsonValue);
    return this.ctx.blockConcurrencyWhile(async (): Promise<AppendResult> => {
      if (once) {
        const found = this.ctx.storage.sql.exec<Row>("SELECT * FROM audit_log WHERE kind = ? AND fields = ? ORDER BY seq LIMIT 1", parsed.data.kind, fieldsText).toArray()[0];
        if (found) return { ok: true, record: toRecord(found), created: false };
      }
      const last = this.ctx.storage.sql.exec<Row>("SELECT seq, hash FROM audit_log ORDER BY seq DESC LIMIT 1").toArray()[0];
      const record = await sealRecord(last ? { seq: last.seq, hash: last.hash } : null, parsed.data, new Date().toISOString(), key);
      this.ctx.storage.sql.exec("INSERT INTO audit_log (seq, time, kind, fields, prev_hash, hash, hmac) VALUES (?, ?, ?, ?, ?, ?, ?)",
        record.seq, record.time, record.kind, fieldsText, record.prev_hash, record.hash, record.hmac);
      return { ok: true, record: { ...record, fields: JSON.parse(fieldsText) }, created: true };
    });
  }

  /** The NAME of the key secret: the config's audit_key_env, or the default if the config is invalid. */
  private keyName(): string {
    const loaded = loadConfig(this.env);
    return loaded.ok ? loaded.config.audit_key_env : DEFAULTS.audit_key_env;
  }

  private async key(): Promise<CryptoKey | null> {
    const name = this.keyName();
    return secretProblem(this.env, name) === null ? importAuditKey(this.env[name] as string) : null;
  }
}

/** A row as a record. Unparseable stored fields are kept as text, so verify reports the row's hash. */
function toRecord(r: Row): AuditRecord {
  let fields: AuditRecord["fields"];
  try {
    fields = JSON.parse(r.fields);
  } catch {
    fields = { unreadable_fields: r.fields };
  }
  return { seq: r.seq, time: r.time, kind: r.kind as AuditRecord["kind"], fields, prev_hash: r.prev_hash, hash: r.hash, hmac: r.hmac };
}
