import { defineConsumer, type ConsumerDef } from '@bop/shared';
import type { CalculatedTimesheet } from './store';
import { applyTimesheet, timesheetLocations } from './store';
import { markAlertsDirty } from '../alerts/evaluation-store';
import { markDisplayFeedDirty } from '../display-feed/store';
import { KPIS_MOVED_BY } from '../alerts/windows';

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const HOURS = /^\d{1,6}(\.\d{1,6})?$/;
const isInstant = (v: unknown) => typeof v === 'string' && Number.isFinite(Date.parse(v));

/**
 * What insights reads of time's internal `time.timesheet.calculated` (data.object: `id`, `employeeId`,
 * `version`, `days[]` with `date`, `regularHours`, `overtime`, `shifts[]` of `start`, `end`, `locationId`,
 * `position`, `workedHours`, `unpaidBreaks`), or the reason it is not a calculated timesheet.
 */
export function calculatedTimesheet(object: unknown): CalculatedTimesheet | string {
  const o = object as Record<string, unknown> | null;
  if (typeof o?.id !== 'string' || typeof o.employeeId !== 'string' || !Number.isInteger(o.version) || !Array.isArray(o.days)) return 'id, employeeId, version and days[] are required';
  for (let i = 0; i < o.days.length; i++) {
    const d = o.days[i] as Record<string, unknown>;
    if (typeof d?.date !== 'string' || !DAY.test(d.date) || typeof d.regularHours !== 'string' || !HOURS.test(d.regularHours)) return `days.${i}: date and regularHours are required`;
    if (typeof d.overtime !== 'object' || d.overtime === null || Object.values(d.overtime).some((h) => typeof h !== 'string' || !HOURS.test(h))) return `days.${i}.overtime`;
    if (Object.keys(d.overtime).some((m) => !HOURS.test(m))) return `days.${i}.overtime`;
    if (!Array.isArray(d.shifts)) return `days.${i}.shifts`;
    for (let j = 0; j < d.shifts.length; j++) {
      const s = d.shifts[j] as Record<string, unknown>;
      if (typeof s?.start !== 'string' || typeof s.locationId !== 'string' || typeof s.workedHours !== 'string' || !HOURS.test(s.workedHours) || (s.position != null && typeof s.position !== 'string')) {
        return `days.${i}.shifts.${j}`;
      }
      if (!isInstant(s.start) || (s.end != null && !isInstant(s.end))) return `days.${i}.shifts.${j}.end`;
      const breaks = s.unpaidBreaks ?? [];
      if (!Array.isArray(breaks) || breaks.some((b: Record<string, unknown>) => !isInstant(b?.start) || !isInstant(b?.end))) return `days.${i}.shifts.${j}.unpaidBreaks`;
    }
  }
  return o as unknown as CalculatedTimesheet;
}

/** Consumer of time's `time.timesheet.calculated`: each timesheet's hours per day, location and position. */
export const laborConsumer = defineConsumer({
  name: 'labor-read-model',
  topics: ['time'],
  types: ['time.timesheet.calculated'],
  async handle(ctx) {
    const { event } = ctx;
    const parsed = calculatedTimesheet(event.data.object);
    if (typeof parsed === 'string') throw new Error(`${event.type} ${event.id}: data.object is not a calculated timesheet (${parsed})`);
    // the locations the older version counted, and those this one counts: both move
    const before = await timesheetLocations(ctx, parsed.id);
    await applyTimesheet(ctx, { ...parsed, days: parsed.days.map((d) => ({ ...d, shifts: d.shifts.map((s) => ({ ...s, position: s.position ?? null })) })) });
    await markAlertsDirty(ctx, [...before, ...parsed.days.flatMap((d) => d.shifts.map((s) => s.locationId))], KPIS_MOVED_BY.labor);
    await markDisplayFeedDirty(ctx, [...before, ...parsed.days.flatMap((d) => d.shifts.map((s) => s.locationId))]);
  },
});

export const laborConsumers: ConsumerDef[] = [laborConsumer];
