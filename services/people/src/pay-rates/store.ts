import type { z } from 'zod';
import type { ListQuery, PayRateCreate } from '@bop/contracts';
import { actorOf, decodeCursor, encodeCursor, newId, NotFound, ValidationError, type Work } from '@bop/shared';
import { Employee } from '../employees/entities';
import { assertEmployeeInReach, assertNotArchived, canonicalPositions, employeeForChange, type PositionsList } from '../employees/store';
import { recordActivity } from '../activity/store';
import { PayRate } from './entities';
import { payRateDto } from './dto';
import { sameRate } from './rate-in-force';

/** Pay rate history of an employee the caller's `pay_rates.read` reaches, newest first. */
export async function listPayRates(w: Work, employeeId: string, query: z.output<typeof ListQuery>) {
  const { em } = w;
  const e = await em.findOne(Employee, { id: employeeId });
  if (!e) throw new NotFound('employee', employeeId);
  assertEmployeeInReach(w.reach(), e);
  // an employee's rates are few: sorted newest first whole, then paged by the last id seen
  const rates = (await em.find(PayRate, { employeeId })).map(payRateDto);
  rates.sort((a, b) => (a.effectiveDate === b.effectiveDate ? (a.id < b.id ? 1 : -1) : a.effectiveDate < b.effectiveDate ? 1 : -1));
  const after = decodeCursor(query.cursor);
  const start = after ? rates.findIndex((r) => r.id === after) + 1 : 0;
  const data = rates.slice(start, start + query.limit);
  const hasMore = start + query.limit < rates.length;
  return { data, hasMore, nextCursor: hasMore ? encodeCursor(data[data.length - 1].id) : null };
}

export async function addPayRate(w: Work, employeeId: string, body: z.output<typeof PayRateCreate>, positionsList: PositionsList) {
  const e = await employeeForChange(w, employeeId);
  assertNotArchived(e);
  return recordPayRate(w, e, body, positionsList);
}

/**
 * Adds a rate to a locked employee (earlier rates kept): `pay_rate.changed` and an audit entry.
 * A rate saying what one already recorded says is not added again (answers that one, `added: false`).
 */
export async function recordPayRate(w: Work, e: Employee, input: z.output<typeof PayRateCreate>, positionsList: PositionsList, path = '') {
  const { em } = w;
  const at = (f: string) => (path ? `${path}.${f}` : f);
  if (input.position) {
    const list = await positionsList();
    if (list && !list.some((p) => p.toLowerCase() === input.position!.toLowerCase())) {
      throw new ValidationError([{ path: at('position'), message: `Position "${input.position}" is not one of the company's positions (company settings \`positions\`).` }]);
    }
  }
  const position = input.position ? (await canonicalPositions([input.position], positionsList))[0] : null;
  const existing = await em.find(PayRate, { employeeId: e.id, effectiveDate: input.effectiveDate });
  const same = existing.find((r) => sameRate({ type: r.type, amount: r.amount, position: r.position ?? null, effectiveDate: r.effectiveDate }, { ...input, position }));
  if (same) return { rate: payRateDto(same), added: false };
  const rate = em.create(PayRate, { id: newId('payRate'), employeeId: e.id, type: input.type, amount: input.amount, position, effectiveDate: input.effectiveDate, createdAt: w.now, createdBy: actorOf(w.actor) });
  await em.flush();
  const object = payRateDto(rate);
  recordActivity(w, e.id, 'pay_rate_added', null, { payRate: { type: object.type, amount: object.amount, position: object.position, effectiveDate: object.effectiveDate } });
  w.emit({ type: 'pay_rate.changed', aggregateType: 'employee', aggregateId: e.id, locationId: e.homeLocationId, object });
  return { rate: object, added: true };
}
