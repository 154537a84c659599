/**
 * `node:sqlite`, loaded once without its one-time ExperimentalWarning (the module is
 * experimental on Node 22: the warning says nothing about our tools and cluttered the stderr of
 * `npm run load` and the replay). Any other warning passes through.
 */
let sqliteModule: typeof import("node:sqlite") | null = null;

/** The `node:sqlite` module (Node ≥ 22.5); throws as `process.getBuiltinModule` does where it is missing. */
export function loadSqlite(): typeof import("node:sqlite") {
  if (sqliteModule) return sqliteModule;
  const emit = process.emitWarning;
  process.emitWarning = ((warning: string | Error, ...rest: unknown[]) => {
    const text = typeof warning === "string" ? warning : warning.message;
    const type = typeof rest[0] === "string" ? rest[0] : (rest[0] as { type?: string } | undefined)?.type;
    if ((type === "ExperimentalWarning" || (warning as Error).name === "ExperimentalWarning") && /SQLite/i.test(text)) return;
    (emit as (...a: unknown[]) => void).call(process, warning, ...rest);
  }) as typeof process.emitWarning;
  try {
    sqliteModule = process.getBuiltinModule("node:sqlite") as typeof import("node:sqlite");
  } finally {
    process.emitWarning = emit;
  }
  return sqliteModule;
}
