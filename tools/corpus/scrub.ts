/**
 * Removes personal data from a converted session (pure): home-directory user names, e-mail
 * addresses, git author names, API keys / tokens / private keys, and private LAN addresses.
 * Every replacement has the length of what it replaces (letters and digits become `x`), so
 * byte and token counts stay close to the recording. Values under the keys `signature` and
 * `encrypted_content` are opaque provider blobs and are left alone (a scrub inside a thinking
 * block therefore leaves its signature stale; counted as `thinking_altered`).
 *
 * User names are first collected from path prefixes anywhere in the session (`/Users/<name>`,
 * `/home/<name>`, `C:\Users\<name>`, Claude Code project dirs `-Users-<name>-`), then replaced
 * wherever they follow such a prefix and, for names that are not ordinary words, wherever they
 * stand as a whole word (an `ls -l` owner column, a prompt).
 */
import type { Json } from "../replay/types";

/** How many replacements of each kind a session received. */
export interface ScrubCounts {
  home_username: number;
  email: number;
  git_author: number;
  secret: number;
  private_ip: number;
  /** Thinking blocks whose text changed (their signature no longer matches). */
  thinking_altered: number;
}

/** Names that are accounts of a machine or an image, not of a person: never scrubbed. */
const GENERIC_USERS = new Set(["root", "user", "users", "ubuntu", "runner", "app", "node", "shared", "public", "default", "admin", "vscode", "codespace", "jovyan", "home", "runneradmin", "all users", "defaultuser0", "me", "you", "username", "name", "path", "project", "projects", "dev", "work", "test", "tmp", "x", "codexsandboxoffline", "codexsandboxonline"]);

/** Names that are also ordinary words: replaced after a path prefix only, never as a loose word. */
const COMMON_WORDS = new Set(["hello", "pc", "hp", "lenovo", "dell", "asus", "acer", "apple", "mac", "macbook", "macbookpro", "mint", "owner", "admin", "guest", "student", "desktop", "laptop", "data", "code", "main", "server", "local", "ai", "abc"]);

const PATH_NAME = /(?:\b|^)(Users|home)([\\/]+)([^\\/\s"'`<>:|*?,;()[\]{}]+)/g;
const PROJECT_DIR_NAME = /-(Users|home)-([A-Za-z0-9._]+?)-/g;
const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/g;
/** E-mail-shaped strings that are not addresses of a person. */
const EMAIL_KEEP = /(@example\.(com|org|net)|@localhost|^noreply@anthropic\.com$|^git@github\.com$|@test\.(com|local)|@users\.noreply\.github\.com$)/i;
const FILE_TLD = /\.(png|jpe?g|gif|svg|webp|ico|js|mjs|cjs|ts|tsx|jsx|json|css|scss|map|md|txt|py|rs|go|java|kt|html?|vue|lock|ya?ml|toml|xml|sh|ps1|dll|exe|zip|gz|wasm)$/i;
const GIT_AUTHOR = /(Author:\s+)([^<\n]+?)(\s+<)/g;
const PRIVATE_IP = /\b192\.168\.\d{1,3}\.\d{1,3}\b/g;

/** Secret shapes: [pattern, number of leading characters kept as a readable prefix]. */
const SECRETS: [RegExp, number][] = [
  [/\bsk-ant-[A-Za-z0-9_-]{20,}/g, 7],
  [/\bsk-(?!ant-)(?:proj-)?[A-Za-z0-9_-]{32,}/g, 3],
  [/\bgh[pousr]_[A-Za-z0-9]{30,}/g, 4],
  [/\bgithub_pat_[A-Za-z0-9_]{30,}/g, 11],
  [/\bAKIA[0-9A-Z]{16}\b/g, 4],
  [/\bxox[abprs]-[A-Za-z0-9-]{10,}/g, 5],
  [/\bAIza[0-9A-Za-z_-]{35}\b/g, 4],
  [/\bhf_[A-Za-z0-9]{30,}/g, 3],
  [/\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g, 0],
  [/-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?-----END [A-Z ]*PRIVATE KEY-----/g, 0],
];

const OPAQUE_KEYS = new Set(["signature", "encrypted_content"]);

/** Same-length mask: letters and digits become `x`, everything else stays. */
function mask(s: string): string {
  return s.replace(/[A-Za-z0-9]/g, "x");
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** Collects the personal user names that appear after home-directory prefixes in `value`. */
export function collectUserNames(value: Json): Set<string> {
  const names = new Set<string>();
  const visit = (v: Json, key: string | null): void => {
    if (typeof v === "string") {
      if (key !== null && OPAQUE_KEYS.has(key)) return;
      for (const m of v.matchAll(PATH_NAME)) names.add(m[3]!);
      for (const m of v.matchAll(PROJECT_DIR_NAME)) names.add(m[2]!);
    } else if (Array.isArray(v)) v.forEach((x) => visit(x, null));
    else if (v !== null && typeof v === "object") for (const [k, x] of Object.entries(v)) visit(x, k);
  };
  visit(value, null);
  for (const n of [...names]) if (GENERIC_USERS.has(n.toLowerCase()) || n.length < 2 || /^[-.\d]+$/.test(n) || n.startsWith("$") || n.startsWith("%")) names.delete(n);
  return names;
}

/** Scrubs one string; adds to `counts`. */
function scrubString(s: string, names: readonly string[], counts: ScrubCounts): string {
  let out = s;
  for (const name of names) {
    const e = escapeRegExp(name);
    out = out.replace(new RegExp(`(\\b(?:Users|home)[\\\\/]+)${e}(?=$|[\\\\/\\s"'\`<>:,;)\\]}])`, "g"), (_m, p: string) => {
      counts.home_username++;
      return p + mask(name);
    });
    out = out.replace(new RegExp(`(-(?:Users|home)-)${e}-`, "g"), (_m, p: string) => {
      counts.home_username++;
      return `${p}${mask(name)}-`;
    });
    if (name.length >= 3 && !COMMON_WORDS.has(name.toLowerCase())) {
      out = out.replace(new RegExp(`(?<![A-Za-z0-9_./-])${e}(?![A-Za-z0-9_])`, "g"), () => {
        counts.home_username++;
        return mask(name);
      });
    }
  }
  out = out.replace(EMAIL, (m) => {
    if (EMAIL_KEEP.test(m) || FILE_TLD.test(m)) return m;
    counts.email++;
    return mask(m);
  });
  out = out.replace(GIT_AUTHOR, (_m, a: string, n: string, b: string) => {
    if (/^(Claude|Codex|GitHub|dependabot)/i.test(n) || /^x+( x+)*$/.test(n)) return a + n + b;
    counts.git_author++;
    return a + mask(n) + b;
  });
  for (const [re, keep] of SECRETS) {
    out = out.replace(re, (m) => {
      counts.secret++;
      return m.slice(0, keep) + mask(m.slice(keep));
    });
  }
  out = out.replace(PRIVATE_IP, (m) => {
    counts.private_ip++;
    return `192.168.${mask(m.slice(8))}`;
  });
  return out;
}

/** Returns a scrubbed deep copy of `value` and what was replaced. */
export function scrubSession<T extends Json>(value: T): { value: T; counts: ScrubCounts } {
  const counts: ScrubCounts = { home_username: 0, email: 0, git_author: 0, secret: 0, private_ip: 0, thinking_altered: 0 };
  // Longer names first, so a name that contains another is replaced whole.
  const names = [...collectUserNames(value)].sort((a, b) => b.length - a.length || a.localeCompare(b));
  const visit = (v: Json, key: string | null): Json => {
    if (typeof v === "string") return key !== null && OPAQUE_KEYS.has(key) ? v : scrubString(v, names, counts);
    if (Array.isArray(v)) return v.map((x) => visit(x, null));
    if (v !== null && typeof v === "object") {
      const out: { [k: string]: Json } = {};
      for (const [k, x] of Object.entries(v)) out[k] = visit(x, k);
      if (v.type === "thinking" && typeof v.thinking === "string" && out.thinking !== v.thinking) counts.thinking_altered++;
      return out;
    }
    return v;
  };
  return { value: visit(value, null) as T, counts };
}
