/**
 * Hash of a loaded config for the audit trail's config_loaded record (pure apart from Web
 * Crypto): SHA-256 of its canonical JSON. The config holds env var NAMES, never secret values,
 * so the hash (and the config) carries no secret.
 */
import type { CompactionConfig } from "../../config/schema";
import { canonicalJson, type JsonValue } from "./canonical-json";
import { sha256Hex } from "./digest";

/** Hex SHA-256 of the canonical config. */
export function hashConfig(config: CompactionConfig): Promise<string> {
  return sha256Hex(canonicalJson(config as unknown as JsonValue));
}
