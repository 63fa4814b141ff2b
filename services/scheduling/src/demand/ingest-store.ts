import { DemandDriverInput } from '@bop/contracts';
import { contentHash, ingestBatch, parseLocatedRecords, type BatchResult, type FieldError, type IngestTarget, type PreparedRecord, type Work } from '@bop/shared';
import { markSeriesStale } from '../forecasts/fit-store';

/** The service's demand_drivers as the kit's batch upsert writes it (in the unit's schema). */
export const demandDriversTarget: IngestTarget = {
  table: 'demand_drivers',
  idKind: 'demandDriver',
  aggregateType: 'demand_driver',
  columns: { location_id: 'text', driver: 'text', interval_start: 'timestamptz', value: 'numeric' },
};

interface DemandRow extends Record<string, unknown> {
  location_id: string;
  driver: string;
  interval_start: string;
  value: string;
}

/** A value as a plain decimal string (numbers and strings that mean the same hash the same). */
const decimalText = (v: number | string) => {
  const n = typeof v === 'number' ? v.toFixed(4) : v;
  return n.includes('.') ? n.replace(/\.?0+$/, '') || '0' : n;
};

/**
 * `POST /demand-drivers` (spec: ingestion rules 1, 2, 5, 10): each record judged on its own (schema,
 * location), the valid ones upserted on (source, externalId): `created`, `updated`, `unchanged`.
 * Forecasts read them as they are committed; no event per interval (a backfill is years of them).
 */
export async function storeDemandDrivers(w: Work, opts: { source: string; records: unknown[]; endpoint: string }): Promise<BatchResult> {
  const located = await parseLocatedRecords(w, DemandDriverInput, opts.records);
  const records: PreparedRecord<DemandRow>[] = located.map((p) => {
    const errors: FieldError[] = [...p.errors];
    if (!p.data || !p.location || errors.length > 0) return { index: p.index, externalId: p.externalId, errors };
    const row: DemandRow = { location_id: p.location.id, driver: p.data.driver, interval_start: new Date(p.data.intervalStart).toISOString(), value: decimalText(p.data.value) };
    if (Date.parse(row.interval_start) > w.now.getTime()) {
      return { index: p.index, externalId: p.externalId, errors: [{ path: 'intervalStart', message: 'The interval has not begun; send what happened (forecasts come from GET /forecasts).' }] };
    }
    return { index: p.index, externalId: p.externalId, row, hash: contentHash(row), warnings: p.warnings.length > 0 ? p.warnings : undefined };
  });
  const result = await ingestBatch(w, { target: demandDriversTarget, source: opts.source, records, area: 'scheduling', endpoint: opts.endpoint });
  // the forecasts of the series that changed are fitted again (debounced by the fit worker)
  const changed = new Set(result.results.filter((r) => r.status === 'created' || r.status === 'updated').map((r) => r.index));
  await markSeriesStale(w, records.filter((r) => changed.has(r.index) && r.row).map((r) => ({ locationId: r.row!.location_id, driver: r.row!.driver, intervalStart: r.row!.interval_start })));
  return result;
}
