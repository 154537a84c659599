/**
 * Where the seed corpus lives: `corpus/seed/` in this repository (nine recorded agent sessions,
 * format and provenance in corpus/seed/MANIFEST.md and NOTICE.md). Resolved from this file, so
 * a tool finds it from any working directory.
 */
import { fileURLToPath } from "node:url";

/** Absolute path of corpus/seed, with a trailing slash. */
export const SEED_CORPUS_DIR = fileURLToPath(new URL("../../corpus/seed/", import.meta.url).href);
