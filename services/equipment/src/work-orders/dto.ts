import Decimal from 'decimal.js';
import { fmtAmount, fmtQuantity } from '@bop/shared';
import type { WorkOrder, WorkOrderEntry } from './entities';

const iso = (d: Date | null | undefined) => (d ? new Date(d).toISOString() : null);

/** A work order on the wire (and in its events). */
export function workOrderDto(w: WorkOrder) {
  const parts = (w.parts ?? []).map((l) => ({
    name: l.name,
    quantity: fmtQuantity(l.quantity),
    unitCost: l.unitCost === null ? null : fmtQuantity(l.unitCost),
    lineCost: l.unitCost === null ? null : fmtAmount(new Decimal(l.quantity).times(l.unitCost)),
  }));
  const priced = parts.filter((l) => l.lineCost !== null);
  return {
    id: w.id,
    title: w.title,
    description: w.description ?? null,
    status: w.status,
    priority: w.priority,
    assetId: w.assetId ?? null,
    locationId: w.locationId,
    source: w.source,
    maintenancePlanId: w.maintenancePlanId ?? null,
    sensorAlarm: w.sensorAlarm ?? null,
    assigneeEmployeeId: w.assigneeEmployeeId ?? null,
    vendor: w.vendor ?? null,
    dueDate: w.dueDate ?? null,
    notes: w.notes ?? null,
    resolution: w.resolution ?? null,
    cancelReason: w.cancelReason ?? null,
    cost: w.cost === null || w.cost === undefined ? null : fmtAmount(w.cost),
    parts,
    partsCost: priced.length === 0 ? null : fmtAmount(priced.reduce((sum, l) => sum.plus(l.lineCost!), new Decimal(0))),
    startedAt: iso(w.startedAt),
    closedAt: iso(w.closedAt),
    createdBy: w.createdBy as { type: 'user' | 'integration' | 'system' | 'employee'; id: string | null },
    version: w.version,
    createdAt: iso(w.createdAt)!,
    updatedAt: iso(w.updatedAt)!,
  };
}
export type WorkOrderDto = ReturnType<typeof workOrderDto>;

export function historyEntryDto(e: WorkOrderEntry) {
  return { at: iso(e.at)!, actor: e.actor, action: e.action, changes: e.changes, note: e.note ?? null };
}
