import type { FilterQuery } from '@mikro-orm/core';
import { SalesSummaryInput } from '@bop/contracts';
import {
  contentHash,
  ingestBatch,
  type BatchResult,
  type FieldError,
  type IngestTarget,
  type PreparedRecord,
  type StoredRecord,
  type Work,
  parseLocatedRecords,
  firstOfEach,
  findPage,
  type ListPage,
  type locationFilter,
  type PageRequest,
} from '@bop/shared';
import type { ReplicaLocation } from '../locations/store';
import { holdClosedSummaryDays, storeHeldSummaries } from '../review/summary-holds-store';
import { checkSummary, ingestedSummaryRow, periodsOverlap, type IngestedSummaryRow } from './summary-rules';
import { summaryDto } from './dto';
import { SalesSummaryEntity } from './entities';
import { SalesReviewItemEntity } from '../review/entities';
import { claimSourceModes, ruleNine } from './source-modes-store';

/** The summaries table as the kit's batch upsert writes an ingested summary (snake_case columns of the migration), in the unit's schema. */
export const summariesTarget: IngestTarget = {
  table: 'summaries',
  idKind: 'salesSummary',
  aggregateType: 'sales_summary',
  columns: {
    origin: 'text',
    location_id: 'text',
    period_start: 'timestamptz',
    period_end: 'timestamptz',
    currency: 'text',
    gross_sales: 'numeric',
    discounts: 'numeric',
    net_sales: 'numeric',
    tax: 'numeric',
    transactions: 'integer',
    guests: 'integer',
    by_channel: 'jsonb',
  },
};

/** The internal event of a summary created or changed (ingested or built), for reports: the full summary. */
export const SUMMARY_UPDATED = 'sales.summary.updated';

interface SummaryCandidate {
  index: number;
  externalId: string | null;
  location?: ReplicaLocation;
  row?: IngestedSummaryRow;
  errors: FieldError[];
  warnings: FieldError[];
}

/** Schema, location and arithmetic of each record on its own. */
async function validate(w: Work, records: unknown[]): Promise<SummaryCandidate[]> {
  return (await parseLocatedRecords(w, SalesSummaryInput, records)).map((p) => {
    const c: SummaryCandidate = { index: p.index, externalId: p.externalId, errors: p.errors, warnings: p.warnings };
    if (!p.data || !p.location) return c;
    c.location = p.location;
    c.errors.push(...checkSummary(p.data));
    if (c.errors.length === 0) c.row = ingestedSummaryRow(p.data, p.location.id);
    return c;
  });
}

type Valid = SummaryCandidate & { externalId: string; location: ReplicaLocation; row: IngestedSummaryRow };
const isValid = (c: SummaryCandidate): c is Valid => c.errors.length === 0 && c.externalId !== null && c.location !== undefined && c.row !== undefined;

/**
 * spec: ingestion rule 9 — claims `summaries` for the batch's (location, source) pairs (locking them,
 * so summary batches of one pair take turns) and rejects the records of a pair that sends transactions.
 */
async function refuseWhereTransactionsWereSent(w: Work, source: string, candidates: Valid[]): Promise<void> {
  const modes = await claimSourceModes(w, source, candidates.map((c) => c.location.id), 'summaries', true);
  for (const c of candidates) {
    if (modes.get(c.location.id) === 'transactions') {
      c.errors.push({ path: 'source', message: `Source ${source} sends transactions for location ${c.location.id}, so the service builds its summaries: ${ruleNine}. Use another source for summaries.` });
    }
  }
}

/** A stored ingested summary, or one held in the review queue, whose period overlaps a probe's at its location. */
export interface OverlapRow {
  location_id: string;
  external_id: string;
  period_start: string | Date;
  period_end: string | Date;
  held: boolean;
}

/** The stored (ingested) and held summaries of `source` overlapping one of the probes' periods at the probe's location, each once. */
export async function overlappingSummaries(w: Work, source: string, probes: Array<{ location_id: string; period_start: string; period_end: string }>): Promise<OverlapRow[]> {
  if (probes.length === 0) return [];
  const stored = await w.em
    .createQueryBuilder(SalesSummaryEntity)
    .select(['locationId', 'externalId', 'periodStart', 'periodEnd'])
    .where({
      source,
      origin: 'ingested',
      $or: probes.map((p) => ({ locationId: p.location_id, periodStart: { $lt: new Date(p.period_end) }, periodEnd: { $gt: new Date(p.period_start) } })),
    })
    .execute<Array<Pick<SalesSummaryEntity, 'locationId' | 'externalId' | 'periodStart' | 'periodEnd'>>>('all', true);
  // a held summary's period is in its row (jsonb): the location's pending items, their periods compared here
  const pending = await w.em
    .createQueryBuilder(SalesReviewItemEntity)
    .select(['locationId', 'externalId', 'row'])
    .where({ source, recordKind: 'summary', status: 'pending', locationId: { $in: [...new Set(probes.map((p) => p.location_id))] } })
    .execute<Array<Pick<SalesReviewItemEntity, 'locationId' | 'externalId' | 'row'>>>('all', true);
  const held = pending.flatMap((i) => {
    const row = i.row as IngestedSummaryRow;
    const start = Date.parse(row.period_start);
    const end = Date.parse(row.period_end);
    const hit = probes.some((p) => p.location_id === i.locationId && start < Date.parse(p.period_end) && Date.parse(p.period_start) < end);
    return hit ? [{ location_id: i.locationId, external_id: i.externalId, period_start: new Date(start), period_end: new Date(end), held: true }] : [];
  });
  const rows = [...stored.map((s) => ({ location_id: s.locationId, external_id: s.externalId, period_start: s.periodStart, period_end: s.periodEnd, held: false })), ...held];
  // each row once (a held item may repeat a stored summary's row only with held = true)
  const seen = new Set<string>();
  return rows.filter((r) => {
    const key = JSON.stringify([r.location_id, r.external_id, new Date(r.period_start).toISOString(), new Date(r.period_end).toISOString(), r.held]);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * A period counted twice would double the location's sales in reports: a summary may not overlap
 * another summary (another externalId) of the same location and source, stored, waiting in the
 * review queue (it is stored when accepted) or earlier in the batch. A summary the batch re-sends
 * counts with its new period, unless that record is refused. Runs after the pairs are locked, so
 * concurrent batches cannot slip overlapping periods past it.
 */
async function refuseOverlaps(w: Work, source: string, candidates: Valid[]): Promise<void> {
  const probes = candidates.map((c) => ({ location_id: c.location.id, period_start: c.row.period_start, period_end: c.row.period_end }));
  const rows = await overlappingSummaries(w, source, probes);
  const stored = rows.map((r) => ({ locationId: r.location_id, externalId: r.external_id, start: new Date(r.period_start).toISOString(), end: new Date(r.period_end).toISOString(), held: r.held }));
  const refused = new Set<number>();
  // each pass refuses at least one record or ends: a refused re-send puts its stored period back in play
  for (let changed = true; changed; ) {
    changed = false;
    const resent = new Set(candidates.filter((c) => !refused.has(c.index)).map((c) => c.externalId));
    const accepted = new Map<string, Valid[]>();
    const acceptedIds = new Set<string>();
    for (const c of candidates) {
      if (refused.has(c.index) || acceptedIds.has(c.externalId)) continue; // a repeated externalId is the batch's duplicate
      const period = { start: c.row.period_start, end: c.row.period_end };
      const old = stored.find((s) => s.locationId === c.location.id && s.externalId !== c.externalId && !resent.has(s.externalId) && periodsOverlap(s, period));
      const earlier = old ? undefined : (accepted.get(c.location.id) ?? []).find((a) => periodsOverlap({ start: a.row.period_start, end: a.row.period_end }, period));
      if (old || earlier) {
        refused.add(c.index);
        changed = true;
        const other = old
          ? `summary ${old.externalId} (${old.start} to ${old.end}${old.held ? ', waiting in the review queue' : ''})`
          : `summary ${earlier!.externalId} (record ${earlier!.index})`;
        c.errors.push({ path: 'periodStart', message: `The period overlaps ${other} of the same location and source; its sales would count twice.` });
        continue;
      }
      const same = accepted.get(c.location.id);
      if (same) same.push(c);
      else accepted.set(c.location.id, [c]);
      acceptedIds.add(c.externalId);
    }
  }
}

/** `sales.summary.updated` for one written ingested summary: the full summary as the API returns it. */
export const summaryUpdatedEvents = (source: string, now: Date) => (s: StoredRecord<IngestedSummaryRow>) => {
  const object = summaryDto({
    id: s.id,
    source,
    externalId: s.externalId,
    origin: 'ingested',
    locationId: s.row.location_id,
    businessDay: null,
    periodStart: s.row.period_start,
    periodEnd: s.row.period_end,
    currency: s.row.currency,
    grossSales: s.row.gross_sales,
    discounts: s.row.discounts,
    netSales: s.row.net_sales,
    tax: s.row.tax,
    transactions: s.row.transactions,
    guests: s.row.guests,
    byChannel: s.row.by_channel,
    version: s.before ? Number(s.before.version) + 1 : 1,
    createdAt: s.before ? String(s.before.created_at) : now,
    updatedAt: now,
  });
  return [{ type: SUMMARY_UPDATED, locationId: s.row.location_id, object }];
};

/**
 * `POST /sales-summaries` in the unit's transaction: per-record validation, rule 9, overlaps and
 * closed business days (rule 7: held in the review queue), then the kit's set-based upsert on
 * (source, externalId) with `sales.summary.updated` per written summary and the batch event —
 * answering the Batch result.
 */
export async function storeSummaries(w: Work, opts: { source: string; records: unknown[]; endpoint: string }): Promise<BatchResult> {
  const { source } = opts;
  const candidates = await validate(w, opts.records);
  const valid = () => candidates.filter(isValid);
  if (valid().length > 0) await refuseWhereTransactionsWereSent(w, source, valid());
  if (valid().length > 0) await refuseOverlaps(w, source, valid());
  const hashes = new Map(valid().map((c) => [c.index, contentHash(c.row)]));
  const holds = await holdClosedSummaryDays(
    w,
    source,
    firstOfEach(valid()).map((c) => ({ index: c.index, externalId: c.externalId, location: c.location, row: c.row, hash: hashes.get(c.index)!, warnings: c.warnings })),
  );
  const records: PreparedRecord<IngestedSummaryRow>[] = candidates.map((c) => ({
    index: c.index,
    externalId: c.externalId,
    errors: c.errors,
    warnings: c.warnings.length > 0 ? c.warnings : undefined,
    ...(isValid(c) ? { row: c.row, hash: hashes.get(c.index), divert: holds.has(c.index) } : {}),
  }));
  return ingestBatch(w, {
    target: summariesTarget,
    source,
    records,
    area: 'sales',
    endpoint: opts.endpoint,
    eventsFor: summaryUpdatedEvents(source, w.now),
    divert: (_em, held) => storeHeldSummaries(w, source, held, holds),
  });
}

/** `GET /sales-summaries`: a page of summaries (keyset after `after`, ordered by id), `limit` rows at most. */
export async function listSummaries(
  w: Work,
  f: { inLocations?: ReturnType<typeof locationFilter>; source?: string; origin?: string; from?: string; to?: string },
  page: PageRequest & { updatedSince?: string },
): Promise<ListPage<SalesSummaryEntity>> {
  const { inLocations, source, origin, from, to } = f;
  const where: FilterQuery<SalesSummaryEntity> = {};
  if (inLocations) where.locationId = inLocations;
  if (source) where.source = source;
  if (origin) where.origin = origin;
  if (from || to) where.periodStart = { ...(from ? { $gte: new Date(from) } : {}), ...(to ? { $lt: new Date(to) } : {}) };
  return findPage(w.em, SalesSummaryEntity, [where], page);
}

export const findSummary = (w: Work, id: string) => w.em.findOne(SalesSummaryEntity, { id });
