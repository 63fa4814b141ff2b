/**
 * The report registry: what a report is, as `GET /reports` lists it and `GET /reports/{key}` and the
 * exports run it. A report reads ONLY insights' own read models (never another service's schema; at
 * most another service's API through `w.services`), within the locations the route resolved from its
 * parameters and the caller's reach.
 *
 * To add a report: `defineReport({ key, title, description, params, columns, run })` in a `*-store.ts`
 * file of your area (it reads the database) and add it to the `reportRegistry([...])` list in the
 * service's `src/index.ts`.
 * - `params`: a zod object of string inputs (a query's values; an export sends the same as strings).
 *   Extend `ReportRangeParams` (from, to, locationId, orgUnitId) with `.safeExtend({...})`, or write
 *   your own; `locationId`/`orgUnitId`, when present, choose the locations (default: all within reach).
 *   Give each field `.describe('…')`: `GET /reports` lists name, type, required and that description.
 * - `columns`: name, type (money | decimal | integer | text | date), unit and description. Every row
 *   has exactly these keys; money and decimal are decimal strings (rounded once, half up), integer
 *   a number, date `YYYY-MM-DD`, null when there is no value.
 * - `run(w, params, page)`: `params` is the parsed schema plus `locationIds` (resolved, in reach);
 *   `page.after` is the key of the last row already given (null: from the start), `page.limit` the
 *   rows wanted. Answer `{ rows, nextCursor }`, nextCursor the key of the last row given when more
 *   follow (the route makes it opaque). `pageRows` does this for rows built in memory.
 */
import type { z } from 'zod';
import type { Work } from '@bop/shared';

export type ReportColumnType = 'money' | 'decimal' | 'integer' | 'text' | 'date';

export interface ReportColumn {
  name: string;
  type: ReportColumnType;
  /** `money` (the sales' currency), `h` (hours), `%`, `money per h`; null when none */
  unit: string | null;
  description: string;
}

export type ReportCell = string | number | null;
export type ReportRow = Record<string, ReportCell>;

export interface ReportPage {
  limit: number;
  /** the key of the last row of the previous page (null: the first page) */
  after: string | null;
}

export interface ReportResult {
  rows: ReportRow[];
  /** the key of the last row when more follow, else null */
  nextCursor: string | null;
}

export interface ReportDefinition<P extends z.ZodType<Record<string, unknown>> = z.ZodType<Record<string, unknown>>> {
  key: string;
  title: string;
  description: string;
  params: P;
  columns: ReportColumn[];
  run(w: Work, params: z.output<P> & { locationIds: string[] }, page: ReportPage): Promise<ReportResult>;
}

/** Declares a report (typed by its parameters). */
export function defineReport<P extends z.ZodType<Record<string, unknown>>>(def: ReportDefinition<P>): ReportDefinition {
  return def as unknown as ReportDefinition;
}

/**
 * Rows built in memory, as a page: sorted by `keyOf` (a string that orders them and is unique per
 * row), those after `page.after`, at most `page.limit`.
 */
export function pageRows<T>(rows: T[], page: ReportPage, keyOf: (row: T) => string, toRow: (row: T) => ReportRow): ReportResult {
  const keyed = rows.map((r) => ({ key: keyOf(r), r })).sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const rest = page.after === null ? keyed : keyed.filter((x) => x.key > page.after!);
  const taken = rest.slice(0, page.limit);
  return { rows: taken.map((x) => toRow(x.r)), nextCursor: rest.length > page.limit ? taken[taken.length - 1].key : null };
}

/** A parameter as `GET /reports` lists it. */
export interface ReportParameter {
  name: string;
  type: string;
  required: boolean;
  description: string;
  values?: string[];
}

type Def = { type: string; format?: string; innerType?: z.ZodType; in?: z.ZodType; entries?: Record<string, string> };
const defOf = (s: z.ZodType) => (s as unknown as { _zod: { def: Def } })._zod.def;

/** The parameters of a report's schema: its object's fields, each with its type, whether required and its description. */
export function reportParameters(schema: z.ZodType): ReportParameter[] {
  const shape = (schema as unknown as { shape?: Record<string, z.ZodType> }).shape ?? {};
  return Object.entries(shape).map(([name, field]) => {
    let s = field;
    let d = defOf(s);
    while (d.type === 'optional' || d.type === 'default' || d.type === 'nullable') {
      s = d.innerType!;
      d = defOf(s);
    }
    const type = d.type === 'pipe' ? 'list' : d.type === 'string' && d.format === 'date' ? 'date' : d.type === 'number' ? 'integer' : d.type;
    const p: ReportParameter = { name, type, required: !field.safeParse(undefined).success, description: field.description ?? s.description ?? '' };
    if (d.type === 'enum' && d.entries) p.values = Object.values(d.entries);
    return p;
  });
}

/** The reports a service serves, by key, in the order `GET /reports` lists them. */
export interface ReportRegistry {
  list(): readonly ReportDefinition[];
  get(key: string): ReportDefinition | undefined;
}

/** A registry of `reports` (their keys unique). */
export function reportRegistry(reports: ReportDefinition[]): ReportRegistry {
  const byKey = new Map<string, ReportDefinition>();
  for (const r of reports) {
    if (byKey.has(r.key)) throw new Error(`Two reports have the key ${r.key}.`);
    byKey.set(r.key, r);
  }
  return { list: () => reports, get: (key) => byKey.get(key) };
}
