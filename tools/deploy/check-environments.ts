/**
 * Every wrangler environment against the Worker (pure: the parsed wrangler.toml and the Worker's
 * Durable Object classes in, findings out). Shared by `npm run config:check` and
 * `npm run deploy:check`. Wrangler's rules (developers.cloudflare.com, Durable Objects
 * "Environments"; wrangler's config validation): `durable_objects` and `vars` are NOT inherited
 * by an `[env.<name>]`, `migrations` are (an environment without its own list uses the top
 * level's). For the top level and each environment:
 * 1. Bindings: each class of DURABLE_OBJECT_CLASSES bound under its binding name, with its
 *    class; no binding to a class the Worker does not export (unless it names another Worker
 *    with `script_name`).
 * 2. Migrations (the environment's own, else the top level's): tags unique; applied in order
 *    (new_sqlite_classes / new_classes add, renamed_classes rename, deleted_classes remove,
 *    transferred_classes add the target), they leave exactly the Worker's classes, each declared
 *    with `new_sqlite_classes` (the classes keep their state in SQLite).
 * 3. Vars (environments only): every var the top level sets is set again, since an environment
 *    does not inherit them (a missing base URL would silently send staging to the default).
 */
import type { DurableObjectClass } from "../../src/durable-object-classes";

interface Binding { name?: unknown; class_name?: unknown; script_name?: unknown }
interface Migration {
  tag?: unknown;
  new_classes?: unknown;
  new_sqlite_classes?: unknown;
  renamed_classes?: unknown;
  deleted_classes?: unknown;
  transferred_classes?: unknown;
}
/** The part of one environment table (or the top level) that is checked. */
export interface EnvironmentTable {
  vars?: Record<string, unknown>;
  durable_objects?: { bindings?: Binding[] };
  migrations?: Migration[];
}
/** The parsed wrangler.toml (smol-toml's output). */
export type WranglerDoc = EnvironmentTable & { env?: Record<string, EnvironmentTable> };

/** One environment's findings: `where` is "top level" or "[env.<name>]". */
export interface EnvironmentFindings {
  where: string;
  errors: string[];
}

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : []);
const pairs = (v: unknown): { from: string; to: string }[] =>
  Array.isArray(v) ? v.filter((x): x is { from: string; to: string } => typeof x?.from === "string" && typeof x?.to === "string") : [];

/** Errors of one binding list against the Worker's classes. */
function bindingErrors(bindings: Binding[], classes: readonly DurableObjectClass[]): string[] {
  const out: string[] = [];
  const exported = new Set<string>(classes.map((c) => c.class_name));
  for (const c of classes) {
    const b = bindings.find((x) => x.name === c.binding);
    if (!b) out.push(`no Durable Object binding ${c.binding} (class_name = "${c.class_name}"): the Worker's ${c.binding} would be undefined`);
    else if (b.class_name !== c.class_name) out.push(`binding ${c.binding} names class ${JSON.stringify(b.class_name)}, but the Worker's ${c.binding} is class ${c.class_name}`);
  }
  for (const b of bindings) {
    if (b.script_name === undefined && typeof b.class_name === "string" && !exported.has(b.class_name)) {
      out.push(`binding ${String(b.name)} names class ${b.class_name}, which the Worker does not export (it exports ${[...exported].join(", ")})`);
    }
  }
  return out;
}

/** Errors of a migration list against the Worker's classes. */
function migrationErrors(migrations: Migration[], classes: readonly DurableObjectClass[]): string[] {
  const out: string[] = [];
  const tags = migrations.map((m) => m.tag);
  const repeated = tags.filter((t, i) => tags.indexOf(t) !== i);
  if (repeated.length > 0) out.push(`migration tag ${[...new Set(repeated)].map(String).join(", ")} is used more than once: Cloudflare applies each tag once`);
  const live = new Map<string, "sqlite" | "kv">();
  for (const m of migrations) {
    for (const c of strings(m.new_sqlite_classes)) live.set(c, "sqlite");
    for (const c of strings(m.new_classes)) live.set(c, "kv");
    for (const { from, to } of pairs(m.renamed_classes)) {
      const kind = live.get(from);
      live.delete(from);
      if (kind) live.set(to, kind);
    }
    for (const c of strings(m.deleted_classes)) live.delete(c);
    for (const { to } of pairs(m.transferred_classes)) live.set(to, "sqlite");
  }
  for (const c of classes) {
    const kind = live.get(c.class_name);
    if (kind === undefined) out.push(`no migration creates class ${c.class_name}: append [[migrations]] tag = "v${migrations.length + 1}", new_sqlite_classes = ["${c.class_name}"]`);
    else if (kind === "kv") out.push(`class ${c.class_name} is created with new_classes (key-value storage), but it keeps its state in SQLite: it needs new_sqlite_classes`);
  }
  const exported = new Set<string>(classes.map((c) => c.class_name));
  for (const name of live.keys()) if (!exported.has(name)) out.push(`the migrations leave class ${name}, which the Worker does not export: deploy refuses it; append a migration with deleted_classes or renamed_classes`);
  return out;
}

/** The findings for the top level and each environment, in file order. */
export function checkEnvironments(doc: WranglerDoc, classes: readonly DurableObjectClass[]): EnvironmentFindings[] {
  const top: EnvironmentFindings = {
    where: "top level",
    errors: [...bindingErrors(doc.durable_objects?.bindings ?? [], classes), ...migrationErrors(doc.migrations ?? [], classes)],
  };
  const topVars = Object.keys(doc.vars ?? {});
  const envs = Object.entries(doc.env ?? {}).map(([name, e]): EnvironmentFindings => {
    const missingVars = topVars.filter((v) => !(e.vars && v in e.vars));
    return {
      where: `[env.${name}]`,
      errors: [
        ...bindingErrors(e.durable_objects?.bindings ?? [], classes).map((x) => `${x} (bindings are not inherited from the top level)`),
        ...migrationErrors(e.migrations ?? doc.migrations ?? [], classes),
        ...(missingVars.length > 0 ? [`vars ${missingVars.join(", ")} are set at the top level but not in [env.${name}.vars]: vars are not inherited, so this environment gets the built-in defaults`] : []),
      ],
    };
  });
  return [top, ...envs];
}
