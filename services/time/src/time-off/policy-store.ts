import { LockMode } from '@mikro-orm/core';
import {
  assertCompanyWide,
  changedFields,
  Conflict,
  findPage,
  mapPage,
  newId,
  NotFound,
  resolveLocations,
  ValidationError,
  type PageRequest,
  type Work,
} from '@bop/shared';
import { localDateOf } from '../pay-periods/calendar';
import { previousDay } from '../pay-periods/store';
import { TimeOffPolicy, TimeOffType, type PolicyEligibility, type PolicyTerms } from './entities';
import { currentTerms, hoursText, policyDto, typeDto } from './dto';
import type { TermsVersion } from './policy-versions';

/** `GET /time-off/types`: company-wide, any reach reads them. */
export async function listTypes(w: Work, page: PageRequest & { updatedSince?: string }) {
  return mapPage(await findPage(w.em, TimeOffType, [], page), typeDto);
}

const duplicateName = (name: string) => new Conflict(`A time-off type named ${name} exists (names are unique regardless of case).`);

/** `POST /time-off/types`' 409 when a concurrent create of the same name wins the race twice (the run again names it: `duplicateName`). */
export const typeNameConflict = () => new Conflict('A time-off type of that name exists (names are unique regardless of case).');

/** `POST /time-off/types`: a name unique regardless of case (409 `conflict`: the route's conflict when a concurrent create wins the race). */
export async function createType(w: Work, body: { name: string; paid: boolean; allowNegativeBalance: boolean; hoursPerDay: string }) {
  assertCompanyWide(w.reach(), 'Time-off types');
  const { em } = w;
  const same = await em
    .createQueryBuilder(TimeOffType)
    .select('id')
    // as the unique index on lower(name); $ilike would read % and _ as wildcards
    .where('lower(name) = lower(?)', [body.name])
    .execute('all');
  if (same.length > 0) throw duplicateName(body.name);
  const at = w.now;
  const t = em.create(TimeOffType, { id: newId('timeOffType'), name: body.name, paid: body.paid, allowNegativeBalance: body.allowNegativeBalance, hoursPerDay: hoursText(body.hoursPerDay), version: 1, createdAt: at, updatedAt: at });
  await em.flush();
  const object = typeDto(t);
  w.emit({ type: 'time_off_type.created', aggregateType: 'time_off_type', aggregateId: t.id, locationId: null, object });
  return object;
}

/** `GET /time-off/policies`: company-wide, any reach reads them. */
export async function listPolicies(w: Work, f: { typeId?: string }, page: PageRequest & { updatedSince?: string }) {
  return mapPage(await findPage(w.em, TimeOffPolicy, [f.typeId && { typeId: f.typeId }], page), policyDto);
}

/** Accrual figures as plain decimals ("1.50" → "1.5"), so an unchanged PATCH is seen as unchanged. */
function plainAccrual(a: PolicyTerms['accrual']): PolicyTerms['accrual'] {
  if (a.kind === 'per_hour_worked') return { kind: a.kind, hours: hoursText(a.hours), per: hoursText(a.per) };
  if (a.kind === 'per_pay_period') return { kind: a.kind, hours: hoursText(a.hours) };
  return { kind: 'none' };
}
const plainHours = (h: string | null) => (h === null ? null : hoursText(h));

/** Field errors for eligibility locations the organization does not know. */
async function eligibilityErrors(w: Work, e: PolicyEligibility) {
  const known = await resolveLocations(w, e.locationIds.map((locationId) => ({ locationId })));
  return e.locationIds.flatMap((l, i) => (known.byId.has(l) ? [] : [{ path: `eligibility.locationIds[${i}]`, message: `No location ${l}.` }]));
}

/** A policy's public change event (the project's own types; company-wide): data.object the policy as the API returns it. */
const policyEvent = (type: 'time_off_policy.created' | 'time_off_policy.updated', object: ReturnType<typeof policyDto>, previous?: Record<string, unknown>) => ({
  type,
  aggregateType: 'time_off_policy',
  aggregateId: object.id,
  locationId: null,
  object,
  ...(previous ? { previous } : {}),
});

/** `POST /time-off/policies`: for an existing type (422 on `typeId`); company-wide. */
export async function createPolicy(
  w: Work,
  body: { typeId: string; name: string; accrual: PolicyTerms['accrual']; cap: string | null; carryOver: string | null; yearStart: string; eligibility: PolicyEligibility },
) {
  assertCompanyWide(w.reach(), 'Time-off policies');
  const { em } = w;
  const errors = [...((await em.findOne(TimeOffType, { id: body.typeId })) ? [] : [{ path: 'typeId', message: `No time-off type ${body.typeId}.` }]), ...(await eligibilityErrors(w, body.eligibility))];
  if (errors.length > 0) throw new ValidationError(errors);
  const at = w.now;
  const p = em.create(TimeOffPolicy, {
    id: newId('timeOffPolicy'),
    typeId: body.typeId,
    name: body.name,
    accrual: plainAccrual(body.accrual),
    cap: plainHours(body.cap),
    carryOver: plainHours(body.carryOver),
    yearStart: body.yearStart,
    eligibility: body.eligibility,
    effectiveFrom: null,
    history: [],
    version: 1,
    createdAt: at,
    updatedAt: at,
  });
  await em.flush();
  const object = policyDto(p);
  w.emit(policyEvent('time_off_policy.created', object));
  return object;
}

/**
 * `PATCH /time-off/policies/{id}` (spec: balances recalculated from the change date): new accrual
 * terms apply from today in the company's time zone; the terms they replace are kept in `history`
 * with the dates they were in force, so balances before today replay under them. A second change the
 * same day replaces that day's terms. Name and eligibility simply change.
 */
export async function updatePolicy(
  w: Work,
  id: string,
  patch: { name?: string; accrual?: PolicyTerms['accrual']; cap?: string | null; carryOver?: string | null; yearStart?: string; eligibility?: PolicyEligibility },
  timezone: () => Promise<string>,
) {
  assertCompanyWide(w.reach(), 'Time-off policies');
  if (patch.eligibility) {
    const errors = await eligibilityErrors(w, patch.eligibility);
    if (errors.length > 0) throw new ValidationError(errors);
  }
  const { em } = w;
  const p = await em.findOne(TimeOffPolicy, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
  if (!p) throw new NotFound('time-off policy', id);
  w.checkVersion(p.version);
  const before = currentTerms(p);
  const after: PolicyTerms = {
    accrual: patch.accrual ? plainAccrual(patch.accrual) : before.accrual,
    cap: patch.cap !== undefined ? plainHours(patch.cap) : before.cap,
    carryOver: patch.carryOver !== undefined ? plainHours(patch.carryOver) : before.carryOver,
    yearStart: patch.yearStart ?? before.yearStart,
  };
  const termsChanged = JSON.stringify(after) !== JSON.stringify(before);
  const nameChanged = patch.name !== undefined && patch.name !== p.name;
  const eligibilityChanged = patch.eligibility !== undefined && JSON.stringify(patch.eligibility) !== JSON.stringify(p.eligibility);
  if (!termsChanged && !nameChanged && !eligibilityChanged) return policyDto(p);
  const previous = policyDto(p);
  const at = w.now;
  if (termsChanged) {
    const today = localDateOf(at, await timezone());
    if (p.effectiveFrom !== today) {
      p.history = [...p.history, { effectiveFrom: p.effectiveFrom ?? null, effectiveTo: previousDay(today), terms: before }];
      p.effectiveFrom = today;
    }
    Object.assign(p, { accrual: after.accrual, cap: after.cap, carryOver: after.carryOver, yearStart: after.yearStart });
  }
  if (patch.name !== undefined) p.name = patch.name;
  if (patch.eligibility !== undefined) p.eligibility = patch.eligibility;
  p.version += 1;
  p.updatedAt = at;
  await em.flush();
  const object = policyDto(p);
  w.emit(policyEvent('time_off_policy.updated', object, changedFields(previous, object)));
  return object;
}

/** A policy's accrual terms over time, oldest first, for the balance replay. */
export function termsVersions(p: TimeOffPolicy): TermsVersion[] {
  return [...p.history.map((h) => ({ effectiveFrom: h.effectiveFrom, terms: h.terms })), { effectiveFrom: p.effectiveFrom ?? null, terms: currentTerms(p) }];
}
