/** Sluice version, reported by GET /healthz. Keep in step with package.json. */
export const VERSION = "0.1.0";
