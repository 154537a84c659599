/**
 * Where the read-only shared material lives: `../shared` beside the repository (the corpus and
 * the failure cases). CI clones the repository next to a copy of shared/, so paths are always
 * resolved from this file, never absolute.
 */
import { fileURLToPath } from "node:url";

/** Absolute path of shared/, with a trailing slash. */
export const SHARED_DIR = fileURLToPath(new URL("../../../shared/", import.meta.url).href);
/** Absolute path of shared/corpus (no trailing slash). */
export const CORPUS_PATH = `${SHARED_DIR}corpus`;
/** Absolute path of shared/cases (no trailing slash). */
export const CASES_PATH = `${SHARED_DIR}cases`;
