/**
 * SHA-256 and HMAC-SHA-256 over UTF-8 text, hex encoded (Web Crypto, present in workerd and
 * Node ≥ 19; no I/O). The HMAC key is the UTF-8 bytes of the secret named by `audit_key_env`.
 */

const utf8 = (s: string) => new TextEncoder().encode(s);
const hex = (buf: ArrayBuffer) => [...new Uint8Array(buf)].map((b) => b.toString(16).padStart(2, "0")).join("");

/** Lower-case hex SHA-256 of `text`'s UTF-8 bytes (64 chars). */
export async function sha256Hex(text: string): Promise<string> {
  return hex(await crypto.subtle.digest("SHA-256", utf8(text)));
}

/** Imports `secret` as an HMAC-SHA-256 key (sign + verify). */
export function importAuditKey(secret: string): Promise<CryptoKey> {
  return crypto.subtle.importKey("raw", utf8(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign", "verify"]);
}

/** Lower-case hex HMAC-SHA-256 of `text` (64 chars). */
export async function hmacHex(key: CryptoKey, text: string): Promise<string> {
  return hex(await crypto.subtle.sign("HMAC", key, utf8(text)));
}

/** Constant-time check of a hex HMAC (crypto.subtle.verify). False for malformed hex. */
export async function verifyHmacHex(key: CryptoKey, text: string, mac: string): Promise<boolean> {
  if (!/^[0-9a-f]{64}$/.test(mac)) return false;
  const bytes = new Uint8Array(32);
  for (let i = 0; i < 32; i++) bytes[i] = parseInt(mac.slice(i * 2, i * 2 + 2), 16);
  return crypto.subtle.verify("HMAC", key, bytes, utf8(text));
}
