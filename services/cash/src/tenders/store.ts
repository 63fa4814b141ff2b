import { TenderTotalInput } from '@bop/contracts';
import {
  businessDayOf,
  contentHash,
  fmtAmount,
  ingestBatch,
  type BatchResult,
  type FieldError,
  type IngestTarget,
  type PreparedRecord,
  type Work,
  parseLocatedRecords,
  firstOfEach,
  lockStoredRecords,
  storedState,
  type StoredKey,
} from '@bop/shared';
import { dayKey, lateReview, lateWarning, type DayRef } from '../days/lock';
import { closedDays, touchDays } from '../days/lock-store';
import { rematchSettlements } from '../settlements/rematch-store';

/** tender_totals as the kit's batch upsert writes it (in the unit's schema; snake_case columns of the migration). */
export const tenderTotalsTarget: IngestTarget = {
  table: 'tender_totals',
  idKind: 'tenderTotal',
  aggregateType: 'tender_total',
  columns: {
    location_id: 'text',
    business_day: 'date',
    drawer_id: 'text',
    shift_id: 'text',
    tender_type: 'text',
    platform: 'text',
    amount: 'numeric',
    transaction_count: 'integer',
    late_review: 'jsonb',
  },
};

type LateReviewValue = { status: 'pending' | 'applied'; flaggedAt: string };

export interface TenderTotalRow extends Record<string, unknown> {
  location_id: string;
  business_day: string;
  drawer_id: string | null;
  shift_id: string | null;
  tender_type: string;
  platform: string | null;
  amount: string;
  transaction_count: number | null;
  late_review: LateReviewValue | null;
}

interface Candidate {
  index: number;
  externalId: string | null;
  row?: TenderTotalRow;
  /** of what was sent (late_review, which is derived, left out) */
  hash?: string;
  errors: FieldError[];
  warnings: FieldError[];
}

type Valid = Candidate & { externalId: string; row: TenderTotalRow; hash: string };
const isValid = (c: Candidate): c is Valid => c.errors.length === 0 && c.externalId !== null && c.row !== undefined;

/** Schema and location of each record on its own; the business day from `closedAt` by the location's cut-off. */
async function validate(w: Work, records: unknown[]): Promise<Candidate[]> {
  const { now } = w;
  return (await parseLocatedRecords(w, TenderTotalInput, records)).map((p) => {
    const c: Candidate = { index: p.index, externalId: p.externalId, errors: p.errors, warnings: p.warnings };
    if (!p.data || !p.location) return c;
    const t = p.data;
    // spec: ingestion rule 8, business day from the location's time zone and cut-off
    const businessDay = t.businessDay ?? businessDayOf(t.closedAt!, p.location.timezone, p.location.businessDayCutoff);
    const today = businessDayOf(now.toISOString(), p.location.timezone, p.location.businessDayCutoff);
    if (businessDay > today) {
      c.errors.push({ path: t.businessDay ? 'businessDay' : 'closedAt', message: `Business day ${businessDay} has not begun at location ${p.location.id} (today is ${today}).` });
      return c;
    }
    const sent = {
      location_id: p.location.id,
      business_day: businessDay,
      drawer_id: t.drawerId ?? null,
      shift_id: t.shiftId ?? null,
      tender_type: t.tenderType,
      platform: t.platform ?? null,
      amount: fmtAmount(t.amount),
      transaction_count: t.transactionCount ?? null,
    };
    c.hash = contentHash(sent);
    c.row = { ...sent, late_review: null };
    return c;
  });
}

interface StoredTotal extends StoredKey {
  location_id: string;
  business_day: string;
  late_review: LateReviewValue | null;
}

/**
 * `POST /cash/tenders` in the unit's transaction: per-record validation, the days opened, records of a
 * closed day (as it is now, or the day a re-sent record had before) stored flagged for review
 * (spec: ingestion rule 7), the kit's upsert on (source, externalId), then the settlements covering
 * the written days re-matched against the new expectation.
 */
export async function storeTenderTotals(w: Work, opts: { source: string; records: unknown[]; endpoint: string }): Promise<BatchResult> {
  const { source } = opts;
  const { now } = w;
  const candidates = await validate(w, opts.records);
  const firsts = firstOfEach(candidates.filter(isValid));
  const dayOf = (c: Valid): DayRef => ({ locationId: c.row.location_id, businessDay: c.row.business_day });
  // the days first (opened, and key-share locked: the order a close or reopen takes), then the totals
  await touchDays(w, firsts.map(dayOf));
  const closed = await closedDays(w, firsts.map(dayOf), { lock: true });
  const before = await lockStoredRecords<StoredTotal>(w, tenderTotalsTarget, source, firsts.map((c) => c.externalId), [
    `"location_id"`,
    `to_char("business_day", 'YYYY-MM-DD') as "business_day"`,
    `"late_review"`,
  ]);
  const writes = firsts.filter((c) => before.get(c.externalId)?.content_hash !== c.hash);
  // a re-sent total moved to another day changes the day it leaves, too
  const leftDays: DayRef[] = writes.flatMap((c) => {
    const b = before.get(c.externalId);
    return b && (b.location_id !== c.row.location_id || b.business_day !== c.row.business_day) ? [{ locationId: b.location_id, businessDay: b.business_day }] : [];
  });
  for (const k of await closedDays(w, leftDays, { lock: true })) closed.add(k);
  for (const c of writes) {
    const b = before.get(c.externalId);
    const late = [dayOf(c), ...(b ? [{ locationId: b.location_id, businessDay: b.business_day }] : [])].filter((d) => closed.has(dayKey(d)));
    const lateDays = [...new Set(late.map((d) => d.businessDay))].sort();
    // a stored flag stays (its review history) unless the record is late again
    c.row.late_review = lateDays.length > 0 ? lateReview(now) : (b?.late_review ?? null);
    if (lateDays.length > 0) c.warnings.push(lateWarning('businessDay', lateDays));
  }
  const records: PreparedRecord<TenderTotalRow>[] = candidates.map((c) => {
    if (!isValid(c)) return { index: c.index, externalId: c.externalId, errors: c.errors, warnings: c.warnings.length > 0 ? c.warnings : undefined };
    const b = before.get(c.externalId);
    return {
      index: c.index,
      externalId: c.externalId,
      row: c.row,
      hash: c.hash,
      warnings: c.warnings.length > 0 ? c.warnings : undefined,
      ...storedState(b, c.hash),
    };
  });
  return ingestBatch(w, {
    target: tenderTotalsTarget,
    source,
    records,
    area: 'cash',
    endpoint: opts.endpoint,
    // the new expectation of the written days (and of the day a moved total left) re-matches their payouts
    // (in the unit's transaction: the batch's savepoint is on its connection)
    afterStore: async () => {
      await rematchSettlements(w, [...writes.map(dayOf), ...leftDays]);
    },
  });
}
