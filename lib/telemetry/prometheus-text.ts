import type { MetricFamily } from "./metric-catalog";

/** Metric families in Prometheus' text exposition format (version 0.0.4). */
export const PROMETHEUS_CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

export function prometheusText(families: readonly MetricFamily[]): string {
  const lines: string[] = [];
  for (const family of families) {
    lines.push(`# HELP ${family.name} ${escapeHelp(family.help)}`, `# TYPE ${family.name} ${family.kind}`);
    for (const point of family.points) lines.push(`${family.name}${labelText(point.labels)} ${numberText(point.value)}`);
  }
  return lines.join("\n") + "\n";
}

function labelText(labels: Record<string, string>): string {
  const entries = Object.entries(labels);
  if (entries.length === 0) return "";
  return `{${entries.map(([name, value]) => `${name}="${escapeValue(value)}"`).join(",")}}`;
}

function numberText(value: number): string {
  if (Number.isNaN(value)) return "NaN";
  if (!Number.isFinite(value)) return value > 0 ? "+Inf" : "-Inf";
  return String(value);
}

const escapeHelp = (text: string) => text.replaceAll("\\", "\\\\").replaceAll("\n", "\\n");
const escapeValue = (text: string) => escapeHelp(text).replaceAll('"', '\\"');
