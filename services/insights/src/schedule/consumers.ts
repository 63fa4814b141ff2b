import { defineConsumer, type ConsumerDef } from '@bop/shared';
import { applyPublished, applyShift, locationsOfShifts, type ShiftChange } from './store';
import { markAlertsDirty } from '../alerts/evaluation-store';
import { KPIS_MOVED_BY } from '../alerts/windows';

const LOCAL = /^(\d{4}-\d{2}-\d{2})T/;
const HOURS = /^\d{1,6}(\.\d{1,6})?$/;

/**
 * What insights reads of scheduling's `shift.changed` (data.object: the shift with `id`, `version`,
 * `locationId`, `employeeId`, `position`, `localStart`, `localEnd`, `paidHours`, `status`); its business day is the
 * local date it starts, as time counts a worked shift. Answers the change or why it is not a shift.
 */
export function shiftChange(object: unknown): ShiftChange | string {
  const o = object as Record<string, unknown> | null;
  if (typeof o?.id !== 'string' || !Number.isInteger(o.version) || typeof o.locationId !== 'string' || typeof o.status !== 'string') return 'id, version, locationId and status are required';
  const day = typeof o.localStart === 'string' ? LOCAL.exec(o.localStart)?.[1] : undefined;
  if (!day) return 'localStart';
  if (typeof o.paidHours !== 'string' || !HOURS.test(o.paidHours)) return 'paidHours';
  if (o.employeeId != null && typeof o.employeeId !== 'string') return 'employeeId';
  if (o.position != null && typeof o.position !== 'string') return 'position';
  const startsAt = Date.parse(o.localStart as string);
  const endsAt = typeof o.localEnd === 'string' ? Date.parse(o.localEnd) : NaN;
  if (!Number.isFinite(startsAt)) return 'localStart';
  if (o.localEnd != null && !(endsAt > startsAt)) return 'localEnd';
  return {
    shiftId: o.id,
    version: o.version as number,
    locationId: o.locationId,
    businessDay: day,
    employeeId: (o.employeeId as string | null | undefined) ?? null,
    position: (o.position as string | null | undefined) ?? null,
    paidHours: o.paidHours,
    status: o.status,
    startsAt: new Date(startsAt),
    endsAt: Number.isFinite(endsAt) ? new Date(endsAt) : null,
  };
}

export const scheduledShiftConsumer = defineConsumer({
  name: 'scheduled-shifts',
  topics: ['scheduling'],
  types: ['shift.changed'],
  async handle(ctx) {
    const parsed = shiftChange(ctx.event.data.object);
    if (typeof parsed === 'string') throw new Error(`${ctx.event.type} ${ctx.event.id}: data.object is not a shift (${parsed})`);
    // a shift moved to another location moves both
    const held = await locationsOfShifts(ctx, [parsed.shiftId]);
    await applyShift(ctx, parsed);
    await markAlertsDirty(ctx, [parsed.locationId, ...held], KPIS_MOVED_BY.schedule);
  },
});

export const publishedScheduleConsumer = defineConsumer({
  name: 'published-schedules',
  topics: ['scheduling'],
  types: ['schedule.published'],
  async handle(ctx) {
    const o = ctx.event.data.object as { shiftIds?: unknown } | null;
    if (!Array.isArray(o?.shiftIds) || o.shiftIds.some((id) => typeof id !== 'string')) throw new Error(`${ctx.event.type} ${ctx.event.id}: data.object has no shiftIds`);
    await applyPublished(ctx, o.shiftIds as string[]);
    await markAlertsDirty(ctx, await locationsOfShifts(ctx, o.shiftIds as string[]), KPIS_MOVED_BY.schedule);
  },
});

export const scheduleConsumers: ConsumerDef[] = [scheduledShiftConsumer, publishedScheduleConsumer];
