/**
 * TEST FIXTURE (not product code): a strict parser of the Prometheus text exposition format
 * 0.0.4 (prometheus.io/docs/instrumenting/exposition_formats, "Text format details"), stricter
 * than Prometheus where our output should be: no blank lines, HELP then TYPE opening each family,
 * a family's lines contiguous, counters named `*_total`, histograms with ascending cumulative
 * `_bucket{le}` ending at `+Inf` = `_count`, plus `_sum`. Throws naming the line on any fault.
 */

export interface ParsedSample {
  name: string;
  labels: Record<string, string>;
  value: number;
}
export interface ParsedFamily {
  name: string;
  help: string;
  type: "counter" | "gauge" | "histogram" | "summary" | "untyped";
  samples: ParsedSample[];
}

const METRIC = "[a-zA-Z_:][a-zA-Z0-9_:]*";
const FLOAT = /^(?:[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?|[+-]Inf|NaN)$/;

function parseValue(text: string, at: string): number {
  if (!FLOAT.test(text)) throw new Error(`${at}: bad value ${JSON.stringify(text)}`);
  return text === "+Inf" ? Infinity : text === "-Inf" ? -Infinity : text === "NaN" ? NaN : Number(text);
}

function unescape(s: string, allowed: string, at: string): string {
  return s.replace(/\\(.)/g, (_, ch: string) => {
    if (!allowed.includes(ch)) throw new Error(`${at}: bad escape \\${ch}`);
    return ch === "n" ? "\n" : ch;
  });
}

function parseLabels(text: string, at: string): Record<string, string> {
  const out: Record<string, string> = {};
  const re = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\\n]|\\.)*)"(,|$)/y;
  let i = 0;
  while (i < text.length) {
    re.lastIndex = i;
    const m = re.exec(text);
    if (!m) throw new Error(`${at}: bad labels ${JSON.stringify(text)}`);
    if (m[1]! in out) throw new Error(`${at}: duplicate label ${m[1]}`);
    out[m[1]!] = unescape(m[2]!, '\\"n', at);
    i = re.lastIndex;
    if (m[3] === "," && i === text.length) throw new Error(`${at}: trailing comma`);
  }
  return out;
}

/** Parses and checks `text`; returns the families in order. */
export function parseExposition(text: string): ParsedFamily[] {
  if (!text.endsWith("\n")) throw new Error("last line must end with \\n");
  const families: ParsedFamily[] = [];
  const seen = new Set<string>();
  const series = new Set<string>();
  let current: ParsedFamily | null = null;
  let pendingHelp: { name: string; help: string } | null = null;
  text.slice(0, -1).split("\n").forEach((line, n) => {
    const at = `line ${n + 1}`;
    if (line === "") throw new Error(`${at}: blank line`);
    let m: RegExpExecArray | null;
    if ((m = new RegExp(`^# HELP (${METRIC}) (.*)$`).exec(line))) {
      if (seen.has(m[1]!) || pendingHelp) throw new Error(`${at}: HELP out of place for ${m[1]}`);
      pendingHelp = { name: m[1]!, help: unescape(m[2]!, "\\n", at) };
    } else if ((m = new RegExp(`^# TYPE (${METRIC}) (counter|gauge|histogram|summary|untyped)$`).exec(line))) {
      if (!pendingHelp || pendingHelp.name !== m[1]) throw new Error(`${at}: TYPE ${m[1]} without its HELP just before`);
      if (m[2] === "counter" && !m[1]!.endsWith("_total")) throw new Error(`${at}: counter ${m[1]} must end in _total`);
      seen.add(m[1]!);
      current = { name: m[1]!, help: pendingHelp.help, type: m[2] as ParsedFamily["type"], samples: [] };
      families.push(current);
      pendingHelp = null;
    } else if (line.startsWith("#")) {
      throw new Error(`${at}: unexpected comment`);
    } else if ((m = new RegExp(`^(${METRIC})(?:\\{(.*)\\})? (\\S+)$`).exec(line))) {
      const fam = current as ParsedFamily | null;
      if (!fam || pendingHelp) throw new Error(`${at}: sample before its TYPE`);
      const allowed = fam.type === "histogram" ? ["_bucket", "_sum", "_count"].map((s) => fam.name + s) : [fam.name];
      if (!allowed.includes(m[1]!)) throw new Error(`${at}: sample ${m[1]} outside family ${fam.name}`);
      const labels = parseLabels(m[2] ?? "", at);
      const key = `${m[1]}${JSON.stringify(Object.entries(labels).sort())}`;
      if (series.has(key)) throw new Error(`${at}: duplicate series ${key}`);
      series.add(key);
      fam.samples.push({ name: m[1]!, labels, value: parseValue(m[3]!, at) });
    } else {
      throw new Error(`${at}: unparseable ${JSON.stringify(line)}`);
    }
  });
  if (pendingHelp) throw new Error("HELP without TYPE at end");
  for (const f of families) if (f.type === "histogram") checkHistogram(f);
  return families;
}

function checkHistogram(f: ParsedFamily): void {
  const groups = new Map<string, ParsedSample[]>();
  for (const s of f.samples) {
    const { le: _le, ...rest } = s.labels;
    const k = JSON.stringify(Object.entries(rest).sort());
    groups.set(k, [...(groups.get(k) ?? []), s]);
  }
  for (const [k, samples] of groups) {
    const buckets = samples.filter((s) => s.name === `${f.name}_bucket`);
    const count = samples.find((s) => s.name === `${f.name}_count`);
    const sum = samples.find((s) => s.name === `${f.name}_sum`);
    if (!count || !sum || buckets.length === 0) throw new Error(`${f.name}${k}: needs _bucket, _sum and _count`);
    const les = buckets.map((b) => parseValue(b.labels.le ?? "", `${f.name} le`));
    if (les.at(-1) !== Infinity) throw new Error(`${f.name}${k}: last bucket must be le="+Inf"`);
    for (let i = 1; i < buckets.length; i++) {
      if (!(les[i]! > les[i - 1]!)) throw new Error(`${f.name}${k}: le not ascending`);
      if (buckets[i]!.value < buckets[i - 1]!.value) throw new Error(`${f.name}${k}: buckets not cumulative`);
    }
    if (buckets.at(-1)!.value !== count.value) throw new Error(`${f.name}${k}: +Inf bucket ≠ _count`);
  }
}

/** The value of one series (name + exact labels), or undefined. */
export function valueOf(families: ParsedFamily[], name: string, labels: Record<string, string> = {}): number | undefined {
  const want = JSON.stringify(Object.entries(labels).sort());
  for (const f of families) for (const s of f.samples) if (s.name === name && JSON.stringify(Object.entries(s.labels).sort()) === want) return s.value;
  return undefined;
}
