import { fmtQuantity } from '@bop/shared';
import type { MaintenancePlan } from './entities';
import { planDueState, type DueState, type MeterNow } from './due-rules';

const iso = (d: Date | null | undefined) => (d ? new Date(d).toISOString() : null);

/** A maintenance plan on the wire; `meter` is the asset's meter as last read (for a meter plan's threshold as a meter value). */
export function planDto(plan: MaintenancePlan, meter: MeterNow | null) {
  const byMeter = plan.intervalDays == null;
  const state = byMeter ? planDueState(plan, '1970-01-01', meter) : null;
  return {
    id: plan.id,
    assetId: plan.assetId,
    locationId: plan.locationId,
    name: plan.name,
    description: plan.description ?? null,
    basis: byMeter ? ('meter' as const) : ('date' as const),
    intervalDays: plan.intervalDays ?? null,
    meter: plan.meter ?? null,
    intervalUnits: plan.intervalUnits === null || plan.intervalUnits === undefined ? null : fmtQuantity(plan.intervalUnits),
    nextDueDate: plan.nextDueDate ?? null,
    nextDueValue: state && state.basis === 'meter' ? state.dueAtValue : null,
    checklistFormId: plan.checklistFormId ?? null,
    createsWorkOrder: plan.createsWorkOrder,
    active: plan.active,
    lastDoneAt: iso(plan.lastDoneAt),
    version: plan.version,
    createdAt: iso(plan.createdAt)!,
    updatedAt: iso(plan.updatedAt)!,
  };
}

/** A `GET /maintenance-due` entry, also the `data.object` of `maintenance.due`. */
export function dueDto(plan: MaintenancePlan, asset: { id: string; name: string; locationId: string }, state: DueState, openWorkOrderId: string | null) {
  return {
    planId: plan.id,
    planName: plan.name,
    assetId: asset.id,
    assetName: asset.name,
    locationId: asset.locationId,
    basis: state.basis,
    nextDueDate: state.basis === 'date' ? state.nextDueDate : null,
    daysOverdue: state.basis === 'date' ? state.daysOverdue : null,
    meter: state.basis === 'meter' ? state.meter : null,
    currentValue: state.basis === 'meter' ? state.currentValue : null,
    dueAtValue: state.basis === 'meter' ? state.dueAtValue : null,
    due: state.due,
    overdue: state.overdue,
    reason: state.reason,
    checklistFormId: plan.checklistFormId ?? null,
    openWorkOrderId,
  };
}
