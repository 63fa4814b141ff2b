import Decimal from 'decimal.js';
import { LockMode } from '@mikro-orm/core';
import { DateTime } from 'luxon';
import {
  ApiError,
  assertLocationInReach,
  findPlain,
  newId,
  payRateInForce,
  replicaPayRates,
  resolveLocations,
  ValidationError,
  type Work,
} from '@bop/shared';
import { costShifts, type CostRate } from './cost';
import { draftSchedule, DraftInputError, type DraftCandidate, type DraftLeftOut, type DraftNeedSlot } from '../generate/solve';
import { Shift } from '../shifts/entities';
import { shiftDto } from '../shifts/dto';
import { paidHours, workweekStart } from '../shifts/warnings';
import { Availability } from '../availability/entities';
import { dayInterval, subtractIntervals, workableIntervals, type Interval } from '../availability/windows';
import { ApprovedTimeOff } from '../time-off/entities';
import { SchedulingEmployee } from '../employees/entities';
import { forecastFor } from '../forecasts/store';
import { staffingNeeds } from '../staffing/store';
import type { SchedulingSettings } from '../settings/company-settings';

const DAY_MS = 86_400_000;
const dec2 = (d: Decimal) => d.toDecimalPlaces(2).toFixed(2);

async function zoneOf(w: Work, locationId: string): Promise<string> {
  assertLocationInReach(w.reach(), locationId);
  const loc = (await resolveLocations(w, [{ locationId }])).byId.get(locationId);
  if (!loc) throw new ValidationError([{ path: 'locationId', message: `No location ${locationId}.` }]);
  return loc.timezone;
}

/** The instants of local days [from, to] in a zone. */
const periodOf = (from: string, to: string, zone: string) => ({ start: dayInterval(from, zone).start, end: dayInterval(to, zone).end });

/** Pay rates of employees as `rateOf` reads them (people's, replicated). */
async function ratesOf(w: Work, employeeIds: string[]) {
  const rates = await replicaPayRates(w, [...new Set(employeeIds)]);
  return (employeeId: string, date: string, position: string): CostRate | null => payRateInForce(rates.get(employeeId) ?? [], date, position);
}

/**
 * `GET /schedules`: a location's shifts over local days [from, to] (drafts and published) with paid
 * hours and estimated cost per day and position, and labor cost as a share of the forecast net sales.
 */
export async function scheduleView(w: Work, q: { locationId: string; from: string; to: string }, settingsOf: () => Promise<SchedulingSettings>) {
  const { em } = w;
  const zone = await zoneOf(w, q.locationId);
  const settings = await settingsOf();
  const period = periodOf(q.from, q.to, zone);
  const here = await findPlain(em, Shift, { locationId: q.locationId, status: { $ne: 'archived' }, start: { $gte: new Date(period.start), $lt: new Date(period.end) } }, { orderBy: { start: 'asc', id: 'asc' } });
  const employeeIds = [...new Set(here.map((s) => s.employeeId).filter((e): e is string => !!e))];
  // the employees' other shifts of the workweeks touched count toward their overtime threshold
  const elsewhere = employeeIds.length
    ? await findPlain(em, Shift, { employeeId: { $in: employeeIds }, status: { $ne: 'archived' }, start: { $gte: new Date(period.start - 7 * DAY_MS), $lt: new Date(period.end + 7 * DAY_MS) }, id: { $nin: here.map((s) => s.id) } })
    : [];
  const rateOf = await ratesOf(w, employeeIds);
  const notes = new Set<string>();
  const costs = costShifts(
    [...here, ...elsewhere].map((s) => ({ id: s.id, employeeId: s.employeeId ?? null, locationId: s.locationId, position: s.position, start: new Date(s.start).getTime(), end: new Date(s.end).getTime(), breakMinutes: s.breakMinutes })),
    zone,
    { weekStart: settings.weekStart, weeklyOvertimeAfter: settings.weeklyOvertimeAfter, overtimeMultiplier: settings.overtimeMultiplier, rateOf },
  );
  const days = new Map<string, { date: string; position: string; hours: Decimal; openHours: Decimal; overtimeHours: Decimal; cost: Decimal }>();
  const total = { hours: new Decimal(0), openHours: new Decimal(0), overtimeHours: new Decimal(0), cost: new Decimal(0) };
  for (const s of here) {
    const c = costs.get(s.id)!;
    const k = `${c.date} ${s.position}`;
    const d = days.get(k) ?? { date: c.date, position: s.position, hours: new Decimal(0), openHours: new Decimal(0), overtimeHours: new Decimal(0), cost: new Decimal(0) };
    d.hours = d.hours.plus(c.hours);
    d.overtimeHours = d.overtimeHours.plus(c.overtimeHours);
    if (!s.employeeId) d.openHours = d.openHours.plus(c.hours);
    else if (c.cost === null) notes.add(`Employee ${s.employeeId} has no pay rate in force on ${c.date}: their hours are not costed.`);
    d.cost = d.cost.plus(c.cost ?? 0);
    days.set(k, d);
  }
  for (const d of days.values()) {
    total.hours = total.hours.plus(d.hours);
    total.openHours = total.openHours.plus(d.openHours);
    total.overtimeHours = total.overtimeHours.plus(d.overtimeHours);
    total.cost = total.cost.plus(d.cost);
  }
  let forecastSales: Decimal | null = null;
  try {
    const f = await forecastFor(w, { locationId: q.locationId, driver: 'net_sales', from: q.from, to: q.to, bucket: '1d' }, { everyone: true });
    forecastSales = f.days.reduce((sum, d) => sum.plus(d.total), new Decimal(0));
  } catch (err) {
    if (!(err instanceof ApiError) || err.code !== 'validation_error') throw err;
    notes.add(`No net sales forecast: ${err.errors?.[0]?.message ?? err.detail}`);
  }
  return {
    locationId: q.locationId,
    timezone: zone,
    from: q.from,
    to: q.to,
    shifts: here.map((s) => shiftDto(s, zone)),
    days: [...days.values()]
      .sort((a, b) => (a.date === b.date ? (a.position < b.position ? -1 : 1) : a.date < b.date ? -1 : 1))
      .map((d) => ({ date: d.date, position: d.position, hours: dec2(d.hours), openHours: dec2(d.openHours), overtimeHours: dec2(d.overtimeHours), cost: dec2(d.cost) })),
    totals: {
      hours: dec2(total.hours),
      openHours: dec2(total.openHours),
      overtimeHours: dec2(total.overtimeHours),
      cost: dec2(total.cost),
      forecastSales: forecastSales === null ? null : dec2(forecastSales),
      laborCostPercent: forecastSales === null || forecastSales.isZero() ? null : dec2(total.cost.div(forecastSales).times(100)),
    },
    notes: [...notes],
  };
}

export interface GenerateRequest {
  locationId: string;
  from: string;
  to: string;
  replaceDrafts: boolean;
  allowOvertime: boolean;
  minShiftHours: number;
  maxShiftHours: number;
  shiftStartStepMinutes: 15 | 30 | 60;
}

/**
 * `POST /schedules:generate` (the project's addition): drafts shifts covering the staffing needs left
 * after the shifts kept, from employees of the location who hold the position and are available, not
 * on approved time off, and within the overtime and rest rules, at the lowest cost (a MILP: see
 * generate/solve.ts). The drafts are stored (`shift.changed` each); every unmet need is named.
 * `w` reads outside any transaction; `write` runs the one transaction that stores the drafts.
 */
export async function generateSchedule(
  w: Work,
  body: GenerateRequest,
  settingsOf: () => Promise<SchedulingSettings>,
  write: <T>(fn: (tx: Work) => Promise<T>) => Promise<T>,
) {
  const { em } = w;
  const zone = await zoneOf(w, body.locationId);
  const settings = await settingsOf();
  const period = periodOf(body.from, body.to, zone);
  const now = w.now.getTime();
  const notes: string[] = [];
  // read and solved outside any transaction (the solver may take seconds); written in one at the end
  const replacing = body.replaceDrafts ? await findPlain(em, Shift, { locationId: body.locationId, status: 'draft', start: { $gte: new Date(period.start), $lt: new Date(period.end) } }) : [];
  const replacingIds = new Set(replacing.map((s) => s.id));
  const needs = await staffingNeeds(w, { locationId: body.locationId, from: body.from, to: body.to }, { everyone: true }, { ignoreShiftIds: replacingIds });
  notes.push(...needs.notes);
  const slots: DraftNeedSlot[] = needs.hours
    .map((h) => ({ start: h.start, end: h.end, positionId: h.position, needed: Math.max(0, h.needed - Math.round(Number(h.scheduled))) }))
    .filter((h) => h.needed > 0);
  const positions = [...new Set(slots.map((s) => s.positionId))];
  const key = (p: string) => p.normalize('NFC').toLowerCase();
  const employees = (await findPlain(em, SchedulingEmployee, { $or: [{ homeLocationId: body.locationId }, { locationIds: { $overlap: [body.locationId] } }], status: { $nin: ['terminated', 'archived'] } })).filter((e) =>
    e.positions.some((p) => positions.some((q) => key(q) === key(p))),
  );
  const ids = employees.map((e) => e.id);
  const windows = ids.length ? await findPlain(em, Availability, { employeeId: { $in: ids }, status: 'active' }) : [];
  const firstDay = DateTime.fromMillis(period.start, { zone }).toISODate()!;
  const lastDay = DateTime.fromMillis(period.end - 1, { zone }).toISODate()!;
  const timeOff = ids.length ? await findPlain(em, ApprovedTimeOff, { employeeId: { $in: ids }, status: 'approved', startDate: { $lte: lastDay }, endDate: { $gte: firstDay } }) : [];
  const kept = ids.length
    ? await findPlain(em, Shift, { employeeId: { $in: ids }, status: { $ne: 'archived' }, start: { $lt: new Date(period.end + 8 * DAY_MS) }, end: { $gt: new Date(period.start - 8 * DAY_MS) } })
    : [];
  const homeZones = new Map((await resolveLocations(w, [...new Set(employees.map((e) => e.homeLocationId))].map((locationId) => ({ locationId })))).byId);
  const rateOf = await ratesOf(w, ids);
  const candidates: DraftCandidate[] = [];
  const leftOut: DraftLeftOut[] = [];
  for (const e of employees) {
    const held = e.positions.filter((p) => positions.some((q) => key(q) === key(p)));
    const heldIds = positions.filter((q) => held.some((p) => key(p) === key(q)));
    const rate = rateOf(e.id, firstDay, heldIds[0]);
    if (!rate) {
      notes.push(`${e.firstName} ${e.lastName} has no pay rate in force on ${firstDay}; left out of the draft.`);
      leftOut.push({ employeeId: e.id, name: `${e.firstName} ${e.lastName}`.trim(), positionIds: heldIds, reason: `has no pay rate in force on ${firstDay}` });
      continue;
    }
    const homeZone = homeZones.get(e.homeLocationId)?.timezone ?? zone;
    const mine = windows.filter((a) => a.employeeId === e.id);
    const free = workableIntervals(mine, firstDay, lastDay, homeZone);
    const off: Interval[] = timeOff
      .filter((t) => t.employeeId === e.id)
      .flatMap((t) => {
        const days: Interval[] = [];
        for (let d = DateTime.fromISO(t.startDate, { zone: 'UTC' }); d.toISODate()! <= t.endDate; d = d.plus({ days: 1 })) days.push(dayInterval(d.toISODate()!, zone));
        return days;
      });
    const busy = kept.filter((s) => s.employeeId === e.id && !replacingIds.has(s.id)).map((s) => ({ start: new Date(s.start).getTime(), end: new Date(s.end).getTime(), breakMinutes: s.breakMinutes }));
    const last = e.terminationDate ? [{ start: dayInterval(e.terminationDate, zone).end, end: period.end + DAY_MS }] : [];
    const available = subtractIntervals(free.available, [...off, ...busy, ...last]).filter((i) => i.end > period.start && i.start < period.end);
    // kept with no availability left too: unmet needs then say why (time off, another shift, leaving, no availability given)
    const perWeek: Record<string, number> = {};
    for (const s of busy) {
      const week = workweekStart(DateTime.fromMillis(s.start, { zone }).toISODate()!, settings.weekStart);
      perWeek[week] = (perWeek[week] ?? 0) + paidHours(s).toNumber();
    }
    const iso = (ms: number) => new Date(ms).toISOString();
    candidates.push({
      employeeId: e.id,
      name: `${e.firstName} ${e.lastName}`.trim(),
      positionIds: heldIds,
      hourlyRate: (rate.type === 'hourly' ? new Decimal(rate.amount) : new Decimal(rate.amount).div(2080)).toDecimalPlaces(4).toFixed(),
      available: available.map((i) => ({ start: iso(Math.max(i.start, period.start)), end: iso(Math.min(i.end, period.end)) })),
      preferred: free.preferred.map((i) => ({ start: iso(i.start), end: iso(i.end) })),
      hoursAlreadyScheduled: perWeek,
      otherShifts: busy.map((s) => ({ start: iso(s.start), end: iso(s.end) })),
      away: [
        ...off.map((i) => ({ start: iso(i.start), end: iso(i.end), reason: 'time_off' as const })),
        ...busy.map((i) => ({ start: iso(i.start), end: iso(i.end), reason: 'other_shift' as const })),
        ...last.map((i) => ({ start: iso(i.start), end: iso(i.end), reason: 'left' as const })),
      ],
    });
  }
  let result;
  try {
    result = await draftSchedule({
      needs: slots,
      candidates,
      leftOut,
      zone,
      now: new Date(now).toISOString(),
      rules: {
        minShiftHours: body.minShiftHours,
        maxShiftHours: body.maxShiftHours,
        minRestHours: settings.minRestHours,
        weeklyOvertimeAfter: settings.weeklyOvertimeAfter ?? 168,
        overtimeMultiplier: settings.overtimeMultiplier,
        allowOvertime: body.allowOvertime,
        shiftStartStepMinutes: body.shiftStartStepMinutes,
        weekStart: settings.weekStart,
      },
    });
  } catch (err) {
    if (err instanceof DraftInputError) throw new ValidationError([{ path: 'minShiftHours', message: err.message }]);
    throw err;
  }
  const written = await write(async (tx) => {
    const wem = tx.em;
    const at = tx.now;
    // the drafts replaced are those still drafts now (one published meanwhile stays, as the needs did not count on it)
    const replaced = replacingIds.size ? await wem.find(Shift, { id: { $in: [...replacingIds] }, status: 'draft' }, { lockMode: LockMode.PESSIMISTIC_WRITE }) : [];
    for (const s of replaced) Object.assign(s, { status: 'archived', version: s.version + 1, updatedAt: at });
    const created = result.shifts.map((d) =>
      wem.create(Shift, {
        id: newId('shift'),
        externalId: null,
        locationId: body.locationId,
        position: d.positionId,
        employeeId: d.employeeId,
        start: new Date(d.start),
        end: new Date(d.end),
        breakMinutes: 0,
        notes: null,
        status: 'draft',
        flags: [],
        publishedAt: null,
        version: 1,
        createdAt: at,
        updatedAt: at,
      }),
    );
    await wem.flush();
    for (const s of replaced) tx.emit({ type: 'shift.changed', aggregateType: 'shift', aggregateId: s.id, locationId: s.locationId, object: shiftDto(s, zone), previous: { status: 'draft' } });
    const views = created.sort((a, b) => new Date(a.start).getTime() - new Date(b.start).getTime()).map((s) => shiftDto(s, zone));
    for (const v of views) tx.emit({ type: 'shift.changed', aggregateType: 'shift', aggregateId: v.id, locationId: v.locationId, object: v });
    return { views, replaced: replaced.length };
  });
  return {
    locationId: body.locationId,
    from: body.from,
    to: body.to,
    neededHours: result.neededHours,
    coveredHours: result.coveredHours,
    coverage: result.coverage,
    cost: new Decimal(result.cost).toDecimalPlaces(2).toFixed(2),
    overtimeHours: result.overtimeHours,
    method: result.method,
    replacedDrafts: written.replaced,
    shifts: written.views,
    unmet: result.unmet.map((u) => ({ position: u.positionId, start: u.start, end: u.end, missing: u.missing, reason: u.reason })),
    notes,
  };
}
