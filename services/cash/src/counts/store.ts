import Decimal from 'decimal.js';
import type { z } from 'zod';
import type { CashCount, CashCountCreate, CashCountListQuery } from '@bop/contracts';
import { mapPage, findPage, NotFound, ValidationError, actorOf, businessDayOf, fmtAmount, newId, writableLocations, type FieldError, type ListPage, type Work } from '@bop/shared';
import { assertDaysOpen, lockLocationCash } from '../days/lock-store';
import { CashCountEntity, type StoredDenomination } from './entities';
import type { Expectation } from './expected';
import { drawerExpected, safeExpected } from './expected-store';
import { passes } from './thresholds';
import { thresholdFor } from './thresholds-store';

/** Counts dated later than now are refused beyond this clock skew. */
const FUTURE_TOLERANCE_MS = 5 * 60_000;

/** The count as the API returns it (and `data.object` of its events). */
export function countDto(c: CashCountEntity): CashCount {
  return {
    id: c.id,
    locationId: c.locationId,
    businessDay: c.businessDay,
    type: c.type as CashCount['type'],
    drawerId: c.drawerId ?? null,
    countedAt: c.countedAt.toISOString(),
    amount: fmtAmount(c.amount),
    denominations: c.denominations,
    openingFloat: c.openingFloat != null ? fmtAmount(c.openingFloat) : null,
    expected: c.expected != null ? fmtAmount(c.expected) : null,
    overShort: c.overShort != null ? fmtAmount(c.overShort) : null,
    threshold: c.threshold ?? null,
    exceeded: c.exceeded,
    explanation: c.explanation ?? null,
    note: c.note ?? null,
    countedBy: c.countedBy,
    createdAt: c.createdAt.toISOString(),
  };
}

/** `GET /cash/counts`: the counts at `inLocations` (undefined: every location), oldest first, by cursor. */
export async function listCounts(w: Work, inLocations: string | { $in: string[] } | undefined, q: z.output<typeof CashCountListQuery>): Promise<ListPage<CashCount>> {
  const { limit, cursor, type, drawerId, from, to, exceeded } = q;
  const page = await findPage(
    w.em,
    CashCountEntity,
    [
      inLocations && { locationId: inLocations },
      type && { type },
      drawerId && { drawerId },
      from && { businessDay: { $gte: from } },
      to && { businessDay: { $lte: to } },
      exceeded && { exceeded: exceeded === 'true' },
    ],
    { limit, cursor },
  );
  return mapPage(page, countDto);
}

/** One count, or 404. */
export async function getCount(w: Work, id: string): Promise<CashCountEntity> {
  const count = await w.em.findOne(CashCountEntity, { id });
  if (!count) throw new NotFound('cash count', id);
  return count;
}

/** The counted amount from the amount and/or denominations sent (each face value once; both must agree). */
function countedAmount(body: CashCountCreate): { amount: Decimal; denominations: StoredDenomination[]; errors: FieldError[] } {
  const errors: FieldError[] = [];
  const seen = new Map<string, number>();
  const denominations = (body.denominations ?? []).map((d, i) => {
    const value = fmtAmount(d.value);
    const first = seen.get(value);
    if (first !== undefined) errors.push({ path: `denominations[${i}].value`, message: `${value} is also at denominations[${first}]; send each value once.` });
    else seen.set(value, i);
    return { value, quantity: d.quantity, amount: fmtAmount(new Decimal(d.value).times(d.quantity)) };
  });
  const sum = denominations.reduce((s, d) => s.plus(d.amount), new Decimal(0));
  if (body.amount !== undefined && body.denominations !== undefined && !sum.equals(body.amount)) {
    errors.push({ path: 'amount', message: `The amount ${fmtAmount(body.amount)} is not the sum of the denominations, ${fmtAmount(sum)}.` });
  }
  return { amount: body.amount !== undefined ? new Decimal(body.amount) : sum, denominations, errors };
}

/**
 * `POST /cash/counts` (contracts/cash/counts.ts): a drawer, skim or safe count at a location the caller
 * reaches, on an open business day, with its expected amount, over/short and threshold fixed as of
 * now. `cash.count_completed`; `cash.over_short_exceeded` when the over/short passes the threshold.
 */
export async function createCount(w: Work, body: CashCountCreate): Promise<CashCount> {
  const { em } = w;
  const located = await writableLocations(w, [{ id: body.locationId, path: 'locationId', takes: 'counts' }]);
  if (located.errors.length > 0) throw new ValidationError(located.errors);
  const countedAt = body.countedAt !== undefined ? new Date(body.countedAt) : w.now;
  const { amount, denominations, errors } = countedAmount(body);
  if (countedAt.getTime() > w.now.getTime() + FUTURE_TOLERANCE_MS) errors.unshift({ path: 'countedAt', message: 'Lies in the future; a count is recorded when (or after) it was made.' });
  if (errors.length > 0) throw new ValidationError(errors);

  const location = located.byId.get(body.locationId)!;
  // spec: ingestion rule 8, the business day from the location's time zone and cut-off
  const businessDay = body.businessDay ?? businessDayOf(countedAt.toISOString(), location.timezone, location.businessDayCutoff);
  const today = businessDayOf(w.now.toISOString(), location.timezone, location.businessDayCutoff);
  // a day that has not begun has nothing to count yet (a typo in businessDay would open it)
  if (businessDay > today) throw new ValidationError([{ path: 'businessDay', message: `Business day ${businessDay} has not begun at location ${body.locationId} (today is ${today}).` }]);
  // counts and deposits of a location one after another: each sees the skims, drawer counts, safe counts and deposits recorded before it
  await lockLocationCash(w, body.locationId);
  await assertDaysOpen(w, [{ locationId: body.locationId, businessDay }], 'businessDay');

  const openingFloat = body.type === 'drawer' ? new Decimal(body.openingFloat ?? 0) : null;
  let expectation: Expectation | null = null;
  if (body.type === 'drawer') expectation = await drawerExpected(w, { locationId: body.locationId, businessDay, drawerId: body.drawerId!, countedAt, openingFloat: openingFloat! });
  else if (body.type === 'safe') expectation = await safeExpected(w, { locationId: body.locationId, countedAt });
  const overShort = expectation ? amount.minus(expectation.expected) : null;
  const threshold = body.type === 'skim' ? null : await thresholdFor(w, body.locationId, body.type);
  const exceeded = expectation !== null && overShort !== null && passes(overShort, expectation.expected, threshold);

  const count = em.create(CashCountEntity, {
    id: newId('cashCount'),
    locationId: body.locationId,
    businessDay,
    type: body.type,
    drawerId: body.drawerId ?? null,
    countedAt,
    amount: fmtAmount(amount),
    denominations,
    openingFloat: openingFloat ? fmtAmount(openingFloat) : null,
    expected: expectation ? fmtAmount(expectation.expected) : null,
    overShort: overShort ? fmtAmount(overShort) : null,
    threshold,
    exceeded,
    explanation: expectation?.explanation ?? null,
    note: body.note ?? null,
    countedBy: actorOf(w.actor),
    createdAt: w.now,
  });
  await em.flush();
  const dto = countDto(count);
  const event = (type: string) => ({ type, aggregateType: 'cash_count', aggregateId: dto.id, locationId: dto.locationId, object: dto as unknown as Record<string, unknown> });
  w.emit(event('cash.count_completed'));
  if (exceeded) w.emit(event('cash.over_short_exceeded'));
  return dto;
}
