import { atEmployeeLocations, resolveEmployees, type Work } from '@bop/shared';
import type { FilterQuery } from '@mikro-orm/core';
import { CommunicationEmployee } from '../employees/entities';
import { CommunicationShift } from '../shifts/entities';
import type { Audience } from './entities';

/**
 * The active employees an audience names, from the replicas at this instant: at one of its locations
 * (home or further), of one of its departments, holding one of its positions (each list given narrows),
 * or with a published shift at the on-shift location starting on its day (an employee a shift names
 * and the replica lacks is read through from people first).
 */
export async function audienceOf(w: Work, audience: Audience): Promise<string[]> {
  const where: FilterQuery<CommunicationEmployee>[] = [{ status: 'active' }];
  if (audience.onShift) {
    const shifts = await w.em.find(CommunicationShift, { locationId: audience.onShift.locationId, localDate: audience.onShift.date, status: 'published', employeeId: { $ne: null } }, { fields: ['employeeId'] });
    const onShift = [...new Set(shifts.map((s) => s.employeeId!))];
    if (onShift.length === 0) return [];
    // the shifts name them: those the employee replica has not received yet are read through from people
    await resolveEmployees(w, onShift.map((employeeId) => ({ employeeId })), { payRates: false });
    where.push({ id: { $in: onShift } });
  }
  if (audience.locationIds.length > 0) where.push(atEmployeeLocations({ $in: audience.locationIds }) as FilterQuery<CommunicationEmployee>);
  if (audience.departmentIds.length > 0) where.push({ departmentId: { $in: audience.departmentIds } });
  if (audience.positions.length > 0) where.push({ positions: { $overlap: audience.positions } });
  const rows = await w.em.find(CommunicationEmployee, { $and: where }, { fields: ['id'], orderBy: { id: 'asc' } });
  return rows.map((e) => e.id);
}
