/** Reading Prometheus text in tests with a real parser (parse-prometheus-text-format). */
import parsePrometheusTextFormat, { type ParsedFamily } from 'parse-prometheus-text-format';

export type Families = Map<string, ParsedFamily>;

export function parseMetrics(text: string): Families {
  return new Map(parsePrometheusTextFormat(text).map((f) => [f.name, f]));
}

const matches = (labels: Record<string, string> | undefined, want: Record<string, string>) => Object.entries(want).every(([k, v]) => labels?.[k] === v);

/** The sum of a counter's or gauge's samples whose labels include `want`; 0 when none. */
export function total(families: Families, name: string, want: Record<string, string> = {}): number {
  const family = families.get(name);
  if (!family) return 0;
  return family.metrics.filter((m) => matches(m.labels, want)).reduce((sum, m) => sum + Number(m.value), 0);
}

/**
 * Observations of a labelled histogram whose labels include `want`, from its `_count` lines: the
 * parser keeps a histogram's buckets only when it has no labels (it drops labelled `_count` and
 * `_sum` samples), so these lines are read here; the family's type still comes from the parser.
 */
export function histogramCount(text: string, families: Families, name: string, want: Record<string, string> = {}): number {
  if (families.get(name)?.type !== 'HISTOGRAM') return 0;
  let sum = 0;
  for (const line of text.split('\n')) {
    const m = new RegExp(`^${name}_count\\{(.*)\\} (\\S+)$`).exec(line);
    if (!m) continue;
    const labels = Object.fromEntries([...m[1].matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((l) => [l[1], l[2]]));
    if (matches(labels, want)) sum += Number(m[2]);
  }
  return sum;
}

/** The label sets of a family's samples. */
export function labelSets(families: Families, name: string): Array<Record<string, string>> {
  return (families.get(name)?.metrics ?? []).map((m) => m.labels ?? {});
}
