import Decimal from 'decimal.js';
import { LockMode } from '@mikro-orm/core';
import type { CashBusinessDay, DayFigures } from '@bop/contracts';
import { ApiError, Conflict, ValidationError, actorOf, addDays, assertLocationInReach, businessDayOf, findPlain, resolveLocations, sqlList, sqlQuery, systemPrincipal, type EntityManager, type Work } from '@bop/shared';
import { passes } from '../counts/thresholds';
import { thresholdFor } from '../counts/thresholds-store';
import { rematchSettlements } from '../settlements/rematch-store';
import { liveFigures } from './figures-store';
import { BusinessDayEntity } from './entities';
import { touchDays } from './lock-store';

/** A day as stored (plain, as read: jsonb's own key order in its figures). */
type DayRow = BusinessDayEntity;

type LateRecord = CashBusinessDay['lateRecords'][number];

/** The records that arrived for these days while they were closed. */
export async function lateRecordsOf(em: EntityManager, schema: string, locationId: string, days: string[]): Promise<Map<string, LateRecord[]>> {
  const out = new Map<string, LateRecord[]>(days.map((d) => [d, []]));
  if (days.length === 0) return out;
  const dayList = sqlList(days);
  // raw SQL (bench:sql cash.late-records): 8,465 µs against 46,366 through the ORM (5.5×: three queries hydrated, merged and sorted in code,
  // where one union answers the ordered list)
  const rows = await sqlQuery<{ kind: LateRecord['kind']; id: string; day: string; message: string; flagged_at: string; status: LateRecord['status'] }>(
    em,
    `select 'sales_transaction' as "kind", "id", to_char("business_day", 'YYYY-MM-DD') as "day", 'Sales transaction ' || "id" || ' (version ' || "version" || ', ' || "status" || ')' as "message",
       "late_review"->>'flaggedAt' as "flagged_at", "late_review"->>'status' as "status"
     from "${schema}"."sales_transactions" where "location_id" = ? and "late_review" is not null and "business_day" = any(?::date[])
     union all
     select 'tender_total', "id", to_char("business_day", 'YYYY-MM-DD'), 'Tender total ' || "external_id" || ' from ' || "source" || ': ' || "tender_type" || coalesce(' ' || "platform", '') || ' ' || "amount"::text,
       "late_review"->>'flaggedAt', "late_review"->>'status'
     from "${schema}"."tender_totals" where "location_id" = ? and "late_review" is not null and "business_day" = any(?::date[])
     union all
     select 'settlement', s."id", d.day, 'Payout ' || s."external_id" || ' from ' || s."processor" || ': gross ' || s."gross"::text, s."late_review"->>'flaggedAt', s."late_review"->>'status'
     from "${schema}"."settlements" s, jsonb_array_elements_text(s."business_days") d(day)
     where s."location_id" = ? and s."late_review" is not null and d.day = any(?::text[])
     order by 5, 2`,
    [locationId, dayList, locationId, dayList, locationId, dayList],
  );
  for (const r of rows) out.get(r.day)?.push({ kind: r.kind, id: r.id, message: r.message, flaggedAt: r.flagged_at, status: r.status });
  return out;
}

function dayDto(r: DayRow, figures: DayFigures, late: LateRecord[]): CashBusinessDay {
  return {
    locationId: r.locationId,
    businessDay: r.businessDay,
    status: r.status as CashBusinessDay['status'],
    figures,
    lateRecords: late,
    closedAt: r.closedAt ? new Date(r.closedAt).toISOString() : null,
    closedBy: r.closedBy ?? null,
    closeNote: r.closeNote ?? null,
    reopenedAt: r.reopenedAt ? new Date(r.reopenedAt).toISOString() : null,
    reopenedBy: r.reopenedBy ?? null,
    reopenReason: r.reopenReason ?? null,
    version: r.version,
    updatedAt: new Date(r.updatedAt).toISOString(),
  };
}

/** Days of a location as the API answers them: a closed day with its locked snapshot, an open one live. */
export async function dayDtos(w: Work, locationId: string, rows: DayRow[]): Promise<CashBusinessDay[]> {
  const open = rows.filter((r) => r.status === 'open').map((r) => r.businessDay);
  const live = await liveFigures(w, locationId, open);
  const late = await lateRecordsOf(w.em, w.schema, locationId, rows.map((r) => r.businessDay));
  return rows.map((r) => dayDto(r, r.status === 'closed' ? r.figures! : live.get(r.businessDay)!, late.get(r.businessDay) ?? []));
}

/** The current business day of a location (its time zone and cut-off), or a 422 when cash does not know it. */
export async function currentBusinessDay(w: Work, locationId: string, path = 'locationId'): Promise<string> {
  // read through from organization when cash does not hold the location yet
  const loc = (await resolveLocations(w, [{ locationId }])).byId.get(locationId);
  if (!loc) throw new ValidationError([{ path, message: `No location ${locationId}.` }]);
  return businessDayOf(w.now.toISOString(), loc.timezone, loc.businessDayCutoff);
}

export async function listDays(w: Work, q: { locationId: string; from?: string; to?: string; status?: 'open' | 'closed' }): Promise<CashBusinessDay[]> {
  const today = await currentBusinessDay(w, q.locationId);
  const to = q.to ?? today;
  const from = q.from ?? addDays(to, -13);
  if (from > to) throw new ValidationError([{ path: 'from', message: 'Must not be after to.' }]);
  if (addDays(from, 91) < to) throw new ValidationError([{ path: 'from', message: 'At most 92 days per request.' }]);
  const rows = await findPlain(w.em, BusinessDayEntity, { locationId: q.locationId, businessDay: { $gte: from, $lte: to }, ...(q.status ? { status: q.status } : {}) }, { orderBy: { businessDay: 'desc' } });
  return dayDtos(w, q.locationId, rows);
}

/** The day's row (plain), locked FOR UPDATE when `lock`. */
async function dayRow(em: EntityManager, locationId: string, day: string, lock: boolean): Promise<DayRow> {
  const qb = em.createQueryBuilder(BusinessDayEntity).select('*').where({ locationId, businessDay: day });
  if (lock) qb.setLockMode(LockMode.PESSIMISTIC_WRITE);
  return (await qb.execute<DayRow[]>('all', true))[0];
}

const dayEvent = (type: string, dto: CashBusinessDay) => ({
  type,
  aggregateType: 'business_day',
  aggregateId: `${dto.locationId}:${dto.businessDay}`,
  locationId: dto.locationId,
  object: dto as unknown as Record<string, unknown>,
});

/**
 * `:close`: open → closed. Waits for writers of the day (they hold it FOR SHARE) and locks it; the
 * figures as they are then become the day's locked snapshot. `cash.business_day_closed`, and
 * `cash.over_short_exceeded` when the day's over/short passes the location's `business_day` threshold.
 * A day after the location's current business day cannot be closed (422); closing a day with no
 * records yet is allowed (a day without sales is still a day).
 */
export async function closeDay(w: Work, locationId: string, day: string, note: string | null): Promise<CashBusinessDay> {
  const { em } = w;
  assertLocationInReach(w.reach(), locationId);
  const today = await currentBusinessDay(w, locationId);
  if (day > today) throw new ValidationError([{ path: 'date', message: `Business day ${day} has not begun at location ${locationId} (today is ${today}).` }]);
  await touchDays(w, [{ locationId, businessDay: day }]);
  const row = await dayRow(em, locationId, day, true);
  w.checkVersion(row.version);
  if (row.status === 'closed') throw new Conflict(`Business day ${day} at location ${locationId} is closed already (since ${new Date(row.closedAt!).toISOString()}).`);
  const figures = (await liveFigures(w, locationId, [day])).get(day)!;
  // the row is locked: its version + 1 is the stored version + 1; read back as stored (as `returning` did)
  await em.nativeUpdate(BusinessDayEntity, { locationId, businessDay: day }, { status: 'closed', figures, closedAt: w.now, closedBy: actorOf(w.actor), closeNote: note, version: row.version + 1, updatedAt: w.now });
  const [dto] = await dayDtos(w, locationId, [await dayRow(em, locationId, day, false)]);
  w.emit(dayEvent('cash.business_day_closed', dto));
  const threshold = await thresholdFor(w, locationId, 'business_day');
  if (threshold && passes(new Decimal(figures.overShort), new Decimal(figures.expectedCash), threshold)) w.emit(dayEvent('cash.over_short_exceeded', dto));
  return dto;
}

/** The day's pending late records (sales transactions, tender totals, payouts) become applied (a reopening: their review is over). */
export async function applyLateRecords(w: Work, locationId: string, day: string): Promise<void> {
  const { em } = w;
  // raw SQL (bench:sql cash.apply-late-records): 47,178 µs against 72,583 through the ORM (1.54×: the pending rows loaded as entities and
  // flushed back); the three updates below, set-based jsonb_set of the day's pending late records in the ingestion tables
  const applied = `jsonb_set("late_review", '{status}', '"applied"')`;
  await sqlQuery(em, `update "${w.schema}"."sales_transactions" set "late_review" = ${applied} where "location_id" = ? and "business_day" = ?::date and "late_review"->>'status' = 'pending'`, [locationId, day]);
  await sqlQuery(em, `update "${w.schema}"."tender_totals" set "late_review" = ${applied} where "location_id" = ? and "business_day" = ?::date and "late_review"->>'status' = 'pending'`, [locationId, day]);
  await sqlQuery(em, `update "${w.schema}"."settlements" set "late_review" = ${applied} where "location_id" = ? and "business_days" @> jsonb_build_array(?::text) and "late_review"->>'status' = 'pending'`, [locationId, day]);
}

/**
 * Sales' replica of closed days listens to it; a public type too (the project's own, issue 41 item 3):
 * the envelope it always had, data.object the day as the API returns it.
 */
export const BUSINESS_DAY_REOPENED = 'cash.business_day_reopened';

/**
 * `:reopen` (people only; a reason): closed → open. Who, when and why are kept; the late records of
 * the day are applied (their review is over: the live figures include them), payouts covering it are
 * re-matched, and sales is told (`cash.business_day_reopened`).
 */
export async function reopenDay(w: Work, locationId: string, day: string, reason: string): Promise<CashBusinessDay> {
  const { em } = w;
  assertLocationInReach(w.reach(), locationId);
  const row = await dayRow(em, locationId, day, true);
  if (!row) throw new ApiError('not_found', `Business day ${day} at location ${locationId} has no records and was never closed.`);
  w.checkVersion(row.version);
  if (row.status !== 'closed') throw new Conflict(`Business day ${day} at location ${locationId} is open; only a closed day can be reopened.`);
  await em.nativeUpdate(BusinessDayEntity, { locationId, businessDay: day }, { status: 'open', figures: null, reopenedAt: w.now, reopenedBy: actorOf(w.actor), reopenReason: reason, version: row.version + 1, updatedAt: w.now });
  const updated = await dayRow(em, locationId, day, false);
  await applyLateRecords(w, locationId, day);
  // the payouts' events are the system's (the re-match follows from the reopening), the reopening the caller's
  await rematchSettlements(w, [{ locationId, businessDay: day }], { actor: systemPrincipal });
  const [dto] = await dayDtos(w, locationId, [updated]);
  w.emit(dayEvent(BUSINESS_DAY_REOPENED, dto));
  return dto;
}

