/**
 * Pure check that an engine endpoint's host is loopback or private (DESIGN §5): the
 * `local` engine may only talk to 127.0.0.0/8, ::1, 10.0.0.0/8, 172.16.0.0/12, 192.168.0.0/16,
 * fc00::/7 (RFC 1122 §3.2.1.3, RFC 4291 §2.5.3, RFC 1918 §3, RFC 4193 §3) or the name
 * `localhost` (RFC 6761 §6.3). Any other name is refused: we cannot know what it resolves to.
 * IPv4-mapped IPv6 (::ffff:a.b.c.d, RFC 4291 §2.5.5.2) is judged by its IPv4 address.
 * Input is a WHATWG-parsed `URL.hostname`, so IPv4 forms like `127.1` or `0x7f.0.0.1` arrive
 * normalised and IPv6 arrives in brackets, lower case, compressed.
 */

/** Why a host is not local, or null when it is. */
export type HostProblem = "public_address" | "unknown_hostname";

/** Classifies a URL hostname (pure). */
export function checkLocalHost(hostname: string): HostProblem | null {
  const host = hostname.toLowerCase();
  if (host === "localhost") return null;
  const v4 = parseIPv4(host);
  if (v4) return isPrivateV4(v4) ? null : "public_address";
  if (host.startsWith("[") && host.endsWith("]")) {
    const v6 = parseIPv6(host.slice(1, -1));
    if (!v6) return "unknown_hostname";
    return isPrivateV6(v6) ? null : "public_address";
  }
  return "unknown_hostname";
}

function isPrivateV4([a, b]: number[]): boolean {
  return a === 127 || a === 10 || (a === 172 && b! >= 16 && b! <= 31) || (a === 192 && b === 168);
}

function isPrivateV6(g: number[]): boolean {
  const zeros = (n: number) => g.slice(0, n).every((x) => x === 0);
  if (zeros(7) && g[7] === 1) return true; // ::1
  if ((g[0]! & 0xfe00) === 0xfc00) return true; // fc00::/7
  if (zeros(5) && g[5] === 0xffff) return isPrivateV4([g[6]! >> 8, g[6]! & 0xff]); // ::ffff:a.b.c.d
  return false;
}

/** Dotted-quad with four decimal octets, else null. */
function parseIPv4(host: string): number[] | null {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  if (!m) return null;
  const parts = m.slice(1).map(Number);
  return parts.every((p) => p <= 255) ? parts : null;
}

/** Eight 16-bit groups, or null. Handles `::` compression and a trailing dotted quad. */
function parseIPv6(text: string): number[] | null {
  let s = text;
  const tail: number[] = [];
  const quad = /(\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3})$/.exec(s);
  if (quad) {
    const v4 = parseIPv4(quad[1]!);
    if (!v4) return null;
    tail.push((v4[0]! << 8) | v4[1]!, (v4[2]! << 8) | v4[3]!);
    s = s.slice(0, -quad[1]!.length);
    if (s.endsWith(":") && !s.endsWith("::")) s = s.slice(0, -1);
  }
  const halves = s.split("::");
  if (halves.length > 2) return null;
  const parse = (h: string) => (h === "" ? [] : h.split(":").map((x) => (/^[0-9a-f]{1,4}$/.test(x) ? parseInt(x, 16) : NaN)));
  const head = parse(halves[0]!);
  const rest = halves.length === 2 ? parse(halves[1]!) : [];
  const known = head.length + rest.length + tail.length;
  if ([...head, ...rest].some(Number.isNaN)) return null;
  if (halves.length === 1 && known !== 8) return null;
  if (known > 8 || (halves.length === 2 && known === 8)) return null;
  return [...head, ...new Array(8 - known).fill(0), ...rest, ...tail];
}
