import Decimal from 'decimal.js';
import type { PolicyTerms, TimeOffPolicy, TimeOffRequest, TimeOffType } from './entities';

const iso = (d: Date | null | undefined) => (d ? new Date(d).toISOString() : null);
/** A stored numeric as a plain decimal string without trailing zeros ("8.0000" → "8"). */
export const hoursText = (v: string | number): string => {
  const d = new Decimal(v);
  return d.isZero() ? '0' : d.toFixed();
};
const hoursOrNull = (v: string | null | undefined) => (v === null || v === undefined ? null : hoursText(v));

export function typeDto(t: TimeOffType) {
  return {
    id: t.id,
    name: t.name,
    paid: t.paid,
    allowNegativeBalance: t.allowNegativeBalance,
    hoursPerDay: hoursText(t.hoursPerDay),
    version: t.version,
    createdAt: iso(t.createdAt)!,
    updatedAt: iso(t.updatedAt)!,
  };
}

/** The current accrual terms of a policy. */
export function currentTerms(p: Pick<TimeOffPolicy, 'accrual' | 'cap' | 'carryOver' | 'yearStart'>): PolicyTerms {
  return { accrual: p.accrual, cap: hoursOrNull(p.cap), carryOver: hoursOrNull(p.carryOver), yearStart: p.yearStart };
}

export function policyDto(p: TimeOffPolicy) {
  return {
    id: p.id,
    typeId: p.typeId,
    name: p.name,
    ...currentTerms(p),
    eligibility: p.eligibility,
    effectiveFrom: p.effectiveFrom ?? null,
    history: p.history,
    version: p.version,
    createdAt: iso(p.createdAt)!,
    updatedAt: iso(p.updatedAt)!,
  };
}

export function requestDto(r: TimeOffRequest) {
  return {
    id: r.id,
    employeeId: r.employeeId,
    typeId: r.typeId,
    locationId: r.locationId,
    startDate: r.startDate,
    endDate: r.endDate,
    partialHours: hoursOrNull(r.partialHours),
    hours: hoursText(r.hours),
    note: r.note ?? null,
    status: r.status,
    requestedBy: r.requestedBy as never,
    decidedAt: iso(r.decidedAt),
    decidedBy: (r.decidedBy ?? null) as never,
    rejectionReason: r.rejectionReason ?? null,
    cancelledAt: iso(r.cancelledAt),
    version: r.version,
    createdAt: iso(r.createdAt)!,
    updatedAt: iso(r.updatedAt)!,
  };
}
