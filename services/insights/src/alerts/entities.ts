import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

type ActorShape = { type: 'user' | 'integration' | 'system' | 'employee'; id: string | null };

/** An alert rule: a KPI over a window of business days, a scope, a comparison. */
export const AlertRuleEntity = defineEntity({
  name: 'AlertRuleEntity',
  tableName: 'alert_rules',
  properties: {
    id: p.string().primary(),
    name: p.string(),
    kpi: p.string(),
    scopeLocationIds: p.json<string[]>().nullable(),
    orgUnitId: p.string().nullable(),
    evaluate: p.string(),
    operator: p.string(),
    threshold: p.string(),
    against: p.string(),
    windowKind: p.string(),
    windowDays: p.integer().nullable(),
    status: p.string(),
    version: p.integer(),
    createdBy: p.json<ActorShape>(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
    archivedAt: p.datetime().nullable(),
  },
});
export type AlertRuleEntity = InferEntity<typeof AlertRuleEntity>;

/** A location a rule watches, with the rule's KPI (the consumers find the rules to mark by location and KPI). */
export const AlertRuleLocation = defineEntity({
  name: 'AlertRuleLocation',
  tableName: 'alert_rule_locations',
  properties: {
    ruleId: p.string().primary(),
    locationId: p.string().primary(),
    kpi: p.string(),
    /** the state it moves: the location (`each_location`) or `*` (`whole_scope`) */
    locationKey: p.string(),
    /** false once the rule is archived (kept: it says which locations its firings counted, for reach) */
    active: p.boolean(),
  },
});
export type AlertRuleLocation = InferEntity<typeof AlertRuleLocation>;

/** Whether a rule's condition holds at a location (`*`: its whole scope), and when its window next rolls over. */
export const AlertState = defineEntity({
  name: 'AlertState',
  tableName: 'alert_states',
  properties: {
    ruleId: p.string().primary(),
    locationKey: p.string().primary(),
    firing: p.boolean(),
    since: p.datetime().nullable(),
    windowFrom: p.string().columnType('date').nullable(),
    windowTo: p.string().columnType('date').nullable(),
    rollsOverAt: p.datetime().nullable(),
    evaluatedAt: p.datetime(),
  },
});
export type AlertState = InferEntity<typeof AlertState>;

/** A (rule, location) pair whose KPI moved: evaluated by the next round of the alert worker, once however often it was marked. */
export const AlertDirty = defineEntity({
  name: 'AlertDirty',
  tableName: 'alert_dirty',
  properties: {
    ruleId: p.string().primary(),
    locationKey: p.string().primary(),
    markedAt: p.datetime(),
  },
});
export type AlertDirty = InferEntity<typeof AlertDirty>;

/** One firing of a rule (`GET /alerts`). */
export const AlertEntity = defineEntity({
  name: 'AlertEntity',
  tableName: 'alerts',
  properties: {
    id: p.string().primary(),
    ruleId: p.string(),
    ruleName: p.string(),
    kpi: p.string(),
    locationId: p.string().nullable(),
    locationIds: p.json<string[]>(),
    operator: p.string(),
    against: p.string(),
    value: p.string(),
    threshold: p.string(),
    kpiValue: p.string(),
    baseValue: p.string().nullable(),
    windowFrom: p.string().columnType('date'),
    windowTo: p.string().columnType('date'),
    triggeredAt: p.datetime(),
  },
});
export type AlertEntity = InferEntity<typeof AlertEntity>;
