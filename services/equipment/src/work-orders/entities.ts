import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

type Actor = { type: string; id: string | null };
export type WorkOrderStatus = 'open' | 'in_progress' | 'closed' | 'cancelled';
export type WorkOrderPriority = 'low' | 'medium' | 'high' | 'urgent';
export interface PartLine {
  name: string;
  quantity: string;
  unitCost: string | null;
}
export interface SensorAlarmRef {
  id: string;
  sensorId: string;
  sensorName: string;
  value: string;
  unit: string | null;
  min: string | null;
  max: string | null;
  outOfRangeSince: string;
}

/** Work on an asset or at a location: reported by hand, raised by a maintenance plan or by a sensor alarm. */
export const WorkOrder = defineEntity({
  name: 'WorkOrder',
  tableName: 'work_orders',
  properties: {
    id: p.string().primary(),
    title: p.string(),
    description: p.string().nullable(),
    status: p.string().$type<WorkOrderStatus>(),
    priority: p.string().$type<WorkOrderPriority>(),
    assetId: p.string().nullable(),
    locationId: p.string(),
    source: p.string().$type<'manual' | 'maintenance_plan' | 'sensor_alarm'>(),
    maintenancePlanId: p.string().nullable(),
    sensorAlarmId: p.string().nullable(),
    sensorAlarm: p.json<SensorAlarmRef>().nullable(),
    assigneeEmployeeId: p.string().nullable(),
    vendor: p.string().nullable(),
    dueDate: p.string().columnType('date').nullable(),
    notes: p.string().nullable(),
    resolution: p.string().nullable(),
    cancelReason: p.string().nullable(),
    cost: p.decimal('string').nullable(),
    parts: p.json<PartLine[]>(),
    startedAt: p.datetime().nullable(),
    closedAt: p.datetime().nullable(),
    createdBy: p.json<Actor>(),
    version: p.integer(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});
export type WorkOrder = InferEntity<typeof WorkOrder>;

/** One change to a work order: who, when, what (field, from, to). */
export const WorkOrderEntry = defineEntity({
  name: 'WorkOrderEntry',
  tableName: 'work_order_history',
  properties: {
    id: p.string().primary(),
    workOrderId: p.string(),
    at: p.datetime(),
    actor: p.json<Actor>(),
    action: p.string(),
    changes: p.json<Array<{ field: string; from: unknown; to: unknown }>>(),
    note: p.string().nullable(),
  },
});
export type WorkOrderEntry = InferEntity<typeof WorkOrderEntry>;
