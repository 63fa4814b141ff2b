import { LockMode } from '@mikro-orm/core';
import {
  assertLocationInReach,
  ApiError,
  changedFields,
  Conflict,
  findPage,
  findPlain,
  newId,
  NotFound,
  resolveLocations,
  ValidationError,
  type EntityManager,
  type PageRequest,
  type ReachSet,
  type Work,
} from '@bop/shared';
import { StaffingRule } from './entities';
import { localHours, scheduledIn, staffNeeded } from './needs';
import { forecastFor } from '../forecasts/store';
import { Shift } from '../shifts/entities';

const iso = (d: Date) => new Date(d).toISOString();
export const ruleDto = (r: StaffingRule) => ({
  id: r.id,
  locationId: r.locationId,
  position: r.position,
  driver: r.driver ?? null,
  perStaff: r.perStaff == null ? null : Number(r.perStaff),
  minStaff: r.minStaff,
  maxStaff: r.maxStaff ?? null,
  weekdays: (r.weekdays ?? null) as Array<'monday' | 'tuesday' | 'wednesday' | 'thursday' | 'friday' | 'saturday' | 'sunday'> | null,
  fromTime: r.fromTime,
  toTime: r.toTime,
  status: r.status,
  version: r.version,
  createdAt: iso(r.createdAt),
  updatedAt: iso(r.updatedAt),
});

export interface RuleFields {
  position: string;
  driver?: string | null;
  perStaff?: number | null;
  minStaff: number;
  maxStaff?: number | null;
  weekdays?: string[] | null;
  fromTime: string;
  toTime: string;
}

async function knownLocation(w: Work, locationId: string, reach: ReachSet): Promise<string> {
  assertLocationInReach(reach, locationId);
  const loc = (await resolveLocations(w, [{ locationId }])).byId.get(locationId);
  if (!loc) throw new ValidationError([{ path: 'locationId', message: `No location ${locationId}.` }]);
  return loc.timezone;
}

type RuleEvent = 'staffing_rule.created' | 'staffing_rule.updated' | 'staffing_rule.archived';

/** A rule's public change event (the project's own types): data.object the rule as the API returns it. Answers the rule. */
function recordRule(w: Work, type: RuleEvent, r: StaffingRule, before?: ReturnType<typeof ruleDto>) {
  const object = ruleDto(r);
  w.emit({ type, aggregateType: 'staffing_rule', aggregateId: r.id, locationId: r.locationId, object, ...(before ? { previous: changedFields(before, object) } : {}) });
  return object;
}

export async function createRule(w: Work, body: RuleFields & { locationId: string }) {
  await knownLocation(w, body.locationId, w.reach());
  const at = w.now;
  const r = w.em.create(StaffingRule, {
    id: newId('staffingRule'),
    locationId: body.locationId,
    position: body.position,
    driver: body.driver ?? null,
    perStaff: body.perStaff ?? null,
    minStaff: body.minStaff,
    maxStaff: body.maxStaff ?? null,
    weekdays: body.weekdays ?? null,
    fromTime: body.fromTime,
    toTime: body.toTime,
    status: 'active',
    version: 1,
    createdAt: at,
    updatedAt: at,
  });
  await w.em.flush();
  return recordRule(w, 'staffing_rule.created', r);
}

async function ruleFor(em: EntityManager, id: string, reach: ReachSet, lock = false): Promise<StaffingRule> {
  const r = await em.findOne(StaffingRule, { id }, lock ? { lockMode: LockMode.PESSIMISTIC_WRITE } : {});
  if (!r) throw new NotFound('staffing rule', id);
  assertLocationInReach(reach, r.locationId);
  return r;
}

export const getRule = async (w: Work, id: string) => ruleDto(await ruleFor(w.em, id, w.reach()));

/** `PATCH /staffing-rules/{id}` (If-Match honoured); the rule as a whole must still hold together. */
export async function changeRule(w: Work, id: string, patch: Partial<RuleFields>) {
  const r = await ruleFor(w.em, id, w.reach(), true);
  if (r.status === 'archived') throw new Conflict(`Staffing rule ${id} is archived; create a new one.`);
  w.checkVersion(r.version);
  const next = { ...ruleDto(r), ...Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)) } as ReturnType<typeof ruleDto>;
  if ((next.driver === null) !== (next.perStaff === null)) throw new ValidationError([{ path: next.driver === null ? 'driver' : 'perStaff', message: 'A ratio needs both driver and perStaff.' }]);
  if (next.maxStaff !== null && next.maxStaff < next.minStaff) throw new ValidationError([{ path: 'maxStaff', message: 'Must not be below minStaff.' }]);
  if (next.toTime <= next.fromTime) throw new ValidationError([{ path: 'toTime', message: 'Must be after fromTime on the same day.' }]);
  const fields = ['position', 'driver', 'perStaff', 'minStaff', 'maxStaff', 'weekdays', 'fromTime', 'toTime'] as const;
  const changed = fields.filter((f) => JSON.stringify(next[f]) !== JSON.stringify(ruleDto(r)[f]));
  if (changed.length === 0) return ruleDto(r);
  const before = ruleDto(r);
  for (const f of changed) Object.assign(r, { [f]: next[f] });
  r.version += 1;
  r.updatedAt = w.now;
  await w.em.flush();
  return recordRule(w, 'staffing_rule.updated', r, before);
}

export async function archiveRule(w: Work, id: string) {
  const r = await ruleFor(w.em, id, w.reach(), true);
  if (r.status === 'archived') return ruleDto(r);
  const before = ruleDto(r);
  r.status = 'archived';
  r.version += 1;
  r.updatedAt = w.now;
  await w.em.flush();
  return recordRule(w, 'staffing_rule.archived', r, before);
}

export async function listRules(w: Work, f: { inLocations?: string | { $in: string[] }; status?: string }, page: PageRequest & { updatedSince?: string }) {
  const rows = await findPage(w.em, StaffingRule, [f.inLocations && { locationId: f.inLocations }, { status: (f.status ?? 'active') as 'active' }], page);
  return { ...rows, data: rows.data.map(ruleDto) };
}

const dec = (n: number) => (Math.round(n * 100) / 100).toFixed(2);

/**
 * `GET /staffing-needs`: staff needed per position and local hour from the forecasts of the rules'
 * drivers, against the shifts scheduled (drafts and published) for that position.
 */
export async function staffingNeeds(w: Work, q: { locationId: string; from: string; to: string }, reach: ReachSet, opts: { ignoreShiftIds?: ReadonlySet<string> } = {}) {
  const { em } = w;
  const zone = await knownLocation(w, q.locationId, reach);
  const rules = await findPlain(em, StaffingRule, { locationId: q.locationId, status: 'active' });
  const notes: string[] = [];
  const forecasts = new Map<string, Map<number, number>>();
  for (const driver of [...new Set(rules.map((r) => r.driver).filter((d): d is string => !!d))].sort()) {
    try {
      const f = await forecastFor(w, { locationId: q.locationId, driver, from: q.from, to: q.to, bucket: '1h' }, { everyone: true });
      forecasts.set(driver, new Map(f.buckets.map((b) => [Date.parse(b.start), Number(b.value)])));
    } catch (err) {
      if (!(err instanceof ApiError) || err.code !== 'validation_error') throw err;
      notes.push(`${driver}: ${err.errors?.[0]?.message ?? err.detail} Its rules count their minimums only.`);
    }
  }
  const hours = localHours(q.from, q.to, zone);
  const needs = staffNeeded(hours, rules.map((r) => ({ ...r, perStaff: r.perStaff == null ? null : Number(r.perStaff) })), (driver, at) => forecasts.get(driver)?.get(at));
  const first = hours[0].start;
  const last = hours[hours.length - 1].end;
  const shifts = await findPlain(em, Shift, { locationId: q.locationId, status: { $ne: 'archived' }, start: { $lt: new Date(last) }, end: { $gt: new Date(first) } });
  const byPosition = new Map<string, Array<{ start: number; end: number }>>();
  for (const s of shifts) {
    if (opts.ignoreShiftIds?.has(s.id)) continue;
    const k = s.position.normalize('NFC').toLowerCase();
    byPosition.set(k, [...(byPosition.get(k) ?? []), { start: new Date(s.start).getTime(), end: new Date(s.end).getTime() }]);
  }
  const totals = new Map<string, { needed: number; scheduled: number; short: number }>();
  const rows = needs.map((n) => {
    const scheduled = scheduledIn(n.start, n.end, byPosition.get(n.position.normalize('NFC').toLowerCase()) ?? []);
    const t = totals.get(n.position) ?? { needed: 0, scheduled: 0, short: 0 };
    t.needed += n.needed;
    t.scheduled += scheduled;
    t.short += Math.max(0, n.needed - scheduled);
    totals.set(n.position, t);
    return {
      start: new Date(n.start).toISOString(),
      end: new Date(n.end).toISOString(),
      position: n.position,
      needed: n.needed,
      scheduled: dec(scheduled),
      gap: dec(n.needed - scheduled),
      drivers: Object.fromEntries(Object.entries(n.drivers).map(([k, v]) => [k, dec(v)])),
    };
  });
  return {
    locationId: q.locationId,
    timezone: zone,
    from: q.from,
    to: q.to,
    hours: rows,
    positions: [...totals].map(([position, t]) => ({ position, neededHours: t.needed, scheduledHours: dec(t.scheduled), shortHours: dec(t.short) })),
    notes,
  };
}
