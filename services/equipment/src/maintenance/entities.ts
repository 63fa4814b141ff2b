import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import type { MeterKind } from '@bop/contracts';

type Actor = { type: string; id: string | null };

/**
 * A maintenance plan of an asset: by days (`intervalDays`, `nextDueDate`) or by a meter
 * (`meter`, `intervalUnits`, `nextDueTotal` on the meter's lifetime total). `cycle` counts the times
 * it was done, so an occurrence is known by its cycle and due point.
 */
export const MaintenancePlan = defineEntity({
  name: 'MaintenancePlan',
  tableName: 'maintenance_plans',
  properties: {
    id: p.string().primary(),
    assetId: p.string(),
    locationId: p.string(),
    name: p.string(),
    description: p.string().nullable(),
    intervalDays: p.integer().nullable(),
    meter: p.string().$type<MeterKind>().nullable(),
    intervalUnits: p.decimal('string').nullable(),
    nextDueDate: p.string().columnType('date').nullable(),
    nextDueTotal: p.decimal('string').nullable(),
    cycle: p.integer(),
    checklistFormId: p.string().nullable(),
    createsWorkOrder: p.boolean(),
    active: p.boolean(),
    lastDoneAt: p.datetime().nullable(),
    version: p.integer(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});
export type MaintenancePlan = InferEntity<typeof MaintenancePlan>;

/** A plan came due (announced once with `maintenance.due`; its work order, when the plan makes one). */
export const MaintenanceOccurrence = defineEntity({
  name: 'MaintenanceOccurrence',
  tableName: 'maintenance_occurrences',
  properties: {
    id: p.string().primary(),
    planId: p.string(),
    occurrenceKey: p.string(),
    due: p.json<Record<string, unknown>>(),
    workOrderId: p.string().nullable(),
    createdAt: p.datetime(),
    createdBy: p.json<Actor>(),
  },
});
export type MaintenanceOccurrence = InferEntity<typeof MaintenanceOccurrence>;
