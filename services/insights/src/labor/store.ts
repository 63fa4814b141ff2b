import { lockForTransaction, type Work } from '@bop/shared';
import { laborIntervals, laborShares, type TimesheetDay } from './allocate';
import { LaborHours, LaborInterval, LaborTimesheet } from './entities';

/** A timesheet as time's internal `time.timesheet.calculated` carries it. */
export interface CalculatedTimesheet {
  id: string;
  employeeId: string;
  version: number;
  days: TimesheetDay[];
}

/** The locations a timesheet's held version counts hours at. */
export async function timesheetLocations(w: Work, timesheetId: string): Promise<string[]> {
  const rows = await w.em.createQueryBuilder(LaborHours).select(['locationId']).where({ timesheetId }).execute<Array<{ locationId: string }>>('all', true);
  return rows.map((r) => r.locationId);
}

/**
 * Replaces what a timesheet counted by its newer version: its hours per day, location and position,
 * and per location and 15-minute interval;
 * an older or repeated version changes nothing. One timesheet at a time (a lock per timesheet).
 */
export async function applyTimesheet(w: Work, t: CalculatedTimesheet): Promise<void> {
  const { em } = w;
  await lockForTransaction(em, `${w.schema}.labor ${t.id}`);
  const held = await em.findOne(LaborTimesheet, { timesheetId: t.id });
  if (held && held.version >= t.version) return;
  if (held) held.version = t.version;
  else em.create(LaborTimesheet, { timesheetId: t.id, version: t.version, employeeId: t.employeeId });
  await em.nativeDelete(LaborHours, { timesheetId: t.id });
  await em.nativeDelete(LaborInterval, { timesheetId: t.id });
  for (const day of t.days) {
    for (const s of laborShares(day)) {
      em.create(LaborHours, {
        id: `${t.id}|${s.date}|${s.locationId}|${s.position ?? ''}`,
        timesheetId: t.id,
        employeeId: t.employeeId,
        locationId: s.locationId,
        businessDay: s.date,
        position: s.position,
        regularHours: s.regular.toFixed(),
        overtime: Object.fromEntries([...s.overtime].map(([m, h]) => [m, h.toFixed()])),
      });
    }
    for (const x of laborIntervals(day)) {
      em.create(LaborInterval, {
        id: `${t.id}|${x.locationId}|${x.intervalStart.toISOString()}`,
        timesheetId: t.id,
        locationId: x.locationId,
        businessDay: day.date,
        intervalStart: x.intervalStart,
        hours: x.hours.toFixed(),
      });
    }
  }
  await em.flush();
}
