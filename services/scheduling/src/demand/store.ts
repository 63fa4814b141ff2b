import type { DemandDriverListQuery } from '@bop/contracts';
import { findPage, fmtQuantity, locationFilter, mapPage, type ReachSet, type Work } from '@bop/shared';
import type { z } from 'zod';
import { DemandDriver } from './entities';

const iso = (d: Date | string) => new Date(d).toISOString();

const driverDto = (d: DemandDriver) => ({
  id: d.id,
  source: d.source,
  externalId: d.externalId,
  locationId: d.locationId,
  driver: d.driver,
  intervalStart: iso(d.intervalStart),
  value: fmtQuantity(d.value), // as sent: no trailing zeros of the column's scale
  version: d.version,
  createdAt: iso(d.createdAt),
  updatedAt: iso(d.updatedAt),
});

/**
 * `GET /demand-drivers` (the project's addition): the values as stored, so a feed that backfilled can
 * check what arrived; in the order they were first stored, filtered by location (within reach),
 * driver, source and interval start.
 */
export async function listDemandDrivers(w: Work, q: z.output<typeof DemandDriverListQuery>, reach: ReachSet) {
  const location = locationFilter(reach, q.locationId);
  const interval = q.from || q.to ? { ...(q.from ? { $gte: new Date(q.from) } : {}), ...(q.to ? { $lt: new Date(q.to) } : {}) } : undefined;
  const page = await findPage(
    w.em,
    DemandDriver,
    [location !== undefined && { locationId: location }, q.driver && { driver: q.driver }, q.source && { source: q.source }, interval && { intervalStart: interval }],
    { limit: q.limit, cursor: q.cursor, updatedSince: q.updatedSince },
  );
  return mapPage(page, driverDto);
}
