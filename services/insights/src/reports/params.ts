import { zodFieldErrors, type FieldError } from '@bop/shared';
import type { ReportDefinition } from './registry';

/**
 * A report's parameters as sent (strings), parsed by its schema: the parsed values, or the field
 * errors (paths under `prefix`, e.g. `parameters.from` for an export).
 */
export function parseReportParams(report: ReportDefinition, raw: Record<string, unknown>, prefix: string[] = []): { params: Record<string, unknown> } | { errors: FieldError[] } {
  const parsed = report.params.safeParse(raw);
  if (parsed.success) return { params: parsed.data };
  return { errors: zodFieldErrors(parsed.error, prefix) };
}

/** The locations a report's parameters name, in the shape the scoping of `GET /kpis` reads. */
export const scopeOf = (params: Record<string, unknown>) => ({ locationId: params.locationId as string[] | undefined, orgUnitId: params.orgUnitId as string | undefined });
