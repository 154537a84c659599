/**
 * Where the recorded material that tests, tools and benchmarks share lives, all inside this
 * repository: the seed corpus (corpus/seed, MANIFEST.md) and the failure cases
 * (test/fixtures/cases, README.md). Paths are resolved from this file, never absolute, so a
 * fresh clone in any folder finds them.
 */
import { fileURLToPath } from "node:url";
import { SEED_CORPUS_DIR } from "../../tools/shared/seed-corpus";

/** Absolute path of corpus/seed (no trailing slash). */
export const CORPUS_PATH = SEED_CORPUS_DIR.replace(/\/$/, "");
/** Absolute path of test/fixtures/cases (no trailing slash). */
export const CASES_PATH = fileURLToPath(new URL("../fixtures/cases", import.meta.url).href);
