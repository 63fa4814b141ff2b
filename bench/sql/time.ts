import { isDeepStrictEqual } from 'node:util';
import { LockMode } from '@mikro-orm/core';
import { addDays, newId, resolveLocations, systemPrincipal, type StoredRecord, type Work } from '@bop/shared';
import { timeService } from '@svc/time';
import { TimeEmployee } from '@svc/time/dist/employees/entities';
import { PayPeriod } from '@svc/time/dist/pay-periods/entities';
import { payrollPeople, reapproveTimesheets, timesheetCounts } from '@svc/time/dist/pay-periods/period-store';
import { periodsById, periodsOfDates, type PeriodRow } from '@svc/time/dist/pay-periods/store';
import { periodBounds } from '@svc/time/dist/pay-periods/calendar';
import { HeldPunch, Punch, type PunchRow } from '@svc/time/dist/punches/entities';
import { dropHeldTwins, holdPunches, lockedPeriodIds, recordResends, takeHeldPunches } from '@svc/time/dist/punches/ingest-store';
import { effectiveRules, markUnlockedTimesheets } from '@svc/time/dist/rules/store';
import { workedDays } from '@svc/time/dist/time-off/balance-store';
import { Timesheet, TimesheetMark, TimesheetTouch } from '@svc/time/dist/timesheets/entities';
import { calculateTimesheet, type TimesheetFigures } from '@svc/time/dist/timesheets/calculate';
import { foldTouchRows, markTimesheets, pendingTimesheetIds, touchesPending, type TimesheetTouch as Touch } from '@svc/time/dist/timesheets/marks-store';
import { dropMarks, marksToRecalculate, recalculateTimesheets, takeMarks } from '@svc/time/dist/timesheets/recalc-store';
import type { SqlCase } from './case';

/*
 * A busy company: 200 locations, 2,000 employees, biweekly pay periods since 2025-01-06 (those ended
 * before the last one locked), the last 13 periods' timesheets (26,000, with figures), three weeks
 * of punches (4 a worked day: 120,000), 1,000 punches held in a locked period, 2,000 timesheets
 * marked for recalculation and a touch log of 20 batches of 500 timesheets not yet folded.
 */
const LOCATIONS = 200;
const EMPLOYEES = 2_000;
const SHEET_PERIODS = 13;
const ANCHOR = '2025-01-06';
const SOURCE = 'bench-clock';
const pad = (i: number, n: number) => String(i).padStart(n, '0');
const loc = (i: number) => `loc_bench${pad(i, 4)}`;
const emp = (i: number) => `emp_bench${pad(i, 5)}`;
const homeOf = (i: number) => loc(i % LOCATIONS);
const settings = { payPeriodFrequency: 'biweekly' as const, payPeriodAnchorDate: ANCHOR, weekStart: 'monday' as const };
const today = () => new Date().toISOString().slice(0, 10);
const dayIndex = (date: string) => Math.round((Date.parse(`${date}T00:00:00Z`) - Date.parse(`${ANCHOR}T00:00:00Z`)) / 86_400_000);
/** the index of the period holding today; periods 0..current+2 are stored */
const current = () => Math.floor(dayIndex(today()) / 14);
const periodId = (k: number) => `ppd_bench${pad(k, 3)}`;
const periodStart = (k: number) => addDays(ANCHOR, 14 * k);
/** periods that ended before the last one are locked */
const lockedPeriod = (k: number) => k < current() - 1;
const sheetId = (k: number, i: number) => `tsh_bench${pad(k, 3)}_${pad(i, 5)}`;
const sheetStatus = (k: number) => (lockedPeriod(k) ? 'locked' : k < current() ? 'approved' : 'open');
/** the locked period holding punches sent late */
const heldPeriod = () => current() - 3;

function figuresOf(k: number, i: number): TimesheetFigures {
  const start = periodStart(k);
  const days = Array.from({ length: 14 }, (_, d) => {
    const date = addDays(start, d);
    const worked = d % 7 < 5;
    const hours = worked ? (7.5 + ((i + d) % 3) * 0.5).toFixed(2) : '0.00';
    return {
      date,
      workedHours: hours,
      paidBreakHours: '0.00',
      unpaidBreakHours: worked ? '0.50' : '0.00',
      regularHours: hours,
      overtime: {},
      shifts: worked
        ? [{ start: `${date}T09:00:00.000Z`, end: `${date}T17:30:00.000Z`, locationId: homeOf(i), position: 'Cook', workedHours: hours, breaks: [{ start: `${date}T13:00:00.000Z`, end: `${date}T13:30:00.000Z`, minutes: 30, paid: false }] }]
        : [],
    };
  });
  const weeks = [0, 7].map((o) => ({ start: addDays(start, o), end: addDays(start, o + 6), workedHours: '40.00', regularHours: '40.00', overtime: {} }));
  return { days, weeks, totals: { workedHours: '80.00', regularHours: '80.00', overtime: {}, paidBreakHours: '0.00', unpaidBreakHours: '5.00' }, exceptions: [], missingPunches: false, inProgress: false };
}

const punchRow = (i: number, type: PunchRow['type'], at: string, k: number): PunchRow => ({
  employee_id: emp(i),
  location_id: homeOf(i),
  type,
  occurred_at: at,
  device_id: 'clock-1',
  position: 'Cook',
  exceptions: [],
  pay_period_id: periodId(k),
});

async function chunked<T>(rows: T[], size: number, fn: (part: T[]) => Promise<unknown>): Promise<void> {
  for (let o = 0; o < rows.length; o += size) await fn(rows.slice(o, o + size));
}

/** Every case's seed: the store written once (the first case run writes it). */
async function seedStore(write: <T>(fn: (w: Work) => Promise<T>) => Promise<T>): Promise<void> {
  if ((await write((w) => w.em.count(PayPeriod, { id: periodId(0) }))) > 0) return;
  const now = new Date();
  const cur = current();
  await write(async (w) => {
    await chunked(
      Array.from({ length: EMPLOYEES }, (_, i) => ({
        id: emp(i),
        externalId: `EXT-${i}`,
        employeeNumber: `N-${pad(i, 5)}`,
        firstName: `First${i}`,
        lastName: `Last${i}`,
        status: 'active',
        homeLocationId: homeOf(i),
        locationIds: [homeOf(i)],
        departmentId: null,
        positions: ['Cook'],
        hireDate: '2024-01-01',
        terminationDate: null,
        userId: null,
        version: 1,
        updatedAt: now,
      })),
      1_000,
      (part) => w.em.insertMany(TimeEmployee, part),
    );
    await w.em.insertMany(
      PayPeriod,
      Array.from({ length: cur + 3 }, (_, k) => ({
        id: periodId(k),
        startDate: periodStart(k),
        endDate: addDays(periodStart(k), 13),
        lockedAt: lockedPeriod(k) ? now : null,
        lockedBy: lockedPeriod(k) ? { type: 'user', id: 'usr_bench' } : null,
        unlocks: [],
        version: 1,
        createdAt: now,
        updatedAt: now,
      })),
    );
  });
  for (let k = cur - SHEET_PERIODS + 1; k <= cur; k++) {
    await write((w) =>
      chunked(
        Array.from({ length: EMPLOYEES }, (_, i) => ({
          id: sheetId(k, i),
          employeeId: emp(i),
          payPeriodId: periodId(k),
          locationId: homeOf(i),
          status: sheetStatus(k),
          figures: figuresOf(k, i),
          missingPunches: false,
          calculatedAt: now,
          approvedAt: k < cur ? now : null,
          approvedBy: k < cur ? { type: 'user', id: 'usr_bench' } : null,
          version: 2,
          createdAt: now,
          updatedAt: now,
        })),
        500,
        (part) => w.em.insertMany(Timesheet, part as never),
      ),
    );
  }
  // three weeks of punches: the current period and the week before it
  const from = addDays(periodStart(cur), -7);
  for (let i0 = 0; i0 < EMPLOYEES; i0 += 200) {
    const rows: Array<Record<string, unknown>> = [];
    for (let i = i0; i < i0 + 200; i++) {
      for (let d = 0; d < 21; d++) {
        if (d % 7 >= 5) continue;
        const date = addDays(from, d);
        const k = Math.floor(dayIndex(date) / 14);
        const times: Array<[PunchRow['type'], string]> = [
          ['clock_in', '09:00'],
          ['break_start', '13:00'],
          ['break_end', '13:30'],
          ['clock_out', '17:30'],
        ];
        for (const [type, hm] of times) {
          rows.push({
            id: newId('punch'),
            source: SOURCE,
            externalId: `${emp(i)}-${date}-${type}`,
            contentHash: 'h',
            version: 1,
            employeeId: emp(i),
            locationId: homeOf(i),
            type,
            occurredAt: new Date(`${date}T${hm}:00.000Z`),
            deviceId: 'clock-1',
            position: 'Cook',
            exceptions: [],
            payPeriodId: periodId(k),
            original: null,
            corrections: [],
            createdAt: now,
            updatedAt: now,
          });
        }
      }
    }
    await write((w) => w.em.insertMany(Punch, rows as never));
  }
  await write(async (w) => {
    const hk = heldPeriod();
    // 1,000 punches sent late into a locked period (250 employees' last day of it); a tenth of them
    // change a punch of the period after, locked too
    await w.em.insertMany(
      HeldPunch,
      Array.from({ length: 1_000 }, (_, n) => {
        const i = Math.floor(n / 4);
        const type = (['clock_in', 'break_start', 'break_end', 'clock_out'] as const)[n % 4];
        const own = n % 10 === 0 ? hk + 1 : hk;
        const date = addDays(periodStart(own), 11);
        return {
          id: newId('punch'),
          source: SOURCE,
          externalId: `held-${emp(i)}-${type}`,
          contentHash: `h${n}`,
          row: punchRow(i, type, `${date}T${['09:00', '13:00', '13:30', '17:30'][n % 4]}:00.000Z`, own),
          payPeriodId: periodId(hk),
          reason: 'Held for review: a locked pay period.',
          version: 1,
          createdAt: now,
          updatedAt: now,
        };
      }),
    );
    // the background recalculation's backlog: 2,000 marks (the last two periods' first thousand)
    await w.em.insertMany(
      TimesheetMark,
      [cur - 1, cur].flatMap((k) => Array.from({ length: 1_000 }, (_, i) => ({ timesheetId: sheetId(k, i), markedAt: now }))) as never,
    );
    // a feed sending: 20 batches of 500 timesheets logged, not yet folded
    await w.em.insertMany(
      TimesheetTouch,
      Array.from({ length: 20 }, (_, b) => {
        const ids = Array.from({ length: 500 }, (_, n) => (b * 97 + n * 3) % EMPLOYEES);
        return { employeeIds: ids.map(emp), payPeriodIds: ids.map(() => periodId(cur)), touchedAt: now };
      }) as never,
    );
  });
}

const byKey = <T>(key: (x: T) => string) => (xs: T[]) => [...xs].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
const sortedJson = (xs: unknown) => JSON.stringify([...(xs as unknown[])].map((x) => JSON.stringify(x)).sort());
const sameSorted = (a: unknown, b: unknown) => sortedJson(a) === sortedJson(b);

/** The ORM form of the stored periods overlapping [from, to] and their neighbours: three finds. */
async function ormOverlapping(w: Work, from: string, to: string): Promise<PeriodRow[]> {
  const { em } = w;
  const fields = ['id', 'startDate', 'endDate', 'lockedAt'] as const;
  const inside = await em.find(PayPeriod, { endDate: { $gte: from }, startDate: { $lte: to } }, { fields });
  const before = await em.find(PayPeriod, { endDate: { $lt: from } }, { fields, orderBy: { endDate: 'desc' }, limit: 1 });
  const after = await em.find(PayPeriod, { startDate: { $gt: to } }, { fields, orderBy: { startDate: 'asc' }, limit: 1 });
  const all = new Map([...before, ...inside, ...after].map((p) => [p.id, { id: p.id, start: p.startDate, end: p.endDate, locked: p.lockedAt != null }]));
  return [...all.values()].sort((a, b) => (a.start < b.start ? -1 : 1));
}

function assignAll(dates: string[], stored: PeriodRow[]) {
  const out = new Map<string, PeriodRow>();
  for (const d of dates) {
    const p = stored.find((s) => s.start <= d && s.end >= d);
    if (p) out.set(d, p);
  }
  return out;
}

/** The touch pairs (employee, period) of a log, distinct. */
const pairsOf = (rows: Array<{ employeeIds: string[]; payPeriodIds: string[] }>) => {
  const out = new Map<string, { employeeId: string; payPeriodId: string }>();
  for (const r of rows) r.employeeIds.forEach((e, n) => out.set(`${r.payPeriodIds[n]}|${e}`, { employeeId: e, payPeriodId: r.payPeriodIds[n] }));
  return [...out.values()];
};

/** Marks timesheets through the ORM: a mark already there is deleted and inserted again (a new `seq` from the column's default). */
async function ormMark(w: Work, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  const unique = [...new Set(ids)].sort();
  await w.em.nativeDelete(TimesheetMark, { timesheetId: { $in: unique } });
  // a mark a concurrent change inserted meanwhile is fresh already: its time is brought up to now
  await w.em
    .createQueryBuilder(TimesheetMark)
    .insert(unique.map((timesheetId) => ({ timesheetId, markedAt: w.now })) as never)
    .onConflict('timesheetId')
    .merge(['markedAt'])
    .execute();
}

/** The marks, each marked now or before (a unit's now differs from another's). */
const marksNow = (w: Work) =>
  w.em.find(TimesheetMark, {}, { orderBy: { timesheetId: 'asc' }, fields: ['timesheetId', 'markedAt'] }).then((ms) => ms.map((m) => [m.timesheetId, m.markedAt.getTime() === w.now.getTime() ? 'now' : m.markedAt.toISOString()]));

/** 100 punches of a batch re-sent with other content (5 minutes later): 25 employees' first day of the period. */
let resentCache: Array<{ id: string; externalId: string; type: PunchRow['type']; occurredAt: Date; i: number }> | undefined;
async function resent(w: Work): Promise<StoredRecord<PunchRow>[]> {
  const date = periodStart(current()) <= today() ? periodStart(current()) : addDays(periodStart(current()), -7);
  resentCache ??= (await w.em.find(Punch, { externalId: { $in: Array.from({ length: 25 }, (_, i) => ['clock_in', 'break_start', 'break_end', 'clock_out'].map((t) => `${emp(i)}-${date}-${t}`)).flat() } }, { orderBy: { id: 'asc' } })).map((p) => ({
    id: p.id,
    externalId: p.externalId,
    type: p.type,
    occurredAt: p.occurredAt,
    i: Number(p.employeeId.slice(-5)),
  }));
  return resentCache.map((p) => ({
    id: p.id,
    externalId: p.externalId,
    status: 'updated' as const,
    row: punchRow(p.i, p.type, new Date(p.occurredAt.getTime() + 300_000).toISOString(), current()),
    version: 2,
    before: { type: p.type, occurred_at: p.occurredAt },
  }));
}
const historyOf = async (w: Work) =>
  (await w.em.find(Punch, { id: { $in: (resentCache ?? []).map((p) => p.id) } }, { fields: ['id', 'original', 'corrections'], orderBy: { id: 'asc' } })).map((p) => [
    p.id,
    p.original,
    p.corrections.map((c) => ({ ...c, at: c.at === w.now.toISOString() ? 'now' : c.at })),
  ]);

const heldType = (n: number) => (['clock_in', 'break_start', 'break_end', 'clock_out'] as const)[n % 4];
const heldExternalId = (n: number) => `held-${emp(Math.floor(n / 4))}-${heldType(n)}`;

/** A batch of 1,000 punches stored: 100 of them twins of held ones. */
const twins = (): StoredRecord<PunchRow>[] =>
  Array.from({ length: 1_000 }, (_, n) => ({
    id: `pch_twin${n}`,
    externalId: n < 100 ? heldExternalId(n) : `new-${n}`,
    status: 'created' as const,
    row: punchRow(n % EMPLOYEES, 'clock_in', new Date().toISOString(), current()),
    version: 1,
    before: null,
  }));

/** 1,000 punches into the locked period: 200 held already the same, 100 held with other content, 700 new. */
const toHold = () =>
  Array.from({ length: 1_000 }, (_, n) => {
    const i = Math.floor(n / 4);
    const date = addDays(periodStart(heldPeriod()), 11);
    const row = punchRow(i, heldType(n), `${date}T${['09:00', '13:00', '13:30', '17:30'][n % 4]}:00.000Z`, heldPeriod());
    if (n < 200) return { index: n, externalId: heldExternalId(n), row, hash: `h${n}` };
    if (n < 300) return { index: n, externalId: heldExternalId(n), row, hash: `x${n}` };
    return { index: n, externalId: `late-${n}`, row, hash: `l${n}` };
  });

/** A batch of 1,000 punches: 2 each for 300 open timesheets, 100 approved ones, 100 not there yet. */
const batchTouches = (): Touch[] =>
  [...Array.from({ length: 300 }, (_, n) => [1500 + n, current()]), ...Array.from({ length: 100 }, (_, n) => [1800 + n, current() - 1]), ...Array.from({ length: 100 }, (_, n) => [1900 + n, current() + 1])].flatMap(([i, k]) =>
    [0, 1].map(() => ({ employeeId: emp(i), payPeriodId: periodId(k), locationId: homeOf(i) })),
  );
async function touchedState(w: Work) {
  const sheets = await w.em.find(Timesheet, { employeeId: { $in: Array.from({ length: 500 }, (_, n) => emp(1500 + n)) }, payPeriodId: { $in: [periodId(current() - 1), periodId(current()), periodId(current() + 1)] } }, { orderBy: { employeeId: 'asc', payPeriodId: 'asc' } });
  const log = await w.em.find(TimesheetTouch, {}, { orderBy: { seq: 'asc' } });
  return { sheets: sheets.map((t) => [t.employeeId, t.payPeriodId, t.status, t.version, t.approvedAt]), log: log.map((l) => sortedJson(l.employeeIds.map((e, n) => `${l.payPeriodIds[n]}|${e}`))) };
}

/** A page of 50 timesheets of the current period (some marked, some touched). */
const pageOfSheets = () => Array.from({ length: 50 }, (_, n) => ({ id: sheetId(current(), 960 + n), employeeId: emp(960 + n), payPeriodId: periodId(current()) }));
const sheetsOf = (k: number) => Array.from({ length: EMPLOYEES }, (_, i) => sheetId(k, i));
const fifty = () => Array.from({ length: 50 }, (_, n) => emp(n * 40));
const recalcIds = () => Array.from({ length: 200 }, (_, i) => sheetId(current(), i));
const figuresNow = async (w: Work) =>
  (await w.em.find(Timesheet, { id: { $in: recalcIds() } }, { orderBy: { id: 'asc' } })).map((t) => [t.id, t.figures, t.missingPunches, t.version, ...[t.calculatedAt, t.updatedAt].map((d) => (d?.getTime() === w.now.getTime() ? 'now' : d))]);

/** recalculateTimesheets through the ORM: the timesheets locked, their periods, the punches, the figures flushed. */
async function ormRecalculate(w: Work, ids: string[]): Promise<number> {
  const { em, now } = w;
  const sheets = await em.find(Timesheet, { id: { $in: ids }, status: { $ne: 'locked' } }, { orderBy: { id: 'asc' }, lockMode: LockMode.PESSIMISTIC_WRITE });
  if (sheets.length === 0) return 0;
  const periods = new Map((await em.find(PayPeriod, { id: { $in: [...new Set(sheets.map((s) => s.payPeriodId))] } }, { fields: ['id', 'startDate', 'endDate'] })).map((p) => [p.id, p]));
  const locations = await resolveLocations(w, sheets.map((s) => ({ locationId: s.locationId })));
  const rules = await effectiveRules(w, sheets.map((s) => s.locationId));
  const windows = sheets.map((s) => {
    const timezone = locations.byId.get(s.locationId)?.timezone ?? 'UTC';
    const p = periods.get(s.payPeriodId)!;
    const bounds = periodBounds({ start: p.startDate, end: p.endDate }, timezone);
    return { s, p, timezone, from: new Date(bounds.from.getTime() - 7 * 86_400_000), to: new Date(bounds.to.getTime() + 86_400_000) };
  });
  const from = new Date(Math.min(...windows.map((x) => x.from.getTime())));
  const to = new Date(Math.max(...windows.map((x) => x.to.getTime())));
  const punches = await em.find(
    Punch,
    { employeeId: { $in: [...new Set(sheets.map((s) => s.employeeId))] }, occurredAt: { $gte: from, $lt: to } },
    { fields: ['id', 'employeeId', 'type', 'occurredAt', 'locationId', 'position'], orderBy: { employeeId: 'asc', occurredAt: 'asc', id: 'asc' } },
  );
  const byEmployee = new Map<string, typeof punches>();
  for (const p of punches) byEmployee.set(p.employeeId, [...(byEmployee.get(p.employeeId) ?? []), p]);
  for (const x of windows) {
    const own = (byEmployee.get(x.s.employeeId) ?? []).filter((p) => p.occurredAt >= x.from && p.occurredAt < x.to);
    const r = rules.get(x.s.locationId)!;
    const figures = calculateTimesheet({
      punches: own.map((p) => ({ id: p.id, type: p.type, occurredAt: p.occurredAt.toISOString(), locationId: p.locationId, position: p.position ?? null })),
      period: { start: x.p.startDate, end: x.p.endDate },
      timezone: x.timezone,
      weekStart: settings.weekStart,
      overtime: r.overtime,
      breaks: r.breaks,
      now,
    });
    const changed = !isDeepStrictEqual(JSON.parse(JSON.stringify(x.s.figures ?? null)), JSON.parse(JSON.stringify(figures)));
    x.s.figures = figures;
    x.s.missingPunches = figures.missingPunches;
    x.s.calculatedAt = now;
    if (changed) {
      x.s.version += 1;
      x.s.updatedAt = now;
    }
  }
  await em.flush();
  return sheets.length;
}

export const timeCases: SqlCase[] = [
  {
    name: 'time.timesheet-counts',
    what: "each period's timesheets by status and held punches (a page of 50 periods, 26,000 timesheets)",
    service: timeService,
    seed: seedStore,
    raw: async (w) => {
      const ids = Array.from({ length: 50 }, (_, n) => periodId(current() + 2 - n));
      const { counts, held } = await timesheetCounts(w, ids);
      return { counts: [...counts], held: [...held].sort() };
    },
    async orm(w) {
      const ids = Array.from({ length: 50 }, (_, n) => periodId(current() + 2 - n));
      const counts = new Map(ids.map((id) => [id, { open: 0, approved: 0, rejected: 0, locked: 0 }]));
      // a count by group needs a raw fragment (count(*)) in the query builder: the ORM's own form loads the statuses
      const rows = await w.em.find(Timesheet, { payPeriodId: { $in: ids } }, { fields: ['id', 'payPeriodId', 'status'] });
      for (const r of rows) counts.get(r.payPeriodId)![r.status] += 1;
      const held = new Map<string, number>();
      for (const h of await w.em.find(HeldPunch, { payPeriodId: { $in: ids } }, { fields: ['id', 'payPeriodId'] })) held.set(h.payPeriodId, (held.get(h.payPeriodId) ?? 0) + 1);
      return { counts: [...counts], held: [...held].sort() };
    },
  },
  {
    name: 'time.reapprove-timesheets',
    what: "an unlocked period's 2,000 locked timesheets back to approved",
    service: timeService,
    seed: seedStore,
    raw: async (w) => {
      await reapproveTimesheets(w, periodId(current() - 2), w.now);
      return w.em.count(Timesheet, { payPeriodId: periodId(current() - 2), status: 'approved' });
    },
    async orm(w) {
      const sheets = await w.em.find(Timesheet, { payPeriodId: periodId(current() - 2), status: 'locked' });
      for (const s of sheets) {
        s.status = 'approved';
        s.version += 1;
        s.updatedAt = w.now;
      }
      await w.em.flush();
      return w.em.count(Timesheet, { payPeriodId: periodId(current() - 2), status: 'approved' });
    },
  },
  {
    name: 'time.payroll-people',
    what: "a payroll export's 2,000 employees (number, external id, name)",
    service: timeService,
    seed: seedStore,
    raw: async (w) => byKey((e: { id: string }) => e.id)(await payrollPeople(w, Array.from({ length: EMPLOYEES }, (_, i) => emp(i)))),
    async orm(w) {
      const rows = await w.em.find(TimeEmployee, { id: { $in: Array.from({ length: EMPLOYEES }, (_, i) => emp(i)) } }, { fields: ['id', 'employeeNumber', 'externalId', 'firstName', 'lastName'], orderBy: { id: 'asc' } });
      return rows.map((e) => ({ id: e.id, employee_number: e.employeeNumber ?? null, external_id: e.externalId ?? null, first_name: e.firstName, last_name: e.lastName }));
    },
  },
  {
    name: 'time.periods-by-id',
    what: 'the periods of a page of timesheets (3 ids)',
    service: timeService,
    seed: seedStore,
    raw: async (w) => [...(await periodsById(w, [periodId(current()), periodId(current() - 1), periodId(current() - 2)]))].sort(),
    async orm(w) {
      const rows = await w.em.find(PayPeriod, { id: { $in: [periodId(current()), periodId(current() - 1), periodId(current() - 2)] } }, { fields: ['id', 'startDate', 'endDate', 'lockedAt'] });
      return rows.map((p) => [p.id, { id: p.id, start: p.startDate, end: p.endDate, locked: p.lockedAt != null }]).sort();
    },
  },
  {
    name: 'time.stored-overlapping',
    what: "the stored periods of a batch's dates (2 days) with their neighbours",
    service: timeService,
    seed: seedStore,
    raw: async (w) => [...(await periodsOfDates(w, [addDays(today(), -1), today()], async () => settings))].sort(),
    async orm(w) {
      const dates = [addDays(today(), -1), today()];
      return [...assignAll(dates, await ormOverlapping(w, dates[0], dates[1]))].sort();
    },
  },
  {
    name: 'time.locked-period-ids',
    what: "which of a batch's periods (2) are locked",
    service: timeService,
    seed: seedStore,
    raw: async (w) => [...(await lockedPeriodIds(w, [periodId(current()), periodId(heldPeriod()), null]))],
    async orm(w) {
      const rows = await w.em.find(PayPeriod, { id: { $in: [periodId(current()), periodId(heldPeriod())] }, lockedAt: { $ne: null } }, { fields: ['id'] });
      return rows.map((r) => r.id);
    },
  },
  {
    name: 'time.resend-history',
    what: 'history entries of 100 punches of a batch re-sent with other content',
    service: timeService,
    seed: seedStore,
    raw: async (w) => {
      await recordResends(w, await resent(w), systemPrincipal);
      return historyOf(w);
    },
    async orm(w) {
      const updated = await resent(w);
      const punches = new Map((await w.em.find(Punch, { id: { $in: updated.map((u) => u.id) } })).map((p) => [p.id, p]));
      const by = { type: 'system', id: systemPrincipal.id };
      for (const u of updated) {
        const b = u.before as { type: PunchRow['type']; occurred_at: Date | string };
        const before = { type: b.type, occurredAt: new Date(b.occurred_at).toISOString() };
        const p = punches.get(u.id);
        if (!p) continue;
        p.original ??= before;
        p.corrections = [...p.corrections, { at: w.now.toISOString(), by, reason: 'Sent again by the timeclock with other content.', before, after: { type: u.row.type, occurredAt: new Date(u.row.occurred_at).toISOString() }, via: 'resend' }];
      }
      await w.em.flush();
      return historyOf(w);
    },
  },
  {
    name: 'time.held-twins',
    what: 'the held twins of a batch of 1,000 punches stored now dropped',
    service: timeService,
    seed: seedStore,
    raw: async (w) => {
      await dropHeldTwins(w, SOURCE, twins());
      return w.em.count(HeldPunch, {});
    },
    async orm(w) {
      const written = twins();
      await w.em.nativeDelete(HeldPunch, { source: SOURCE, externalId: { $in: written.map((x) => x.externalId) } });
      return w.em.count(HeldPunch, {});
    },
  },
  {
    name: 'time.hold-punches',
    what: 'a batch of 1,000 punches into a locked period held (700 new, 100 changed, 200 the same)',
    service: timeService,
    seed: seedStore,
    raw: async (w) => holdPunches(w, SOURCE, toHold(), new Map()),
    async orm(w) {
      const held = toHold();
      const { em, now } = w;
      const existing = new Map((await em.find(HeldPunch, { source: SOURCE, externalId: { $in: held.map((h) => h.externalId) } }, { lockMode: LockMode.PESSIMISTIC_WRITE })).map((h) => [h.externalId, h]));
      const out = held.map((h) => {
        const payPeriodId = h.row.pay_period_id!;
        const reason = 'Held for review: a locked pay period.';
        const e = existing.get(h.externalId);
        if (!e) {
          const id = newId('punch');
          em.create(HeldPunch, { id, source: SOURCE, externalId: h.externalId, contentHash: h.hash, row: h.row, payPeriodId, reason, version: 1, createdAt: now, updatedAt: now });
          return { status: 'created' as const, id };
        }
        if (e.contentHash === h.hash) return { status: 'unchanged' as const, id: e.id };
        Object.assign(e, { contentHash: h.hash, row: h.row, payPeriodId, reason, version: e.version + 1, updatedAt: now });
        return { status: 'updated' as const, id: e.id };
      });
      await em.flush();
      return out;
    },
    same: (a, b) => {
      const norm = (xs: unknown) => (xs as Array<{ status: string; id: string }>).map((x) => (x.status === 'created' ? 'created' : `${x.status}:${x.id}`));
      return JSON.stringify(norm(a)) === JSON.stringify(norm(b));
    },
  },
  {
    name: 'time.take-held',
    what: "an unlocked period's 1,000 held punches taken (a tenth moved to the next locked period)",
    service: timeService,
    seed: seedStore,
    raw: async (w) => {
      const held = await takeHeldPunches(w, periodId(heldPeriod()));
      return { held: held.map((h) => [h.source, h.external_id, h.content_hash, h.row]), left: await w.em.count(HeldPunch, { payPeriodId: periodId(heldPeriod() + 1) }) };
    },
    async orm(w) {
      const id = periodId(heldPeriod());
      const held = await w.em.find(HeldPunch, { payPeriodId: id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      const own = [...new Set(held.map((h) => h.row.pay_period_id).filter((p): p is string => p !== null && p !== id))];
      const locked = new Set((await w.em.find(PayPeriod, { id: { $in: own }, lockedAt: { $ne: null } }, { fields: ['id'] })).map((p) => p.id));
      const taken: HeldPunch[] = [];
      for (const h of held) {
        if (h.row.pay_period_id && locked.has(h.row.pay_period_id)) {
          h.payPeriodId = h.row.pay_period_id;
          h.updatedAt = w.now;
        } else taken.push(h);
      }
      await w.em.flush();
      await w.em.nativeDelete(HeldPunch, { id: { $in: taken.map((h) => h.id) } });
      return { held: taken.map((h) => [h.source, h.externalId, h.contentHash, h.row]), left: await w.em.count(HeldPunch, { payPeriodId: periodId(heldPeriod() + 1) }) };
    },
    same: (a, b) => {
      const x = a as { held: unknown[]; left: number };
      const y = b as { held: unknown[]; left: number };
      return x.left === y.left && sameSorted(x.held, y.held);
    },
  },
  {
    name: 'time.mark-unlocked',
    what: "a change of the company's rules marks its 6,000 unlocked timesheets (2,000 marked already)",
    service: timeService,
    seed: seedStore,
    raw: async (w) => {
      await markUnlockedTimesheets(w, null);
      return marksNow(w);
    },
    async orm(w) {
      const ids = (await w.em.find(Timesheet, { status: { $ne: 'locked' } }, { fields: ['id'], orderBy: { id: 'asc' } })).map((t) => t.id);
      await ormMark(w, ids);
      return marksNow(w);
    },
  },
  {
    name: 'time.mark-timesheets',
    what: 'a batch of 1,000 punches touches 500 timesheets (100 new, 100 approved reopened)',
    service: timeService,
    seed: seedStore,
    raw: async (w) => {
      await markTimesheets(w, batchTouches());
      return touchedState(w);
    },
    async orm(w) {
      const touches = [...new Map(batchTouches().map((t) => [`${t.payPeriodId}|${t.employeeId}`, t])).values()];
      const { em, now } = w;
      const found = await em.find(Timesheet, { payPeriodId: { $in: [...new Set(touches.map((t) => t.payPeriodId))] }, employeeId: { $in: [...new Set(touches.map((t) => t.employeeId))] } });
      const have = new Map(found.map((t) => [`${t.payPeriodId}|${t.employeeId}`, t]));
      const missing = touches.filter((t) => !have.has(`${t.payPeriodId}|${t.employeeId}`)).sort((a, b) => (a.payPeriodId + a.employeeId < b.payPeriodId + b.employeeId ? -1 : 1));
      if (missing.length > 0) {
        await em
          .createQueryBuilder(Timesheet)
          .insert(missing.map((t) => ({ id: newId('timesheet'), employeeId: t.employeeId, payPeriodId: t.payPeriodId, locationId: t.locationId, status: 'open' as const, missingPunches: false, version: 1, createdAt: now, updatedAt: now })))
          .onConflict(['payPeriodId', 'employeeId'])
          .ignore()
          .execute();
      }
      for (const t of touches) {
        const s = have.get(`${t.payPeriodId}|${t.employeeId}`);
        if (s && (s.status === 'approved' || s.status === 'rejected')) Object.assign(s, { status: 'open', approvedAt: null, approvedBy: null, version: s.version + 1, updatedAt: now });
      }
      em.create(TimesheetTouch, { employeeIds: touches.map((t) => t.employeeId), payPeriodIds: touches.map((t) => t.payPeriodId), touchedAt: now } as never);
      await em.flush();
      return touchedState(w);
    },
  },
  {
    name: 'time.fold-touches',
    what: 'the touch log folded into the marks (20 rows of 500 timesheets, 2,000 marks)',
    service: timeService,
    seed: seedStore,
    raw: async (w) => [await foldTouchRows(w), await marksNow(w)],
    async orm(w) {
      const taken = await w.em.find(TimesheetTouch, {}, { orderBy: { seq: 'asc' }, limit: 50, lockMode: LockMode.PESSIMISTIC_WRITE });
      await w.em.nativeDelete(TimesheetTouch, { seq: { $in: taken.map((t) => t.seq) } });
      const pairs = pairsOf(taken);
      const sheets = await w.em.find(Timesheet, { payPeriodId: { $in: [...new Set(pairs.map((p) => p.payPeriodId))] }, employeeId: { $in: [...new Set(pairs.map((p) => p.employeeId))] }, status: { $ne: 'locked' } }, { fields: ['id', 'employeeId', 'payPeriodId'] });
      const wanted = new Set(pairs.map((p) => `${p.payPeriodId}|${p.employeeId}`));
      await ormMark(w, sheets.filter((t) => wanted.has(`${t.payPeriodId}|${t.employeeId}`)).map((t) => t.id));
      return [taken.length, await marksNow(w)];
    },
  },
  {
    name: 'time.touches-pending',
    what: 'whether the touch log holds rows (20)',
    service: timeService,
    seed: seedStore,
    raw: (w) => touchesPending(w),
    orm: async (w) => (await w.em.findOne(TimesheetTouch, { seq: { $ne: null } }, { fields: ['seq'] })) !== null,
  },
  {
    name: 'time.pending-ids',
    what: 'which of a page of 50 timesheets wait to be recalculated (2,000 marks, 10,000 logged touches)',
    service: timeService,
    seed: seedStore,
    raw: async (w) => [...(await pendingTimesheetIds(w, pageOfSheets()))].sort(),
    async orm(w) {
      const sheets = pageOfSheets();
      const marked = await w.em.find(TimesheetMark, { timesheetId: { $in: sheets.map((s) => s.id) } }, { fields: ['timesheetId'] });
      const touched = new Set(pairsOf(await w.em.find(TimesheetTouch, {}, { fields: ['seq', 'employeeIds', 'payPeriodIds'] })).map((p) => `${p.payPeriodId}|${p.employeeId}`));
      const out = new Set(marked.map((m) => m.timesheetId));
      for (const s of sheets) if (touched.has(`${s.payPeriodId}|${s.employeeId}`)) out.add(s.id);
      return [...out].sort();
    },
  },
  {
    name: 'time.drop-marks',
    what: "the pass's 200 marks dropped where their seq is unchanged",
    service: timeService,
    seed: seedStore,
    raw: async (w) => {
      await dropMarks(w, await marksToRecalculate(w, 200));
      return w.em.count(TimesheetMark, {});
    },
    async orm(w) {
      const marks = await marksToRecalculate(w, 200);
      await w.em.nativeDelete(TimesheetMark, { $or: marks.map((m) => ({ timesheetId: m.timesheet_id, seq: m.seq })) });
      return w.em.count(TimesheetMark, {});
    },
  },
  {
    name: 'time.take-marks',
    what: "the marks of a period's 2,000 timesheets taken as it is locked (1,000 marked)",
    service: timeService,
    seed: seedStore,
    raw: async (w) => (await takeMarks(w, sheetsOf(current() - 1))).sort(),
    async orm(w) {
      const ids = sheetsOf(current() - 1);
      const marks = await w.em.find(TimesheetMark, { timesheetId: { $in: ids } }, { fields: ['timesheetId'], lockMode: LockMode.PESSIMISTIC_WRITE });
      await w.em.nativeDelete(TimesheetMark, { timesheetId: { $in: marks.map((m) => m.timesheetId) } });
      return marks.map((m) => m.timesheetId).sort();
    },
  },
  {
    name: 'time.worked-days',
    what: "hours worked a day of 50 employees' timesheets (13 periods each), the accrual's ledger",
    service: timeService,
    seed: seedStore,
    raw: async (w) => [...(await workedDays(w, fifty(), today()))],
    async orm(w) {
      const sheets = await w.em.find(Timesheet, { employeeId: { $in: fifty() }, figures: { $ne: null } }, { fields: ['id', 'employeeId', 'figures'] });
      const rows = sheets.flatMap((t) => (t.figures?.days ?? []).filter((d) => d.date <= today() && Number(d.workedHours) > 0).map((d) => ({ employeeId: t.employeeId, date: d.date, hours: d.workedHours })));
      rows.sort((a, b) => (a.employeeId < b.employeeId ? -1 : a.employeeId > b.employeeId ? 1 : a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
      const out = new Map<string, Array<{ kind: 'worked'; date: string; hours: string }>>();
      for (const r of rows) {
        const own = out.get(r.employeeId) ?? [];
        own.push({ kind: 'worked', date: r.date, hours: r.hours });
        out.set(r.employeeId, own);
      }
      return [...out];
    },
  },
  {
    name: 'time.recalculate',
    what: "the background pass's 200 timesheets recalculated from three weeks of punches",
    service: timeService,
    seed: seedStore,
    raw: async (w) => {
      await recalculateTimesheets(w, recalcIds(), settings);
      return figuresNow(w);
    },
    async orm(w) {
      await ormRecalculate(w, recalcIds());
      return figuresNow(w);
    },
  },
];
