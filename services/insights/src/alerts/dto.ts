import type { AlertEntity, AlertRuleEntity, AlertState } from './entities';

const iso = (d: Date | string | null | undefined) => (d ? new Date(d).toISOString() : null);
const day = (d: string | Date) => (typeof d === 'string' ? d.slice(0, 10) : d.toISOString().slice(0, 10));

/** A firing on the wire (`GET /alerts`, and `alert.triggered`'s object). */
export function alertDto(a: AlertEntity) {
  return {
    id: a.id,
    ruleId: a.ruleId,
    ruleName: a.ruleName,
    kpi: a.kpi,
    locationId: a.locationId ?? null,
    locationIds: a.locationIds,
    operator: a.operator,
    against: a.against,
    value: a.value,
    threshold: a.threshold,
    kpiValue: a.kpiValue,
    baseValue: a.baseValue ?? null,
    from: day(a.windowFrom),
    to: day(a.windowTo),
    triggeredAt: iso(a.triggeredAt)!,
  };
}

/** A rule on the wire, with the locations it watches and where it is firing now. */
export function ruleDto(r: AlertRuleEntity, locationIds: string[], states: AlertState[]) {
  return {
    id: r.id,
    name: r.name,
    kpi: r.kpi,
    scope: { locationIds: r.scopeLocationIds ?? null, orgUnitId: r.orgUnitId ?? null, evaluate: r.evaluate },
    locationIds,
    comparison: { operator: r.operator, threshold: r.threshold, against: r.against },
    window: { kind: r.windowKind, days: r.windowDays ?? null },
    status: r.status,
    firing: states
      .filter((s) => s.firing)
      .map((s) => ({ locationId: s.locationKey === '*' ? null : s.locationKey, since: iso(s.since)! }))
      .sort((a, b) => (a.locationId ?? '').localeCompare(b.locationId ?? '')),
    version: r.version,
    createdBy: r.createdBy,
    createdAt: iso(r.createdAt)!,
    updatedAt: iso(r.updatedAt)!,
    archivedAt: iso(r.archivedAt),
  };
}
