import Decimal from 'decimal.js';
import { SettlementInput, type Settlement } from '@bop/contracts';
import {
  findPage,
  locationFilter,
  mapPage,
  businessDayOf,
  contentHash,
  fmtAmount,
  ingestBatch,
  type BatchResult,
  type FieldError,
  type IngestTarget,
  type PreparedRecord,
  type StoredRecord,
  parseLocatedRecords,
  type ListPage,
  type Work,
  firstOfEach,
  lockStoredRecords,
  storedState,
  type StoredKey,
} from '@bop/shared';
import { dayKey, lateReview, lateWarning, type DayRef } from '../days/lock';
import { closedDays } from '../days/lock-store';
import { SETTLEMENT_MISMATCH, settlementDto, settlementRowOf, type SettlementRow } from './dto';
import { SettlementEntity } from './entities';
import { matchSettlement } from './match';
import { expectedOf } from './rematch-store';

/** `GET /cash/settlements` (supplement): within the caller's reach (`locationId` checked by the route), oldest first, by cursor. */
export async function listSettlements(
  w: Work,
  q: { limit?: number; cursor?: string; locationId?: string; from?: string; matchStatus?: 'matched' | 'mismatched'; updatedSince?: string },
): Promise<ListPage<Settlement>> {
  const inLocations = locationFilter(w.reach(), q.locationId);
  const page = await findPage(
    w.em,
    SettlementEntity,
    [inLocations && { locationId: inLocations }, q.from && { paidOn: { $gte: q.from } }, q.matchStatus && { matchStatus: q.matchStatus }],
    { limit: q.limit, cursor: q.cursor, updatedSince: q.updatedSince },
  );
  return mapPage(page, (r) => settlementDto(settlementRowOf(r)));
}

/** settlements as the kit's batch upsert writes it (in the unit's schema; snake_case columns of the migration). */
export const settlementsTarget: IngestTarget = {
  table: 'settlements',
  idKind: 'settlement',
  aggregateType: 'settlement',
  columns: {
    location_id: 'text',
    kind: 'text',
    processor: 'text',
    platform: 'text',
    tender_types: 'jsonb',
    gross: 'numeric',
    fees: 'numeric',
    net: 'numeric',
    paid_on: 'date',
    business_days: 'jsonb',
    reference: 'text',
    expected_gross: 'numeric',
    difference: 'numeric',
    match_status: 'text',
    matched_at: 'timestamptz',
    late_review: 'jsonb',
  },
};

/** What a source sends of a settlement (its content hash); the match and the review flag are derived. */
type SentSettlement = Pick<SettlementRow, 'location_id' | 'kind' | 'processor' | 'platform' | 'tender_types' | 'gross' | 'fees' | 'net' | 'paid_on' | 'business_days' | 'reference'>;
export type SettlementWriteRow = SentSettlement &
  Pick<SettlementRow, 'expected_gross' | 'difference' | 'match_status' | 'late_review'> & { matched_at: string } & Record<string, unknown>;

/** the tender types a card payout covers when it names none */
const DEFAULT_CARD_TENDERS = ['card', 'digital_wallet'];
const TENDER_ORDER = ['card', 'digital_wallet', 'gift_card', 'voucher', 'account', 'other'];

interface Candidate {
  index: number;
  externalId: string | null;
  sent?: SentSettlement;
  hash?: string;
  errors: FieldError[];
  warnings: FieldError[];
}

type Valid = Candidate & { externalId: string; sent: SentSettlement; hash: string };
const isValid = (c: Candidate): c is Valid => c.errors.length === 0 && c.externalId !== null && c.sent !== undefined;

/** Schema, location and net = gross − fees of each record on its own. */
async function validate(w: Work, records: unknown[]): Promise<Candidate[]> {
  const { now } = w;
  return (await parseLocatedRecords(w, SettlementInput, records)).map((p) => {
    const c: Candidate = { index: p.index, externalId: p.externalId, errors: p.errors, warnings: p.warnings };
    if (!p.data || !p.location) return c;
    const r = p.data;
    const net = new Decimal(r.gross).minus(r.fees);
    if (!net.equals(r.net)) {
      c.errors.push({ path: 'net', message: `Must equal gross − fees (${r.gross} − ${r.fees} = ${fmtAmount(net)}).` });
      return c;
    }
    const today = businessDayOf(now.toISOString(), p.location.timezone, p.location.businessDayCutoff);
    const future = r.businessDays.findIndex((d) => d > today);
    if (future >= 0) {
      c.errors.push({ path: `businessDays[${future}]`, message: `Business day ${r.businessDays[future]} has not begun at location ${p.location.id} (today is ${today}); a payout covers days that have taken sales.` });
      return c;
    }
    // canonical order, so the same payout sent with its lists in another order is `unchanged`
    const tenderTypes = r.kind === 'platform' ? ['platform'] : TENDER_ORDER.filter((t) => (r.tenderTypes ?? DEFAULT_CARD_TENDERS).includes(t));
    c.sent = {
      location_id: p.location.id,
      kind: r.kind,
      processor: r.processor,
      platform: r.kind === 'platform' ? (r.platform ?? r.processor) : null,
      tender_types: tenderTypes,
      gross: fmtAmount(r.gross),
      fees: fmtAmount(r.fees),
      net: fmtAmount(r.net),
      paid_on: r.paidOn,
      business_days: [...r.businessDays].sort(),
      reference: r.reference ?? null,
    };
    c.hash = contentHash(c.sent);
    return c;
  });
}

const coveredDays = (s: { location_id: string; business_days: string[] }): DayRef[] => s.business_days.map((d) => ({ locationId: s.location_id, businessDay: d }));

interface StoredSettlement extends StoredKey {
  location_id: string;
  business_days: string[];
  late_review: SettlementRow['late_review'];
}

/** `cash.settlement_mismatch` for a written payout that does not match: the settlement as GET answers it. */
const mismatchEvents = (source: string, now: Date) => (s: StoredRecord<SettlementWriteRow>) => {
  if (s.row.match_status !== 'mismatched') return [];
  const object = settlementDto({ ...s.row, id: s.id, source, external_id: s.externalId, version: s.version, created_at: (s.before?.created_at as Date | undefined) ?? now, updated_at: now });
  return [{ type: SETTLEMENT_MISMATCH, locationId: s.row.location_id, object }];
};

/**
 * `POST /cash/settlements` in the unit's transaction: per-record validation; each new or changed payout
 * matched against the expected tenders of the days it covers; a payout covering a closed day (now, or
 * before it was re-sent) stored flagged for review (spec: ingestion rule 7); the kit's upsert on
 * (source, externalId) with `cash.settlement_mismatch` per written mismatched payout.
 */
export async function storeSettlements(w: Work, opts: { source: string; records: unknown[]; endpoint: string }): Promise<BatchResult> {
  const { source } = opts;
  const { now } = w;
  const candidates = await validate(w, opts.records);
  const firsts = firstOfEach(candidates.filter(isValid));
  // the days first (the order a close or reopen takes), then the payouts
  const closed = await closedDays(w, firsts.flatMap((c) => coveredDays(c.sent)), { lock: true });
  const before = await lockStoredRecords<StoredSettlement>(w, settlementsTarget, source, firsts.map((c) => c.externalId), [`"location_id"`, `"business_days"`, `"late_review"`]);
  const writes = firsts.filter((c) => before.get(c.externalId)?.content_hash !== c.hash);
  const leftDays = writes.flatMap((c) => {
    const b = before.get(c.externalId);
    return b ? coveredDays(b).filter((d) => !c.sent.business_days.includes(d.businessDay) || d.locationId !== c.sent.location_id) : [];
  });
  for (const k of await closedDays(w, leftDays, { lock: true })) closed.add(k);
  const expected = await expectedOf(w, writes.map((c) => ({ locationId: c.sent.location_id, businessDays: c.sent.business_days })));
  const rows = new Map<number, SettlementWriteRow>();
  for (const c of writes) {
    const b = before.get(c.externalId);
    const late = [...coveredDays(c.sent), ...(b ? coveredDays(b) : [])].filter((d) => closed.has(dayKey(d)));
    const lateDays = [...new Set(late.map((d) => d.businessDay))].sort();
    if (lateDays.length > 0) c.warnings.push(lateWarning('businessDays', lateDays));
    const m = matchSettlement({ ...c.sent, platform: c.sent.platform, tenderTypes: c.sent.tender_types, businessDays: c.sent.business_days }, expected.get(c.sent.location_id) ?? new Map());
    rows.set(c.index, {
      ...c.sent,
      expected_gross: m.expectedGross,
      difference: m.difference,
      match_status: m.matchStatus,
      matched_at: now.toISOString(),
      // a stored flag stays (its review history) unless the payout is late again
      late_review: lateDays.length > 0 ? lateReview(now) : (b?.late_review ?? null),
    });
  }
  const records: PreparedRecord<SettlementWriteRow>[] = candidates.map((c) => {
    const warnings = c.warnings.length > 0 ? c.warnings : undefined;
    if (!isValid(c)) return { index: c.index, externalId: c.externalId, errors: c.errors, warnings };
    const b = before.get(c.externalId);
    const row = rows.get(c.index);
    return {
      index: c.index,
      externalId: c.externalId,
      // an unchanged re-send (or a later duplicate) is not written: its stored match stands
      row: row ?? { ...c.sent, expected_gross: '0.00', difference: '0.00', match_status: 'mismatched', matched_at: now.toISOString(), late_review: null },
      hash: c.hash,
      warnings,
      ...storedState(b, c.hash),
    };
  });
  return ingestBatch(w, {
    target: settlementsTarget,
    source,
    records,
    area: 'cash',
    endpoint: opts.endpoint,
    eventsFor: mismatchEvents(source, now),
  });
}
