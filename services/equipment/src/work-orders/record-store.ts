import { actorOf, changedFields, newId, type Work } from '@bop/shared';
import { WorkOrder, WorkOrderEntry, type SensorAlarmRef, type WorkOrderPriority } from './entities';
import { workOrderDto, type WorkOrderDto } from './dto';

/** What a new work order is made of; the rest starts empty (open, no resolution, no parts). */
export interface NewWorkOrder {
  title: string;
  description: string | null;
  priority: WorkOrderPriority;
  assetId: string | null;
  locationId: string;
  source: 'manual' | 'maintenance_plan' | 'sensor_alarm';
  maintenancePlanId: string | null;
  sensorAlarm: SensorAlarmRef | null;
  assigneeEmployeeId: string | null;
  vendor: string | null;
  dueDate: string | null;
  notes: string | null;
}

/** One entry of a work order's history: the fields that changed between two views. */
export function recordHistory(w: Work, workOrderId: string, action: string, before: WorkOrderDto | null, after: WorkOrderDto, note: string | null = null): void {
  const previous = before ? changedFields(before, after, ['version', 'updatedAt', 'partsCost']) : {};
  const changes = Object.keys(previous).map((field) => ({ field, from: (before as Record<string, unknown>)[field] ?? null, to: (after as Record<string, unknown>)[field] ?? null }));
  w.em.create(WorkOrderEntry, { id: newId('workOrderEntry'), workOrderId, at: w.now, actor: actorOf(w.actor), action, changes, note });
}

/** The work order's event (spec mapping: work_order.created / updated / closed), in the same transaction. */
export function recordWorkOrderEvent(w: Work, type: 'work_order.created' | 'work_order.updated' | 'work_order.closed', after: WorkOrderDto, before?: WorkOrderDto): void {
  w.emit({
    type,
    aggregateType: 'work_order',
    aggregateId: after.id,
    locationId: after.locationId,
    object: after,
    previous: before ? changedFields(before, after) : undefined,
  });
}

/** Opens a work order: the row, its first history entry and `work_order.created`. */
export function openWorkOrder(w: Work, fields: NewWorkOrder): WorkOrder {
  const at = w.now;
  const order = w.em.create(WorkOrder, {
    ...fields,
    id: newId('workOrder'),
    status: 'open',
    sensorAlarmId: fields.sensorAlarm?.id ?? null,
    resolution: null,
    cancelReason: null,
    cost: null,
    parts: [],
    startedAt: null,
    closedAt: null,
    createdBy: actorOf(w.actor),
    version: 1,
    createdAt: at,
    updatedAt: at,
  });
  const dto = workOrderDto(order);
  recordHistory(w, order.id, 'created', null, dto);
  recordWorkOrderEvent(w, 'work_order.created', dto);
  return order;
}
