/**
 * Prometheus text exposition format 0.0.4 (pure). Rules, from
 * prometheus.io/docs/instrumenting/exposition_formats ("Text format details"):
 * 1. Lines end with `\n`, the last one too; UTF-8.
 * 2. Per family: one `# HELP name text` (backslash → `\\`, line feed → `\n`), one
 *    `# TYPE name counter|gauge|histogram`, then its samples, all lines of a family together.
 * 3. Sample: `name{label="value",...} value`; label values escape backslash, double quote and
 *    line feed; metric names match [a-zA-Z_:][a-zA-Z0-9_:]*, label names [a-zA-Z_][a-zA-Z0-9_]*.
 * 4. Values are Go-float text: `+Inf`, `-Inf`, `NaN` for the special values.
 * 5. A histogram `x` has samples `x_bucket{le="…"}` (cumulative, ascending, ending with
 *    le="+Inf", whose value equals `x_count`), `x_sum` and `x_count`.
 * No library: prom-client needs Node's process/cluster APIs; the format is small.
 */

export type MetricType = "counter" | "gauge" | "histogram";
/** Sample name suffix allowed per family type (counters carry `_total` in the family name). */
export type SampleSuffix = "" | "_bucket" | "_sum" | "_count";

export interface Sample {
  suffix: SampleSuffix;
  /** Label name → value, rendered in this order. */
  labels: Record<string, string>;
  value: number;
}

export interface MetricFamily {
  name: string;
  help: string;
  type: MetricType;
  samples: Sample[];
}

/** Content-Type of the exposition (same source). */
export const EXPOSITION_CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

const METRIC_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;

/** HELP text escaping (rule 2). */
export const escapeHelp = (s: string): string => s.replace(/\\/g, "\\\\").replace(/\n/g, "\\n");
/** Label value escaping (rule 3). */
export const escapeLabelValue = (s: string): string => s.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n");

/** A sample value as Go-float text (rule 4). */
export function formatValue(v: number): string {
  if (Number.isNaN(v)) return "NaN";
  if (v === Infinity) return "+Inf";
  if (v === -Infinity) return "-Inf";
  return String(v);
}

/** Renders the families; throws on an invalid metric or label name (a programming error). */
export function renderExposition(families: readonly MetricFamily[]): string {
  const lines: string[] = [];
  for (const f of families) {
    if (!METRIC_NAME.test(f.name)) throw new Error(`invalid metric name: ${f.name}`);
    lines.push(`# HELP ${f.name} ${escapeHelp(f.help)}`, `# TYPE ${f.name} ${f.type}`);
    for (const s of f.samples) {
      const pairs = Object.entries(s.labels).map(([k, v]) => {
        if (!LABEL_NAME.test(k)) throw new Error(`invalid label name: ${k}`);
        return `${k}="${escapeLabelValue(v)}"`;
      });
      lines.push(`${f.name}${s.suffix}${pairs.length ? `{${pairs.join(",")}}` : ""} ${formatValue(s.value)}`);
    }
  }
  return lines.map((l) => `${l}\n`).join("");
}
